"""The facts of each declared win: who, on which tile, and the hand it rests on.

This is bookkeeping of the play, as the record shows it: which tile was won on, whether
the winner's own draw came last, whether another's 加杠 came just before, whose flower a
搶花 took, whether the tile came from the kong end.  Where the tiles allow the hand to rest
on all eight flowers, each such reading is stated beside the win's own, with the act its
eighth flower would have come at; which one the win rests on (台.27, 台.28, 台.30), how it
wins (自摸, 和銃, 搶杠, 八仙過海, 七搶一) and who pays for it the rules say
(``asp/play/flowers.lp``, ``asp/core.lp``); whether it stands, what it owes to the start
of the hand and what it is worth too (``asp/offences/wins.lp``, ``asp/play/start.lp``,
``asp/settlement/scoring.lp``; a gd profile's in ``asp/gd/``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from clingo import Symbol

from adjudicator.analysis.replay import HandState, Timeline, apply_position
from adjudicator.facts.record import fact
from adjudicator.language import tiles as T
from adjudicator.language.incident import Act, Incident, Meld, Position
from adjudicator.language.seats import SEATS, Seat
from adjudicator.language.vocabulary import VERB_CLASSES, inert
from adjudicator.rules.families import DEFAULT, TW16, Family

if TYPE_CHECKING:
    # Imported where a win is met: a record without one needs none of the scoring module.
    from adjudicator.ruling.scoring import WinHand

WIN_VERBS = VERB_CLASSES["win"]
# What brings a tile into the hand: a draw, or a flower laid out with its replacement.
DRAW_VERBS = VERB_CLASSES["draw"] | VERB_CLASSES["lays_flower"]
DECLARES = VERB_CLASSES["declares_win"]
ROBS = VERB_CLASSES["robs_flower"]
LAYS_FLOWER = VERB_CLASSES["lays_flower"]
# A win called, declared or laid down on another's tile (攔和: several on the one tile).
ON_THE_DISCARD = VERB_CLASSES["win_intent"] - {"自摸"}


@dataclass(frozen=True)
class DeclaredWin:
    """A win the record declares, as the facts state it (how it wins, the rules say)."""

    index: int  # the act's place in the record (1, 2, …)
    seat: Seat
    tile: int | None  # the tile it takes: named, drawn, added in the kong before it, discarded
    hand: WinHand | None  # None when the record does not show the whole hand
    own_draw: bool = False  # declared 自摸, or laid down right after the winner's own draw
    kong: int | None = None  # the act of another's 加杠 just before the win, if any
    # In a reading of the hand on eight flowers: the act that brought the eighth (0: held
    # since before the record).  None in the win's own reading.
    eighth: int | None = None
    # The readings on eight flowers the tiles allow, by the act of the eighth; which one,
    # if any, the win rests on is play/flowers.lp's (台.27, 台.28, 台.30).
    on_flowers: tuple[tuple[int, DeclaredWin], ...] = ()
    # The hand laid down holds the last discard and is whole (what claims it, as naming it).
    holds_discard: bool = False

    @property
    def in_hand(self) -> bool:
        """Whether the tile won on is the winner's own: its draw, or its flowers."""
        return self.own_draw or self.eighth is not None


class _Record:
    """Acts by their place in the record (1-based), with the positions stated after each."""

    def __init__(self, incident: Incident) -> None:
        self.acts: list[Act] = []
        self.after: dict[int, list[Position]] = {}
        for item in incident.record:
            if isinstance(item, Act):
                self.acts.append(item)
            elif isinstance(item, Position):
                self.after.setdefault(len(self.acts), []).append(item)

    def act(self, i: int) -> Act:
        return self.acts[i - 1]

    def before(self, i: int) -> range:
        """Indices of the acts before act ``i``, latest first."""
        return range(i - 1, 0, -1)

    def played_before(self, i: int) -> list[int]:
        """Indices of the acts before act ``i`` that are not inert, latest first."""
        return [j for j in self.before(i) if not inert(self.act(j).verb)]


def _last_draw(rec: _Record, i: int, seat: Seat) -> tuple[int, Act] | None:
    for j in rec.before(i):
        a = rec.act(j)
        if a.actor == seat and a.verb in DRAW_VERBS:
            return j, a
    return None


def _drawn_tile(act: Act) -> int | None:
    if act.verb == "補花":
        return act.replacement
    return act.tiles[0] if act.tiles else None


def _is_declared(rec: _Record, i: int) -> bool:
    """Whether act ``i`` declares a win (a 推倒 right after its own 和/自摸 does not)."""
    a = rec.act(i)
    if a.actor not in SEATS or a.verb not in WIN_VERBS:
        return False
    if a.verb != "推倒":
        return True
    for j in rec.played_before(i):
        prev = rec.act(j)
        if prev.actor == a.actor:
            return prev.verb not in DECLARES
    return True


def _flower_holder(rec: _Record, timeline: Timeline, j: int, seat: Seat,
                   flower: int) -> Seat | None:
    """Who held ``flower`` (laid out or just drawn) when ``seat`` took it at act ``j``."""
    before = timeline.before[j - 1] if j - 1 < len(timeline.before) else timeline.final
    for other in SEATS:
        if other != seat and (flower in before[other].flowers or before[other].concealed[flower]):
            return other
    for k in rec.before(j):
        a = rec.act(k)
        if a.actor in SEATS and a.actor != seat and flower in (*a.tiles, a.replacement):
            return a.actor  # type: ignore[return-value]
    return None


def _eighth_candidates(rec: _Record, i: int, seat: Seat, state: HandState) -> list[int]:
    """The acts whose flower the tiles allow to be the winner's eighth at act ``i``: a
    flower it drew and kept that makes eight with those it holds; with eight held, every
    flower it laid out or robbed, and 0 (all eight held since before the record)."""
    flowers = set(state.flowers)
    full = len(flowers) >= 8
    out = [0] if full else []
    for j in range(1, i):
        a = rec.act(j)
        if a.actor != seat:
            continue
        if a.verb in VERB_CLASSES["draw"]:
            if a.tiles and T.is_flower(a.tiles[0]) and len(flowers | {a.tiles[0]}) == 8:
                out.append(j)
        elif full and (a.verb in ROBS and a.tiles or a.verb in LAYS_FLOWER):
            out.append(j)
    return out


def _lays_down_discard(rec: _Record, i: int, seat: Seat, state: HandState) -> bool:
    """Whether a 和 that names no tile, right after another's discard, lays down a whole hand
    holding that discard: showing the tile with the hand claims it, as naming it would."""
    k = i - 1
    while k > 1 and (inert(rec.act(k).verb)
                     or rec.act(k).verb in WIN_VERBS and rec.act(k).actor != seat):
        k -= 1
    prev = rec.act(k) if k >= 1 else None
    if prev is None or prev.verb != "打" or prev.actor == seat or not prev.tiles:
        return False
    return (state.known and not state.unknown and state.concealed[prev.tiles[0]] > 0
            and state.playing_count() == TW16.hand_tiles + 1)  # flowers are tw16's


def _taken_after(rec: _Record, i: int, seat: Seat, eighth: int) -> tuple[int, Act] | None:
    """The winner's last intake before act ``i`` that took a tile after its eighth flower
    came at act ``eighth``: a draw after it, or the replacement a 補花 took.  None when the
    eighth was drawn and kept in the hand (no tile came for it) or nothing was taken."""
    if eighth and rec.act(eighth).verb in VERB_CLASSES["draw"]:
        return None
    for j in rec.before(i):
        if j < eighth:
            break
        a = rec.act(j)
        if a.actor == seat and (a.verb in VERB_CLASSES["draw"]
                                or a.verb in LAYS_FLOWER and a.replacement is not None):
            return j, a
    return None


def _own_draw(rec: _Record, i: int, seat: Seat) -> bool:
    """Whether act ``i`` wins on ``seat``'s own draw: it says 自摸, or it lays the hand down
    (推倒) with that draw, not somebody's discard, last before it."""
    verb = rec.act(i).verb
    return verb == "自摸" or (verb == "推倒" and _drew_last(rec, i, seat))


def _kong_before(rec: _Record, i: int, seat: Seat) -> int | None:
    """Another's 加杠 right before act ``i``, past inert acts and others' declarations on
    that same tile (攔和): its place in the record, or None."""
    k = i - 1
    while k > 1 and (inert(rec.act(k).verb)
                     or rec.act(k).verb in ON_THE_DISCARD and rec.act(k).actor != seat):
        k -= 1
    prev = rec.act(k) if k >= 1 else None
    return k if prev is not None and prev.verb == "加杠" and prev.actor != seat else None


def _won_tile(rec: _Record, i: int, seat: Seat, own_draw: bool, kong: int | None,
              eighth: int | None) -> int | None:
    """The tile act ``i`` wins on: with the flowers, the one taken after the eighth; on its
    own draw, the tile named or drawn; after another's 加杠, that kong's tile; else the
    tile named or the last discard's."""
    named = rec.act(i).tiles[0] if rec.act(i).tiles else None
    if eighth is not None:
        taken = _taken_after(rec, i, seat, eighth)
        return _drawn_tile(taken[1]) if taken else None
    if own_draw:
        if named is not None:
            return named
        draw = _last_draw(rec, i, seat)
        return _drawn_tile(draw[1]) if draw else None
    if kong is not None:
        return rec.act(kong).tiles[0] if rec.act(kong).tiles else named
    if named is not None:
        return named
    last = next((rec.act(j) for j in rec.before(i) if rec.act(j).verb == "打"), None)
    return last.tiles[0] if last is not None and last.tiles else None


def _drew_last(rec: _Record, i: int, seat: str) -> bool:
    """Whether ``seat``'s own draw, not somebody's discard, came last before act ``i``."""
    for j in rec.before(i):
        a = rec.act(j)
        if a.verb == "打":
            return False
        if a.actor == seat and a.verb in DRAW_VERBS:
            return True
    return False


def _state_at_win(rec: _Record, i: int, seat: Seat, timeline: Timeline) -> HandState:
    """The winner's tiles when it won: as replayed, then as stated right after the win."""
    state = _replayed_after(rec, i, seat, timeline)
    for j in range(i, len(rec.acts) + 1):
        for pos in rec.after.get(j, []):
            if pos.seat == seat:
                apply_position(state, pos)
        if j < len(rec.acts) and rec.act(j + 1).actor != seat:
            break
    return state


def _replayed_after(rec: _Record, i: int, seat: Seat, timeline: Timeline) -> HandState:
    # The state before the next act is the state after act i (or the final state).
    states = timeline.before
    return (states[i][seat] if i < len(states) else timeline.final[seat]).copy()


def _win_hand(incident: Incident, win: DeclaredWin, state: HandState,
              context: dict[str, bool | int | None],
              family: Family = DEFAULT) -> WinHand | None:
    """The hand ``win`` rests on: its tiles, its flowers and the play around it.  How the
    win wins is left unsaid (no ``robbed_kong``, no ``flower_win``): scoring.lp reads it
    from core.lp's declared_win/5 and flowers.lp's flower_win/3."""
    concealed = Counter(state.concealed)
    unknown = state.unknown
    tile = win.tile
    on_flowers = win.eighth is not None
    if tile is not None and tile != T.UNKNOWN:
        size = sum(concealed.values()) + unknown
        if size % 3 == 2:  # the stated or replayed hand holds the winning tile: take it out
            if concealed[tile]:
                concealed[tile] -= 1
            elif unknown:
                unknown -= 1
    elif win.own_draw and not on_flowers and not unknown and state.known:
        tile = _last_taken(concealed, state.melds, family)
    if unknown or not state.known or state.excess:
        if not on_flowers:
            return None
        concealed = Counter()
    from adjudicator.ruling.scoring import WinHand

    h = incident.header
    dealer = h.dealer or "東"
    return WinHand(
        concealed=sorted(concealed.elements()), winning_tile=tile if not on_flowers else
        (tile if concealed else None),
        exposed=list(state.melds), flowers=list(state.flowers),
        self_drawn=win.own_draw and not on_flowers, seat=win.seat, dealer=dealer,
        round_wind=h.round_wind, open_seat=h.open_seat or dealer,
        sets=family.sets, **context,  # type: ignore[arg-type]
    )


def _last_taken(concealed: Counter[int], melds: list, family: Family) -> int | None:
    """A self-draw that names no tile wins on the last tile the hand took; with no draw
    of it in the record (a dealer's 天和 on its 門牌) the stated hand holds that tile.

    Which of the hand's tiles it was is not written: the first that the others complete
    is taken out as the winning tile (a start-of-hand win has no wait, 台.33), and the rest
    is scored.  Returns None when the hand holds no winning tile's count.
    """
    held = sum(concealed.values())
    if held % 3 != 2 or not held:
        return None
    from adjudicator.analysis.hand_forms import Hand, waits

    laid = tuple(m if isinstance(m, Meld) else Meld(m[0], tuple(m[1])) for m in melds)
    for t in sorted(concealed):
        rest = concealed.copy()
        rest[t] -= 1
        kept = tuple(sorted(x for x in rest.elements() if 0 <= x < T.N_PLAYING))
        # 嚦咕嚦咕 counts, 十三幺 (the 13+1 families' special form) is not looked for here.
        if any(form in ("std", "ligu") for form in (waits(Hand(kept, laid), family.sets)
                                                    or {}).get(t, ())):
            concealed[t] -= 1
            return t
    last = max(concealed.elements())
    concealed[last] -= 1
    return last


def _context(rec: _Record, win: DeclaredWin) -> dict[str, bool]:
    """Facts of the play around the win that its patterns need, as far as the record shows
    them; what the win owes to the start of the hand (天和, 天聽 …) asp/play/start.lp
    finds from the acts."""
    # On the flowers, the tile taken after the eighth (if one was) is the one won on.
    if win.eighth is not None:
        draw = _taken_after(rec, win.index, win.seat, win.eighth)
    else:
        draw = _last_draw(rec, win.index, win.seat) if win.own_draw else None
    replaced = draw is not None and draw[1].verb in VERB_CLASSES["replacement"]
    last = draw is not None and draw[1].note == "海底"
    return {"kong_replacement": replaced, "last_tile": last}


def declared_wins(incident: Incident, timeline: Timeline,
                  family: Family = DEFAULT) -> list[DeclaredWin]:
    """Each declared win in its own reading, with the readings on eight flowers the tiles
    allow (``on_flowers``)."""
    rec = _Record(incident)
    out = []
    for i in range(1, len(rec.acts) + 1):
        if not _is_declared(rec, i):
            continue
        seat: Seat = rec.act(i).actor  # type: ignore[assignment]
        state = _state_at_win(rec, i, seat, timeline)
        state.flowers = _with_robbed(rec, i, seat, state.flowers)
        own_draw, kong = _own_draw(rec, i, seat), _kong_before(rec, i, seat)
        win = _reading(incident, rec, i, seat, state, own_draw, kong, None, family)
        if family.flowers:
            candidates = _eighth_candidates(rec, i, seat, state)
            if candidates:
                win = replace(win, holds_discard=_lays_down_discard(rec, i, seat, state),
                              on_flowers=tuple(
                                  (c, _reading(incident, rec, i, seat, state, own_draw, kong,
                                               c, family)) for c in candidates))
        out.append(win)
    return out


def _reading(incident: Incident, rec: _Record, i: int, seat: Seat, state: HandState,
             own_draw: bool, kong: int | None, eighth: int | None,
             family: Family) -> DeclaredWin:
    """Act ``i``'s win read on its own hand (``eighth`` None) or on eight flowers, the
    eighth brought at act ``eighth``."""
    if eighth and rec.act(eighth).verb in VERB_CLASSES["draw"]:
        # The eighth flower drawn and not laid out: it counts among the flowers.
        state = state.copy()
        drawn = rec.act(eighth).tiles[0]
        state.flowers = [*state.flowers, drawn]
        if state.concealed[drawn]:
            state.concealed[drawn] -= 1
        elif state.unknown:
            state.unknown -= 1
    tile = _won_tile(rec, i, seat, own_draw, kong, eighth)
    win = DeclaredWin(i, seat, tile, None, own_draw, kong, eighth)
    context: dict[str, bool | int | None] = dict(_context(rec, win))
    return replace(win, hand=_win_hand(incident, win, state, context, family))


def _with_robbed(rec: _Record, i: int, seat: Seat, flowers: list[int]) -> list[int]:
    """The winner's flowers with those it took by 搶花 (the replay does not move them)."""
    out = list(flowers)
    for j in range(1, i):
        a = rec.act(j)
        if a.actor == seat and a.verb in ROBS and a.tiles and a.tiles[0] not in out:
            out.append(a.tiles[0])
    return out


def win_facts(incident: Incident, timeline: Timeline, family: Family = DEFAULT,
              wins: Sequence[DeclaredWin] | None = None) -> Iterator[Symbol]:
    """The facts of the declared wins (``wins``, when the caller has them already)."""
    # Where the record begins: what asks for the start of the hand (asp/open.lp) counts
    # only from the deal and is open where the record does not say.
    if incident.from_deal:
        yield fact("record_from_deal")
    elif incident.start_unknown:
        yield fact("record_start_unknown")
    for w in declared_wins(incident, timeline, family) if wins is None else wins:
        if w.own_draw:
            yield fact("win_on_own_draw", w.index)
        if w.kong is not None:
            yield fact("win_after_kong", w.index, w.kong)
        if not w.on_flowers:
            yield from _reading_facts(w)
            continue
        # Several readings: each one's facts under its number (0: the win's own), and the
        # act of the eighth flower each rests on; play/flowers.lp takes one.
        for f in _reading_facts(w):
            yield fact("win_reading", w.index, 0, f)
        numbered: dict[tuple[Symbol, ...], int] = {}
        for at, reading in w.on_flowers:
            facts = tuple(_reading_facts(reading))
            if facts not in numbered:
                numbered[facts] = len(numbered) + 1
                for f in facts:
                    yield fact("win_reading", w.index, numbered[facts], f)
            yield fact("win_reading_at", w.index, at, numbered[facts])
        if w.holds_discard:
            yield fact("win_holds_discard", w.index)
    yield from _holder_facts(incident, timeline)


def _reading_facts(w: DeclaredWin) -> Iterator[Symbol]:
    """The facts of one reading of a win: the tile it is won on and the hand it rests on."""
    yield fact("win_declared", w.index, w.seat, T.UNKNOWN if w.tile is None else w.tile)
    if w.hand is None:
        yield fact("win_hand_unknown", w.index)
        return
    from adjudicator.ruling.scoring import win_symbols

    yield from win_symbols(w.index, w.hand)
    if w.eighth is None and w.hand.winning_tile is not None:
        # 缺張 / 逾張 are named by the count: seventeen with the winning tile.
        held = len(w.hand.concealed) + 1 + 3 * len(w.hand.exposed)
        yield fact("win_hand_tiles", w.index, held)
    if w.eighth is not None and not w.hand.concealed:
        # A flower win needs no hand shown (台.29); flowers.lp asks for one only when the
        # flower win does not stand.
        yield fact("flower_hand_unshown", w.index)


def _holder_facts(incident: Incident, timeline: Timeline) -> Iterator[Symbol]:
    """Whose flower each 搶花 took: who held it, laid out or in the hand, when it was
    taken (flower_held_by: asp/play/flowers.lp names the payer of 七搶一 from it)."""
    if not any(a.verb in ROBS for a in incident.acts):
        return
    rec = _Record(incident)
    for j, a in enumerate(rec.acts, 1):
        if a.actor in SEATS and a.verb in ROBS and a.tiles:
            holder = _flower_holder(rec, timeline, j, a.actor, a.tiles[0])  # type: ignore[arg-type]
            if holder is not None:
                yield fact("flower_held_by", j, holder)
