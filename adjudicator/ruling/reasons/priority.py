"""Words for play/priority.lp: 優先.1–8, 攔和, 罰則.1–2."""

from __future__ import annotations

from clingo import Symbol

from adjudicator.ruling.reasons.words import (
    Context,
    Render,
    _value,
)


# ---- 行牌規則 (asp/priority.lp): 優先.1–8, 攔和, 罰則.1–2 ------------------------------------
def _at(c: Context, sym: Symbol) -> str:
    return c.act_text(sym.number)


TEMPLATES: dict[str, Render] = {
    "pung_before_tsumo": lambda c, s, a: (
        f"碰牌之表示（{_at(c, a[0])}）早於舍牌者下家自摸之表示（{_at(c, a[1])}）：碰牌優先"),
    "tsumo_before_pung": lambda c, s, a: (
        f"自摸之表示（{_at(c, a[0])}）早於喊碰（{_at(c, a[1])}）：自摸優先"),
    "ron_before_tsumo": lambda c, s, a: (
        f"和銃之表示（{_at(c, a[0])}）早於舍牌者下家自摸之表示（{_at(c, a[1])}）：和銃優先"),
    "tsumo_before_ron": lambda c, s, a: (
        f"自摸之表示（{_at(c, a[0])}）早於和銃之表示（{_at(c, a[1])}）：自摸優先"),
    "in_row_before_pung": lambda c, s, a: (
        f"所摸之牌已入手牌列（{_at(c, a[0])}）無法辨識，之後才喊碰（{_at(c, a[1])}）：摸牌優先"),
    "pung_before_in_row": lambda c, s, a: (
        f"{s} 喊碰時（{_at(c, a[0])}），下家{_at(c, a[1])}所摸之牌尚未入手牌列：碰牌優先"),
    "ron_over_pung": lambda c, s, a: (
        f"{s} 得和{_at(c, a[0])}之牌，且未曾伸手觸及牌牆：和銃優先於碰"),
    "wall_touched": lambda c, s, a: (
        f"得和{_at(c, a[0])}之牌者已伸手摸牌並觸及牌牆（{_at(c, a[1])}），視為過水不和：碰牌優先"),
    "chow_before_ron": lambda c, s, a: (
        f"吃牌已亮搭並打牌（{_at(c, a[0])}），之後才有和銃之表示（{_at(c, a[1])}）：吃牌優先"),
    "ron_before_chow_discard": lambda c, s, a: (
        f"{s} 表示和{_at(c, a[0])}之牌時，吃牌尚未完成亮搭與打牌二動作：和銃優先"),
    "draw_discard_before_ron": lambda c, s, a: (
        f"放銃者之下家已完成摸牌與打牌（{_at(c, a[0])}），"
        f"之後才有和銃之表示（{_at(c, a[1])}）：摸牌優先"),
    "ron_before_draw_discard": lambda c, s, a: (
        f"{s} 表示和牌時，放銃者之下家{_at(c, a[0])}摸牌後尚未打牌：和銃優先"),
    "nearest_ron": lambda c, s, a: (
        f"多家和{_at(c, a[0])}之牌：{s} 離放銃者輪序較近，優先於 {_value(a[1])}（攔和）"),
    "first_ron": lambda c, s, a: (
        f"多家和{_at(c, a[0])}之牌：{s} 先表示和牌，優先於 {_value(a[1])}（解釋.攔和：先喊者和）"),
    "reached_loses": lambda c, s, a: (
        f"較近者已伸手摸牌（{_at(c, a[1])}），視為過水不和：輪序在後的 {s} 優先"),
    "wall_reached": lambda c, s, a: (
        f"{s} 得和{_at(c, a[0])}之牌，卻已伸手摸牌（{_at(c, a[1])}）：視為過水，不得和此牌"),
    "draw_returned": lambda c, s, a: (
        f"{_at(c, a[0])}之牌歸他家所得：{s} {_at(c, a[1])}所摸之牌放回牌牆（其後動作一併撤回）"),
    "pung_taken_back": lambda c, s, a: (
        f"{_at(c, a[0])}之牌由和銃者優先取得：{s} 的碰牌（{_at(c, a[1])}）收回"),
    "lost_priority": lambda c, s, a: (
        f"{_at(c, a[0])}之牌由 {_value(a[1])} 優先（{_value(a[2])}）："
        f"{s} 的和牌無效（不以詐和論）"),
    "robbed_kong_first": lambda c, s, a: (
        f"{_at(c, a[0])}加杠之牌有多家和牌：{s} 在加杠者之後最近，"
        f"{_value(a[1])} 的和牌無效（攔和）"),
    "lost_win": lambda c, s, a: (
        f"{s} 已喪失自摸或和銃優先權仍推倒手牌（{_at(c, a[0])}）：依牌面包賠三家（罰則.1）"),
}
