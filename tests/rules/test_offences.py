"""Offences (issue 4): the hand facts Python builds, and the rulings that rest on them.

The cases in cases/offences/ hold the hand-worked rulings; these tests pin down the
bookkeeping underneath (what handfacts/winfacts/facts emit) and the interpretation points
each chapter reads, by flipping them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from clingo import Symbol

from adjudicator.analysis import picture, replay
from adjudicator.facts import hand_facts as handfacts
from adjudicator.facts import record as facts
from adjudicator.facts import win_facts as winfacts
from adjudicator.language import reader
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import Ruling

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "cases" / "offences"
HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"
READY = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三四筒"  # waits on 二筒 / 五筒


def _facts(text: str) -> set[str]:
    incident = reader.read(text)
    timeline = replay.replay(incident)
    out: list[Symbol] = list(facts.header_facts(incident))
    wins = winfacts.declared_wins(incident, timeline)
    out += winfacts.win_facts(incident, timeline, wins=wins)
    hands = picture.picture(incident, timeline, anchors=handfacts.win_anchors(wins))
    out += handfacts.hand_facts(incident, timeline, hands)
    return {str(s) for s in out}


def _case(name: str, **settings: str) -> Ruling:
    text = (CASES / name).read_text(encoding="utf-8")
    return judge_text(text, settings=settings or None)


def _kinds(r: Ruling, seat: str) -> set[str]:
    return {f.kind for f in r.findings if f.seat == seat}


# --- handfacts ---------------------------------------------------------------------------


def test_could_win_on_a_discard_from_the_stated_hand() -> None:
    got = _facts(HEAD + f"南 手牌: {READY}\n紀錄:\n1 北 打 五筒\n2 東 摸 ?\n3 東 打 九萬\n")
    assert 'wins_on(1,"南","std")' in got
    assert not any(f.startswith('wins_on(3,"南"') for f in got)
    assert 'hand_unknown(3,"南")' not in got
    assert 'hand_unknown(1,"西")' in got


def test_hand_worked_back_from_a_win() -> None:
    # No hand is stated before the record: the hand laid down at the win (stated after it)
    # is worked back through 南's own draw and discard to the discard at act 1.
    text = (HEAD + "紀錄:\n1 北 打 五筒\n2 東 摸 ?\n3 東 打 九索\n4 南 摸 一萬\n"
            "5 南 打 一萬\n6 西 摸 ?\n7 西 打 二筒\n8 南 和 二筒\n"
            f"南 手牌: {READY} 二筒\n")
    got = _facts(text)
    assert 'wins_on(1,"南","std")' in got
    assert 'tile_not_win(5,"南")' in got
    assert 'wins_on(7,"南","std")' in got


def test_discarding_a_winning_tile_does_not_clear() -> None:
    got = _facts(HEAD + f"南 手牌: {READY}\n紀錄:\n1 東 打 九萬\n2 南 摸 二筒\n3 南 打 二筒\n")
    assert 'complete_after(2,"南","std")' in got
    # Known, and a tile the hand waits on: neither tile_not_win nor hand_unknown.
    assert 'tile_not_win(3,"南")' not in got and 'hand_unknown(3,"南")' not in got
    assert 'holds_concealed(3,"南",10)' in got


def test_ready_and_not_ready() -> None:
    ready = _facts(HEAD + f"南 手牌: {READY}\n紀錄:\n1 南 眼牌\n")
    loose = _facts(HEAD + "南 手牌: 一二三萬 四五六萬 二三四筒 六七八索 五五索 三筒 九筒\n"
                   "紀錄:\n1 南 眼牌\n")
    assert 'ready(1,"南","std")' in ready
    assert 'not_ready(1,"南")' in loose


def test_counted_hand_only_from_a_whole_stated_hand() -> None:
    short = _facts(HEAD + f"南 手牌: {READY}\n紀錄:\n1 南 摸 九索\n2 南 打 九索\n3 南 打 一萬\n")
    partial = _facts(HEAD + "南 手牌: 三萬 三萬\n紀錄:\n1 南 打 三萬\n")
    assert 'counted_hand(2,"南",16)' in short and 'counted_hand(3,"南",15)' in short
    assert not any(f.startswith("counted_hand") for f in partial)


def test_a_gap_in_the_record_stops_the_count() -> None:
    got = _facts(HEAD + f"南 手牌: {READY}\n紀錄:\n1 南 摸 九索\n5 南 打 九索\n")
    assert not any(f.startswith("counted_hand") for f in got)


def test_outside_bettor_name_reaches_the_facts_as_a_string() -> None:
    got = _facts(HEAD + '插花: 外插 x).:-y 南 50\n紀錄:\n1 東 打 五筒\n')
    assert any(f.startswith("side_bettor(") and '"x).:-y"' in f for f in got)


# --- winfacts: flower wins ---------------------------------------------------------------


def test_eight_flowers_state_the_readings_the_tiles_allow_and_no_flower_win() -> None:
    # Seven laid out and the eighth drawn at act 1 and laid out at act 2: the tiles allow
    # the hand to rest on them, the eighth come at act 1, 2 or (eight held) none; which
    # one the win rests on, and what follows (unreplaced, whose flower, dealt),
    # play/flowers.lp derives.
    got = _facts(HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹\n"
                 "紀錄:\n44 南 摸 菊\n45 南 補花 菊\n46 南 和\n")
    assert {f[:len("win_reading_at(3,C")] for f in got if f.startswith("win_reading_at(")} \
        == {"win_reading_at(3,0", "win_reading_at(3,1", "win_reading_at(3,2"}
    assert 'win_reading(3,0,win_declared(3,"南",-1))' in got
    assert not any(f.startswith(("eighth_flower", "flower_win", "score_robbed_flower(",
                                 "win_declared(")) for f in got)


def test_a_robbed_flower_s_holder_is_stated() -> None:
    drawn = _facts(HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹\n紀錄:\n52 西 摸 菊\n53 南 搶花 菊\n"
                   "54 南 補 五萬\n55 南 和\n")
    laid = _facts(HEAD + "南 花: 春 夏 秋 冬 梅 蘭\n北 花: 竹\n紀錄:\n60 南 摸 菊\n"
                  "61 南 補花 菊\n62 南 搶花 竹\n63 南 補 三萬\n64 南 和\n")
    # Who held it: the flower 西 drew and holds in its hand; the one 北 laid out.
    assert any(f.startswith("win_reading_at(4,2,") for f in drawn)
    assert 'flower_held_by(2,"西")' in drawn
    assert any(f.startswith("win_reading_at(5,3,") for f in laid)
    assert 'flower_held_by(3,"北")' in laid
    # The hand as a judgement states it names no form: flowers.lp derives →2.
    assert not any("score_robbed_flower(" in f for f in drawn | laid)


def test_a_win_without_eight_flowers_has_one_reading() -> None:
    got = _facts(HEAD + "南 手牌: 一二三萬 四五六萬 七八九筒 二三四索 五五索 七八萬\n"
                 "南 花: 春 夏 秋 冬 梅 蘭 竹\n紀錄:\n60 西 打 九萬\n61 南 和 九萬\n")
    assert 'win_declared(2,"南",8)' in got
    assert not any(f.startswith(("win_reading", "win_on_own_draw", "win_after_kong"))
                   for f in got)


# --- Readings: each chapter follows its interpretation point ----------------------------


def test_xianggong_time_report_reading() -> None:
    assert "相公" in _kinds(_case("xianggong/flower_discarded.case"), "南")
    assert "相公" not in _kinds(_case("xianggong/flower_discarded.case",
                                     **{"解釋.相公時點": "report"}), "南")


def test_second_offence_listed_reading() -> None:
    assert "包賠" in _kinds(_case("xianggong/xianggong_pungs_baopei.case"), "南")
    r = _case("xianggong/xianggong_pungs_baopei.case", **{"解釋.相公二度": "listed"})
    assert "包賠" not in _kinds(r, "南") and not r.hand_ends


def test_pass_self_draw_reading() -> None:
    assert "詐和" in _kinds(_case("passwater/pass_own_draw.case"), "南")
    r = _case("passwater/pass_own_draw.case", **{"解釋.自摸過水": "no"})
    assert "詐和" not in _kinds(r, "南") and r.wins[0].valid


def test_pass_bars_self_draw_reading() -> None:
    # "no": a 自摸 after a 過水 stands — except on a concealed kong's replacement.
    r = judge_text(HEAD + f"南 手牌: {READY}\n紀錄:\n20 北 打 五筒\n21 東 摸 ?\n22 東 打 九索\n"
                   "23 南 摸 二筒\n24 南 自摸\n", settings={"解釋.過水自摸": "no"})
    assert r.wins[0].valid
    kong = _case("passwater/concealed_kong_keeps_pass.case", **{"解釋.過水自摸": "no"})
    assert "詐和" in _kinds(kong, "南")


def test_reach_reading() -> None:
    assert "詐和" in _kinds(_case("passwater/reach_then_win.case"), "南")
    r = _case("passwater/reach_then_win.case", **{"解釋.伸手過水": "touch"})
    assert "詐和" not in _kinds(r, "南") and r.wins[0].valid


def test_prohibition_penalty_void_reading() -> None:
    r = _case("prohibitions/kong_after_pung.case", **{"解釋.禁制罰": "void"})
    assert _kinds(r, "南") == {"禁制"}


def test_baopei_next_dealer_reading() -> None:
    r = _case("baopei/disturb_wall.case", **{"解釋.包賠下莊": "荒局"})
    assert r.next_hand is not None and (r.next_hand.dealer, r.next_hand.streak) == ("東", 1)


def test_early_flower_win_as_false_win_reading() -> None:
    r = _case("flowers/dealt_flower_win_before_draw.case", **{"解釋.花和缺張": "詐和"})
    assert "詐和" in _kinds(r, "南") and r.hand_ends


@pytest.mark.parametrize(("tile", "reading", "false"), [
    ("五筒", "held", True), ("五筒", "near", True), ("九索", "near", False)])
def test_shown_tiles_deal_in_reading(tile: str, reading: str, false: bool) -> None:
    # Both hands hold the shown 三筒 四筒; the second waits on 九索 alone (單釣).
    hand = READY if tile == "五筒" else "一二三萬 四五六萬 二三四筒 三四五筒 六七八索 九索"
    r = judge_text(HEAD + f"南 手牌: {hand}\n紀錄:\n20 南 露牌 三筒 四筒\n21 北 打 {tile}\n"
                   f"22 南 和 {tile}\n", settings={"解釋.露牌和銃": reading})
    assert ("詐和" in _kinds(r, "南")) is false


# --- What the record leaves open -------------------------------------------------------


def test_unknown_hand_at_an_earlier_discard_is_open() -> None:
    # 南 draws and throws tiles the record does not name: its hand before is not known, so
    # whether it could have won on 北's 五筒 (and whether its discard cleared it) is open.
    r = judge_text(HEAD + "紀錄:\n20 北 打 五筒\n21 東 摸 ?\n22 東 打 九索\n23 南 摸 ?\n"
                   "24 南 打 ?\n25 西 摸 ?\n26 西 打 二筒\n27 南 和 二筒\n"
                   f"南 手牌: {READY} 二筒\n")
    assert r.status == "undetermined"
    assert any("pass" in u.term for u in r.uncertain)


def test_eye_with_unknown_hand_is_open() -> None:
    r = judge_text(HEAD + "紀錄:\n20 南 眼牌\n")
    assert [u.term for u in r.uncertain] == ['eye_ready_unknown("南")']


def test_reported_second_cause_time_is_open() -> None:
    r = judge_text(HEAD + "紀錄:\n3 裁判 發現 西 錯位摸補\n4 西 自承 搶摸\n")
    assert "包賠" not in _kinds(r, "西")
    assert [u.term for u in r.uncertain] == ['offence_time_unknown("西","搶摸")']


def test_same_cause_reported_again_after_a_turn_is_open() -> None:
    # A second report of the cause that made the player 相公, after it played on: the same
    # fault pointed out again or a new one (相公二度违规).  Both ways; 包賠 only in one.
    r = judge_text(HEAD + "紀錄:\n20 東 舉發 南 窺視暗牌\n21 南 摸 ?\n22 南 打 九筒\n"
                   "23 西 舉發 南 窺視暗牌\n")
    assert r.status == "undetermined"
    assert [u.term for u in r.uncertain] == ['offence_repeat_unknown("南","窺視暗牌")']
    assert "包賠" not in _kinds(r, "南")
    (new,) = [p for u in r.uncertain for p in u.possibilities]
    assert "包賠" in {f.kind for f in new.findings}


def test_same_cause_reported_twice_at_once_is_one_fault() -> None:
    r = judge_text(HEAD + "紀錄:\n20 東 舉發 南 窺視暗牌\n21 西 舉發 南 窺視暗牌\n")
    assert r.status == "decided"
    assert _kinds(r, "南") == {"相公"}


# --- Side bets and the outsider's money ------------------------------------------------


def test_outsider_balance_and_zero_sum() -> None:
    r = _case("side_bets/side_bets_on_false_win.case")
    assert r.balances["老王"] == -150
    assert sum(r.balances.values()) == 0
    assert all("插花" in p.clauses for p in r.payments if p.basis == "插花")
