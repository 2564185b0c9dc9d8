"""What a batch judges: files, folders, globs and JSON Lines, expanded into named items.

A folder yields its ``*.log``, ``*.case``, ``*.json`` and ``*.match`` files (recursively,
sorted; a ``.match`` is judged whole, hand after hand: batch/matches.py); a
pattern with ``*``, ``?`` or ``[`` is a glob; a ``*.jsonl`` file yields one item a line:
either ``{"name": …, "log": "text"}`` or a JSON log itself (language/json_form.py).  An
item that cannot be read carries its error instead of a text, so it becomes an error line
of the output rather than stopping the run.
"""

from __future__ import annotations

import glob
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from adjudicator.language.json_form import JsonError, UnknownField, load

_WRAPPER = ("name", "log")  # a JSONL line's fields when the log is its text

LOG_SUFFIXES = (".log", ".case", ".json", ".match")


@dataclass(frozen=True)
class Item:
    name: str  # the source name each output line carries (unique in a run)
    text: str | None  # the log: text language or a JSON log
    error: str | None = None  # why it could not even be read


def expand(paths: Iterable[str]) -> Iterator[Item]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in LOG_SUFFIXES and p.is_file())
            for p in found:
                yield _file(p)
        elif not path.exists() and any(ch in raw for ch in "*?["):
            for match in sorted(glob.glob(raw, recursive=True)):
                p = Path(match)
                if p.is_file():
                    yield from (_jsonl(p) if p.suffix == ".jsonl" else [_file(p)])
        elif path.suffix == ".jsonl" and path.is_file():
            yield from _jsonl(path)
        else:
            yield _file(path)


def _file(path: Path) -> Item:
    from adjudicator.language.errors import LogError
    from adjudicator.language.reader import decode

    try:
        return Item(str(path), decode(path.read_bytes()))
    except FileNotFoundError:
        return Item(str(path), None, "沒有這個檔案")
    except LogError as err:  # not UTF-8: that file's error line, and the run goes on
        return Item(str(path), None, str(err))
    except (OSError, ValueError) as err:
        return Item(str(path), None, f"讀不到：{err}")


def _jsonl(path: Path) -> Iterator[Item]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        yield Item(str(path), None, f"讀不到：{err}")
        return
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = load(line)
        except JsonError as err:  # too deep, a lone surrogate …: that line, not the run
            yield Item(where, None, f"第 {err.column} 字：{err.reason}")
            continue
        if isinstance(data, dict) and "log" in data:
            name = str(data.get("name") or where)
            extra = [key for key in data if key not in _WRAPPER]
            if extra:
                yield Item(name, None, str(UnknownField("", extra[0], list(_WRAPPER))))
            elif not isinstance(data["log"], str):
                yield Item(name, None, "log 應是紀錄全文（字串）")
            else:
                yield Item(name, data["log"])
        elif isinstance(data, dict):
            yield Item(str(data.get("name") or where), line)
        else:
            yield Item(where, None, "每行應是一個 JSON 物件")
