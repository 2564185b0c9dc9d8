"""Words for the reasons the rules derive.

Each reason is an atom argument such as ``called_not_punged(3, "東", 12)``; this module only
puts it into words.  It never adds a conclusion the answer set does not hold.
"""

from __future__ import annotations

from collections.abc import Callable

from clingo import Symbol, SymbolType

from adjudicator.language import tiles as T
from adjudicator.language.incident import Act
from adjudicator.language.seats import SEATS, distance
from adjudicator.report.model import act_words

STAGE_WORDS = {
    0: "補牌前即時更正",
    1: "已補牌、未插入手牌",
    2: "補牌已插入手牌、尚未打牌",
    3: "已補牌並已打牌（既遂）",
}
FAMILY_WORDS = {"暗": "暗杠", "加": "加杠", "碰": "碰杠"}


class Context:
    """What the words need from the log: acts by their place in the record."""

    def __init__(self, acts: list[Act]) -> None:
        self.acts = acts

    def seq(self, index: int) -> int | None:
        return self.acts[index - 1].seq if 0 < index <= len(self.acts) else None

    def act_text(self, index: int) -> str:
        if not 0 < index <= len(self.acts):
            return "（紀錄外）"
        act = self.acts[index - 1]
        return f"第 {act.seq} 手「{act_words(act)}」"


def _value(sym: Symbol) -> int | str:
    if sym.type == SymbolType.Number:
        return sym.number
    if sym.type == SymbolType.String:
        return sym.string
    return str(sym)


def _tile(sym: Symbol) -> str:
    return T.name(sym.number)


Render = Callable[[Context, str, list[Symbol]], str]

_TEMPLATES: dict[str, Render] = {
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
    "win_short": lambda c, s, a: (
        f"{c.act_text(a[0].number)}和牌時手牌連和牌之張只有 {a[1].number} 張"
        f"（門前每副計 3 張），和牌須 17 張：缺張"),
    "win_long": lambda c, s, a: (
        f"{c.act_text(a[0].number)}和牌時手牌連和牌之張有 {a[1].number} 張"
        f"（門前每副計 3 張），多於和牌所須的 17 張：逾張"),
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


def render(ctx: Context, seat: str, why: Symbol) -> str:
    """One reason in words; an unknown reason is shown as the atom itself.

    ``as(Seat, Why)`` renders ``Why`` about another player than the finding's (a premise
    that is someone else's conclusion, e.g. the 優先 a 罰則.2 rests on).
    """
    if why.type == SymbolType.Function and why.name == "as" and len(why.arguments) == 2:
        return render(ctx, why.arguments[0].string, why.arguments[1])
    if why.type == SymbolType.Function and why.name in _TEMPLATES:
        return _TEMPLATES[why.name](ctx, seat, list(why.arguments))
    return str(why)


# --- What the record leaves open (asp/open.lp) -------------------------------------------
# An open fact's term is rendered by a template above (hand_not_recorded …); each choice
# atom of open.lp has words for both ways it may be taken.
_TEMPLATES.setdefault("record_start_unknown", lambda c, s, a: (
    f"紀錄未載起點（表頭無「起點:」，首手亦無序號），無從判斷 {_value(a[0])} "
    "是否於配牌後即和牌（天和）"))
_TEMPLATES.setdefault("kong_not_in_record", lambda c, s, a: (
    f"舉發 {_value(a[0])} 錯杠，但紀錄中沒有 {_value(a[0])} 的杠牌"))

AssumptionWords = Callable[[Context, list[Symbol], bool], str]


def _actor(c: Context, index: int) -> str:
    return str(c.acts[index - 1].actor) if 0 < index <= len(c.acts) else "?"


_ASSUMPTIONS: dict[str, AssumptionWords] = {
    "assume_complete": lambda c, a, v: (
        f"{c.act_text(a[0].number)}時，{_actor(c, a[0].number)} 的手牌"
        + ("已成和" if v else "未成和")),
    "assume_from_deal": lambda c, a, v: (
        f"紀錄{'自開局起，' if v else '非自開局起，'}{c.act_text(a[0].number)}"
        + ("是配牌後之第一手" if v else "不是配牌後之第一手")),
}


def render_assumption(ctx: Context, choice: Symbol, value: bool) -> str:
    """One way an open fact may be, in words; an unknown choice is shown as the atom."""
    words = _ASSUMPTIONS.get(choice.name) if choice.type == SymbolType.Function else None
    if words is not None:
        return words(ctx, list(choice.arguments), value)
    return f"{choice}" if value else f"非 {choice}"


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


_ISSUE5_TEMPLATES: dict[str, Render] = {
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
for _name, _words in _ISSUE5_TEMPLATES.items():
    _TEMPLATES.setdefault(_name, _words)


# ---- 行牌規則 (asp/priority.lp): 優先.1–8, 攔和, 罰則.1–2 ------------------------------------
def _at(c: Context, sym: Symbol) -> str:
    return c.act_text(sym.number)


_PRIORITY_TEMPLATES: dict[str, Render] = {
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
for _name, _words in _PRIORITY_TEMPLATES.items():
    _TEMPLATES.setdefault(_name, _words)


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


_OFFENCE_TEMPLATES: dict[str, Render] = {
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
}
for _name, _words in _OFFENCE_TEMPLATES.items():
    _TEMPLATES.setdefault(_name, _words)
_TEMPLATES.setdefault("offence_time_unknown", lambda c, s, a: (
    f"{_value(a[0])} 已是相公後才經舉發、自承或發現 {_value(a[1])}，紀錄未載該行為發生於相公之前"
    f"或之後，無從判斷是否相公二度違規"))
_TEMPLATES.setdefault("pung_passed", lambda c, s, a: (
    f"{s} 可碰{c.act_text(a[0].number)}之牌而未碰，未再摸牌前又碰同牌"
    f"（{c.act_text(a[1].number)}；平台.過水）"))
# Each way an open fact of the offence chapters may be taken (asp/open.lp choices).
for _name, _assume in {
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
    "assume_round_wait": lambda c, a, v: (
        f"{c.act_text(a[0].number)}時可和之牌" + ("含" if v else "不含") + "同巡打過之牌"),
}.items():
    _ASSUMPTIONS.setdefault(_name, _assume)
