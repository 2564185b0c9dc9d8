"""Words for the offence chapters: offences/xianggong.lp, passwater.lp, eye.lp,
prohibitions.lp, play/flowers.lp, settlement/compensation.lp."""

from __future__ import annotations

from clingo import Symbol

from adjudicator.ruling.reasons.words import (
    Context,
    Render,
    _value,
)

# ---- Offences (issue 4): asp/xianggong.lp, passwater.lp, eye.lp, prohibitions.lp, ------
# flowers.lp, compensation.lp.
PROHIBITION_WORDS = {
    1: "吃牌或碰牌之後接著開杠",
    2: "以碰杠之補牌自摸",
    3: "碰杠補牌之後接著暗杠",
    4: "打序非始於摸牌而自摸",
    5: "靠張後暗杠補牌自摸，可和之牌含同巡打過之牌",
    6: "碰牌後打出同牌",
    7: "牌牆摸序末三張內吃、碰或碰杠",
    8: "外露之暗牌仍在手中而吃碰杠或和銃",
}
CAUSE_WORDS = {
    "花牌打出": "打出花牌",
    "花牌未補": "摸得花牌未即時補花",
    "門牌遲摸": "莊家他人補花後才抓門牌，恰為花牌（應禁止補牌並判相公）",
    "錯位摸補": "摸補位置錯誤（應於杠尾補牌卻自牌牆摸牌，或無故補牌）",
    "搶摸": "他家打序未完即摸牌",
    "錯吃碰杠": "吃非上家之舍牌，或吃成之三張非順子",
    "吃入打出": "吃牌後打出吃入之同牌或絡牌",
    "打出吃入": "同巡內吃入本家前一舍牌之同牌或絡牌",
    # Counted from a hand the record states: the offence rests on that statement's size.
    "缺張": "打牌後手牌不足十六張（缺張；依紀錄所記手牌張數推算）",
    "逾張": "打牌後手牌多於十六張（逾張；依紀錄所記手牌張數推算）",
}
DISTURB_WORDS = {"牌牆": "牌牆", "手牌": "他人手牌"}


def _disturbed_what(a: list[Symbol]) -> str:
    what, whose = str(_value(a[0])), str(_value(a[1]))
    if what == "手牌" and whose != "none":
        return f" {whose} 的手牌"
    return DISTURB_WORDS.get(what, what)


def _act_cause(c: Context, s: str, a: list[Symbol]) -> str:
    cause = str(_value(a[0]))
    return f"{c.act_text(a[1].number)}：{CAUSE_WORDS.get(cause, cause)}，屬相公之列"


TEMPLATES: dict[str, Render] = {
    "act_cause": _act_cause,
    "xianggong_twice": lambda c, s, a: (
        f"{s} 自{c.act_text(a[0].number)}起已是相公，{c.act_text(a[1].number)}又違規："
        f"相公二度違規，依底注加牌面台數包賠三家"),
    "second_copy_pung": lambda c, s, a: (
        f"{c.act_text(a[1].number)}：所碰之{c.act_text(a[0].number)}是同一巡內出現的第二張"
        "同牌，不得碰牌（碰牌）"),
    "prohibited": lambda c, s, a: (
        f"{c.act_text(a[1].number)}：{PROHIBITION_WORDS.get(a[0].number, '?')}"
        f"（禁制.{a[0].number}）"),
    "kong_on_last": lambda c, s, a: (
        f"{s} 於{c.act_text(a[0].number)}摸得海底牌，須打出（或和），不得開杠或補花"),
    "passed_last": lambda c, s, a: f"{s} 於{c.act_text(a[0].number)}棄摸海底牌：平台規定須摸須打",
    "must_discard_last": lambda c, s, a: "該動作無效，應復原並打出海底牌",
    "last_three": lambda c, s, a: (
        f"{s} 於{c.act_text(a[0].number)}在末三張內吃碰或碰杠，其和牌以詐和處理（平台.末三張）"),
    "passed": lambda c, s, a: (
        f"{s} 得和{c.act_text(a[0].number)}之牌而未和（{c.act_text(a[1].number)}）：過水，"
        f"打出（或加杠）一張非和之牌前不得和牌"
        if a[0].number != a[1].number else f"{s} 經舉發、自承或發現過水"),
    "pass_clear_unknown": lambda c, s, a: (
        f"紀錄未載 {_value(a[0])} 於{c.act_text(a[1].number)}時的手牌，"
        f"無從判斷所打（或加杠）之牌是否非和之牌、過水是否已解除"),
    "pass_unknown": lambda c, s, a: (
        f"紀錄未載 {_value(a[0])} 於{c.act_text(a[1].number)}時的手牌，無從判斷其是否得和而過水"),
    "kong_waits_unknown": lambda c, s, a: (
        f"紀錄未載 {_value(a[0])} 於{c.act_text(a[1].number)}暗杠時的手牌，"
        f"無從判斷可和之牌是否含同巡打過之牌（禁制.5）"),
    "flower_unreplaced": lambda c, s, a: (
        f"{_value(a[0])} 得花和未補牌即表示和牌，手牌不足十七張：和牌無效，牌局復原繼續"),
    "eye_not_ready": lambda c, s, a: f"{s} 未聽牌而眼牌（{c.act_text(a[0].number)}），計違規一次",
    "eye_changed": lambda c, s, a: f"{s} 眼牌後換牌（{c.act_text(a[0].number)}）",
    "eye_kong": lambda c, s, a: f"{s} 眼牌後開杠（{c.act_text(a[0].number)}）",
    "eye_touched": lambda c, s, a: (
        f"{s} 眼牌後摸得或補得之牌靠入手牌（{c.act_text(a[0].number)}）"),
    "eye_passed_last": lambda c, s, a: f"{s} 眼牌後棄摸海底牌（{c.act_text(a[0].number)}）",
    "eye_not_as_drawn": lambda c, s, a: (
        f"{s} 眼牌後{c.act_text(a[0].number)}摸得之牌未成和，卻未原牌打出"
        f"（{c.act_text(a[1].number)}）"),
    "eye_flower_passed": lambda c, s, a: (
        f"{s} 眼牌中已集滿八花而未花和（{c.act_text(a[0].number)}）：過水"),
    "eye_twice": lambda c, s, a: (
        f"{s} 眼牌違規二次（{c.act_text(a[0].number)}、{c.act_text(a[1].number)}）："
        f"就其底注與台數包賠三家，莊連拉照算"),
    "eye_pass_win": lambda c, s, a: (
        f"{s} 眼牌和牌（{c.act_text(a[1].number)}），回溯發現曾經過水"
        f"（{c.act_text(a[0].number)}）：包賠"),
    "eye_ready_unknown": lambda c, s, a: (
        f"紀錄未載 {_value(a[0])} 眼牌時的手牌，無從判斷是否已聽牌"),
    "disturbed": lambda c, s, a: (
        f"{s} 弄亂{_disturbed_what(a)}致無法恢復"
        f"（{c.act_text(a[2].number)}）：依底注加牌面台數包賠三家"),
    "offence_time_unknown": lambda c, s, a: (
    f"{_value(a[0])} 已是相公後才經舉發、自承或發現 {_value(a[1])}，紀錄未載該行為發生於相公之前"
    f"或之後，無從判斷是否相公二度違規"),
    "offence_repeat_unknown": lambda c, s, a: (
    f"{_value(a[0])} 已因 {_value(a[1])} 成相公，其後又經舉發、自承或發現 {_value(a[1])}：紀錄未載"
    f"這是同一次違規再被指出，還是相公後又犯一次，無從判斷是否相公二度違規；請向牌桌確認"),
    "pung_passed": lambda c, s, a: (
    f"{s} 可碰{c.act_text(a[0].number)}之牌而未碰，未再摸牌前又碰同牌"
    f"（{c.act_text(a[1].number)}；平台.過水）"),
}
