"""The methods ``@dataclass`` writes, compiled once and kept in the cache folder.

For each class, ``dataclasses`` writes the methods it adds (``__init__``, ``__repr__``,
``__eq__``; for a frozen class also ``__hash__``, ``__setattr__``, ``__delattr__``) as
Python source and compiles it with ``exec``: some 0.7 M instructions a method.  The modules
a judgement imports make some 320 of them, some 220 M instructions: a fifth of a cold
``adjudicator judge``.  What the compiler makes of a text depends only on the text and
the interpreter, so ``kept()`` has ``dataclasses`` run the code objects compiled by an
earlier process, kept (marshal) under the interpreter's version and bytecode magic, and
compiles only a text it has not seen.  The methods are the same code, made the same way:
only the compiling is skipped.  Like the lexer's pickle (language/regex_store.py), the
entry is code this process runs: cache.py uses only a folder that is the user's own.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import marshal
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

from adjudicator import cache as disk

# Some 320 methods for a judgement, a few hundred more for the other commands.
LIMIT = 4000


def _entry(kind: str) -> str:
    return f"dataclass-code-{disk.key(importlib.util.MAGIC_NUMBER, kind)}.marshal"


def _load(name: str) -> dict[str, CodeType]:
    where = disk.path(name)
    if where is None:
        return {}
    try:
        data = marshal.loads(where.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, CodeType)}


class _Exec:
    """``exec`` as ``dataclasses`` calls it: a text is compiled as ``exec`` itself would
    compile it there (file "<string>", no ``__future__`` flags of this module's), unless a
    code object of the very same text is known."""

    def __init__(self, known: dict[str, CodeType]) -> None:
        self.known = known
        self.used: dict[str, CodeType] = {}
        self.new = False

    def __call__(self, source: Any, globals_: Any = None, locals_: Any = None, /) -> None:
        if isinstance(source, str):
            code = self.known.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.known[source] = code
                self.new = True
            self.used[source] = code
            source = code
        exec(source, globals_, locals_)  # noqa: S102 - dataclasses' own call, as it made it


@contextmanager
def kept(kind: str = "") -> Iterator[None]:
    """Within: dataclasses created reuse the kept code of their methods.  On leaving, the
    code of texts not seen before is stored (a missing or damaged entry is made again).
    ``kind`` names an entry of its own: a one-log ``judge`` then unmarshals only the
    methods of its own modules, not the other commands' (twice as many)."""
    if "exec" in vars(dataclasses):  # someone else's stand-in: leave it alone
        yield
        return
    name = _entry(kind)
    runner = _Exec(_load(name))
    dataclasses.exec = runner  # type: ignore[attr-defined]
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
        if runner.new:
            # Each command adds the methods of its own modules; should anything make new
            # texts run after run, the entry starts again from this run's, not grow on.
            kept_ = runner.known if len(runner.known) <= LIMIT else runner.used
            disk.write_bytes(name, marshal.dumps(kept_))
