"""The lexer's compiled regular expressions, kept in the cache folder between processes.

Lark's contextual lexer compiles one scanner per parser state it meets: an alternation of
every terminal that state accepts, most of them Chinese keyword classes.  A cold process
meets some twenty states on a short log and ``re.compile`` costs it ~25 ms, four times the
whole warm parse.  A compiled pattern cannot be pickled (pickling keeps only its source),
but what ``re`` compiles it to can: the parsed pattern's SRE code, its groups and flags,
which ``_sre.compile`` turns back into the very same pattern object at no cost.

``Store`` stands in for the ``re`` module in Lark's lexers (the ``re_module`` they call
``compile`` and ``match`` on).  A pattern it has stored code for is rebuilt from it; any
other is compiled by ``re`` as usual and its code is kept, once the code is seen to give a
pattern equal to ``re.compile``'s (same flags, same code), to be written back after the
parse.  The entry is named by the grammar, Lark's and Python's versions and SRE's magic
number, so another interpreter simply misses; a damaged entry, or code ``_sre`` refuses,
means compiling as before, never a failed read.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]
import pickle
import re
import threading
from re import _compiler, _parser  # type: ignore[attr-defined]

from adjudicator import cache as disk

# What _sre.compile takes after the pattern: flags, code, groups, groupindex, indexgroup.
Parts = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
Key = tuple[str, int]


def _parts(pattern: str, flags: int) -> Parts | None:
    """What ``re.compile(pattern, flags)`` hands to ``_sre.compile`` (re/_compiler.py)."""
    try:
        parsed = _parser.parse(pattern, flags)
        # Plain ints: re's opcodes are named int constants that refuse to be pickled.
        code = [int(word) for word in _compiler._code(parsed, flags)]
        state = parsed.state
        indexgroup: list[str | None] = [None] * state.groups
        for name, index in state.groupdict.items():
            indexgroup[index] = name
        return (flags | state.flags, code, state.groups - 1, dict(state.groupdict),
                tuple(indexgroup))
    except Exception:  # noqa: BLE001 - another Python's internals: just don't store it
        return None


def _rebuilt(pattern: str, parts: Parts) -> re.Pattern[str] | None:
    try:
        return _sre.compile(pattern, *parts)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - damaged or foreign code: compile it instead
        return None


class Store:
    """A stand-in for ``re`` that rebuilds stored patterns and stores the ones it compiles."""

    error = re.error

    def __init__(self, name: str) -> None:
        self.name = name  # the cache entry
        self.stored: dict[Key, Parts] = self._load()
        self.new: dict[Key, Parts] = {}
        self.patterns: dict[Key, re.Pattern[str]] = {}
        # The desk reads logs in several threads at once: what is new is kept under a lock,
        # so a save never walks it while another thread adds to it.
        self._lock = threading.Lock()

    def _load(self) -> dict[Key, Parts]:
        where = disk.path(self.name)
        if where is None:
            return {}
        try:
            data = pickle.loads(where.read_bytes())
        except Exception:  # noqa: BLE001 - missing, cut short or not a pickle at all
            return {}
        return data if isinstance(data, dict) else {}

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        key = (pattern, flags)
        found = self.patterns.get(key)
        if found is not None:
            return found
        parts = self.stored.get(key)
        found = _rebuilt(pattern, parts) if parts is not None else None
        if found is None:
            found = re.compile(pattern, flags)
            parts = _parts(pattern, flags)
            if parts is not None and _rebuilt(pattern, parts) == found:
                with self._lock:
                    self.new[key] = parts
        self.patterns[key] = found
        return found

    def match(self, pattern: str, string: str, flags: int = 0) -> re.Match[str] | None:
        return self.compile(pattern, flags).match(string)

    def save(self) -> None:
        """Write what was compiled since the last save (with what was stored) back."""
        if not self.new:
            return
        with self._lock:
            self.stored = {**self.stored, **self.new}
            self.new = {}
            data = pickle.dumps(self.stored, protocol=pickle.HIGHEST_PROTOCOL)
        disk.write_bytes(self.name, data)


def entry_name(*made_from: str) -> str:
    """The cache entry of the patterns of a grammar (``made_from``: its text, versions)."""
    return f"scanners-{disk.key(*made_from, str(_sre.MAGIC), str(_sre.CODESIZE))}.pickle"
