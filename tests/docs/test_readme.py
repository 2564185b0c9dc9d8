"""The README stays true: its example is the shipped log and the ruling it shows is what
``judge`` prints for it, its links lead to files that exist, and its second command is
the one CI runs."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from rich.console import Console

from adjudicator.language.reader import read
from adjudicator.report.text import render
from adjudicator.ruling.judge import judge

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "wrong-pung-priority.log"


def _block(kind: str) -> str:
    found = re.search(rf"^```{kind}\n(.*?)^```", README, re.S | re.M)
    assert found, f"the README has no ```{kind} block"
    return found.group(1)


def test_the_readmes_example_is_the_shipped_log() -> None:
    assert _block("紀錄") == EXAMPLE.read_text(encoding="utf-8")
    assert f"judge {EXAMPLE.relative_to(ROOT)}" in _block("sh")


def test_the_ruling_it_shows_is_what_judge_prints() -> None:
    incident = read(EXAMPLE.read_text(encoding="utf-8"))
    out = StringIO()
    render(judge(incident), Console(file=out, width=100, no_color=True), incident)
    printed = out.getvalue()
    for line in _block("裁決").splitlines():
        assert line in printed, line


def test_every_link_leads_to_a_file() -> None:
    links = re.findall(r"\]\(([^)]+)\)", README)
    assert len(links) >= 10
    for link in links:
        assert (ROOT / link).is_file(), link


def test_ci_runs_the_second_command() -> None:
    second = _block("sh").splitlines()[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second.replace(".venv/bin/python -m pytest", "") in ci
