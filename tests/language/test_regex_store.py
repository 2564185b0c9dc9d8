"""The lexer's compiled regexes kept in the cache folder (language/regex_store.py): a
pattern rebuilt from its stored code is the pattern ``re.compile`` makes, and a damaged
entry only means compiling again."""

from __future__ import annotations

import pickle
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator import cache
from adjudicator.language import reader, regex_store


def _scanner_patterns() -> list[str]:
    """The alternation of every lexer state of the grammar (what the scanners compile)."""
    lexer = reader.parser().parser.lexer
    out = []
    for basic in {id(b): b for b in (*lexer.lexers.values(), lexer.root_lexer)}.values():
        out += [mre.pattern for mre in basic.scanner._mres]
    return out


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    cache.folder.cache_clear()
    reader.parser.cache_clear()
    yield tmp_path
    monkeypatch.undo()
    cache.folder.cache_clear()
    reader.parser.cache_clear()


def test_a_stored_pattern_is_rebuilt_equal_to_what_re_compiles(folder: Path) -> None:
    patterns = _scanner_patterns()
    assert len(patterns) > 50
    made = regex_store.Store("entry")
    for p in patterns:
        made.compile(p)
    made.save()
    again = regex_store.Store("entry")
    assert set(again.stored) == {(p, 0) for p in patterns}

    def no_compiling(*_: object) -> None:
        raise AssertionError("compiled, not rebuilt")

    with pytest.MonkeyPatch.context() as m:
        m.setattr(re, "compile", no_compiling)
        rebuilt = [again.compile(p) for p in patterns]
    # Pattern equality is SRE's: the same source, flags and compiled code.
    assert rebuilt == [re.compile(p) for p in patterns]


@pytest.mark.parametrize("damage", [
    b"\x80 not a pickle {",
    pickle.dumps(["a", "list"]),
    # Code of the right shape that is not the pattern's: _sre refuses it, re compiles it.
    pickle.dumps({("[東南]", 0): (32, [1, 2, 3], 0, {}, (None,))}),
])
def test_a_damaged_entry_means_compiling_again(folder: Path, damage: bytes) -> None:
    (folder / "entry").write_bytes(damage)
    store = regex_store.Store("entry")
    assert store.compile("[東南]") == re.compile("[東南]")
    assert store.match("[東南]", "南") is not None


def test_reading_a_log_stores_the_scanners_it_compiled(folder: Path) -> None:
    log = "規則: tw16\n紀錄:\n1 東 摸\n2 東 打 三萬\n"
    first = reader.read(log)
    [entry] = folder.glob("scanners-*.pickle")
    stored = pickle.loads(entry.read_bytes())
    assert stored and all(isinstance(code, list) for _, code, *_ in stored.values())
    reader.parser.cache_clear()
    assert reader.read(log) == first


def test_threads_compiling_while_one_saves_lose_nothing(folder: Path) -> None:
    store = regex_store.Store("entry")
    patterns = [f"[東南西北]{{{n}}}x" for n in range(1, 400)]
    failures: list[BaseException] = []

    def compile_all(part: list[str]) -> None:
        try:
            for p in part:
                store.compile(p)
        except BaseException as err:  # noqa: BLE001 - reported by the assertion below
            failures.append(err)

    def save_often() -> None:
        try:
            for _ in range(200):
                store.save()
        except BaseException as err:  # noqa: BLE001
            failures.append(err)

    threads = [threading.Thread(target=compile_all, args=(patterns[i::3],)) for i in range(3)]
    threads.append(threading.Thread(target=save_often))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.save()
    assert failures == []
    assert set(regex_store.Store("entry").stored) == {(p, 0) for p in patterns}
