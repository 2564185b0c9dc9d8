"""What a careful reader of a log would query that is no contradiction: warnings.

A stated hand whose size does not fit the moment it is stated at, a draw the record leaves
out between two lines, numbered and unnumbered lines mixed, an act out of turn, and a
record that does not say where it starts when the ruling has a question only that answers.
The record is still judged as written; these are the places where the ruling rests on a
reading of the log rather than on what it says.  Bookkeeping over the
record and the replay, like contradictions.py: it judges nothing.  ``adjudicator lint``
prints them; the JSON ruling carries them as ``warnings``.
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.analysis.replay import Timeline, replay
from adjudicator.language.incident import Act, Incident, Position
from adjudicator.language.seats import SEATS, Seat, next_seat
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.rules.families import Family
from adjudicator.rules.rulesets import named_family
from adjudicator.ruling.model import LogWarning

# A hand holds 16 tiles between turns and 17 while its holder is to discard (和牌型態),
# each laid-out set counting three; 13 and 14 in the 13+1 families (粵.摸牌): the family
# says how many (rules/families.py).  A hand stated at a moment it cannot have is likely a
# slip of the pen: 17 where its holder is not to discard, 15 or fewer where it is.
DRAWS = VERB_CLASSES["draw"]
# What moves play on: an act of the turn, or one within a 打序 (a flower laid out …).
PLAY_ON = VERB_CLASSES["turn"] | VERB_CLASSES["continues_turn"]
# What a 自摸 may follow: a draw, or a flower laid out or a kong (before their replacement).
SELF_DRAW_AFTER = DRAWS | VERB_CLASSES["continues_turn"]


def log_warnings(incident: Incident, timeline: Timeline | None = None) -> list[LogWarning]:
    """Every warning for ``incident``, in line order."""
    timeline = timeline if timeline is not None else replay(incident)
    found = [*_numbering(incident),
             *_hand_sizes(incident, timeline, named_family(incident.header.profile)),
             *_turns(incident)]
    return sorted(set(found), key=lambda w: (w.line, w.message))


# The open facts (Uncertain.term) that only the start of the record answers: the Taiwanese
# start shapes (asp/open.lp) and the gd family's own (asp/gd/start.lp).
START_TERMS = ("record_start_unknown(", "gd_start_unknown(")


def start_warnings(incident: Incident, open_terms: Iterable[str]) -> list[LogWarning]:
    """「未載起點」 only where the ruling has an open fact the start of the record would
    answer (a 天和 … 人和 that the acts before the first line could rule out)."""
    acts = incident.acts
    if not acts or not any(t.startswith(START_TERMS) for t in open_terms):
        return []
    first = f"首手為第 {acts[0].seq} 手" if acts[0].numbered else "首手亦無序號"
    return [LogWarning(acts[0].line, f"紀錄未載起點（表頭無「起點: 開局」，{first}），"
                       "本裁決因此有待查明之事（此和是否仍在開局之初）：若紀錄自開局起，"
                       "請加「起點: 開局」或在首手寫序號 1")]


def _numbering(incident: Incident) -> list[LogWarning]:
    acts = incident.acts
    numbered = [a for a in acts if a.numbered]
    if not numbered or len(numbered) == len(acts):
        return []
    first = next(a for a in acts if a.numbered != acts[0].numbered)
    return [LogWarning(first.line, "紀錄有的行有序號、有的沒有：依行序讀，序號只檢查是否遞增")]


def _hand_sizes(incident: Incident, timeline: Timeline, family: Family) -> list[LogWarning]:
    out: list[LogWarning] = []
    held, about = family.hand_tiles, family.hand_tiles + 1
    index = 0  # acts before the position
    items = [*incident.positions, *incident.record]
    for item in items:
        if isinstance(item, Act):
            index += 1
            continue
        if not isinstance(item, Position) or item.kind != "手牌":
            continue
        state = timeline.before[index][item.seat] if index < len(timeline.before) \
            else timeline.final[item.seat]
        # As stated: flowers count (a dealt hand is written with them, then replaced).
        concealed = len(item.tiles)
        sets = len(state.melds)
        size = state.stated_count()
        to_discard = _to_discard(incident, index, item.seat)
        fits = (held,) if to_discard is False else (held, about)
        if size in fits or _won_hand(incident, index, item.seat):
            continue
        with_sets = f"（連同門前 {sets} 組，每組算 3 張）" if sets else ""
        moment = {False: f"此時 {item.seat} 不是輪到打牌，手牌應為 {held} 張",
                  True: f"此時輪到 {item.seat} 打牌，手牌應為 {about} 張",
                  None: f"手牌應為 {held} 張（輪到打牌時 {about} 張）"}[to_discard]
        out.append(LogWarning(item.line, f"{item.seat} 手牌記了 {concealed} 張"
                              f"{with_sets}，合計 {size} 張；{moment}："
                              "可能筆誤，依此手牌算出的缺張、逾張只是依紀錄推算"))
    return out


# Acts after which their actor holds the extra tile until it discards: an intake, an act
# within the 打序, or the drawn tile handled.
TAKES_TURN = VERB_CLASSES["intake"] | VERB_CLASSES["continues_turn"] \
    | VERB_CLASSES["touches_drawn"]


def _to_discard(incident: Incident, index: int, seat: str) -> bool | None:
    """Whether ``seat`` is about to discard where a hand is stated after ``index`` acts:
    its latest act took a tile in and it has not discarded since.  Before the first act,
    only the dealer at the deal, or the seat whose discard the record opens with, holds
    the extra tile; None where the record cannot tell."""
    for act in reversed(incident.acts[:index]):
        if act.actor == seat and act.verb == "打":
            return False
        if act.actor == seat and act.verb in TAKES_TURN:
            return True
    if index > 0:
        return None
    if incident.from_deal:
        return seat == incident.header.dealer
    first = next((a for a in incident.acts if a.verb in TAKES_TURN or a.verb == "打"), None)
    if first is None:
        return None
    # Whoever discards first held the extra tile; a draw or claim first: nobody did.
    return first.actor == seat and first.verb == "打"


def _won_hand(incident: Incident, index: int, seat: str) -> bool:
    """A hand stated right after a win is laid down with the winning tile (17 with it)."""
    acts = incident.acts
    return 0 < index <= len(acts) and acts[index - 1].actor == seat \
        and acts[index - 1].verb in VERB_CLASSES["win"]


def _turns(incident: Incident) -> list[LogWarning]:
    """Acts out of turn that the record does not explain."""
    out: list[LogWarning] = []
    last: dict[str, str] = {}  # chair → its latest act that moved play
    discarder: Seat | None = None  # who discarded, when a discard is the latest move
    gap = False  # a number left out since the latest move
    prev_seq: int | None = None
    for act in incident.acts:
        gap = gap or (prev_seq is not None and act.seq != prev_seq + 1)
        prev_seq = act.seq
        if act.actor not in SEATS:
            continue
        seat: Seat = act.actor  # type: ignore[assignment]
        before = last.get(seat)
        other = discarder if discarder not in (None, seat) else None
        if act.verb == "打" and other is not None:
            out.append(LogWarning(act.line, f"{seat} 打牌，但 {other} 打牌後未記 {seat} 摸牌或"
                                  f"吃碰：不是輪到 {seat} 打牌（無專管條款；牌數照紀錄算）"))
        elif act.verb == "打" and before == "打":
            out.append(LogWarning(act.line,
                                  f"{seat} 連續打牌，中間未記摸牌或吃碰："
                                  "打牌不在其輪序，或紀錄漏記一次摸牌（請與牌桌核對）"))
        if act.verb == "摸" and other is not None and seat != next_seat(other):
            out.append(LogWarning(act.line, (
                f"{seat} 摸牌，但 {other} 打牌後應由 {next_seat(other)} 摸牌："
                + ("序號中斷，" if gap else "") + f"可能漏記 {next_seat(other)} 等人的摸打；"
                "若無漏記，即是搶摸（相公），請向牌桌確認（未予判罰）")))
        if act.verb == "自摸" and before not in SELF_DRAW_AFTER and before is not None:
            out.append(LogWarning(act.line, f"{seat} 宣告自摸，但此前最後一手不是自己的摸牌或補牌"))
        if act.verb in PLAY_ON:
            last[seat] = act.verb
        elif act.verb == "入手":
            last[seat] = before or "入手"
        if act.verb in PLAY_ON:
            discarder, gap = (seat if act.verb == "打" else None), False
    return out
