"""Words for the reasons of the Guangdong chapters (asp/gd/wins.lp, asp/gd/priority.lp)."""

from __future__ import annotations

from clingo import Symbol

from adjudicator.ruling.reasons.general import win_count
from adjudicator.ruling.reasons.words import Context, Render


def _act(c: Context, term: Symbol) -> str:
    return c.act_text(term.number)


def _pung_over_chow(c: Context, s: str, a: list[Symbol]) -> str:
    """粵.摸牌: discard a[0] was chowed (a[1]) and punged by ``s``."""
    return f"{_act(c, a[0])}的牌有人吃（{_act(c, a[1])}）也有人碰：碰比吃優先，{s} 碰牌"


def _missed(c: Context, s: str, a: list[Symbol]) -> str:
    """粵.漏和: ``s`` let discard a[0] pass and has not moved since."""
    return (f"{s} 在{_act(c, a[0])}時可和而未和，其後未再動牌（碰、上、杠、摸）："
            "漏和，不得和同一張牌")


TEMPLATES: dict[str, Render] = {
    "gd_incomplete": lambda c, s, a: f"{s} 的手牌不成和（和牌型態：四副搭子加一對將，或十三幺）",
    # 粵.摸牌: fourteen with the winning tile.
    "gd_count": lambda c, s, a: win_count(c, a, 14),
    "gd_closed_kong": lambda c, s, a: f"{_act(c, a[0])}是暗杠，暗杠不可搶杠和",
    "gd_pung_over_chow": _pung_over_chow,
    "gd_missed": _missed,
}
