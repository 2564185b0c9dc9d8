"""Words for the reasons of play/calls.lp, offences/accusations.lp and offences/wins.lp
(相公 causes, 詐和), and the shared wrong-kong reason."""

from __future__ import annotations

from clingo import Symbol

from adjudicator.ruling.reasons.words import (
    FAMILY_WORDS,
    STAGE_WORDS,
    Context,
    Render,
    _tile,
    _value,
)

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
    "wrong_kong_corrected": lambda c, s, a: (
        f"錯碰杠於補牌前即時更正，依喊碰未碰罰 1 台付予打出 {_tile(a[2])} 的 {_value(a[1])}"),
}


def _wrong_kong(c: Context, seat: str, args: list[Symbol]) -> str:
    if len(args) == 1:
        return f"錯杠者判相公（{c.act_text(args[0].number)}）"
    family = FAMILY_WORDS.get(str(_value(args[1])), str(_value(args[1])))
    stage = args[2].number
    text = f"{c.act_text(args[0].number)}的{family}並非四張相同之牌"
    if family != "暗杠":
        text += f"；發現時：{STAGE_WORDS.get(stage, str(stage))}"
    return text

