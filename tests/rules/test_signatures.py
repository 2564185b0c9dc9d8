"""The signatures remembered on disk are the ones clingo's parser gives."""

from __future__ import annotations

from pathlib import Path

from adjudicator.rules import signatures
from adjudicator.rules.files import all_chapters, chapters


def test_remembered_signatures_are_the_parsed_ones() -> None:
    files = sorted({*chapters(), *all_chapters()})
    signatures.of_file.cache_clear()
    first = [signatures.of_file(p) for p in files]  # parsed or read back, and stored
    signatures.of_file.cache_clear()
    again = [signatures.of_file(p) for p in files]  # read back from the temp folder
    parsed = [signatures._parsed(p) for p in files]
    assert first == again == parsed
    assert any(s.heads for s in parsed) and any(s.defined for s in parsed)


def test_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    lp = tmp_path / "chapter.lp"
    lp.write_text("a(1).\n", encoding="utf-8")
    assert signatures.of_file(lp).heads == {("a", 1)}
    lp.write_text("b(1, 2) :- c.\n", encoding="utf-8")
    signatures.of_file.cache_clear()
    found = signatures.of_file(lp)
    assert found.heads == {("b", 2)} and found.bodies == {("c", 0)}
