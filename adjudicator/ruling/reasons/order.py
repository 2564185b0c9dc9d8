"""Words for the offences that change the order of play and what follows from them:
offences/wrong_kong.lp, wrong_pung.lp, exposed_discard.lp, settlement/substitute.lp."""

from __future__ import annotations

from clingo import Symbol

from adjudicator.ruling.reasons.words import (
    Context,
    Render,
    _tile,
    _value,
)

# --- Wrong kongs, wrong pungs, wrong exposed discards, 代位賠付 (issue 5) -----------------
# asp/wrong_kong.lp, asp/wrong_pung.lp, asp/exposed_discard.lp, asp/substitute.lp.
PUNG_STAGE_WORDS = {1: "未遂：碰後打出之牌無人反應，下家摸牌尚未入手",
                    2: "既遂：碰後打出之牌已被吃碰並舍牌，或下家摸牌已入手"}
EXPOSED_STAGE_WORDS = {
    1: "舍牌入海無人吃碰或叫和",
    2: "舍牌入海已有人亮牌欲吃碰",
    3: "舍牌入海有人和牌",
    4: "無人糾正而繼續行牌",
}


def _known_tile(sym: Symbol, unknown: str = "那張牌") -> str:
    return unknown if sym.number < 0 else _tile(sym)


def _drawn(c: Context, sym: Symbol) -> str:
    return f"{c.act_text(sym.number)}摸來的牌" if sym.number > 0 else "（本打序未摸牌）"


def _pays_for(c: Context, s: str, a: list[Symbol]) -> str:
    share = "" if a[1].number == 1 else f"，與另 {a[1].number - 1} 人平均分擔"
    return f"{c.act_text(a[0].number)}的和牌落在此代位範圍內：由 {s} 代應付者賠付{share}"


TEMPLATES: dict[str, Render] = {
    "kong_end_window": lambda c, s, a: (
        f"自{c.act_text(a[0].number)}起本盤內，涉及杠上之自摸（杠上開花）與杠尾補牌原牌打出之放銃，"
        f"由 {s} 代位賠付"),
    "kong_tile_window": lambda c, s, a: (
        f"{c.act_text(a[0].number)}時置回杠上的那張牌，其後被補得而自摸或原牌打出放銃，"
        f"由 {s} 代位賠付"),
    "pays_for": _pays_for,
    "replacement_back": lambda c, s, a: (
        f"將{c.act_text(a[0].number)}補得的{_known_tile(a[1])}歸回杠上"),
    "random_back": lambda c, s, a: (
        f"{c.act_text(a[0].number)}補得的牌已插入手牌而無法確定哪一張："
        f"由他人自 {s} 的手牌任抽一張置回杠上"),
    "added_back": lambda c, s, a: (
        f"{c.act_text(a[0].number)}加上的 {_tile(a[1])} 收回手牌，原碰仍為明刻"),
    "discard_back": lambda c, s, a: (
        f"{c.act_text(a[0].number)}的 {_tile(a[2])} 歸還為 {_value(a[1])} 的舍牌"),
    "dead_triplet": lambda c, s, a: (
        f"欲碰杠之刻子（{_tile(a[1])}）見光死：應亮於門前，不得作為安張打出"),
    "order_kept": lambda c, s, a: f"牌局依{c.act_text(a[0].number)}之前的原順序繼續",
    "new_order": lambda c, s, a: (
        f"錯杠視為既遂，不復原：牌局依{c.act_text(a[0].number)}後的新順序繼續"),
    "kong_robbed": lambda c, s, a: (
        f"加杠之牌已被搶杠（{c.act_text(a[1].number)}），不得更正免罰：搶杠和成立，由 {s} 照付"),
    "no_liability": lambda c, s, a: (
        f"{c.act_text(a[1].number)}非涉杠上之和牌：錯暗杠者除相公外無賠付責任"),
    "wrong_kong_tail": lambda c, s, a: (
        f"{c.act_text(a[0].number)}的錯杠既遂，且在本盤最後可摸之牌八張以內：依牌面包賠三家，本盤終止"),
    "wrong_concealed_tail": lambda c, s, a: (
        f"{c.act_text(a[0].number)}的暗杠在牌牆摸序末八張以內，荒局時檢出錯誤：依牌面包賠三家"),
    "wrong_concealed_kong": lambda c, s, a: (
        f"{s} 的{c.act_text(a[0].number)}並非四張相同之牌（錯暗杠），手牌不成和"),
    "wrong_pung_stage": lambda c, s, a: (
        f"{c.act_text(a[0].number)}的碰牌錯誤；發現時：{PUNG_STAGE_WORDS.get(a[1].number, '?')}"),
    "undo_pung": lambda c, s, a: (
        f"撤回{c.act_text(a[0].number)}：兩張收回手牌，{_tile(a[2])} 歸還為 {_value(a[1])} 的舍牌，"
        f"由 {_value(a[1])} 之下家依原順序繼續"),
    "take_back_discard": lambda c, s, a: (
        f"碰後打出的 {_tile(a[1])}（{c.act_text(a[0].number)}）收回 {s} 的手牌"),
    "exposed_stage": lambda c, s, a: (
        f"{c.act_text(a[0].number)}是自門前已吃碰之明牌打出，又無法自手牌取出同一牌復原；"
        f"發現時：{EXPOSED_STAGE_WORDS.get(a[1].number, '?')}"),
    "restore_exposed": lambda c, s, a: (
        f"{_tile(a[1])} 放回門前原搭，改打正確的牌接受吃碰銃考驗；拿不出正確的牌則打出"
        f"{_drawn(c, a[2])}"),
    "claim_void": lambda c, s, a: f"不得吃碰{c.act_text(a[0].number)}這張錯誤舍牌",
    "discard_drawn": lambda c, s, a: (
        f"和牌照付後，{_tile(a[1])} 放回門前原搭，並須將{_drawn(c, a[2])}再打出；"
        f"如也放銃再賠付一次，本盤結束"),
    "replacement_unclear": lambda c, s, a: (
        f"紀錄未載 {_value(a[0])} 於{c.act_text(a[1].number)}補得何牌，"
        f"無從判斷放銃之牌是否為原牌打出"),
    "concealed_kong_unchecked": lambda c, s, a: (
        f"紀錄未載 {_value(a[0])} 於{c.act_text(a[1].number)}所蓋四張，無從判斷是否錯暗杠"),
    "wall_unknown": lambda c, s, a: (
        f"紀錄未載牌牆張數，無從判斷{c.act_text(a[0].number)}是否在最後可摸之牌八張以內"),
    "pung_not_in_record": lambda c, s, a: (
        f"舉發 {_value(a[0])} 錯碰，但紀錄中沒有 {_value(a[0])} 的碰牌"),
    "exposed_not_in_record": lambda c, s, a: (
        f"舉發 {_value(a[0])} 錯打明牌，但紀錄中沒有 {_value(a[0])} 的舍牌"),
}
