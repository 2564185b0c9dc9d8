"""Per-act facts about the hands: what each player's known tiles could do at each act.

This is hand combinatorics and bookkeeping, not judgement: whether a player *could* have
won on a discard, whether a discarded tile was one its hand waited on, whether a declared
ready hand was ready.  What follows from that (過水, 眼牌 violations, 缺張 …) is decided by
the rules in asp/ (passwater.lp, eye.lp, xianggong.lp, prohibitions.lp).

A hand is *known* before an act when the replay (analysis/replay.py) knows every concealed tile, or
when it can be worked back from a later known hand (a win laid down, a hand stated) by
undoing the player's own draws, discards and kongs, whose tiles the record names.  Where
neither holds, the fact says so (``hand_unknown``) and the rules leave the point open.

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

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from clingo import Symbol

from adjudicator.analysis import hands
from adjudicator.analysis.replay import HandState, Timeline, laid_statement
from adjudicator.facts.record import fact
from adjudicator.facts.win_facts import DeclaredWin, declared_wins
from adjudicator.language import tiles as T
from adjudicator.language.incident import Act, Incident, Meld, Position
from adjudicator.language.seats import SEATS, Seat
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.rules.families import DEFAULT, Family

# What brings a tile into the hand: a draw, or a flower laid out with its replacement.
DRAWS = VERB_CLASSES["draw"] | VERB_CLASSES["lays_flower"]
READY_VERBS = VERB_CLASSES["ready"]


@dataclass(frozen=True)
class Hand:
    """A fully known hand: concealed playing tiles and laid-out sets."""

    concealed: Counter[int]
    melds: tuple[Meld, ...]
    sets: int = hands.FAMILY_SETS_16  # sets in a complete hand of the profile's family
    # The concealed tiles in order: what the hand's analyses are remembered by.  Sorted
    # once, as the hand is made: nearly every hand is sized, and a cached_property takes a
    # lock at each read (Python 3.11).
    key: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", tuple(sorted(self.concealed.elements())))

    def size(self) -> int:
        return len(self.key)

    def tiles(self) -> list[int]:
        return list(self.key)

    def meld_tiles(self) -> list[int]:
        return [t for m in self.melds for t in m.tiles]


# ---------------------------------------------------------------------------------------
# Which hands are known before each act


def _known(state: HandState) -> Hand | None:
    if not state.known or state.unknown or state.excess:
        return None
    return Hand(Counter({t: n for t, n in state.concealed.items() if 0 <= t < T.N_PLAYING and n}),
                tuple(state.melds))


def _forward(timeline: Timeline, n: int) -> list[dict[Seat, Hand | None]]:
    """Index i (1 … n+1): every hand before act i, as far as the replay knows it."""
    out: list[dict[Seat, Hand | None]] = [{}]
    # The replay shares a hand's state between the acts that leave it alone: read it once.
    seen: dict[int, Hand | None] = {}
    for i in range(1, n + 2):
        states = timeline.before[i - 1] if i <= len(timeline.before) else timeline.final
        row: dict[Seat, Hand | None] = {}
        for s in SEATS:
            state = states[s]
            key = id(state)
            if key not in seen:
                seen[key] = _known(state)
            row[s] = seen[key]
        out.append(row)
    return out


def _minus(c: Counter[int], tiles: list[int]) -> Counter[int] | None:
    out = Counter(c)
    for t in tiles:
        if out[t] <= 0:
            return None
        out[t] -= 1
    return +out


def _undo(act: Act, seat: Seat, after: Hand) -> Hand | None:
    """``seat``'s hand before ``act``, from its hand after it; None when it cannot be told."""
    if act.actor != seat:
        return after
    verb, first = act.verb, (act.tiles[0] if act.tiles else None)
    if verb in VERB_CLASSES["draw"]:
        if first is None or not 0 <= first < T.N_PLAYING:
            return None if first is None or first == T.UNKNOWN else after
        rest = _minus(after.concealed, [first])
        return None if rest is None else Hand(rest, after.melds)
    if verb == "補花":
        r = act.replacement
        if r is None or not 0 <= r < T.N_PLAYING:
            return None if r == T.UNKNOWN else after
        rest = _minus(after.concealed, [r])
        return None if rest is None else Hand(rest, after.melds)
    if verb == "打" and first is not None and act.note != "門前":
        if not 0 <= first < T.N_PLAYING:
            return after if T.is_flower(first) else None
        return Hand(after.concealed + Counter([first]), after.melds)
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
            return Hand(after.concealed + Counter(back), tuple(melds))
    return None


def _win_anchors(wins: Iterable[DeclaredWin]) -> dict[tuple[int, Seat], Hand]:
    """The winner's hand just before each declared win, where the win shows it."""
    out: dict[tuple[int, Seat], Hand] = {}
    for w in wins:
        h = w.hand
        if h is None or not h.concealed:
            continue
        concealed = Counter(t for t in h.concealed if 0 <= t < T.N_PLAYING)
        drawn = w.in_hand and h.winning_tile is not None
        if drawn and h.winning_tile is not None and 0 <= h.winning_tile < T.N_PLAYING:
            concealed[h.winning_tile] += 1
        melds = tuple(m if isinstance(m, Meld) else Meld(m[0], tuple(m[1])) for m in h.exposed)
        out[(w.index, w.seat)] = Hand(concealed, melds)
    return out


def known_hands(incident: Incident, timeline: Timeline, family: Family = DEFAULT,
                wins: Sequence[DeclaredWin] | None = None) -> list[dict[Seat, Hand | None]]:
    """Index i (1 … n+1): each hand before act i, forward from the replay, else worked back
    (``wins``: the incident's declared wins, when the caller has them already)."""
    acts = incident.acts
    n = len(acts)
    hands_ = _forward(timeline, n)
    if wins is None:
        wins = declared_wins(incident, timeline, family)
    for (i, seat), hand in _win_anchors(wins).items():
        if hands_[i][seat] is None:
            hands_[i][seat] = hand
    stated = _stated_after(incident)
    for seat in SEATS:
        for i in range(n, 0, -1):
            later = hands_[i + 1][seat]
            if hands_[i][seat] is None and later is not None and (i, seat) not in stated:
                hands_[i][seat] = _undo(acts[i - 1], seat, later)
    if family.sets != hands.FAMILY_SETS_16:
        hands_ = [{seat: h if h is None else replace(h, sets=family.sets)
                   for seat, h in row.items()} for row in hands_]
    return hands_


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


# ---------------------------------------------------------------------------------------
# Hand combinatorics


def _forms_waiting(hand: Hand, tile: int) -> list[str] | None:
    """Forms in which ``tile`` completes ``hand`` ([] none); None when it is not waiting-sized."""
    waits = _waits(hand)
    if waits is None:
        return None
    return [form for form, tiles in waits.items() if tile in tiles]


def _waits(hand: Hand) -> dict[str, frozenset[int]] | None:
    if hand.size() != 3 * (hand.sets - len(hand.melds)) + 1:
        return None
    found = _waits_of(hand.key, hand.melds, hand.sets)
    return None if found is None else dict(found)


# A hand's waits depend on its tiles alone, and the same hand is asked about at every
# discard until its owner acts again (and recurs across the logs of a batch): remember them.
@lru_cache(maxsize=65536)
def _waits_of(tiles: tuple[int, ...], melds: tuple[Meld, ...],
              sets: int) -> tuple[tuple[str, frozenset[int]], ...] | None:
    n_sets = len(melds)
    fixed = [t for m in melds for t in m.tiles]
    try:
        std = hands.winning_tiles(tiles, n_sets, fixed_tiles=fixed, family_sets=sets)
        if sets != hands.FAMILY_SETS_16:
            # The 13+1 families have no 嚦咕嚦咕; 十三幺 is their special shape.
            orphans = hands.thirteen_orphans_waits(tiles) if not melds else set()
            return (("std", frozenset(std)), ("13yao", frozenset(orphans - std)))
        both = hands.winning_tiles(tiles, n_sets, fixed_tiles=fixed, ligu=True)
    except ValueError:
        return None
    return (("std", frozenset(std)), ("ligu", frozenset(both - std)))


def _complete_forms(hand: Hand) -> list[str] | None:
    n_sets = len(hand.melds)
    if hand.size() != 3 * (hand.sets - n_sets) + 2:
        return None
    found = _complete_of(hand.key, n_sets, hand.sets)
    return None if found is None else list(found)


@lru_cache(maxsize=65536)
def _complete_of(tiles: tuple[int, ...], n_sets: int,
                 sets: int) -> tuple[str, ...] | None:
    try:
        std = hands.complete(tiles, n_sets, family_sets=sets)
        if sets != hands.FAMILY_SETS_16:
            orphans = n_sets == 0 and hands.thirteen_orphans(list(tiles)) is not None
            return ("std",) * std + ("13yao",) * (orphans and not std)
        ligu = hands.complete(tiles, n_sets, ligu=True)
    except ValueError:
        return None
    return ("std",) * std + ("ligu",) * (ligu and not std)


def _ready_forms(hand: Hand) -> list[str] | None:
    """聽牌: waiting-sized and waiting, or drawn-sized with a discard that leaves it waiting."""
    waits = _waits(hand)
    if waits is not None:
        return [f for f, tiles in waits.items() if tiles]
    complete = _complete_forms(hand)
    if complete is None:
        return None
    forms = set(complete)
    for t in set(hand.concealed):
        rest = _minus(hand.concealed, [t])
        w = _waits(Hand(rest, hand.melds, hand.sets)) if rest is not None else None
        forms |= {f for f, tiles in (w or {}).items() if tiles}
    return sorted(forms, key=("std", "ligu", "13yao").index)


# ---------------------------------------------------------------------------------------
# The facts


def _tile_of(act: Act) -> int | None:
    if not act.tiles or not 0 <= act.tiles[0] < T.N_PLAYING:
        return None
    return act.tiles[0]


def _claimable_facts(i: int, act: Act, hands_: list[dict[Seat, Hand | None]]) -> Iterator[Symbol]:
    """A discard or 加杠 tile: could each other player win on it; was it a winning tile."""
    if act.actor not in SEATS:
        return
    tile = _tile_of(act)
    if tile is None:
        # The tile is not named: whether it was one the hand waits on cannot be told.
        yield fact("hand_unknown", i, act.actor)
        return
    for seat in SEATS:
        hand = hands_[i][seat]
        if seat == act.actor:
            yield from _own_tile_facts(i, seat, act, hand, tile)
            continue
        if hand is not None and act.verb == "打" and hand.concealed[tile] >= 2:
            yield fact("could_pung", i, seat)
        if hand is None:
            yield fact("hand_unknown", i, seat)
        else:
            yield from _yes_or_no(i, seat, _forms_waiting(hand, tile) or [], "wins_on", None)


def _own_tile_facts(i: int, seat: Seat, act: Act, hand: Hand | None,
                    tile: int) -> Iterator[Symbol]:
    """解除過水: whether the tile given up is one the hand, without it, waits on."""
    rest = _minus(hand.concealed, [tile]) if hand is not None else None
    if hand is None or rest is None or act.note == "門前":
        yield fact("hand_unknown", i, seat)
        return
    yield from _yes_or_no(i, seat, _forms_waiting(Hand(rest, hand.melds, hand.sets), tile) or [],
                          None, "tile_not_win")


def _yes_or_no(i: int, seat: Seat, forms: list[str] | None, yes: str | None,
               no: str | None) -> Iterator[Symbol]:
    """``yes`` once per form the hand takes, or ``no``; nothing when there is no answer (or
    no rule reads that side: each name given is one asp/inputs.lp declares)."""
    if forms and yes:
        for form in forms:
            yield fact(yes, i, seat, form)
    elif forms is not None and not forms and no:
        yield fact(no, i, seat)


def _draw_facts(i: int, act: Act, after: Hand | None) -> Iterator[Symbol]:
    seat = act.actor
    drawn = act.replacement if act.verb == "補花" else _tile_of(act)
    if act.verb == "補花" and act.replacement is None:
        return
    if drawn is not None and T.is_flower(drawn):
        return
    if after is None:
        yield fact("hand_unknown", i, seat)
        return
    yield from _yes_or_no(i, seat, _complete_forms(after), "complete_after", None)


def _ready_facts(i: int, seat: Seat, hand: Hand | None) -> Iterator[Symbol]:
    if hand is None:
        yield fact("hand_unknown", i, seat)
    else:
        yield from _yes_or_no(i, seat, _ready_forms(hand) or [], "ready", "not_ready")


def _kong_facts(i: int, seat: Seat, after: Hand | None) -> Iterator[Symbol]:
    """禁制.5: what the hand waits on once the concealed kong is laid (before its replacement)."""
    waits = _waits(after) if after is not None else None
    if waits is None:
        yield fact("hand_unknown", i, seat)
        return
    for t in sorted(waits["std"]):
        yield fact("wait_after", i, seat, t)


def act_hand_facts(incident: Incident, hands_: list[dict[Seat, Hand | None]]) -> Iterator[Symbol]:
    for i, act in enumerate(incident.acts, 1):
        if act.actor not in SEATS:
            continue
        seat: Seat = act.actor  # type: ignore[assignment]
        if act.verb in VERB_CLASSES["offers_tile"]:
            yield from _claimable_facts(i, act, hands_)
        elif act.verb in DRAWS:
            yield from _draw_facts(i, act, hands_[i + 1][seat])
        elif act.verb in READY_VERBS:
            yield from _ready_facts(i, seat, hands_[i][seat])
        if act.verb == "暗杠":
            yield from _kong_facts(i, seat, hands_[i + 1][seat])


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


def hand_facts(incident: Incident, timeline: Timeline, family: Family = DEFAULT,
               wins: Sequence[DeclaredWin] | None = None) -> Iterator[Symbol]:
    yield from set_facts(incident, timeline)
    known = known_hands(incident, timeline, family, wins)
    yield from act_hand_facts(incident, known)
    yield from count_facts(incident, timeline)
    yield from shown_facts(incident, timeline)
