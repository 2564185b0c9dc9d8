"""Words for what the record leaves open (asp/open.lp and the chapters' choices): each
choice atom in words both ways it may be taken."""

from __future__ import annotations

from adjudicator.ruling.reasons.words import (
    AssumptionWords,
    Render,
    _actor,
    _value,
)

TEMPLATES: dict[str, Render] = {
    "record_start_unknown": lambda c, s, a: (
        f"紀錄未載起點（表頭無「起點:」，首手亦無序號），無從判斷 {_value(a[0])} "
        "此和是否仍在開局之初：天和、地和、天聽、地聽、人和須自配牌補花後起算；"
        "請向牌桌確認此前是否已有人打牌"),
    "kong_not_in_record": lambda c, s, a: (
        f"舉發 {_value(a[0])} 錯杠，但紀錄中沒有 {_value(a[0])} 的杠牌"),
}

ASSUMPTIONS: dict[str, AssumptionWords] = {
    "assume_complete": lambda c, a, v: (
        f"{c.act_text(a[0].number)}時，{_actor(c, a[0].number)} 的手牌"
        + ("已成和" if v else "未成和")),
    "assume_from_deal": lambda c, a, v: (
        f"紀錄{'自開局起，' if v else '非自開局起，'}{c.act_text(a[0].number)}"
        + ("仍在開局之初（此前未記之牌無礙）" if v else "不在開局之初")),
    "assume_passed": lambda c, a, v: (
        f"{_value(a[0])} 於{c.act_text(a[1].number)}時"
        + ("得和而未和（過水）" if v else "不能和此牌")),
    "assume_cleared": lambda c, a, v: (
        f"{_value(a[0])} 於{c.act_text(a[1].number)}所打之牌" + ("非和之牌（解除過水）" if v
                                                            else "為和之牌（過水未解除）")),
    "assume_ready": lambda c, a, v: (
        f"{_value(a[1])} 於{c.act_text(a[0].number)}時" + ("已聽牌" if v else "未聽牌")),
    "assume_after": lambda c, a, v: (
        f"{_value(a[0])} 於{c.act_text(a[1].number)}所舉之違規" + ("發生於相公之後" if v
                                                              else "發生於相公之前")),
    "assume_new": lambda c, a, v: (
        f"{_value(a[0])} 於{c.act_text(a[1].number)}所舉之違規" + ("是相公後又犯的一次" if v
                                                              else "即先前已舉之同一次")),
    "assume_round_wait": lambda c, a, v: (
        f"{c.act_text(a[0].number)}時可和之牌" + ("含" if v else "不含") + "同巡打過之牌"),
}
