"""Grounding only the chapters a log can reach changes no ruling (engine.reachable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.language import reader
from adjudicator.rules import engine
from adjudicator.ruling.judge import symbols_of

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "cases").rglob("*.case"))


def _symbols(path: Path) -> tuple[list, str]:
    incident = reader.read(path.read_text(encoding="utf-8"))
    return symbols_of(incident), incident.header.profile


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reachable_chapters_judge_as_all_chapters(path: Path) -> None:
    symbols, profile = _symbols(path)
    every = engine.chapter_files(profile)
    gated = engine.solve_open(symbols, profile)
    full = engine.solve_open(symbols, profile, every)
    assert sorted(map(str, gated.atoms)) == sorted(map(str, full.atoms))
    assert sorted(map(str, gated.brave)) == sorted(map(str, full.brave))


def test_a_chapter_without_its_signal_is_left_out() -> None:
    files = engine.chapter_files("tw16")
    names = {f.name for f in engine.reachable(files, {"verb:摸", "verb:打"})}
    assert "core.lp" in names and "xianggong.lp" in names
    assert not names & {"scoring.lp", "wrong_kong.lp", "priority.lp", "substitute.lp"}
    assert "priority.lp" in {f.name for f in engine.reachable(files, {"verb:碰"})}
    assert "scoring.lp" in {f.name for f in engine.reachable(files, {"fact:scored_win"})}
