"""Words for the reasons of play/calls.lp, offences/accusations.lp and offences/wins.lp
(相公 causes, 詐和), and the shared wrong-kong reason."""

from __future__ import annotations

from clingo import Symbol

from adjudicator.language.seats import SEATS, distance
from adjudicator.ruling.reasons.words import (
    FAMILY_WORDS,
    STAGE_WORDS,
    Context,
    Render,
    _tile,
    _value,
)


def win_count(c: Context, a: list[Symbol], need: int) -> str:
    """A winning hand of the wrong size (缺張, 逾張): act a[0] held a[1] tiles of ``need``."""
    n = a[1].number
    if n < need:
        return (f"{c.act_text(a[0].number)}和牌時手牌連和牌之張只有 {n} 張"
                f"（門前每副計 3 張），和牌須 {need} 張：缺張")
    return (f"{c.act_text(a[0].number)}和牌時手牌連和牌之張有 {n} 張"
            f"（門前每副計 3 張），多於和牌所須的 {need} 張：逾張")


TEMPLATES: dict[str, Render] = {
    "called_not_punged": lambda c, s, a: (
        f"{c.act_text(a[0].number)}後，{s} 表示要碰卻未碰；打出者 {_value(a[1])} 不是 {s} 的上家，"
        f"罰 1 台付予 {_value(a[1])}"),
    "must_complete_pung": lambda c, s, a: (
        f"{s} 已亮出 {_tile(a[1])} 對子，依喊碰未碰但書必須履行碰牌（{c.act_text(a[0].number)}）"),
    "reported": lambda c, s, a: f"{_value(a[0])} 經舉發、自承或發現",
    "cause": lambda c, s, a: f"{_value(a[0])} 屬相公之列，經舉發或自承即為相公",
    "eye": lambda c, s, a: f"眼牌違規視同相公（{c.act_text(a[0].number)}）",
    "wrong_pung": lambda c, s, a: f"錯碰者判相公（{c.act_text(a[0].number)}）",
    "exposed_discard": lambda c, s, a: f"錯打明牌者判相公（{c.act_text(a[0].number)}）",
    "wrong_kong": lambda c, s, a: _wrong_kong(c, s, a),
    "incomplete": lambda c, s, a: f"{s} 的手牌不成和（和牌型態：五副搭子加一對將）",
    "xianggong": lambda c, s, a: f"{s} 自{c.act_text(a[0].number)}起已是相公，不得和牌",
    "hand_not_recorded": lambda c, s, a: f"紀錄未載 {_value(a[0])} 和牌時的手牌",
    "chow_before_pung": lambda c, s, a: (
        f"{c.act_text(a[0].number)}的牌，{s} 吃牌已亮搭並打出（{c.act_text(a[1].number)}），"
        f"之後才有人喊碰（{c.act_text(a[2].number)}）：吃牌優先"),
    "pung_before_chow_discard": lambda c, s, a: (
        f"{s} 喊碰時，{c.act_text(a[1].number)}的吃牌尚未打牌：碰牌優先"),
    "chow_taken_back": lambda c, s, a: (
        f"碰牌優先，{c.act_text(a[1].number)}的吃牌應收回，{c.act_text(a[0].number)}的牌歸碰者"),
    "lost_priority_pung": lambda c, s, a: (
        f"{s} 已喪失碰 {c.act_text(a[0].number)} 之牌的優先權仍執意碰牌"),
    "window": lambda c, s, a: (
        f"自{c.act_text(a[0].number)}起，其後摸序 {a[1].number} 張內他人自摸由 {s} 代位賠付"),
    "chow_not_upper": lambda c, s, a: (
        f"{s} 吃的 {_tile(a[3])} 是 {_value(a[2])} 在{c.act_text(a[1].number)}打出的；"
        f"{_value(a[2])} 是 {s} 的{_relation(s, str(_value(a[2])))}，不是上家：只能吃上家的舍牌"),
    "chow_no_run": lambda c, s, a: (
        f"{c.act_text(a[0].number)}：{_tile(a[2])} {_tile(a[3])} 配 {_tile(a[1])} 不成順子"),
    "win_short": lambda c, s, a: win_count(c, a, 17),
    "win_long": lambda c, s, a: win_count(c, a, 17),
    "kong_found": lambda c, s, a: (
        f"錯{FAMILY_WORDS.get(str(_value(a[1])), str(_value(a[1])))}作於{c.act_text(a[0].number)}，"
        f"於{c.act_text(a[2].number)}發現"),
    "wrong_kong_corrected": lambda c, s, a: (
        f"錯碰杠於補牌前即時更正，依喊碰未碰罰 1 台付予打出 {_tile(a[2])} 的 {_value(a[1])}"),
}


def _relation(seat: str, other: str) -> str:
    """What ``other`` is to ``seat`` at the table: 下家, 對家 or 上家."""
    if seat not in SEATS or other not in SEATS:
        return "他家"
    return ("本家", "下家", "對家", "上家")[distance(seat, other)]  # type: ignore[arg-type]


def _wrong_kong(c: Context, seat: str, args: list[Symbol]) -> str:
    if len(args) == 1:
        return f"錯杠者判相公（{c.act_text(args[0].number)}）"
    family = FAMILY_WORDS.get(str(_value(args[1])), str(_value(args[1])))
    stage = args[2].number
    text = f"{c.act_text(args[0].number)}的{family}並非四張相同之牌"
    if family != "暗杠":
        text += f"；發現時：{STAGE_WORDS.get(stage, str(stage))}"
    return text

