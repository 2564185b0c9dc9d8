"""A match as a scoring app shows it: each hand's winner, 台 and money in a line, 荒局 said
as such, each cell the hand's money with the total after it, and a PDF that ends with a
page for the referee and the players to sign (cases/matches/east_round.match, worked out
by hand in the file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli.commands import app
from adjudicator.match import report
from adjudicator.match.format import read_match
from adjudicator.match.run import judge_match

EAST = Path(__file__).resolve().parents[2] / "cases" / "matches" / "east_round.match"


def _dict() -> dict:  # type: ignore[type-arg]
    return report.to_dict(judge_match(read_match(EAST.read_text("utf-8"))))


def test_each_hand_in_a_line() -> None:
    d = _dict()
    words = {x["hand"]: report.hand_summary(x, d) for x in d["hands"]}
    assert words[1] == "阿明 和 小華 的牌 3 台；阿明 收 700，小華 付 700"
    assert words[2] == "阿明 自摸 3 台；阿明 收 2,700，小華 付 900，阿德 付 900，小美 付 900"
    assert words[3] == words[9] == "荒局，無人和牌"
    assert words[5] == "小美 自摸 3 台；小美 收 1,900，阿明 付 600，小華 付 700，阿德 付 600"


def test_the_ledger_cells_hold_the_hand_and_the_total() -> None:
    head, rows = report.ledger_rows(_dict())
    assert head[report.LEDGER_LEAD:] == ["阿明", "小華", "阿德", "小美"]
    assert rows[4][report.LEDGER_LEAD:] == ["-600（+2800）", "-700（-2300）", "-600（-900）",
                                            "+1900（+400）"]
    assert rows[-1][report.LEDGER_LEAD:] == ["+2700", "-2000", "-1100", "+400"]
    text = CliRunner().invoke(app, ["match", str(EAST)]).output
    assert "和牌：荒局，無人和牌" in text and report.LEDGER_NOTE in text


def test_the_html_ends_with_a_signature_page() -> None:
    html = report.to_html(judge_match(read_match(EAST.read_text("utf-8"))))
    sign = html[html.index('<section class="signatures">'):]
    for who in ("裁判", "阿明", "小華", "阿德", "小美"):
        assert f"<li>{who}" in sign
    assert "break-before:page" in html and 'name="viewport"' in html
    assert 'style="' not in html  # no inline style attribute (the desk's CSP forbids them)


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="no Chromium")
def test_match_prints_to_pdf(tmp_path: Path) -> None:
    from adjudicator.report.pdf import page_count

    out = tmp_path / "match.pdf"
    result = CliRunner().invoke(app, ["match", "-f", "pdf", "-o", str(out), str(EAST)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and page_count(data) >= 2
