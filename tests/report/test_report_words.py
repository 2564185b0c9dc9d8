"""The report's words as the table reads them: the offence before what follows from it and
cited at the act (the report that made it known beside it), readings and profiles in words,
a void win without a penalty not priced, a flower win not called 自摸, a phone viewport."""

from __future__ import annotations

from adjudicator.language import reader
from adjudicator.report import html as render_html
from adjudicator.report.model import build
from adjudicator.ruling.judge import judge
from tests.desk.test_desk_taps import DISPUTE

HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"
# 錯碰.2 then a second violation (worked out in tests/desk/test_desk_taps.py).
WRONG_PUNG = HEAD + "\n紀錄:\n" + "\n".join(DISPUTE) + "\n"


def _report(text: str):  # type: ignore[no-untyped-def]
    incident = reader.read(text)
    return build(judge(incident), incident)


def test_the_offence_comes_first_and_is_cited_at_its_act() -> None:
    verdict = _report(WRONG_PUNG).verdict
    kinds = [line.split("（")[0] for line in verdict[:4]]
    assert kinds == ["南 錯碰", "南 相公", "南 代位賠付", "南 包賠"]
    assert verdict[0].startswith("南 錯碰（第 22 手「南 碰 三萬 用 三萬 四萬」，第 26 手舉發；")
    assert verdict[3].startswith("南 包賠（第 27 手「南 碰 五筒」；")


def test_readings_and_the_profile_are_words() -> None:
    report = _report(WRONG_PUNG)
    assert report.rules.startswith("規則 台灣十六張（001 行牌與罰則，003 台數），代號 tw16 · ")
    readings = {i.id: reading for i, _, reading in report.interpretations}
    assert readings["解釋.八張窗"] == "任何人自牌牆摸牌，補牌不計"
    assert not any(r.startswith(("yes:", "wall:", "any:")) for r in readings.values())


FLOWER_WIN = HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹 菊\n\n紀錄:\n1 東 打 北\n2 南 和\n"


def test_a_flower_win_declared_with_he_is_not_called_self_drawn() -> None:
    (win,) = _report(FLOWER_WIN).wins
    assert win.title == "南 和（第 2 手）" and win.verdict == "無效"
    # No penalty is counted on the face of this void win: its patterns are not priced.
    assert win.patterns_note in ("", "和牌無效；下列台數不計")
    assert "罰則" not in win.patterns_note


def test_the_html_report_has_a_phone_viewport_and_keeps_a4() -> None:
    html = render_html.render(_report(WRONG_PUNG))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "@page { size: A4" in html and "@media screen and (max-width: 720px)" in html
