"""Issue 27's rules where a case file cannot say it: a ruling's findings name their clause
and their reason, also when what they rest on is left open."""

from __future__ import annotations

from pathlib import Path

from adjudicator.ruling.judge import judge_text

CASES = Path(__file__).resolve().parents[2] / "cases"


def test_exposed_discard_findings_cite_their_clauses_when_the_win_is_open() -> None:
    r = judge_text((CASES / "exposed_discard" / "stage_open_win.case").read_text("utf-8"))
    assert r.status == "undetermined"
    kinds = {f.kind: f for f in r.findings}
    for kind in ("錯打明牌", "強制復原"):
        assert set(kinds[kind].clauses) == {"錯打明牌.1", "錯打明牌.3"}
        assert kinds[kind].why
    assert all(f.clauses and f.why for f in r.findings)
