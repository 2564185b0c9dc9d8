"""Reasons say the specific thing the engine knows: the tile a wrong-seat chow took and
from whom, 缺張 or 逾張 by name in a 詐和, where a wrong concealed kong was made and where it
was found, and what a 強制復原 puts back."""

from __future__ import annotations

from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import Reason, Ruling

HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"


def _texts(ruling: Ruling, kind: str) -> list[str]:
    def walk(r: Reason) -> list[str]:
        return [r.text, *(t for p in r.premises for t in walk(p))]

    return [t for f in ruling.findings if f.kind == kind for r in f.reasons for t in walk(r)]


def test_a_wrong_seat_chow_names_the_tile_and_whom_it_came_from() -> None:
    ruling = judge_text(HEAD + "紀錄:\n10 東 打 五筒\n11 西 吃 五筒 用 六筒 七筒\n12 西 打 九萬\n")
    texts = _texts(ruling, "相公")
    assert any("西 吃的 五筒 是 東 在第 10 手「東 打 五筒」打出的" in t and "對家" in t
               for t in texts), texts
    # 北 chowing 東's tile: 東 plays after 北, so it is 北's 下家.
    ruling = judge_text(HEAD + "紀錄:\n10 東 打 五筒\n11 北 吃 五筒 用 六筒 七筒\n")
    assert any("東 是 北 的下家" in t for t in _texts(ruling, "相公"))


def test_a_chow_that_is_no_run_names_its_tiles() -> None:
    ruling = judge_text(HEAD + "紀錄:\n10 東 打 五筒\n11 南 吃 五筒 用 六筒 九筒\n")
    assert any("六筒 九筒 配 五筒 不成順子" in t for t in _texts(ruling, "相公"))


def _false_win(hand: str) -> list[str]:
    return _texts(judge_text(HEAD + f"西 手牌: {hand}\n紀錄:\n40 東 打 五筒\n41 西 和 五筒\n"),
                  "詐和")


def test_a_false_win_names_a_short_hand() -> None:
    texts = _false_win("一二三萬 四五六萬 二三四筒 六七八索 五索 三四筒")
    assert any(t.endswith("只有 16 張（門前每副計 3 張），和牌須 17 張：缺張") for t in texts)
    assert not any("逾張" in t for t in texts)


def test_a_false_win_names_a_long_hand() -> None:
    texts = _false_win("一二三萬 四五六萬 二三四筒 六七八索 五五五索 三四筒")
    assert any("有 18 張" in t and t.endswith("逾張") for t in texts)
    assert not any("缺張" in t for t in texts)


def test_a_right_sized_false_win_names_neither() -> None:
    texts = _false_win("一二三萬 四五六萬 二三四筒 六七八索 五五索 三五筒")
    assert texts and not any("缺張" in t or "逾張" in t for t in texts)


def test_a_wrong_concealed_kong_names_where_it_was_made_and_found() -> None:
    ruling = judge_text("規則: tw16\n莊家: 東\n紀錄:\n40 北 摸 五萬\n"
                        "41 北 暗杠 五萬 五萬 五萬 六萬\n42 北 補 ?\n43 北 打 一索\n"
                        "50 裁判 檢查 暗杠\n")
    assert ("錯暗杠作於第 41 手「北 暗杠 五萬 五萬 五萬 六萬」，於第 50 手「裁判 檢查 暗杠」發現"
            in _texts(ruling, "錯杠"))


def test_a_forced_restore_says_what_goes_back() -> None:
    ruling = judge_text(HEAD + "紀錄:\n11 東 打 三萬\n12 南 碰 三萬\n13 南 打 九筒\n14 西 摸\n"
                        "15 西 舉發 南 錯碰\n")
    text = " ".join(_texts(ruling, "強制復原"))
    assert "三萬 歸還為 東 的舍牌" in text and "九筒" in text and "收回 南 的手牌" in text
