"""A per-user folder for what a cold start would otherwise work out again, all of it the
project's own derived data made through public APIs: the analysis of the rule files
(rules/program.py, rules/signatures.py, rules/engine.py's ``#defined``), the batch
engine's chapters with an incident argument (rules/incident_argument.py), the grammar's
LALR tables (Lark's own ``cache=``, language/reader.py) and the parsed TOML tables of
words (``read_toml``).

Every entry is named by a hash of what it was made from, so a changed rule file or a new
library version simply misses; nothing is ever invalidated in place.  The cache is only
ever a shortcut: an unreadable, corrupt or unwritable entry (or no usable folder at all)
means the work is done again, never a failed judgement.  Entries are written to a file of
their own and renamed into place, so two processes writing the same entry at once leave
one whole copy, and a reader never sees half of one.

One switch: the folder is ``$ADJUDICATOR_CACHE_DIR`` when set (empty: no cache at all),
else ``$XDG_CACHE_HOME/adjudicator`` (``~/.cache/adjudicator``).  The LALR tables and the
chapters' analyses are pickles, so the folder must be the user's own: a folder another
user could write to is not used.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

ENV = "ADJUDICATOR_CACHE_DIR"


def _candidate() -> Path | None:
    given = os.environ.get(ENV)
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "adjudicator"


def _usable(path: Path) -> bool:
    """The folder exists (made if need be), is a folder, and only its owner, this user,
    may write to it."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


@cache
def folder() -> Path | None:
    """The cache folder, or None when there is none to use (then nothing is cached)."""
    path = _candidate()
    return path if path is not None and _usable(path) else None


def key(*parts: str | bytes) -> str:
    """A hash naming an entry by everything it was made from (Python's version included:
    a pickle or a parse may differ between versions)."""
    digest = hashlib.sha256(sys.version.encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()[:40]


def path(name: str) -> Path | None:
    """Where entry ``name`` lives, or None without a cache folder."""
    where = folder()
    return None if where is None else where / name


def read_json(name: str) -> Any | None:
    """Entry ``name`` as JSON, or None when it is missing or unreadable."""
    where = path(name)
    if where is None:
        return None
    try:
        return json.loads(where.read_bytes())
    except (OSError, ValueError):
        return None


def write_json(name: str, data: Any) -> None:
    write_bytes(name, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())


def write_bytes(name: str, data: bytes) -> None:
    """Store entry ``name`` whole or not at all (an unwritable folder: not at all)."""
    where = path(name)
    if where is None:
        return
    try:
        handle, part = tempfile.mkstemp(dir=where.parent, prefix=f".{name}.", suffix=".part")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(part, where)
    except OSError:
        try:
            os.unlink(part)
        except OSError:
            pass


def read_toml(text: str) -> Any:
    """``text`` parsed as TOML.  The parse is kept as JSON under the text's hash: a cold
    start then needs neither tomllib nor the parse of the tables of words a judgement
    reads.  A table JSON cannot hold (a TOML date) is not kept."""
    name = f"toml-{key(text)}.json"
    found = read_json(name)
    if isinstance(found, dict) and isinstance(found.get("toml"), dict):
        return found["toml"]
    import tomllib

    data = tomllib.loads(text)
    try:
        write_json(name, {"toml": data})
    except (TypeError, ValueError):
        pass
    return data
