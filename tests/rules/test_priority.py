"""行牌規則 (asp/play/priority.lp): who gets a contested discard, and what the losing side owes.

Each test states a small record and the exact findings the clause gives, so that a rule
that fires for the wrong side, at the wrong act or under the wrong clause fails here.
"""

from __future__ import annotations

from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import Ruling

HEAD = "規則: {profile}\n莊家: 東\n底: 300\n台: 100\n"
# Waits on 二筒 / 五筒: 門清 + 平和 = 3 台 on a discard, 門清 + 不求 = 3 台 on 自摸.
HAND = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三四筒"
# Waits on 一萬 / 四萬: a 自摸 hand that does not win on the 五筒 it draws past (no 過水).
MAN_WAIT = "二三萬 四五六萬 七八九萬 二三四筒 六七八索 五五索"


def _judge(record: str, *, hands: tuple[str, ...] = (), profile: str = "tw16",
           settings: dict[str, str] | None = None, other: dict[str, str] | None = None) -> Ruling:
    text = HEAD.format(profile=profile)
    text += "".join(f"{seat} 手牌: {HAND}\n" for seat in hands)
    text += "".join(f"{seat} 手牌: {hand}\n" for seat, hand in (other or {}).items())
    return judge_text(text + "紀錄:\n" + record, settings=settings)


def _prio(r: Ruling) -> list[tuple[str, int | None, str | None, tuple[str, ...]]]:
    return [(f.seat, f.at, f.over, f.clauses) for f in r.findings if f.kind == "優先"]


def _kinds(r: Ruling, kind: str) -> list[tuple[str, int | None]]:
    return [(f.seat, f.at) for f in r.findings if f.kind == kind]


def test_pung_called_before_tsumo_intent_takes_the_tile() -> None:
    r = _judge("10 東 打 七筒\n11 南 摸 二筒\n12 西 喊碰 七筒\n13 南 喊和\n14 西 碰 七筒\n")
    assert _prio(r) == [("西", 12, "南", ("優先.1",))]
    assert _kinds(r, "強制復原") == [("南", 11)]
    assert not r.hand_ends


def test_tsumo_intent_before_the_call_keeps_the_tile_and_a_later_pung_is_xianggong() -> None:
    r = _judge("10 東 打 七筒\n11 南 摸 二筒\n12 南 自摸\n13 西 碰 七筒\n", hands=("南",))
    assert _prio(r) == [("南", 12, "西", ("優先.1",))]
    assert _kinds(r, "相公") == [("西", 13)] and _kinds(r, "代位賠付") == [("西", 13)]
    assert [(w.seat, w.valid, w.tai) for w in r.wins] == [("南", True, 3)]


def test_draw_in_the_hand_row_before_the_call_is_decided_by_4_not_1() -> None:
    r = _judge("10 西 打 七筒\n11 北 摸 二筒\n12 北 入手\n13 東 喊碰 七筒\n14 北 喊和\n")
    assert _prio(r) == [("北", 11, "東", ("優先.4",))]


def test_pung_called_before_the_draw_went_in_wins_though_it_went_in_after() -> None:
    r = _judge("10 西 打 七筒\n11 北 摸\n12 東 喊碰 七筒\n13 北 入手\n14 東 碰 七筒\n")
    assert _prio(r) == [("東", 12, "北", ("優先.4",))]


def test_a_call_not_carried_out_starts_no_contest() -> None:
    r = _judge("11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n")
    assert _prio(r) == [] and _kinds(r, "強制復原") == []


def test_lost_tsumo_laid_down_is_void_not_false_and_pays_baopei() -> None:
    r = _judge("10 東 打 七筒\n11 南 摸 二筒\n12 西 喊碰 七筒\n13 西 碰 七筒\n14 南 自摸\n",
               hands=("南",))
    assert [(w.seat, w.valid) for w in r.wins] == [("南", False)]
    assert _kinds(r, "詐和") == [] and _kinds(r, "包賠") == [("南", 14)]
    baopei = next(f for f in r.findings if f.kind == "包賠")
    assert "罰則.1" in baopei.clauses and "優先.1" in baopei.clauses
    assert {(p.frm, p.to, p.amount) for p in r.payments} == {
        ("南", "東", 700), ("南", "西", 600), ("南", "北", 600)}


def test_ron_before_tsumo_and_tsumo_before_ron() -> None:
    first = _judge("10 東 打 五筒\n11 南 摸 二筒\n12 北 喊和 五筒\n13 南 喊和\n14 北 和 五筒\n",
                   hands=("北",))
    assert _prio(first) == [("北", 12, "南", ("優先.2",))]
    later = _judge("10 東 打 五筒\n11 南 摸 一萬\n12 南 自摸\n13 北 和 五筒\n",
                   hands=("北",), other={"南": MAN_WAIT})
    assert _prio(later) == [("南", 12, "北", ("優先.2",))]
    assert [(w.seat, w.valid) for w in later.wins] == [("南", True), ("北", False)]


def test_chow_shown_by_its_two_tiles_loses_to_a_pung_before_its_discard() -> None:
    r = _judge("21 西 打 七筒\n22 北 喊吃 七筒\n23 北 亮牌 六筒 八筒\n24 東 喊碰 七筒\n"
               "25 東 碰 七筒\n")
    assert _prio(r) == [("東", 24, "北", ("優先.3",))]
    assert _kinds(r, "強制復原") == [("北", 23)]


def test_a_shown_pair_is_a_call_to_pung() -> None:
    r = _judge("21 西 打 七筒\n22 北 吃 七筒 用 六筒 八筒\n23 東 亮牌 七筒 七筒\n24 東 碰 七筒\n")
    assert _prio(r) == [("東", 23, "北", ("優先.3",))]


def test_chow_shown_and_discarded_before_the_call_stands() -> None:
    r = _judge("21 西 打 七筒\n22 北 喊吃 七筒\n23 北 亮牌 六筒 八筒\n24 北 打 二索\n"
               "25 東 喊碰 七筒\n")
    assert _prio(r) == [("北", 23, "東", ("優先.3",))]
    assert _kinds(r, "相公") == []


def test_a_claim_two_discards_late_is_about_no_contest() -> None:
    r = _judge("21 西 打 七筒\n22 北 摸\n23 北 打 二索\n24 東 摸\n25 東 打 一萬\n"
               "26 南 碰 七筒\n")
    assert _prio(r) == [] and _kinds(r, "相公") == []


def test_win_beats_a_pung_made_before_it_and_the_pung_is_undone() -> None:
    r = _judge("10 東 打 五筒\n11 西 碰 五筒\n12 南 和 五筒\n", hands=("南",))
    assert _prio(r) == [("南", 12, "西", ("優先.5",))]
    assert _kinds(r, "強制復原") == [("西", 11)]
    assert _kinds(r, "相公") == []


def test_reaching_and_touching_the_wall_loses_the_win_to_the_pung() -> None:
    record = ("10 東 打 五筒\n11 南 伸手\n12 南 觸及\n13 西 喊碰 五筒\n14 南 喊和 五筒\n"
              "15 西 碰 五筒\n")
    for settings in ({}, {"解釋.伸手過水": "touch"}):
        r = _judge(record, settings=settings)
        assert _prio(r) == [("西", 13, "南", ("優先.5",))]
        # 優先.5 asks for the touch: 過水 from it whatever 解釋.伸手過水 says.
        assert [(f.seat, f.at) for f in r.findings if f.kind == "過水"] == [("南", 12)]


def test_reaching_without_touching_keeps_the_win_under_both_readings() -> None:
    record = "10 東 打 五筒\n11 南 伸手\n12 西 喊碰 五筒\n13 南 和 五筒\n"
    for settings in ({}, {"解釋.伸手過水": "touch"}):
        r = _judge(record, hands=("南",), settings=settings)
        assert _prio(r) == [("南", 13, "西", ("優先.5",))]
        assert [(w.seat, w.valid) for w in r.wins] == [("南", True)]
        assert _kinds(r, "過水") == [] and _kinds(r, "包賠") == []
        assert "解釋.伸手過水" not in [i.id for i in r.interpretations]


def test_chow_and_draw_need_both_their_acts_to_beat_a_win() -> None:
    shown = _judge("21 西 打 七筒\n22 北 吃 七筒 用 六筒 八筒\n23 南 和 七筒\n")
    assert _prio(shown) == [("南", 23, "北", ("優先.6",))]
    assert _kinds(shown, "強制復原") == [("北", 22)]
    drawn = _judge("10 東 打 五筒\n11 南 摸\n12 南 入手\n13 北 和 五筒\n", hands=("北",))
    assert _prio(drawn) == [("北", 13, "南", ("優先.7",))]
    assert _kinds(drawn, "強制復原") == [("南", 11)]
    done = _judge("10 東 打 五筒\n11 南 摸 一萬\n12 南 打 一萬\n13 北 和 五筒\n", hands=("北",))
    assert _prio(done) == [("南", 11, "北", ("優先.7",))]
    assert _kinds(done, "包賠") == [("北", 13)]


def test_lanhe_nearest_wins_and_the_first_reading_flips_it() -> None:
    record = "10 東 打 五筒\n11 北 和 五筒\n12 南 和 五筒\n"
    near = _judge(record, hands=("南", "北"))
    assert _prio(near) == [("南", 12, "北", ("攔和",))]
    assert [i.id for i in near.interpretations] == ["解釋.攔和"]
    assert not any(p.basis == "包賠" for p in near.payments)
    first = _judge(record, hands=("南", "北"), settings={"解釋.攔和": "first"})
    assert _prio(first) == [("北", 11, "南", ("攔和",))]
    assert [(w.seat, w.valid) for w in first.wins] == [("北", True), ("南", False)]


def test_lanhe_in_call_order_cites_no_reading() -> None:
    r = _judge("10 東 打 五筒\n11 南 和 五筒\n12 北 和 五筒\n", hands=("南", "北"))
    assert _prio(r) == [("南", 11, "北", ("攔和",))]
    assert r.interpretations == []


def test_nearest_who_reached_loses_to_the_next_and_the_platform_cites_its_rule() -> None:
    record = "10 東 打 五筒\n11 南 伸手\n12 南 和 五筒\n13 西 和 五筒\n"
    home = _judge(record, hands=("南", "西"))
    assert _prio(home) == [("西", 13, "南", ("優先.8", "攔和"))]
    assert _kinds(home, "過水") == [("南", 11)]
    online = _judge(record, hands=("南", "西"), profile="tw16-online")
    assert _prio(online) == [("西", 13, "南", ("優先.8", "平台.拦胡", "攔和"))]
    assert online.balances == home.balances == {"東": -700, "南": 0, "西": 700, "北": 0}


def test_every_priority_reason_is_put_into_words() -> None:
    records = [
        ("10 東 打 七筒\n11 南 摸 二筒\n12 西 喊碰 七筒\n13 西 碰 七筒\n14 南 自摸\n", ("南",)),
        ("10 東 打 五筒\n11 南 伸手\n12 南 和 五筒\n13 西 和 五筒\n", ("南", "西")),
        ("10 東 打 五筒\n11 南 伸手\n12 南 觸及\n13 西 喊碰 五筒\n14 南 和 五筒\n", ("南",)),
        ("21 西 打 七筒\n22 北 吃 七筒 用 六筒 八筒\n23 北 打 二索\n24 東 碰 七筒\n", ()),
    ]
    for record, hands in records:
        r = _judge(record, hands=hands)
        mine = ("優先", "包賠", "強制復原", "相公")  # 過水 is shared with passwater.lp
        whys = [y for f in r.findings if f.kind in mine for y in f.why]
        whys += [y for w in r.wins for y in w.why]
        assert whys and all("(" not in y for y in whys), whys
