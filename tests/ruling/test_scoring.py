"""Scoring (asp/settlement/scoring.lp through adjudicator/ruling/scoring.py): every 台 pattern
and exclusion.

Every expected figure was worked out by hand from the rule texts (seeds 003 for tw16, 000
for tw16-alt) and the comment beside it shows the sum.  Unless a test says otherwise the
winner sits 南, the dealer (and so the 開門 chair) is 東 and the round is 東: the winner's
seat wind is 南, its flower number 2, and the round wind 東.

Hands are written in the ASCII tile codes: ``123m`` is 一二三萬, ``222z`` 南南南
(1z–7z = 東南西北白發中), ``1f``–``8f`` = 春夏秋冬梅蘭竹菊.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from adjudicator.cli.score import register
from adjudicator.language import tiles
from adjudicator.language.tiles import TileError, parse_melds, parse_tiles
from adjudicator.rules.rulesets import rule_set
from adjudicator.ruling.scoring import WinHand, WinScore, _solve, score, win_symbols

ALL_FLOWERS = "12345678f"


def t(text: str) -> list[int]:
    """ASCII runs: ``123m 22z`` → the tiles (a test-side reader, independent of the CLI)."""
    return [tiles.from_ascii(d + word[-1]) for word in text.split() for d in word[:-1]]


def meld(text: str) -> tuple[str, tuple[int, ...]]:
    """``碰 2z`` / ``吃 123m`` / ``暗杠 1m``: one tile stands for the whole pung or kong."""
    kind, rest = text.split()
    found = t(rest)
    if kind != "吃" and len(found) == 1:
        found = found * (3 if kind == "碰" else 4)
    return kind, tuple(found)


def hand(concealed: str, win: str | None, melds: tuple[str, ...] = (),
         flowers: str = "", **kw: Any) -> WinHand:
    kw.setdefault("seat", "南")
    return WinHand(concealed=t(concealed), winning_tile=t(win)[0] if win else None,
                   exposed=[meld(m) for m in melds], flowers=t(flowers), **kw)


def run(concealed: str, win: str | None, melds: tuple[str, ...] = (), flowers: str = "",
        profile: str = "tw16", **kw: Any) -> WinScore:
    return score(hand(concealed, win, melds, flowers, **kw), profile)


def pats(result: WinScore) -> dict[str, int]:
    return {name: tai for name, tai, _ in result.patterns}


def check(result: WinScore, expected: dict[str, int], total: int) -> None:
    assert result.complete, result.problems
    assert pats(result) == expected
    assert result.tai == total
    assert sum(expected.values()) == total  # the hand sums must agree with themselves


# Hand A: 南南南 123m 456p 789s 78m 22s, waiting 6m/9m (兩面), concealed.
A = "222z 123m 456p 789s 22s 78m"
# The same hand with 南南南 laid out (碰) or as a 暗杠.
A_OPEN = "123m 456p 789s 22s 78m"
# 平和 hand: all chows, no honours, 78m waits 6m/9m.
PH = "123m 456p 789p 234s 55s 78m"
# 16 tiles that no tile completes (13s, 79m and three lone honours).
NOT_A_WIN = "123m 456p 789s 13s 79m 125z"


# --------------------------------------------------------------------------------------
# 台.1 風字刻


def test_t1_wind_pung_of_seat_wind() -> None:
    # 南 pung = 南's seat wind 1; round 東 no; 門清 1 → 2.
    check(run(A, "9m"), {"風字刻": 1, "門清": 1}, 2)


def test_t1_wind_pung_of_seat_and_round_wind() -> None:
    # round 南: 南 pung = seat 1 + round 1 = 2; 門清 1 → 3.
    check(run(A, "9m", round_wind="南"), {"風字刻": 2, "門清": 1}, 3)


def test_t1_wind_pung_matching_nothing_earns_nothing() -> None:
    # seat 北 (seat wind 北), round 東: the 南 pung matches neither → 門清 1 only.
    check(run(A, "9m", seat="北"), {"門清": 1}, 1)


def test_t1_seat_wind_counts_from_open_chair() -> None:
    # 開門 南: 南 is this hand's 東位, so the 東 pung is seat 1 + round 1; 門清 1 → 3.
    check(run("111z 123m 456p 789s 22s 78m", "9m", open_seat="南"),
          {"風字刻": 2, "門清": 1}, 3)


def test_t1_open_chair_defaults_to_dealer() -> None:
    # dealer 西 opens: 西 東位, 北 南位, 東 西位, 南 北位 → 南's seat wind is 北.
    # 北 pung 1; 門清 1 → 2.
    check(run("444z 123m 456p 789s 22s 78m", "9m", dealer="西"), {"風字刻": 1, "門清": 1}, 2)


# --------------------------------------------------------------------------------------
# 台.2 箭字刻


def test_t2_dragon_pung() -> None:
    # 中 pung 1; 門清 1 → 2.
    check(run("777z 123m 456p 789s 22s 78m", "9m"), {"箭字刻": 1, "門清": 1}, 2)


def test_t2_each_dragon_pung_and_round_phrase_adds_nothing() -> None:
    # 白, 發 pungs 1 each = 2 (round 南: dragons have no 圈序, nothing added); 門清 1 → 3.
    check(run("555z 666z 123m 456p 22s 78m", "9m", round_wind="南"),
          {"箭字刻": 2, "門清": 1}, 3)


# --------------------------------------------------------------------------------------
# 台.3 門清, 台.4 不求, 台.23 自摸


def test_t3_menqing_allows_concealed_kong() -> None:
    # 暗杠 南 keeps 門清: 風字刻 1 (a kong is a 刻) + 門清 1 → 2.
    check(run(A_OPEN, "9m", ("暗杠 2z",)), {"風字刻": 1, "門清": 1}, 2)


def test_t3_pung_breaks_menqing() -> None:
    # 碰 南: open, 風字刻 1 only.
    check(run(A_OPEN, "9m", ("碰 2z",)), {"風字刻": 1}, 1)


def test_t3_open_kong_breaks_menqing() -> None:
    # 明杠 南: open, 風字刻 1 only.
    check(run(A_OPEN, "9m", ("明杠 2z",)), {"風字刻": 1}, 1)


def test_t4_menqing_yimo_san() -> None:
    # concealed and self-drawn: 門清 1 + 不求 2 = 3 (不求 holds the 自摸 台); 風字刻 1 → 4.
    check(run(A, "9m", self_drawn=True), {"風字刻": 1, "門清": 1, "不求": 2}, 4)


def test_t23_zimo_in_open_hand() -> None:
    # 碰 南 then self-drawn: 風字刻 1 + 自摸 1 → 2 (no 門清, no 不求).
    check(run(A_OPEN, "9m", ("碰 2z",), self_drawn=True), {"風字刻": 1, "自摸": 1}, 2)


# --------------------------------------------------------------------------------------
# 台.5 全求, 台.6 半求


FULL = ("碰 2s", "吃 123m", "吃 456p", "吃 789s", "碰 9p")


def test_t5_quanqiu_adds_duting() -> None:
    # five sets laid out, one 5m left, won on a discard: 全求 2 + 獨聽 1 = 3 (the text's 3).
    check(run("5m", "5m", FULL), {"全求": 2, "獨聽": 1}, 3)


def test_t5_quanqiu_not_with_concealed_kong() -> None:
    # a 暗杠 is not 吃碰外露: no 全求; still 獨聽 1 (open hand: no 門清) → 1.
    melds = ("碰 2s", "吃 123m", "吃 456p", "吃 789s", "暗杠 9p")
    check(run("5m", "5m", melds), {"獨聽": 1}, 1)


def test_t6_banqiu_with_duting_and_zimo() -> None:
    # one tile left, self-drawn: 半求 1 + 獨聽 1 + 自摸 1 = 3 (the text's 3).
    check(run("5m", "5m", FULL, self_drawn=True), {"半求": 1, "獨聽": 1, "自摸": 1}, 3)


# --------------------------------------------------------------------------------------
# 台.7 平和 and its conditions


def test_t7_pinghu_with_menqing() -> None:
    # all chows, pair 55s, no honour, no flower, two-sided, on a discard: 平和 2 + 門清 1.
    check(run(PH, "9m"), {"平和": 2, "門清": 1}, 3)


def test_t7_pinghu_in_open_hand() -> None:
    # 吃 123m laid out: 平和 2 without 門清.
    check(run("456p 789p 234s 55s 78m", "9m", ("吃 123m",)), {"平和": 2}, 2)


def test_t7_pinghu_not_with_a_flower() -> None:
    # 春 (number 1) earns nothing for 南 but breaks 無花: 門清 1 only.
    check(run(PH, "9m", flowers="1f"), {"門清": 1}, 1)


def test_t7_pinghu_not_with_honour_pair() -> None:
    # pair 白白 breaks 無字; a pair is no 箭字刻: 門清 1.
    check(run("123m 456p 789p 234s 55z 78m", "9m"), {"門清": 1}, 1)


def test_t7_pinghu_not_with_a_pung() -> None:
    # 999p is a pung (one 暗刻, worth nothing): 門清 1.
    check(run("123m 456p 999p 234s 55s 78m", "9m"), {"門清": 1}, 1)


def test_t7_pinghu_not_when_duting() -> None:
    # 79m waits only 8m (中洞): 獨聽 1 + 門清 1, no 平和.
    check(run("123m 456p 789p 234s 55s 79m", "8m"), {"獨聽": 1, "門清": 1}, 2)


def test_t7_pinghu_not_when_self_drawn() -> None:
    # self-drawn: 門清 1 + 不求 2 = 3, no 平和.
    check(run(PH, "9m", self_drawn=True), {"門清": 1, "不求": 2}, 3)


# --------------------------------------------------------------------------------------
# 台.8 對對和 and concealed pungs completed by a discard


DD_MELDS = ("碰 2s", "碰 9p")


def test_t8_duiduihu() -> None:
    # all pungs; 777s completed by the discard is no 暗刻, so 2 暗刻 only: 對對和 4.
    check(run("111m 555p 77s 33m", "7s", DD_MELDS), {"對對和": 4}, 4)


def test_t8_self_drawn_pung_is_concealed() -> None:
    # drawn 7s: 111m 555p 777s = 三暗刻 2; 對對和 4; 自摸 1 (open) → 7.
    check(run("111m 555p 77s 33m", "7s", DD_MELDS, self_drawn=True),
          {"對對和": 4, "三暗刻": 2, "自摸": 1}, 7)


# --------------------------------------------------------------------------------------
# 台.9 作莊, 台.10 連N拉N: never in a win's 台


def test_t9_t10_not_counted_in_win() -> None:
    # the dealer (東) wins: 南 pung is neither 東's seat wind nor the round's → 門清 1 only;
    # 作莊 / 連N拉N belong to the payments.
    result = run(A, "9m", seat="東")
    check(result, {"門清": 1}, 1)
    assert not {c for _, _, c in result.patterns} & {"台.9", "台.10"}


# --------------------------------------------------------------------------------------
# 台.11 獨聽


def test_t11_duting_edge_wait() -> None:
    # 12m waits only 3m (邊張; 789m is no help): 獨聽 1 + 門清 1.
    check(run("789m 456p 789p 234s 55s 12m", "3m"), {"獨聽": 1, "門清": 1}, 2)


def test_t11_duting_single_pair_wait() -> None:
    # a lone 9m waits only 9m (單釣): 獨聽 1 + 門清 1.
    check(run("123m 456p 789p 234s 567s 9m", "9m"), {"獨聽": 1, "門清": 1}, 2)


def test_t11_not_duting_when_two_tiles_win() -> None:
    # 1112m waits 2m (單釣) and 3m: two tiles, so no 獨聽 even won as 單釣; 門清 1.
    check(run("111m 2m 456p 789p 234s 567s", "2m"), {"門清": 1}, 1)


# --------------------------------------------------------------------------------------
# 台.12 搶杠


def test_t12_robbing_a_kong() -> None:
    # 風字刻 1 + 門清 1 + 搶杠 1 → 3.
    check(run(A, "9m", robbed_kong=True), {"風字刻": 1, "門清": 1, "搶杠": 1}, 3)


# --------------------------------------------------------------------------------------
# 台.13 字一色


def test_t13_ziyise_with_small_three_dragons() -> None:
    # 東東東 南南南 西西西 白白白 中中中 (the discard) + 發發:
    # 字一色 16, 小三元 4, then −4; no 對對和; no 箭字刻 (小三元);
    # 風字刻: 東 round 1 + 南 seat 1 = 2; 暗刻 東南西白 = 四暗刻 5; 門清 1;
    # waits 發/中: no 獨聽.  16 + 4 − 4 + 2 + 5 + 1 = 24.
    check(run("111z 222z 333z 555z 66z 77z", "7z"),
          {"字一色": 16, "小三元": 4, "字一色減計": -4, "風字刻": 2, "四暗刻": 5, "門清": 1}, 24)


def test_t13_ziyise_with_big_four_winds() -> None:
    # four wind pungs + 白 pung + 中 pair (單釣, 獨聽): 大四喜 16, 字一色 16, −4,
    # 箭字刻 白 1, five concealed pungs 五暗刻 13 (no 門清, no 對對和), 獨聽 1;
    # no 風字刻 (大四喜).  16 + 16 − 4 + 1 + 13 + 1 = 43.
    check(run("111z 222z 333z 444z 555z 7z", "7z"),
          {"大四喜": 16, "字一色": 16, "字一色減計": -4, "箭字刻": 1, "五暗刻": 13, "獨聽": 1},
          43)


# --------------------------------------------------------------------------------------
# 台.14 清一色, 台.15 湊一色


QY_MELDS = ("吃 123m", "吃 456m", "碰 9m")


def test_t14_qingyise() -> None:
    # all 萬: 清一色 12; open (no 門清), a pung (no 平和), waits 6m/9m (no 獨聽).
    check(run("234m 55m 78m", "6m", QY_MELDS), {"清一色": 12}, 12)


def test_t15_couyise() -> None:
    # 萬 and the 東 pung: 湊一色 4 + 風字刻 東 = round 1 → 5.
    check(run("234m 55m 78m", "6m", ("吃 123m", "吃 456m", "碰 1z")),
          {"湊一色": 4, "風字刻": 1}, 5)


# --------------------------------------------------------------------------------------
# 台.16–18 三/四/五暗刻


def test_t16_three_concealed_pungs() -> None:
    # 111m 555p 999s concealed: 三暗刻 2 + 門清 1 → 3.
    check(run("111m 555p 999s 234s 22p 78m", "6m"), {"三暗刻": 2, "門清": 1}, 3)


def test_t16_concealed_kong_is_a_concealed_pung() -> None:
    # 暗杠 1m + 555p + 999s: 三暗刻 2 + 門清 1 → 3.
    check(run("555p 999s 234s 22p 78m", "6m", ("暗杠 1m",)), {"三暗刻": 2, "門清": 1}, 3)


def test_t17_four_concealed_pungs_not_three() -> None:
    # four 暗刻: 四暗刻 5 (三暗刻 not added) + 門清 1 → 6.
    check(run("111m 555p 999s 222s 33p 78m", "6m"), {"四暗刻": 5, "門清": 1}, 6)


def test_t18_five_concealed_pungs() -> None:
    # five 暗刻, 東 pair (單釣: 獨聽): 五暗刻 13 + 獨聽 1; no 門清, no 對對和 → 14.
    check(run("111m 555p 999s 222s 777m 1z", "1z"), {"五暗刻": 13, "獨聽": 1}, 14)


def test_t18_five_concealed_self_drawn_adds_buqiu() -> None:
    # drawn 7m completes 777m: 五暗刻 13 + 不求 2 (waits 3p/7m: no 獨聽) → 15.
    check(run("111m 555p 999s 222s 33p 77m", "7m", self_drawn=True), {"五暗刻": 13, "不求": 2}, 15)


def test_t18_fifth_pung_by_discard_is_not_concealed() -> None:
    # 7m discarded: 777m open, four 暗刻: 四暗刻 5 + 對對和 4 + 門清 1 → 10.
    check(run("111m 555p 999s 222s 33p 77m", "7m"), {"四暗刻": 5, "對對和": 4, "門清": 1}, 10)


def test_t18_alt_profile_counts_twelve() -> None:
    # tw16-alt (000): 五暗刻 12 + 獨聽 1 → 13.
    check(run("111m 555p 999s 222s 777m 1z", "1z", profile="tw16-alt"),
          {"五暗刻": 12, "獨聽": 1}, 13)


def test_t18_alt_profile_big_four_ziyise() -> None:
    # the 43 of test_t13_ziyise_with_big_four_winds with 五暗刻 12: 42.
    assert run("111z 222z 333z 444z 555z 7z", "7z", profile="tw16-alt").tai == 42


# --------------------------------------------------------------------------------------
# 台.19–22 四喜 and 三元


def test_t19_big_four_winds_without_wind_pung_tai() -> None:
    # 大四喜 16 (東 round and 南 seat 台 not added) + 四暗刻 5 + 門清 1 + 獨聽 1 (5p) → 23.
    check(run("111z 222z 333z 444z 123m 5p", "5p"),
          {"大四喜": 16, "四暗刻": 5, "門清": 1, "獨聽": 1}, 23)


def test_t20_small_four_winds_keeps_wind_pung_tai() -> None:
    # 小四喜 8 + 風字刻 (東 round 1, 南 seat 1) 2 + 三暗刻 2 + 門清 1; waits 4p/7p → 13.
    check(run("111z 222z 333z 44z 123m 56p", "7p"),
          {"小四喜": 8, "風字刻": 2, "三暗刻": 2, "門清": 1}, 13)


def test_t20_small_four_round_wind_as_pair_earns_nothing() -> None:
    # round 北 and 北 is the pair: only 南's seat 1 remains → 8 + 1 + 2 + 1 = 12.
    check(run("111z 222z 333z 44z 123m 56p", "7p", round_wind="北"),
          {"小四喜": 8, "風字刻": 1, "三暗刻": 2, "門清": 1}, 12)


def test_t21_big_three_dragons_without_dragon_pung_tai() -> None:
    # 大三元 8 (箭字刻 not added; round 南 adds nothing to dragons) + 三暗刻 2 + 門清 1
    # + 獨聽 1 → 12.
    check(run("555z 666z 777z 123m 456s 5p", "5p", round_wind="南"),
          {"大三元": 8, "三暗刻": 2, "門清": 1, "獨聽": 1}, 12)


def test_t22_small_three_dragons_without_dragon_pung_tai() -> None:
    # 小三元 4 (白 發 pungs' 箭字刻 not added) + 門清 1; waits 4p/7p → 5.
    check(run("555z 666z 77z 123m 456s 56p", "7p"), {"小三元": 4, "門清": 1}, 5)


# --------------------------------------------------------------------------------------
# 台.24 杠上開花, 台.25 海底撈月


def test_t24_kong_replacement_adds_zimo() -> None:
    # open (碰 南): 風字刻 1 + 杠上開花 1 + 自摸 1 → 3 (self_drawn flag not needed).
    check(run(A_OPEN, "9m", ("碰 2z",), kong_replacement=True),
          {"風字刻": 1, "杠上開花": 1, "自摸": 1}, 3)


def test_t24_kong_replacement_concealed() -> None:
    # 暗杠 南: 風字刻 1 + 門清 1 + 不求 2 + 杠上開花 1 → 5.
    check(run(A_OPEN, "9m", ("暗杠 2z",), kong_replacement=True),
          {"風字刻": 1, "門清": 1, "不求": 2, "杠上開花": 1}, 5)


def test_t25_last_tile_adds_zimo() -> None:
    # open: 風字刻 1 + 海底撈月 1 + 自摸 1 → 3.
    check(run(A_OPEN, "9m", ("碰 2z",), last_tile=True),
          {"風字刻": 1, "海底撈月": 1, "自摸": 1}, 3)


# --------------------------------------------------------------------------------------
# 台.26 花牌


def test_t26_flowers_of_the_seat_number() -> None:
    # 南 = number 2: 夏 and 蘭 1 each, 春 0 → 花牌 2; hand A 2 → 4.
    check(run(A, "9m", flowers="126f"), {"風字刻": 1, "門清": 1, "花牌": 2}, 4)


def test_t26_flower_kong_instead() -> None:
    # 春夏秋冬 = 花杠 2 (夏's 1 replaced); 蘭 1 → 3; hand A 2 → 5.
    check(run(A, "9m", flowers="12346f"), {"風字刻": 1, "門清": 1, "花杠": 2, "花牌": 1}, 5)


def test_t26_all_eight_instead() -> None:
    # 滿花 8 instead of everything else; hand A 2 → 10 (台.27: holding eight at a later
    # ordinary win still counts 8).
    check(run(A, "9m", flowers=ALL_FLOWERS), {"風字刻": 1, "門清": 1, "滿花": 8}, 10)


def test_t26_flower_numbers_count_from_open_chair() -> None:
    # dealer 西 opens: 南 is 4th (北位) → 冬 and 菊 count, 春 not → 花牌 2;
    # 南 pung is no longer 南's seat wind → 門清 1 → 3.
    check(run(A, "9m", flowers="148f", dealer="西"), {"門清": 1, "花牌": 2}, 3)


# --------------------------------------------------------------------------------------
# 台.27–30 花和


def test_t27_flower_win_without_a_hand() -> None:
    # 八仙過海 with the hand not shown: 8 only (手牌未和毋須翻開).
    result = score(WinHand(concealed=[], winning_tile=None, flowers=t(ALL_FLOWERS),
                           seat="南", self_drawn=True, flower_win="八仙過海"))
    check(result, {"八仙過海": 8}, 8)


def test_t27_flower_win_with_incomplete_hand() -> None:
    # hand shown but no win: still 8 only.
    check(run(NOT_A_WIN, "6z", flowers=ALL_FLOWERS, flower_win="八仙過海"),
          {"八仙過海": 8}, 8)


def test_t27_flower_win_needs_eight_flowers() -> None:
    # seven flowers are no 花和: not a win.
    result = score(WinHand(concealed=[], winning_tile=None, flowers=t("1234567f"),
                           flower_win="八仙過海"))
    assert not result.complete and result.tai == 0


def test_t28_dealt_flower_win() -> None:
    # 配牌花和: cites 台.28, 0 台 of its own; 八仙過海 8 → 8.
    result = score(WinHand(concealed=[], winning_tile=None, flowers=t(ALL_FLOWERS),
                           flower_win="八仙過海", dealt_flower_win=True))
    check(result, {"八仙過海": 8, "配牌花和": 0}, 8)
    assert ("配牌花和", 0, "台.28") in result.patterns


def test_t29_flower_win_with_complete_hand_adds_face() -> None:
    # the replacement completes the hand: 牌面 in full (風字刻 1 + 杠上開花 1 + 自摸 1
    # + 滿花 8) plus 八仙過海 8 → 19.
    check(run(A_OPEN, "9m", ("碰 2z",), flowers=ALL_FLOWERS, kong_replacement=True,
              flower_win="八仙過海"),
          {"風字刻": 1, "杠上開花": 1, "自摸": 1, "滿花": 8, "八仙過海": 8}, 19)


def test_t30_seven_rob_one() -> None:
    # 七搶一 without the hand: 8.
    result = score(WinHand(concealed=[], winning_tile=None, flowers=t(ALL_FLOWERS),
                           flower_win="七搶一"))
    check(result, {"七搶一": 8}, 8)


def test_t30_robbed_flower_left_out_of_face() -> None:
    # 台.30 →2 with 杠上開花: 春 robbed is not counted: 梅蘭竹菊 花杠 2 + 夏 1;
    # 風字刻 1 + 杠上開花 1 + 自摸 1 + 3 + 七搶一 8 → 14.
    check(run(A_OPEN, "9m", ("碰 2z",), flowers=ALL_FLOWERS, kong_replacement=True,
              flower_win="七搶一", robbed_flower=34),
          {"風字刻": 1, "杠上開花": 1, "自摸": 1, "花杠": 2, "花牌": 1, "七搶一": 8}, 14)


# --------------------------------------------------------------------------------------
# 台.31–35 天聽, 地聽, 天和, 地和, 人和


def test_t31_tian_ting_without_menqing() -> None:
    # 天聽 8 (no 門清) + 風字刻 1 → 9.
    check(run(A, "9m", tian_ting=True), {"風字刻": 1, "天聽": 8}, 9)


def test_t31_tian_ting_self_drawn_adds_buqiu() -> None:
    # 天聽 8 + 不求 2 + 風字刻 1 → 11.
    check(run(A, "9m", tian_ting=True, self_drawn=True), {"風字刻": 1, "天聽": 8, "不求": 2}, 11)


def test_t32_di_ting_without_menqing() -> None:
    # 地聽 4 (tw16) + 風字刻 1 → 5.
    check(run(A, "9m", di_ting=True), {"風字刻": 1, "地聽": 4}, 5)


def test_t32_di_ting_self_drawn_adds_buqiu() -> None:
    # 地聽 4 + 不求 2 + 風字刻 1 → 7.
    check(run(A, "9m", di_ting=True, self_drawn=True), {"風字刻": 1, "地聽": 4, "不求": 2}, 7)


def test_t32_di_ting_alt_profile_six() -> None:
    # tw16-alt (000): 地聽 6 + 風字刻 1 → 7.
    check(run(A, "9m", di_ting=True, profile="tw16-alt"), {"風字刻": 1, "地聽": 6}, 7)


def test_t33_tian_hu_without_menqing_yimo_san() -> None:
    # dealer 東 wins on the dealt hand: 天和 16; 門清, 不求, 自摸 not added; 南 pung is
    # not 東's seat wind nor the round's → 16.
    check(run(A, "9m", seat="東", self_drawn=True, tian_hu=True), {"天和": 16}, 16)


def test_t33_tian_hu_without_kong_flower_or_duting() -> None:
    # 天和 on a hand whose last tile came from the 配牌補花 (kong end) and reads as a 單釣:
    # the replacement is part of the deal and a dealt hand never waited, so neither
    # 杠上開花 nor 獨聽 is added; 東 pung seat 1 + round 1 → 16 + 2 = 18.
    check(run("111z 123m 456p 789s 789m 2s", "2s", seat="東", self_drawn=True, tian_hu=True,
              kong_replacement=True), {"天和": 16, "風字刻": 2}, 18)


def test_t34_di_hu_self_drawn() -> None:
    # 地和 16 (天聽 and 門清 not added) + 不求 2 + 風字刻 1 → 19.
    check(run(A, "9m", tian_ting=True, di_hu=True, self_drawn=True),
          {"風字刻": 1, "地和": 16, "不求": 2}, 19)


def test_t34_di_hu_on_a_discard() -> None:
    # 地和 16 + 風字刻 1 → 17.
    check(run(A, "9m", tian_ting=True, di_hu=True), {"風字刻": 1, "地和": 16}, 17)


def test_t35_ren_hu_on_a_discard() -> None:
    # 人和 8 (地聽 and 門清 not added) + 風字刻 1 → 9.
    check(run(A, "9m", di_ting=True, ren_hu=True), {"風字刻": 1, "人和": 8}, 9)


def test_t35_ren_hu_self_drawn() -> None:
    # 人和 8 + 不求 2 + 風字刻 1 → 11.
    check(run(A, "9m", di_ting=True, ren_hu=True, self_drawn=True),
          {"風字刻": 1, "人和": 8, "不求": 2}, 11)


# --------------------------------------------------------------------------------------
# 台.36 嚦咕嚦咕


LIGU = "11m 33m 55p 77p 22s 44s 9s 777z"


def test_t36_ligu_with_valued_triplet() -> None:
    # 7 pairs + 中中中: 嚦咕嚦咕 8 (門清 not added) + 箭字刻 1 + 獨聽 1 (only 9s) → 10.
    check(run(LIGU, "9s"), {"嚦咕嚦咕": 8, "箭字刻": 1, "獨聽": 1}, 10)


def test_t36_ligu_self_drawn_adds_buqiu() -> None:
    # 8 + 1 + 不求 2 + 獨聽 1 → 12.
    check(run(LIGU, "9s", self_drawn=True), {"嚦咕嚦咕": 8, "箭字刻": 1, "不求": 2, "獨聽": 1}, 12)


def test_t36_ligu_adds_couyise() -> None:
    # 萬 pairs + 中中中: 湊一色 4 + 嚦咕嚦咕 8 + 箭字刻 1 + 獨聽 1 (only 9m) → 14.
    check(run("11m 22m 33m 44m 55m 77m 9m 777z", "9m"),
          {"湊一色": 4, "嚦咕嚦咕": 8, "箭字刻": 1, "獨聽": 1}, 14)


def test_t36_ligu_adds_qingyise() -> None:
    # 11 22 33 44 55 77 88 萬 pairs + 999m (no 5 sets + pair reading): 清一色 12
    # + 嚦咕嚦咕 8 + 獨聽 1 (only 3m) → 21.
    check(run("11m 22m 44m 55m 77m 88m 999m 3m", "3m"),
          {"清一色": 12, "嚦咕嚦咕": 8, "獨聽": 1}, 21)


def test_t36_ligu_off_when_profile_leaves_it_out() -> None:
    # 選用: with ligu_enabled 0 the same tiles are no win.
    result = score(hand(LIGU, "9s"), overrides={"ligu_enabled": 0})
    assert not result.complete


# --------------------------------------------------------------------------------------
# 計臺準則: the best reading counts


def test_best_reading_is_chosen() -> None:
    # 111m 222m 333m read as pungs: 三暗刻 2 + 門清 1 + 不求 2 = 5; as chows 門清 1 + 不求 2
    # = 3 (no 平和: self-drawn).  The higher, 5, counts.
    check(run("111m 222m 333m 456p 55p 78s", "9s", self_drawn=True),
          {"三暗刻": 2, "門清": 1, "不求": 2}, 5)


def test_discard_goes_where_it_pays_most() -> None:
    # 12m + 333m + 3m on a discard: as 邊張 (123m) 333m stays concealed → 三暗刻 2 with
    # 555p 999s; + 門清 1 → 3 (waits 3m and 2s: no 獨聽).
    check(run("12m 333m 555p 999s 22s 456s", "3m"), {"三暗刻": 2, "門清": 1}, 3)


def test_incomplete_hand_is_reported_not_raised() -> None:
    result = run(NOT_A_WIN, "6z")
    assert not result.complete and result.problems


def test_malformed_hand_is_reported_not_raised() -> None:
    result = run("123m 456p", "5z")  # 缺張
    assert not result.complete and "缺張" in result.problems[0]


def test_several_wins_in_one_control() -> None:
    # the judge grounds several wins together: each keeps its own 台 (2 and 4, as above).
    symbols = win_symbols(7, hand(A, "9m")) + win_symbols(8, hand(A, "9m", self_drawn=True))
    atoms = _solve(symbols + rule_set("tw16").facts())
    totals = {a.arguments[0].number: a.arguments[1].number for a in atoms if a.name == "win_tai"}
    assert totals == {7: 2, 8: 4}


def test_symbols_of_a_malformed_hand_keep_what_is_shown() -> None:
    # a false win's 牌面 reads melds, flowers and seats even when the hand is short.
    names = {s.name for s in win_symbols(3, hand("123m", "5z", ("碰 2z",), flowers="2f"))}
    assert {"scored_win", "score_meld", "score_flower", "score_seat_number"} <= names
    assert "score_decomp" not in names


# --------------------------------------------------------------------------------------
# Settling a flower win (asp/settlement/payments.lp), from win facts built here (not from
# facts/win_facts.py)


SETTLE_LOG = """規則: tw16
莊家: 東
底: 300
台: 100

紀錄:
60 南 摸 菊
61 南 補花 菊
62 南 搶花 竹
63 南 補 九萬
64 南 和
"""
# The same turn with the eighth flower laid out (補花) instead of robbed.
SETTLE_LAID_LOG = SETTLE_LOG.replace("62 南 搶花 竹", "62 南 補花 竹")


def _settle(frm: str | None, win_hand: WinHand,
            log: str = SETTLE_LOG) -> dict[tuple[str, str], int]:
    """Payments (from, to) → 台 for the win declared at act 5 of ``log``, its eighth flower
    come at act 3 (robbed from ``frm``, or laid out): the hand as a judgement states it,
    on its eight flowers, and which flower win it is named by play/flowers.lp."""
    from adjudicator.analysis import replay
    from adjudicator.facts import record as facts
    from adjudicator.facts.record import fact
    from adjudicator.language import reader
    from adjudicator.rules import engine

    incident = reader.read(log)
    symbols = facts.all_facts(incident, replay.replay(incident))
    declared = fact("win_declared", 5, win_hand.seat, tiles.UNKNOWN)
    symbols += [fact("win_reading", 5, 0, declared), fact("win_reading_at", 5, 3, 1)]
    symbols += [fact("win_reading", 5, 1, f) for f in [declared, *win_symbols(5, win_hand)]]
    symbols += [fact("flower_held_by", 3, frm)] if frm else []
    atoms = engine.solve(symbols, "tw16")
    out = {}
    for a in atoms:
        if a.name == "payment":
            _, frm_, to, bases, tai, _, _ = a.arguments
            assert bases.number == 1  # one 底 whatever the form
            out[(frm_.string, to.string)] = tai.number
    return out


def test_settle_seven_rob_one_form2_kong_flower_three_pay() -> None:
    # 台.30 →2, the replacement completes the hand (14 台 as in
    # test_t30_robbed_flower_left_out_of_face): 視同自摸, three pay the 牌面 6; the robbed
    # 北 alone adds 七搶一 8; the dealer 東 adds 作莊 1.
    h = hand(A_OPEN, "9m", ("碰 2z",), flowers=ALL_FLOWERS, kong_replacement=True,
             robbed_flower=tiles.from_ascii("7f"))
    assert _settle("北", h) == {("東", "南"): 7, ("西", "南"): 6, ("北", "南"): 14}


def test_settle_seven_rob_one_form2_only_robbed_pays() -> None:
    # 台.30 →2 without 杠上開花: 被搶花者賠付 8 台 1 底; nobody else pays.
    h = WinHand(concealed=[], winning_tile=None, flowers=t(ALL_FLOWERS), seat="南",
                robbed_flower=tiles.from_ascii("7f"))
    assert _settle("北", h) == {("北", "南"): 8}


def test_settle_seven_rob_one_form1_robbed_dealer_adds_extra() -> None:
    # 台.30 →1 (no robbed_flower fact) robbed from the dealer 東: 8 + 作莊 1.
    h = WinHand(concealed=[], winning_tile=None, flowers=t(ALL_FLOWERS), seat="南")
    assert _settle("東", h) == {("東", "南"): 9}


def test_settle_eight_immortals_three_pay() -> None:
    # 台.29: three pay 8 台 1 底; the dealer 東 also 作莊 1.
    h = WinHand(concealed=[], winning_tile=None, flowers=t(ALL_FLOWERS), seat="南")
    assert _settle(None, h, SETTLE_LAID_LOG) == {("東", "南"): 9, ("西", "南"): 8, ("北", "南"): 8}


# --------------------------------------------------------------------------------------
# The command


def test_parse_tiles_runs_and_words() -> None:
    assert parse_tiles("一二三萬 123m 東東 紅中 555z 春 8f") == [0, 1, 2, 0, 1, 2, 27, 27, 33,
                                                          31, 31, 31, 34, 41]


@pytest.mark.parametrize("bad", ["406p", "三m", "一二三", "萬", "天"])
def test_parse_tiles_refuses(bad: str) -> None:
    with pytest.raises(TileError):
        parse_tiles(bad)


def test_parse_melds() -> None:
    assert parse_melds("碰 三萬 / 吃 四五六索 ／ 暗槓 白") == [
        ("碰", (2, 2, 2)), ("吃", (21, 22, 23)), ("暗杠", (31, 31, 31, 31))]


def _cli() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:  # a group, so "score" is a sub-command as in adjudicator.cli
        pass

    return app


def test_cli_json() -> None:
    out = CliRunner().invoke(_cli(), ["score", "南南南", "一二三萬", "四五六筒", "七八九索",
                                      "二二索", "七八萬", "--win", "九萬", "--seat", "南",
                                      "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    # hand A: 風字刻 1 + 門清 1.
    assert data["complete"] and data["tai"] == 2
    assert {"name": "門清", "tai": 1, "clause": "台.3"} in data["patterns"]


def test_cli_text_table() -> None:
    out = CliRunner().invoke(_cli(), ["score", "222z", "123m", "456p", "789s", "22s", "78m",
                                      "--win", "9m", "--self-drawn", "--seat", "南"])
    assert out.exit_code == 0 and "不求" in out.stdout and "合計" in out.stdout


def test_cli_bad_tile_exits_2() -> None:
    out = CliRunner().invoke(_cli(), ["score", "406p", "--win", "1m"])
    assert out.exit_code == 2 and "Traceback" not in out.output


def test_cli_bad_meld_exits_2() -> None:
    out = CliRunner().invoke(_cli(), ["score", "123m", "--win", "1m", "--exposed", "槓 三萬"])
    assert out.exit_code == 2


def test_cli_not_a_win_exits_1() -> None:
    out = CliRunner().invoke(_cli(), ["score", *NOT_A_WIN.split(), "--win", "6z"])
    assert out.exit_code == 1
