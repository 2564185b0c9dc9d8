"""The cache folder (adjudicator/cache.py) only ever saves work: what a cold start reads
back from it is what it would have worked out, and a damaged, foreign or unwritable folder
still judges, the same."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator import cache
from adjudicator.rules import engine, program, signatures
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import to_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "wrong-pung-priority.log"






def _ruling() -> str:
    return to_json(judge_text(EXAMPLE.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def expected() -> str:
    return _ruling()


def test_a_cold_start_stores_its_work_and_the_next_one_reads_it(forget: Callable[[], None],
        folder: Path, expected: str, not_worked_out: Callable[..., None]) -> None:
    assert _ruling() == expected
    kinds = {p.name.split("-")[0] for p in folder.iterdir()}
    assert kinds == {"chapter", "signatures", "declared", "lark"}
    assert not [p for p in folder.iterdir() if p.name.endswith(".part")]
    forget()
    # Read back, not worked out again: the AST walks are not reached.
    not_worked_out((program, "_analysed"), (signatures, "_parsed"))
    assert _ruling() == expected


def test_what_is_read_back_is_what_parsing_gives(forget: Callable[[], None], folder: Path) -> None:
    files = engine.chapter_files("tw16")
    made = [program.chapter(p) for p in files]
    forget()
    again = [program.chapter(p) for p in files]
    fresh = [program._analysed(p, program.parse_bytes(p.read_bytes())) for p in files]
    assert again == made == fresh
    # The rule's AST is still there for the batch engine's transform, parsed on demand.
    rule = again[0].rules[0]
    assert str(rule.statement) == rule.text


def test_damaged_entries_are_worked_out_again(forget: Callable[[], None], folder: Path,
                                              expected: str) -> None:
    _ruling()
    for entry in folder.iterdir():
        entry.write_bytes(b"\x80 not what was stored {")
    forget()
    assert _ruling() == expected
    forget()
    for entry in folder.iterdir():  # well-formed JSON or pickles of the wrong shape
        if entry.suffix == ".json":
            entry.write_text('{"rules": [[1]], "heads": 3}', encoding="utf-8")
        elif entry.name.startswith("chapter-"):
            entry.write_bytes(pickle.dumps(("#show.", [[1]])))
    assert _ruling() == expected


def test_no_usable_folder_means_no_cache(forget: Callable[[], None], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         expected: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # others could plant a pickle here
    for where in (str(blocker / "cache"), str(shared), ""):
        monkeypatch.setenv(cache.ENV, where)
        forget()
        assert cache.folder() is None
        assert _ruling() == expected
    assert list(shared.iterdir()) == []
    forget()


def test_the_default_folder_is_the_users_cache_home(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache.folder.cache_clear()
    try:
        assert cache.folder() == tmp_path / "adjudicator"
        assert (tmp_path / "adjudicator").stat().st_mode & 0o077 == 0
    finally:
        cache.folder.cache_clear()


def test_a_toml_table_is_read_back_as_parsed(folder: Path) -> None:
    text = '[words]\nfound = "{seat} 相公"\n[tables.n]\n1 = "一"\n'
    parsed = {"words": {"found": "{seat} 相公"}, "tables": {"n": {"1": "一"}}}
    assert cache.read_toml(text) == parsed
    [entry] = folder.glob("toml-*.json")
    entry.write_text('{"toml": {"words": {"found": "stored"}}}', encoding="utf-8")
    assert cache.read_toml(text) == {"words": {"found": "stored"}}  # read, not parsed
    entry.write_text('{"rules": [[1]], "heads": 3}', encoding="utf-8")  # not an entry's shape
    assert cache.read_toml(text) == parsed


def test_an_entry_is_written_whole_or_not_at_all(folder: Path) -> None:
    cache.write_bytes("entry", b"first")
    cache.write_bytes("entry", b"second")
    assert (folder / "entry").read_bytes() == b"second"
    assert [p.name for p in folder.iterdir()] == ["entry"]
    folder.rename(folder.with_name("gone"))  # the folder vanished: nothing written, no error
    cache.write_bytes("entry", b"third")
    assert cache.read_json("entry") is None


def _cli(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", "judge", str(EXAMPLE), "-f",
                           "json"], capture_output=True, text=True, encoding="utf-8",
                          env={**os.environ, **env}, cwd=ROOT, timeout=120)


def test_the_command_line_judges_the_same_cold_warm_damaged_and_without(
        tmp_path: Path, expected: str) -> None:
    where = tmp_path / "cache"
    runs = [_cli({cache.ENV: str(where)}), _cli({cache.ENV: str(where)})]
    for entry in where.iterdir():
        entry.write_bytes(entry.read_bytes()[:20])  # cut short, as by a crash mid-write
    runs += [_cli({cache.ENV: str(where)}), _cli({cache.ENV: str(EXAMPLE / "cache")}),
             _cli({cache.ENV: ""})]
    for done in runs:
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        assert done.stdout == expected + "\n"
