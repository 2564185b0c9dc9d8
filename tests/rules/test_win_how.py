"""How a declared win wins, as the chapters name it from what the record states.

win_facts.py states the win, its tile, whether the winner's own draw or another's 加杠
came just before it, and when the eighth flower came; asp/core.lp and asp/play/flowers.lp
name the win (自摸, 和銃, 搶杠, 八仙過海, 七搶一) and the chair that pays for it.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.language import reader
from adjudicator.rules import engine
from adjudicator.ruling.judge import symbols_of

HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"
HAND = "北 手牌: 一二三萬 四五六萬 七八九萬 二三四筒 六七八索 白\n"


def named(text: str, tmp: Path) -> set[str]:
    """declared_win/5 and flower_win/3 as the chapters derive them for ``text``."""
    shown = tmp / "show_only.lp"
    # What it shows may be empty for this log (warnings are on).
    shown.write_text("#show declared_win/5. #show flower_win/3.\n"
                     "#defined declared_win/5. #defined flower_win/3.\n", encoding="utf-8")
    files = [f for f in engine.chapter_files("tw16") if f.name != "show.lp"] + [shown]
    return {str(a) for a in engine.solve(symbols_of(reader.read(text)), "tw16", files)}


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
