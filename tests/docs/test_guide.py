"""docs/指南.md cannot drift from the program: every worked log in it is judged here and
its 期望 checked, one test per log, and every kind of dispute the guide promises has one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.analysis.warnings import START_TERMS
from adjudicator.committee.cases import check_expectations
from adjudicator.language.reader import read
from adjudicator.ruling.judge import judge

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "指南.md"
KINDS = ("詐和", "相公", "錯碰", "錯杠", "錯打明牌", "眼牌", "過水", "禁制", "優先", "包賠",
         "代位賠付", "插花", "花和")

_BLOCK = re.compile(r"^```(\S*)\n(.*?)^```", re.S | re.M)
_HEADING = re.compile(r"^### (\S+)", re.M)


def worked_logs() -> list[tuple[str, str, str]]:
    """(heading, log, expectations) for each ```紀錄 block and the ```期望 block after it."""
    text = GUIDE.read_text("utf-8")
    found = []
    blocks = list(_BLOCK.finditer(text))
    for block, after in zip(blocks, [*blocks[1:], None], strict=True):
        if block.group(1) != "紀錄":
            continue
        assert after is not None and after.group(1) == "期望", \
            f"the log at offset {block.start()} has no ```期望 block right after it"
        assert text[block.end():after.start()].strip() == "", "期望 must follow its log"
        headings = _HEADING.findall(text[:block.start()])
        found.append((headings[-1] if headings else "", block.group(2), after.group(2)))
    return found


LOGS = worked_logs()


def test_every_kind_of_dispute_has_a_worked_log() -> None:
    assert sorted({heading for heading, _, _ in LOGS}) == sorted(KINDS)


@pytest.mark.parametrize(("heading", "log", "expected"), LOGS, ids=[h for h, _, _ in LOGS])
def test_the_guides_log_is_judged_as_it_says(heading: str, log: str, expected: str) -> None:
    incident = read(f"{log}\n期望:\n{expected}")
    assert incident.expectations, heading
    ruling = judge(incident)
    failures = check_expectations(incident.expectations, ruling)
    assert not failures, f"{heading}:\n" + "\n".join(failures)
    # 「未載起點」 only where the ruling has the open fact the start of the record answers.
    asks = any(u.term.startswith(START_TERMS) for u in ruling.uncertain)
    assert any("未載起點" in w.message for w in ruling.warnings) == asks, heading


def test_the_readme_links_the_guide_at_the_top() -> None:
    readme = (GUIDE.parents[1] / "README.md").read_text("utf-8")
    assert "docs/指南.md" in "\n".join(readme.splitlines()[:6])


MCR = GUIDE.parent / "mcr.md"


def test_the_commands_of_the_mcr_page_run() -> None:
    # docs/mcr.md's ```sh block: each `adjudicator score` line runs as written (exit 0 or 1:
    # scored; 2 would be a refused option).
    import shlex

    from typer.testing import CliRunner

    from adjudicator.cli.commands import app

    block = next(m.group(2) for m in _BLOCK.finditer(MCR.read_text("utf-8"))
                 if m.group(1) == "sh")
    lines = [x for x in block.splitlines() if x.startswith("adjudicator score")]
    assert lines
    for line in lines:
        result = CliRunner().invoke(app, shlex.split(line)[1:])
        assert result.exit_code in (0, 1), (line, result.output)
