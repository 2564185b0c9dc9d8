"""Words for the reasons of the Guangdong chapters (asp/gd/wins.lp)."""

from __future__ import annotations

from adjudicator.ruling.reasons.general import win_count
from adjudicator.ruling.reasons.words import Render

TEMPLATES: dict[str, Render] = {
    "gd_incomplete": lambda c, s, a: (
        f"{s} 的手牌不成和（和牌型態：四副搭子加一對將，或十三幺）"),
    # 粵.摸牌: fourteen with the winning tile.
    "gd_count": lambda c, s, a: win_count(c, a, 14),
    "gd_closed_kong": lambda c, s, a: (
        f"{c.act_text(a[0].number)}是暗杠，暗杠不可搶杠和"),
    "gd_pung_over_chow": lambda c, s, a: (
        f"{c.act_text(a[0].number)}的牌有人吃（{c.act_text(a[1].number)}）也有人碰："
        f"碰比吃優先，{s} 碰牌"),
    "gd_missed": lambda c, s, a: (
        f"{s} 在{c.act_text(a[0].number)}時可和而未和，其後未再動牌（碰、上、杠、摸）："
        f"漏和，不得和同一張牌"),
}
