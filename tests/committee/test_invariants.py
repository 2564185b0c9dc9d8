"""The corpus invariants (adjudicator/committee/invariants.py) catch what they name."""

from __future__ import annotations

from adjudicator.committee.invariants import broken
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import Finding, Ruling

# A wrong pung written with the offender's real hand, then a discard: the set counts as
# laid, so the discard is no 逾張 and the 錯碰 no second 相公.
WRONG_PUNG = """規則: tw16
莊家: 東
北 手牌: 一二三萬 四五六萬 七八九萬 五筒 九筒 二三四索 東 中
紀錄:
11 東 打 五筒
12 北 碰 五筒
13 北 打 中
14 南 摸 ?
15 南 打 一萬
16 西 摸 ?
17 西 打 二萬
18 北 摸 三萬
19 北 打 三萬
20 東 舉發 北 錯碰
"""


def _finding(at: int, why: str, kind: str = "相公") -> Finding:
    return Finding(kind=kind, seat="北", at=at, clauses=("相公",), why=(why,))


def test_a_second_xianggong_from_the_count_alone_is_flagged() -> None:
    ruling = Ruling(profile="tw16", status="decided", findings=[
        _finding(12, "錯碰者判相公"), _finding(19, "打牌後手牌多於十六張（逾張）")])
    assert len(broken(ruling)) == 1
    ruling.findings[1] = _finding(19, "錯吃碰杠")
    assert broken(ruling) == []


def test_a_finding_without_clause_or_reason_is_flagged() -> None:
    bare = Finding(kind="錯打明牌", seat="南", at=3, clauses=(), why=())
    assert broken(Ruling(profile="tw16", status="decided", findings=[bare]))


def test_wrong_pung_with_the_real_hand_is_one_fault() -> None:
    ruling = judge_text(WRONG_PUNG)
    assert ruling.status == "decided" and not ruling.problems
    kinds = sorted(f.kind for f in ruling.findings if f.seat == "北")
    assert "錯碰" in kinds and kinds.count("相公") == 1 and "包賠" not in kinds
    assert broken(ruling) == []
