"""Per-act facts about the hands: what each player's known tiles could do at each act.

This is hand combinatorics and bookkeeping, not judgement: whether a player *could* have
won on a discard, whether a discarded tile was one its hand waited on, whether a declared
ready hand was ready.  What follows from that (過水, 眼牌 violations, 缺張 …) is decided by
the rules in asp/ (passwater.lp, eye.lp, xianggong.lp, prohibitions.lp).

What the tiles allow comes whole from the hand picture (analysis/picture.py), made once
per Incident; this module only states it.  Where the picture has no hand (it is not in the
record), the fact says so (``hand_unknown``) and the rules leave the point open.

Facts (I an act's place in the record, S a chair, T a tile, Form "std" or "ligu"):
  wins_on(I, S, Form)       the tile discarded (or added by 加杠) at act I completes S's hand
  could_pung(I, S)          S holds a pair of the tile discarded at act I
  holds_concealed(I, S, T)  S held T among its concealed tiles just before its discard I
                            (錯打明牌: 又無法自手牌取出同一牌)
  tile_not_win(I, S)        S's own discard / 加杠 at I is not a tile its hand (without it)
                            waits on (解除過水: 打出（或加杠）一張非和之牌)
  complete_after(I, S, Form)   after S's draw at I the hand is complete (S could 自摸)
  ready(I, S, Form) / not_ready(I, S)   S's hand at its 聽/眼牌 act I is 聽牌 / is not
  wait_after(I, S, T)       after S's 暗杠 at I the hand waits on T (禁制.5)
  hand_unknown(I, S)        the hand needed at act I is not in the record
  counted_hand(I, S, N)     after S's discard at I it holds N tiles (concealed + 3 per set),
                            counted from a stated hand through a record with no gap
  flower_shown(S, F, From, Until)  meld_shown(S, Kind, T, From, Until)   S's flower F, a set
                            S has laid out (T its claimed tile, or its lowest), lies face up
                            before every act I with From <= I < Until (Until: the last
                            act + 1 if it still does at the end)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from clingo import Symbol

from adjudicator.analysis.hand_forms import Forms, Hand
from adjudicator.analysis.picture import HandPicture, Offer
from adjudicator.analysis.replay import HandState, Timeline, laid_statement
from adjudicator.facts.record import fact
from adjudicator.facts.win_facts import DeclaredWin
from adjudicator.language import tiles as T
from adjudicator.language.incident import Act, Incident, Meld, Position
from adjudicator.language.seats import SEATS, Seat
from adjudicator.language.vocabulary import VERB_CLASSES


def win_anchors(wins: Iterable[DeclaredWin]) -> Mapping[tuple[int, Seat], Hand]:
    """The winner's hand just before each declared win, where the win shows it (what the
    hand picture works earlier hands back from)."""
    out: dict[tuple[int, Seat], Hand] = {}
    for w in wins:
        h = w.hand
        if h is None or not h.concealed:
            continue
        concealed = [t for t in h.concealed if 0 <= t < T.N_PLAYING]
        drawn = w.in_hand and h.winning_tile is not None
        if drawn and h.winning_tile is not None and 0 <= h.winning_tile < T.N_PLAYING:
            concealed.append(h.winning_tile)
        melds = tuple(m if isinstance(m, Meld) else Meld(m[0], tuple(m[1])) for m in h.exposed)
        out[(w.index, w.seat)] = Hand(tuple(sorted(concealed)), melds)
    return out


# ---------------------------------------------------------------------------------------
# The facts of the hand picture


def _yes_or_no(i: int, seat: Seat, forms: Forms | None, yes: str | None,
               no: str | None) -> Iterator[Symbol]:
    """``yes`` once per form the hand takes, or ``no``; ``hand_unknown`` when the hand is
    not known (and nothing for a side no rule reads: each name given is one asp/inputs.lp
    declares)."""
    if forms is None:
        yield fact("hand_unknown", i, seat)
    elif forms and yes:
        for form in forms:
            yield fact(yes, i, seat, form)
    elif not forms and no:
        yield fact(no, i, seat)


def _offer_facts(i: int, actor: Seat, offer: Offer) -> Iterator[Symbol]:
    """A discard or 加杠 tile: could each other player win on it; was it one the giver's
    hand waits on (解除過水: 打出（或加杠）一張非和之牌)."""
    if offer.tile is None or offer.wins is None:
        # The tile is not named: whether it was one the hand waits on cannot be told.
        yield fact("hand_unknown", i, actor)
        return
    for seat in SEATS:
        if seat == actor:
            yield from _yes_or_no(i, seat, offer.own, None, "tile_not_win")
            continue
        if seat in offer.pairs:
            yield fact("could_pung", i, seat)
        yield from _yes_or_no(i, seat, offer.wins[seat], "wins_on", None)


def _kong_facts(i: int, seat: Seat, waits: tuple[int, ...] | None) -> Iterator[Symbol]:
    """禁制.5: what the hand waits on once the concealed kong is laid (before its replacement)."""
    if waits is None:
        yield fact("hand_unknown", i, seat)
        return
    for t in waits:
        yield fact("wait_after", i, seat, t)


def act_hand_facts(incident: Incident, hands: HandPicture) -> Iterator[Symbol]:
    for i, act in enumerate(incident.acts, 1):
        seat: Seat = act.actor  # type: ignore[assignment]
        if i in hands.offers:
            yield from _offer_facts(i, seat, hands.offers[i])
        elif i in hands.drawn:
            yield from _yes_or_no(i, seat, hands.drawn[i], "complete_after", None)
        elif i in hands.ready:
            yield from _yes_or_no(i, seat, hands.ready[i], "ready", "not_ready")
        if i in hands.kong_waits:
            yield from _kong_facts(i, seat, hands.kong_waits[i])


# ---------------------------------------------------------------------------------------
# Counting tiles (缺張 / 逾張) and what lies face up


def _gaps(incident: Incident) -> set[int]:
    """Acts before which the record skips sequence numbers (acts left out of the record)."""
    acts = incident.acts
    return {i for i in range(2, len(acts) + 1) if acts[i - 1].seq != acts[i - 2].seq + 1}


def _anchors(incident: Incident) -> dict[Seat, list[int]]:
    """Per chair, the act indices after which its whole concealed hand was stated (0: start)."""
    out: dict[Seat, list[int]] = {s: [] for s in SEATS}
    for pos in incident.positions:
        if pos.kind == "手牌":
            out[pos.seat] = [0]
    index = 0
    for item in incident.record:
        if isinstance(item, Act):
            index += 1
        elif isinstance(item, Position) and item.kind == "手牌":
            out[item.seat].append(index)
    return out


def _state_after(timeline: Timeline, i: int) -> dict[Seat, HandState]:
    return timeline.before[i] if i < len(timeline.before) else timeline.final


def count_facts(incident: Incident, timeline: Timeline) -> Iterator[Symbol]:
    """Counted from a whole hand stated (16 or 17 tiles, its flowers among them: a partial
    statement counts nothing).  A hand still holding a flower is not counted: the flower
    not laid out is its own fault (花牌未補), not a short hand besides."""
    gaps = _gaps(incident)
    anchors = _anchors(incident)
    last_gap = 0  # the latest act before which the record skips numbers
    stated_size: dict[tuple[int, Seat], int] = {}
    for i, act in enumerate(incident.acts, 1):
        if i in gaps:
            last_gap = i
        if act.verb != "打" or act.actor not in SEATS:
            continue
        seat: Seat = act.actor  # type: ignore[assignment]
        stated = max((a for a in anchors[seat] if a < i), default=None)
        if stated is None or last_gap > stated:
            continue
        if (stated, seat) not in stated_size:
            stated_size[(stated, seat)] = _state_after(timeline, stated)[seat].stated_count()
        if stated_size[(stated, seat)] not in (16, 17):
            continue
        hand = _state_after(timeline, i)[seat]
        if hand.known and not _holds_flower(hand):
            yield fact("counted_hand", i, seat, hand.playing_count())


def _holds_flower(hand: HandState) -> bool:
    return any(T.is_flower(t) for t in hand.concealed)


def shown_facts(incident: Incident, timeline: Timeline) -> Iterator[Symbol]:
    """What lies face up, as the span of acts each flower and set lies face up before.

    Once laid out, a set or a flower stays so (a 加杠 makes its pung another set; 七搶一
    takes a flower away), so a span per thing keeps the facts as many as the things laid
    out, where a fact per act and thing grew with the record times what lies face up.
    """
    end = len(incident.acts) + 1
    for seat in SEATS:
        since: dict[Shown, int] = {}
        last: HandState | None = None
        melds: list[Meld] = []
        for i in range(1, end):
            state = timeline.before[i - 1][seat]
            if state is last:  # the replay shares a state between the acts that leave it be
                continue
            last = state
            if state.melds[:len(melds)] == melds:
                # Sets only added since the last state (the way play goes): look at those
                # and the flowers, not at every set again (a list compares equal items by
                # identity first).
                now = _flowers(state)
                gone = [t for t in since if t[0] == FLOWER and t not in now]
                now.update(_sets(state.melds[len(melds):]))
            else:
                now = _flowers(state)
                now.update(_sets(state.melds))
                gone = [t for t in since if t not in now]
            melds = list(state.melds)
            for thing in gone:
                yield _span(thing, seat, since.pop(thing), i)
            for thing in now:
                since.setdefault(thing, i)
        for thing, start in since.items():
            yield _span(thing, seat, start, end)


# A thing laid out: its fact's name and its arguments after the seat.
Shown = tuple[str, tuple[str | int, ...]]


def _span(thing: Shown, seat: str, start: int, until: int) -> Symbol:
    name, rest = thing
    return fact(name, seat, *rest, start, until)


FLOWER = "flower_shown"


def _flowers(state: HandState) -> dict[Shown, None]:
    """The flowers ``state`` shows, in order, each once."""
    return {(FLOWER, (f,)): None for f in state.flowers}


def _sets(melds: Iterable[Meld]) -> dict[Shown, None]:
    """The laid-out sets, in order, each once (a set is named by its kind and one tile)."""
    out: dict[Shown, None] = {}
    for m in melds:
        known = [t for t in m.tiles if t >= 0]
        if known:
            # A pung or pung-kong is named by its claimed tile, laid first.
            lead = known[0] if m.kind in VERB_CLASSES["claim"] else min(known)
            out[("meld_shown", (m.kind, lead))] = None
    return out


def set_facts(incident: Incident, timeline: Timeline) -> Iterator[Symbol]:
    """Wrong sets as laid, and what a player holds where a chapter asks.

    laid_wrong_set(I, S)    the pung or pung-kong S made at act I is not of the claimed tile
                            (its laid tiles are stated and differ, or the stated hand could
                            not give the copies)
    states_laid(I)          the 亮牌 at act I states what the claim before it laid (a
                            statement about that claim, not a move of its own)
    holds_concealed(J, S, T)   S held T among its concealed tiles just before act J (a
                            discard from its exposed sets: could the set be put right)
    """
    acts = incident.acts
    for k in range(len(acts)):
        if laid_statement(acts, k) is not None:
            yield fact("states_laid", k + 1)
    for i in sorted(timeline.wrong_sets):
        yield fact("laid_wrong_set", i, acts[i - 1].actor)
    for j, act in enumerate(acts, 1):
        if act.verb == "打" and act.tiles and act.actor in SEATS:
            state = timeline.before[j - 1][act.actor]  # type: ignore[index]
            if state.holds(act.tiles[0]):
                yield fact("holds_concealed", j, act.actor, act.tiles[0])


def hand_facts(incident: Incident, timeline: Timeline, hands: HandPicture) -> Iterator[Symbol]:
    """The hand facts of ``incident``: its record's sets and counts from the replay, and
    what its tiles allow from its hand picture."""
    yield from set_facts(incident, timeline)
    yield from act_hand_facts(incident, hands)
    yield from count_facts(incident, timeline)
    yield from shown_facts(incident, timeline)
