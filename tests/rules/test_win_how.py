"""How a declared win wins, as the chapters name it from what the record states.

win_facts.py states the win, its tile, whether the winner's own draw or another's 加杠
came just before it, and, where the tiles allow the hand to rest on eight flowers, each
such reading; asp/play/flowers.lp takes the reading the win rests on, and asp/core.lp and
flowers.lp name the win (自摸, 和銃, 搶杠, 八仙過海, 七搶一) and the chair that pays for it.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.language import reader
from adjudicator.rules import engine
from adjudicator.ruling.judge import symbols_of

HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"
HAND = "北 手牌: 一二三萬 四五六萬 七八九萬 二三四筒 六七八索 白\n"


def derived(text: str, tmp: Path, *predicates: str) -> set[str]:
    """The atoms of ``predicates`` ("name/arity") the chapters derive for ``text``."""
    shown = tmp / "show_only.lp"
    # What it shows may be empty for this log (warnings are on).
    shown.write_text("".join(f"#show {p}. #defined {p}.\n" for p in predicates),
                     encoding="utf-8")
    files = [f for f in engine.chapter_files("tw16") if f.name != "show.lp"] + [shown]
    return {str(a) for a in engine.solve(symbols_of(reader.read(text)), "tw16", files)}


def named(text: str, tmp: Path) -> set[str]:
    """declared_win/5 and flower_win/3 as the chapters derive them for ``text``."""
    return derived(text, tmp, "declared_win/5", "flower_win/3")


def test_a_win_on_another_s_added_kong_robs_it(tmp_path: Path) -> None:
    # 台.12: 北 wins on the 白 西 adds to its pung; 西 pays.  The tile is the kong's (白 31).
    text = HEAD + "西 門前: 碰 白\n" + HAND + "紀錄:\n10 南 打 九萬\n11 西 摸 白\n" \
        "12 西 加杠 白\n13 北 和\n"
    assert named(text, tmp_path) == {'declared_win(4,"北","搶杠","西",31)'}


def test_a_win_named_on_the_discard_before_the_last_claims_that_one(tmp_path: Path) -> None:
    # 北 names 白, discarded by 南 one discard back (西's 九萬 between): 南 dealt in.
    text = HEAD + HAND + "紀錄:\n10 南 打 白\n11 西 摸 ?\n12 西 打 九萬\n13 北 和 白\n"
    assert named(text, tmp_path) == {'declared_win(4,"北","和銃","南",31)'}


def test_a_win_naming_no_tile_is_on_the_last_discard(tmp_path: Path) -> None:
    text = HEAD + HAND + "紀錄:\n10 南 打 九萬\n11 西 摸 ?\n12 西 打 白\n13 北 和\n"
    assert named(text, tmp_path) == {'declared_win(4,"北","和銃","西",31)'}


def test_laying_down_after_one_s_own_draw_is_self_drawn(tmp_path: Path) -> None:
    # 推倒 with the winner's own draw last: 自摸 on the tile drawn; nobody pays alone.
    text = HEAD + HAND + "紀錄:\n10 西 打 九萬\n11 北 摸 白\n12 北 推倒\n"
    assert named(text, tmp_path) == {'declared_win(3,"北","自摸","none",31)'}


def test_the_eighth_flower_laid_out_in_one_s_turn_is_eight_immortals(tmp_path: Path) -> None:
    # 台.29: 南 lays out its eighth flower, draws the replacement and wins on it.
    text = HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹\n紀錄:\n44 南 摸 菊\n45 南 補花 菊 補 九萬\n" \
        "46 南 和\n"
    assert named(text, tmp_path) == {'declared_win(3,"南","八仙過海","none",8)',
                                     'flower_win(3,"八仙過海",2)'}


def test_the_eighth_flower_taken_from_another_is_seven_rob_one(tmp_path: Path) -> None:
    # 台.30: 南 holds seven and takes the 菊 西 drew; 西 pays.
    text = HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹\n紀錄:\n52 西 摸 菊\n53 南 搶花 菊\n" \
        "54 南 補 五萬\n55 南 和\n"
    assert named(text, tmp_path) == {'declared_win(4,"南","七搶一","西",4)',
                                     'flower_win(4,"七搶一",2)'}


# --- What the record says of the eighth flower (asp/play/flowers.lp) ----------------------
SEVEN = "南 花: 春 夏 秋 冬 梅 蘭 竹\n"
FLOWER_FACTS = ("flower_win_unreplaced/1", "eighth_flower_from/2", "robbed_laid_flower/2",
                "flower_win_dealt/1")


def test_a_flower_win_before_the_replacement_is_unreplaced(tmp_path: Path) -> None:
    # 台.27 得花和時如未補牌而逕行表示和牌: 南 lays out the eighth (菊) and declares with no
    # replacement taken: the hand is a tile short.
    text = HEAD + SEVEN + "紀錄:\n44 南 摸 菊\n45 南 補花 菊\n46 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS) == {"flower_win_unreplaced(3)"}


def test_the_eighth_flower_kept_in_the_hand_is_unreplaced(tmp_path: Path) -> None:
    # 台.27: the eighth drawn and not laid out at all was never replaced either.
    text = HEAD + SEVEN + "紀錄:\n44 南 摸 菊\n45 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS) == {"flower_win_unreplaced(2)"}


def test_the_replacement_taken_with_the_eighth_flower_completes_it(tmp_path: Path) -> None:
    # 台.29 應補牌並和牌: the 補花 took its replacement (九萬) before the declaration.
    text = HEAD + SEVEN + "紀錄:\n44 南 摸 菊\n45 南 補花 菊 補 九萬\n46 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS) == set()


def test_a_flower_robbed_as_it_was_drawn_is_the_first_form(tmp_path: Path) -> None:
    # 台.30 →1 他人摸得第8支花牌並欲補牌時，本家得立即搶花: 西 drew 菊; 西 pays; the flower
    # never lay among 西's flowers, so the 牌面 keeps it (no robbed_laid_flower).
    # Nothing in this fragment rules out 台.28's shape (南's first turn in it, no flower laid
    # out): the record, numbered from 52, says acts came before, so open.lp counts none.
    text = HEAD + SEVEN + "紀錄:\n52 西 摸 菊\n53 南 搶花 菊\n54 南 補 五萬\n55 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS) == {'eighth_flower_from(4,"西")',
                                                      "flower_win_dealt(4)"}


def test_a_flower_robbed_from_another_s_laid_flowers_is_the_second_form(tmp_path: Path) -> None:
    # 台.30 →2 本家持6花牌他人持1花牌，本家摸得第8支花牌時，得搶花補牌: 北's 竹 (40) lay out
    # before 南's turn; 北 pays, and the 牌面 leaves 竹 out (牌面臺數照算(不含搶得之花牌)).
    text = HEAD + "南 花: 春 夏 秋 冬 梅 蘭\n北 花: 竹\n紀錄:\n60 南 摸 菊\n61 南 補花 菊\n" \
        "62 南 搶花 竹\n63 南 補 三萬\n64 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS) == {'eighth_flower_from(5,"北")',
                                                      "robbed_laid_flower(5,40)"}


def test_eight_flowers_held_at_the_first_draw_are_dealt(tmp_path: Path) -> None:
    # 台.28 起手配牌本家得8花牌 … 待屆輪序摸第1張牌時得和八仙過海: no flower laid out in the
    # record, 南's first turn; whether the record starts at the deal open.lp asks.
    text = HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹 菊\n紀錄:\n1 東 打 北\n2 南 摸 三萬\n3 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS, "flower_win/3") == {
        "flower_win_dealt(3)", 'flower_win(3,"八仙過海",0)'}


def test_seven_dealt_and_another_s_one_robbed_at_the_first_turn_are_dealt(tmp_path: Path) -> None:
    # 台.28 或得7花他人1花 … 得和七搶一: 東 was dealt 菊; 南 robs it in its first turn.
    text = HEAD + SEVEN + "東 花: 菊\n紀錄:\n1 東 打 北\n2 南 摸 三萬\n3 南 搶花 菊\n" \
        "4 南 補 五萬\n5 南 和\n"
    got = derived(text, tmp_path, *FLOWER_FACTS)
    assert {"flower_win_dealt(5)", 'eighth_flower_from(5,"東")'} <= got


def test_a_flower_robbed_after_one_s_own_discard_is_not_dealt(tmp_path: Path) -> None:
    # 台.28 is the first turn's alone: 南 discarded before robbing 西's drawn 菊.
    text = HEAD + SEVEN + "紀錄:\n1 南 打 北\n2 西 摸 菊\n3 南 搶花 菊\n4 南 補 五萬\n5 南 和\n"
    assert derived(text, tmp_path, *FLOWER_FACTS) == {'eighth_flower_from(5,"西")'}


# --- Which hand a win rests on: its own, or its eight flowers (play/flowers.lp) ----------


def rests_on(text: str, tmp: Path) -> set[str]:
    """How the win wins, its flower win and the act of its eighth flower, if any."""
    return {a for a in derived(text, tmp, "declared_win/5", "flower_win/3", "eighth_flower/2")
            if a.startswith(("declared_win(", "flower_win(", "eighth_flower("))}


def test_eight_flowers_completed_in_an_earlier_turn_leave_an_ordinary_win(
        tmp_path: Path) -> None:
    # 台.27 滿花當時未主動和牌而後如和牌時亦仍計8台: 南 laid out its eighth, took the
    # replacement and discarded instead of winning; its later 自摸 on 五萬 is no flower win.
    text = HEAD + SEVEN + "紀錄:\n44 南 摸 菊\n45 南 補花 菊 補 九萬\n46 南 打 九萬\n" \
        "47 西 打 北\n48 北 打 北\n49 東 打 北\n50 南 摸 五萬\n51 南 自摸\n"
    assert rests_on(text, tmp_path) == {
        'declared_win(8,"南","自摸","none",4)'}


def test_eight_flowers_held_before_the_record_and_a_discard_claimed_is_no_flower_win(
        tmp_path: Path) -> None:
    # 台.28: a win on eight held from the deal comes at the player's own first draw; 南
    # names 西's 九萬 instead, so the win is on that discard, and 西 pays.
    text = HEAD + "南 花: 春 夏 秋 冬 梅 蘭 竹 菊\n紀錄:\n1 西 打 九萬\n2 南 和 九萬\n"
    assert rests_on(text, tmp_path) == {
        'declared_win(2,"南","和銃","西",8)'}


def test_the_flower_robbed_in_the_turn_comes_before_the_one_laid_out(tmp_path: Path) -> None:
    # 台.30 七搶一: with six, 南 lays out its seventh (竹) and robs 北's 菊 in the same turn:
    # the eighth is the robbed one, and 北 pays; the win is on the replacement 四萬.
    text = HEAD + "南 花: 春 夏 秋 冬 梅 蘭\n北 花: 菊\n紀錄:\n60 南 摸 竹\n" \
        "61 南 補花 竹 補 三萬\n62 南 搶花 菊\n63 南 補 四萬\n64 南 和\n"
    assert rests_on(text, tmp_path) == {
        'declared_win(5,"南","七搶一","北",3)', 'flower_win(5,"七搶一",3)', "eighth_flower(5,3)"}


def test_a_win_with_seven_flowers_has_no_flower_reading(tmp_path: Path) -> None:
    # 台.29/台.30 need all eight: with seven, 南's 自摸 is an ordinary one.
    text = HEAD + SEVEN + "紀錄:\n44 南 摸 五萬\n45 南 自摸\n"
    assert rests_on(text, tmp_path) == {
        'declared_win(2,"南","自摸","none",4)'}
