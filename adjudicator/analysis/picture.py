"""The hand picture of an Incident: what each player's known tiles allow at each act.

Made once per Incident from its replay (and the hands its declared wins lay down), and
handed whole to ``facts/hand_facts.py``, which only states it as facts.  It answers what
the tiles allow, never what follows from that: whether a discard completes another hand,
whether the tile given up is one the giver's hand waits on, whether the hand is complete
after a draw, ready at a 聽, and what it waits on after a concealed kong.

A hand is *known* before an act when the replay knows every concealed tile, or when it
can be worked back from a later known hand (a win laid down, a hand stated) by undoing the
player's own draws, discards and kongs, whose tiles the record names.  Where neither
holds, the answer is None: the hand is not in the record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.analysis import hand_forms
from adjudicator.analysis.hand_forms import Forms, Hand
from adjudicator.analysis.replay import HandState, Timeline
from adjudicator.language import tiles as T
from adjudicator.language.incident import Act, Incident, Meld, Position
from adjudicator.language.seats import SEATS, Seat
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.rules.families import DEFAULT, Family

# What brings a tile into the hand: a draw, or a flower laid out with its replacement.
DRAWS = VERB_CLASSES["draw"] | VERB_CLASSES["lays_flower"]
READY_VERBS = VERB_CLASSES["ready"]

Known = dict[Seat, list[Hand | None]]
"""By seat, index i (1 … n+1): the seat's hand before act i (None: not known)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A tile given up at an act (a discard or a 加杠) and what each hand makes of it.

    ``tile`` None: the record does not name it, so nothing about it can be told.
    """

    tile: int | None
    own: Forms | None = None  # the giver's hand without it waits on it in these forms
    wins: Mapping[Seat, Forms | None] | None = None  # each other seat: forms it completes
    pairs: frozenset[Seat] = frozenset()  # the other seats holding a pair of it (a discard)


@dataclass(frozen=True, slots=True)
class HandPicture:
    """Per act index (1, 2, …), what the record's act asks of the hands; None where the
    hand it asks about is not known.

    offers:  a discard or 加杠 by a seat (``Offer``)
    drawn:   a draw (or a flower's replacement): the forms the hand is complete in after it
    ready:   a 聽/眼牌 act: the forms the hand before it is ready in (() not ready)
    kong_waits:  a 暗杠: the tiles the hand waits on once it is laid (standard form)
    """

    known: Known
    offers: Mapping[int, Offer]
    drawn: Mapping[int, Forms | None]
    ready: Mapping[int, Forms | None]
    kong_waits: Mapping[int, tuple[int, ...] | None]


# ---------------------------------------------------------------------------------------
# Which hands are known before each act


def _known(state: HandState) -> Hand | None:
    if not state.known or state.unknown or state.excess:
        return None
    tiles = sorted(state.concealed.elements())
    if tiles and (tiles[0] < 0 or tiles[-1] >= T.N_PLAYING):  # a flower not yet laid out
        tiles = [t for t in tiles if 0 <= t < T.N_PLAYING]
    return Hand(tuple(tiles), tuple(state.melds))


def _forward(timeline: Timeline, n: int) -> Known:
    """Every hand before each act, as far as the replay knows it."""
    before = timeline.before
    rows = [before[i - 1] if i <= len(before) else timeline.final for i in range(1, n + 2)]
    out: Known = {}
    for s in SEATS:
        column: list[Hand | None] = [None]
        last: HandState | None = None
        hand: Hand | None = None
        for states in rows:
            state = states[s]
            # The replay shares a hand's state between the acts that leave it alone.
            if state is not last:
                last, hand = state, _known(state)
            column.append(hand)
        out[s] = column
    return out


def _undo(act: Act, seat: Seat, after: Hand) -> Hand | None:
    """``seat``'s hand before ``act``, from its hand after it; None when it cannot be told."""
    if act.actor != seat:
        return after
    verb, first = act.verb, (act.tiles[0] if act.tiles else None)
    if verb in VERB_CLASSES["draw"]:
        if first is None or not 0 <= first < T.N_PLAYING:
            return None if first is None or first == T.UNKNOWN else after
        return after.without(first)
    if verb == "補花":
        r = act.replacement
        if r is None or not 0 <= r < T.N_PLAYING:
            return None if r == T.UNKNOWN else after
        return after.without(r)
    if verb == "打" and first is not None and act.note != "門前":
        if not 0 <= first < T.N_PLAYING:
            return after if T.is_flower(first) else None
        return after.adding(first)
    if verb == "暗杠" and act.tiles:
        return _undo_kong(after, "暗杠", act.tiles if len(act.tiles) == 4 else (first,) * 4)
    if verb == "加杠" and first is not None:
        return _undo_kong(after, "加杠", (first,))
    if verb in VERB_CLASSES["claim_or_chow"]:
        return None
    return after


def _undo_kong(after: Hand, kind: str, laid: tuple[int | None, ...]) -> Hand | None:
    melds = list(after.melds)
    for k, m in enumerate(melds):
        if m.kind == kind and (kind == "暗杠" and tuple(m.tiles) == tuple(laid)
                               or kind == "加杠" and laid[0] in m.tiles):
            if kind == "暗杠":
                del melds[k]
                back = [t for t in laid if t is not None]
            else:
                melds[k] = Meld("碰", tuple(m.tiles[:3]))
                back = [laid[0]] if laid[0] is not None else []
            return Hand(after.tiles, tuple(melds)).adding(*back)
    return None


def _stated_after(incident: Incident) -> set[tuple[int, Seat]]:
    """(i, seat): a position of ``seat`` is stated right after act ``i`` (it breaks the undo)."""
    out: set[tuple[int, Seat]] = set()
    index = 0
    for item in incident.record:
        if isinstance(item, Act):
            index += 1
        elif isinstance(item, Position):
            out.add((index, item.seat))
    return out


def known_hands(incident: Incident, timeline: Timeline,
                anchors: Mapping[tuple[int, Seat], Hand] | None = None) -> Known:
    """Each hand before each act, forward from the replay, else worked back from a later
    known hand; ``anchors``: the hand just before act i of seat s where a declared win
    lays it down."""
    acts = incident.acts
    n = len(acts)
    known = _forward(timeline, n)
    for (i, seat), hand in (anchors or {}).items():
        if known[seat][i] is None:
            known[seat][i] = hand
    stated = _stated_after(incident)
    for seat, column in known.items():
        for i in range(n, 0, -1):
            later = column[i + 1]
            if column[i] is None and later is not None and (i, seat) not in stated:
                column[i] = _undo(acts[i - 1], seat, later)
    return known


# ---------------------------------------------------------------------------------------
# What each act asks of the hands


def _tile_of(act: Act) -> int | None:
    if not act.tiles or not 0 <= act.tiles[0] < T.N_PLAYING:
        return None
    return act.tiles[0]


class _Asked:
    """Each hand's waits, by the hand: the replay shares a hand between the acts that leave
    it alone, so the hand a discard asks about is mostly the one the last discard did."""

    def __init__(self, sets: int) -> None:
        self.sets = sets
        self.waits: dict[int, tuple[Hand, hand_forms.Waits | None]] = {}

    def waiting_forms(self, hand: Hand, tile: int) -> Forms:
        """The forms in which ``tile`` completes ``hand`` (() when it is not waiting-sized)."""
        seen = self.waits.get(id(hand))
        if seen is None:  # the hand is kept with its answer, so its id stays its own
            seen = self.waits[id(hand)] = (hand, hand_forms.waits(hand, self.sets))
        found = seen[1]
        return () if found is None else found.get(tile, ())


def _offer(act: Act, i: int, known: Known, asked: _Asked) -> Offer:
    tile = _tile_of(act)
    if tile is None:
        return Offer(None)
    own: Forms | None = None
    wins: dict[Seat, Forms | None] = {}
    pairs: set[Seat] = set()
    for seat, column in known.items():
        hand = column[i]
        if seat == act.actor:
            rest = hand.without(tile) if hand is not None else None
            if rest is not None and act.note != "門前":
                own = asked.waiting_forms(rest, tile)
        elif hand is None:
            wins[seat] = None
        else:
            if act.verb == "打" and hand.count(tile) >= 2:
                pairs.add(seat)
            wins[seat] = asked.waiting_forms(hand, tile)
    return Offer(tile, own, wins, frozenset(pairs))


def _drawn(act: Act, before: Hand | None, after: Hand | None, sets: int) -> Forms | None:
    """The forms the hand is complete in after the draw ``act`` (None: not known)."""
    if after is None:
        return None
    drawn = act.replacement if act.verb == "補花" else _tile_of(act)
    if before is not None and drawn is not None and 0 <= drawn < T.N_PLAYING:
        found = hand_forms.completed_by(before, drawn, after, sets)
        if found is not None:
            return found
    return hand_forms.complete(after, sets) or ()


def _asks_after_draw(act: Act) -> bool:
    """A draw asks whether the hand is complete unless what came in is a flower (or a
    flower's replacement is not written)."""
    drawn = act.replacement if act.verb == "補花" else _tile_of(act)
    if act.verb == "補花" and act.replacement is None:
        return False
    return drawn is None or not T.is_flower(drawn)


def _kong_waits(after: Hand | None, sets: int) -> tuple[int, ...] | None:
    found = hand_forms.waits(after, sets) if after is not None else None
    return None if found is None else tuple(sorted(t for t, f in found.items() if "std" in f))


def picture(incident: Incident, timeline: Timeline, family: Family = DEFAULT,
            anchors: Mapping[tuple[int, Seat], Hand] | None = None) -> HandPicture:
    """The hand picture of ``incident`` (``anchors``: as ``known_hands``)."""
    known = known_hands(incident, timeline, anchors)
    sets = family.sets
    offers: dict[int, Offer] = {}
    drawn: dict[int, Forms | None] = {}
    ready: dict[int, Forms | None] = {}
    kongs: dict[int, tuple[int, ...] | None] = {}
    asked = _Asked(sets)
    for i, act in enumerate(incident.acts, 1):
        seat = act.actor
        if seat not in SEATS:
            continue
        if act.verb in VERB_CLASSES["offers_tile"]:
            offers[i] = _offer(act, i, known, asked)
        elif act.verb in DRAWS:
            if _asks_after_draw(act):
                drawn[i] = _drawn(act, known[seat][i], known[seat][i + 1],  # type: ignore[index]
                                  sets)
        elif act.verb in READY_VERBS:
            hand = known[seat][i]  # type: ignore[index]
            ready[i] = None if hand is None else hand_forms.ready(hand, sets) or ()
        if act.verb == "暗杠":
            kongs[i] = _kong_waits(known[seat][i + 1], sets)  # type: ignore[index]
    return HandPicture(known, offers, drawn, ready, kongs)
