"""Follow the tiles through the record: who is known to hold what before each act.

The replay is bookkeeping, not judgement: it replays the acts on what the log states about
each hand, so that later stages can ask "what did 南 hold at act 12?", and it notes where
the log cannot have happened (a fifth copy of a tile, a discard of a tile the player is
known not to hold, sequence numbers that do not rise).  Rulings are made in ASP.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from adjudicator.language import tiles as T
from adjudicator.language.incident import Act, Incident, Meld, Position, WallCount
from adjudicator.language.seats import SEATS, Seat
from adjudicator.language.vocabulary import VERB_CLASSES, inert
from adjudicator.rules.rulesets import named_family


@dataclass
class HandState:
    """One player's tiles as far as the log tells them."""

    concealed: Counter[int] = field(default_factory=Counter)
    unknown: int = 0  # concealed tiles that are there but not named
    known: bool = False  # True once a 手牌 line stated the whole concealed hand
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    # Tiles named in ``concealed`` that have left the hand without the record saying which
    # (a wrong set laid of tiles not written down): the count is known, the tiles are not.
    excess: int = 0

    def copy(self) -> HandState:
        return HandState(Counter(self.concealed), self.unknown, self.known,
                         list(self.melds), list(self.flowers), self.excess)

    def size(self) -> int:
        return sum(self.concealed.values()) + self.unknown - self.excess

    def playing_count(self) -> int:
        """Tiles held, each laid-out set counting three (和牌型態: the kong's fourth aside), a
        set broken by a discard from it (打 …（門前）) what is left in it; flowers aside."""
        tiles = sum(n for t, n in self.concealed.items() if not T.is_flower(t))
        return tiles + self.unknown - self.excess + sum(min(3, len(m.tiles)) for m in self.melds)

    def stated_count(self) -> int:
        """The hand as a 手牌 line states it: a dealt hand is stated with its flowers, which
        the record then replaces (補花), so they count toward a whole statement."""
        return self.playing_count() + sum(n for t, n in self.concealed.items() if T.is_flower(t))

    def holds(self, tile: int) -> bool | None:
        """Whether the concealed hand holds ``tile``; None when the record cannot tell."""
        if self.concealed[tile] > self.excess:
            return True
        if self.known and not self.unknown and not self.concealed[tile]:
            return False
        return None


@dataclass(frozen=True)
class Problem:
    """A place where the log contradicts itself."""

    line: int
    seq: int | None
    kind: str  # short code: seq_falls, fifth_copy, not_held, empty_hand, wall_exhausted
    detail: str  # a short Chinese explanation


@dataclass
class Timeline:
    """The replay: the state of each hand before each act, and the problems found.

    A hand an act leaves alone is the same ``HandState`` object in consecutive entries of
    ``before`` (a copy per act of every hand made the replay the larger part of a long
    record's cost): read the states, never change them.
    """

    before: list[dict[Seat, HandState]] = field(default_factory=list)  # index = act index
    problems: list[Problem] = field(default_factory=list)
    final: dict[Seat, HandState] = field(default_factory=dict)
    # Claims (碰, 明杠) by act index (1, 2, …) known to be wrong sets: the tiles laid with the
    # claimed one (用 …, or 亮牌 right after) are not all of it, or the hand could not give them.
    wrong_sets: set[int] = field(default_factory=set)


def apply_position(hand: HandState, pos: Position) -> None:
    """What a position line states replaces what the replay knew of that part of the hand."""
    if pos.kind == "手牌":
        hand.concealed = Counter(t for t in pos.tiles if t != T.UNKNOWN)
        hand.unknown = sum(1 for t in pos.tiles if t == T.UNKNOWN)
        hand.known = True
        hand.excess = 0
    elif pos.kind == "門前":
        hand.melds = list(pos.melds)
    else:
        hand.flowers = list(pos.tiles)


class _Replay:
    def __init__(self, incident: Incident) -> None:
        self.hands: dict[Seat, HandState] = {s: HandState() for s in SEATS}
        self.index = 0  # the act being replayed (1, 2, …)
        self.laid_stated = stated_laid(incident.acts)
        self.sea: list[tuple[Seat, int]] = []  # discards lying in the sea, in order
        # The sea's tiles counted as they come and go: recounting the whole sea after each
        # act made a long record's replay grow with the square of its length.
        self.sea_count: Counter[int] = Counter()
        # The latest snapshot of each hand and the hands changed since (see Timeline).
        self.shots: dict[Seat, HandState] = {}
        self.changed: set[Seat] = set(SEATS)
        self.timeline = Timeline()
        self.reported_fifth: set[int] = set()
        # A hand laid down with its winning tile: 17 tiles, 14 in the 13+1 families.
        self.won_size = named_family(incident.header.profile).hand_tiles + 1
        for pos in incident.positions:
            self.apply_position(pos)

    def apply_position(self, pos: Position) -> None:
        apply_position(self.hands[pos.seat], pos)
        self.changed.add(pos.seat)

    def snapshot(self) -> dict[Seat, HandState]:
        for seat in self.changed:
            self.shots[seat] = self.hands[seat].copy()
        self.changed.clear()
        return dict(self.shots)

    # -- acts ------------------------------------------------------------------------
    def take(self, act: Act, seat: Seat, tile: int) -> None:
        """Remove ``tile`` from ``seat``'s concealed hand, noting it if it cannot be there."""
        hand = self.hands[seat]
        if tile != T.UNKNOWN and hand.concealed.get(tile, 0) > 0:
            hand.concealed[tile] -= 1
            if not hand.concealed[tile]:
                del hand.concealed[tile]
            if hand.excess:
                hand.excess = min(hand.excess, sum(hand.concealed.values()))
        elif hand.unknown > 0:
            hand.unknown -= 1
        elif hand.known:
            self.problem(act, "not_held", f"{seat} 手中並無 {T.name(tile)}")

    def give(self, seat: Seat, tile: int | None) -> None:
        hand = self.hands[seat]
        if tile is None or tile == T.UNKNOWN:
            hand.unknown += 1
        else:
            hand.concealed[tile] += 1

    def claim_discard(self, tile: int) -> None:
        """The last discard leaves the sea when a player chows, pungs or kongs it."""
        for i in range(len(self.sea) - 1, -1, -1):
            if self.sea[i][1] == tile or tile == T.UNKNOWN:
                self.sea_count[self.sea[i][1]] -= 1
                del self.sea[i]
                return

    def take_won_discard(self, win: Act, before: Act | None, pos: Position) -> None:
        """A hand laid down right after a win on a discard, written with the won tile (17
        tiles, 14 under gd, each set on the table three): the tile is in that hand, no longer
        in the sea — or, won by robbing a kong (搶杠, the act ``before`` the win another's 加杠), no
        longer on the robbed kong, which stays the pung it was."""
        if win.verb != "和" or win.actor != pos.seat or pos.kind != "手牌":
            return
        robbed: Seat | None = None
        if before is not None and before.verb == "加杠" and before.actor != win.actor \
                and before.actor in SEATS and before.tiles:
            robbed, tile = before.actor, before.tiles[0]  # type: ignore[assignment]
        elif self.sea:
            tile = self.sea[-1][1]
        else:
            return
        if win.tiles and win.tiles[0] not in (tile, T.UNKNOWN):
            return
        held = sum(1 for t in pos.tiles if not T.is_flower(t))
        if tile not in pos.tiles or held + 3 * len(self.hands[pos.seat].melds) != self.won_size:
            return
        if robbed is not None:
            self.unkong(robbed, tile)
        else:
            self.claim_discard(tile)

    def unkong(self, seat: Seat, tile: int) -> None:
        """The added tile of a robbed 加杠 goes to the winner; the pung stays as it was."""
        melds = self.hands[seat].melds
        for i, meld in enumerate(melds):
            if meld.kind == "加杠" and tile in meld.tiles:
                rest = list(meld.tiles)
                rest.remove(tile)
                if rest:
                    melds[i] = Meld("碰", tuple(rest))
                else:
                    del melds[i]
                return

    def apply(self, act: Act) -> None:
        if act.actor not in SEATS:
            return
        seat: Seat = act.actor  # type: ignore[assignment]
        self.changed.add(seat)  # an act changes no hand but its actor's
        hand = self.hands[seat]
        first = act.tiles[0] if act.tiles else None
        verb = act.verb
        if verb in VERB_CLASSES["draw"]:
            self.give(seat, first)
        elif verb == "補花":
            if first is not None:
                self.take(act, seat, first)
                hand.flowers.append(first)
            if act.replacement is not None:
                self.give(seat, act.replacement)
        elif verb == "打" and first is not None:
            if act.note == "門前":
                self.discard_exposed(seat, first)
            else:
                self.take(act, seat, first)
            self.sea.append((seat, first))
            self.sea_count[first] += 1
        elif verb == "吃" and first is not None:
            self.claim_discard(first)
            using = act.using or self.laid_stated.get(self.index, ())
            for t in using:
                self.take(act, seat, t)
            hand.melds.append(Meld("吃", tuple(sorted((first, *using)))))
        elif verb in VERB_CLASSES["claim"] and first is not None:
            self.claim_discard(first)
            hand.melds.append(Meld(verb, (first, *self.lay_claim(act, seat, first))))
        elif verb == "加杠" and first is not None:
            self.take(act, seat, first)
            self.add_to_pung(seat, first)
        elif verb == "暗杠" and act.tiles:
            laid = act.tiles if len(act.tiles) == 4 else (first,) * 4
            for t in laid:
                self.take(act, seat, t)
            hand.melds.append(Meld("暗杠", tuple(laid)))

    def lay_claim(self, act: Act, seat: Seat, tile: int) -> tuple[int, ...]:
        """The tiles a pung or pung-kong lays from the hand beside the claimed ``tile``.

        As the record states them (``用``, or ``亮牌`` right after), else the claimed tile's
        copies.  A set laid of other tiles is a wrong set, an offence judged in its chapter,
        not a contradiction: where the stated hand lacks the copies, the set took tiles the
        record does not name (``excess``).
        """
        needed = 2 if act.verb == "碰" else 3
        stated = self.laid_stated.get(self.index)
        hand = self.hands[seat]
        if stated is not None:
            if any(t != tile for t in stated):
                self.timeline.wrong_sets.add(self.index)
            for t in stated:
                self.take(act, seat, t)
            return stated
        laid: list[int] = []
        for _ in range(needed):
            if hand.concealed[tile] > hand.excess:
                self.take(act, seat, tile)
                laid.append(tile)
            elif hand.unknown > 0:
                hand.unknown -= 1
                laid.append(tile)
            elif hand.known:
                # The hand cannot give this copy: some other tile went into the set.
                self.timeline.wrong_sets.add(self.index)
                hand.excess += 1
                laid.append(T.UNKNOWN)
            else:
                laid.append(tile)
        return tuple(laid)

    def discard_exposed(self, seat: Seat, tile: int) -> None:
        melds = self.hands[seat].melds
        for i, meld in enumerate(melds):
            if tile in meld.tiles:
                rest = list(meld.tiles)
                rest.remove(tile)
                melds[i] = Meld(meld.kind, tuple(rest))
                return

    def add_to_pung(self, seat: Seat, tile: int) -> None:
        melds = self.hands[seat].melds
        for i, meld in enumerate(melds):
            if meld.kind == "碰" and tile in meld.tiles:
                melds[i] = Meld("加杠", (*meld.tiles, tile))
                return
        # No pung of this tile in front of the player (a wrong 加杠): only the added tile
        # is known to have left the hand.
        melds.append(Meld("加杠", (tile,)))

    # -- checks ----------------------------------------------------------------------
    def problem(self, act: Act | None, kind: str, detail: str, line: int = 0) -> None:
        self.timeline.problems.append(
            Problem(act.line if act else line, act.seq if act else None, kind, detail))

    def check_copies(self, act: Act | None, line: int = 0) -> None:
        if act is not None and not any(self.over_limit(t) for t in self.named(act)):
            return
        seen: Counter[int] = Counter()
        for hand in self.hands.values():
            seen.update(hand.concealed)
            for meld in hand.melds:
                seen.update(meld.tiles)
            seen.update(hand.flowers)
        seen.update(self.sea_count)
        for tile, n in seen.items():
            limit = 1 if T.is_flower(tile) else 4
            if tile >= 0 and n > limit and tile not in self.reported_fifth:
                self.reported_fifth.add(tile)
                self.problem(act, "fifth_copy",
                             f"{T.name(tile)} 出現 {n} 張，多於全副牌的 {limit} 張", line)

    def named(self, act: Act) -> set[int]:
        """The tiles whose copies act ``act`` can add to: the ones it names, and those a
        later 亮牌 states its claim laid.  Every tile was within its limit before the act
        (or reported), so only these can go over it now."""
        out = {*act.tiles, *act.using, *self.laid_stated.get(self.index, ())}
        if act.replacement is not None:
            out.add(act.replacement)
        return {t for t in out if t >= 0 and t not in self.reported_fifth}

    def over_limit(self, tile: int) -> bool:
        # Asked of the tiles of every act: .get, not a Counter's [] (its __missing__ is a
        # Python call), and no generator per hand.
        n = self.sea_count.get(tile, 0)
        for hand in self.hands.values():
            n += hand.concealed.get(tile, 0)
            if hand.flowers:
                n += hand.flowers.count(tile)
            for meld in hand.melds:
                n += meld.tiles.count(tile)
        return n > (1 if T.is_flower(tile) else 4)

    def run(self, incident: Incident) -> Timeline:
        self.check_copies(None, incident.positions[0].line if incident.positions else 0)
        last_seq: int | None = None  # the latest number written (unnumbered lines have none)
        # Drawable tiles left, as the header and the record's 牌牆 lines state and the draws
        # since take them (None: no count stated yet); every draw, from the wall or the kong
        # end, takes one, the 16 kept tiles never being drawn.
        wall = incident.header.wall
        haidi: Act | None = None  # the draw that took the last drawable tile (the 海底)
        last: Act | None = None
        before_last: Act | None = None
        for item in incident.record:
            if isinstance(item, Position):
                if last is not None:
                    self.take_won_discard(last, before_last, item)
                self.apply_position(item)
                self.check_copies(None, item.line)
                continue
            if isinstance(item, WallCount):
                wall = item.count
                continue
            if item.numbered:
                if last_seq is not None and item.seq <= last_seq:
                    self.problem(item, "seq_falls",
                                 f"序號 {item.seq} 不大於前一行的 {last_seq}")
                last_seq = item.seq
            self.index += 1
            self.timeline.before.append(self.snapshot())
            if wall is not None and _draws(item):
                if wall == 0 and _replaces_haidi_flower(item, haidi):
                    # A flower drawn as the 海底 tile and replaced: whether it may be is
                    # 解釋.海底花牌's (and 平台.海底's) question, which the rules answer.
                    haidi = None
                else:
                    if wall == 0:
                        self.problem(item, "wall_exhausted",
                                     "牌牆已無可摸之牌（殘牌 16 張不摸），不能再摸牌或補牌")
                    wall -= 1
                    haidi = item if wall == 0 else None
            self.apply(item)
            self.check_copies(item)
            # The act before the next: an inert one is looked past, and so is a 推倒 right
            # after its actor's 和 (it lays that win's hand down: a hand stated next is
            # still the win's).
            if not inert(item.verb) and not (
                    item.verb == "推倒" and last is not None and last.verb == "和"
                    and last.actor == item.actor):
                before_last, last = last, item
        self.timeline.final = self.hands
        return self.timeline


def _replaces_haidi_flower(act: Act, haidi: Act | None) -> bool:
    """Whether ``act`` lays out and replaces the flower its actor drew as the 海底 tile (the
    draw ``haidi``; a draw that names no tile may have been that flower)."""
    return (haidi is not None and act.actor == haidi.actor
            and act.verb in VERB_CLASSES["lays_flower"] and act.replacement is not None
            and haidi.verb in VERB_CLASSES["draw"]
            and (not haidi.tiles or act.tiles[:1] == haidi.tiles[:1]))


def _draws(act: Act) -> bool:
    """Whether the act takes a tile from the wall or the kong end."""
    return act.actor in SEATS and (
        act.verb in VERB_CLASSES["draw"]
        or (act.verb in VERB_CLASSES["lays_flower"] and act.replacement is not None))


# A claim whose laid tiles are stated by the claimer's 亮牌 right after it (or right after
# the pung-kong's replacement draw): tiles in this number after 碰, 明杠 and a 吃 written
# without 用 (incident-language.md: 亮牌 shows the two for a chow).
LAID_COUNT = {"碰": 2, "明杠": 3, "吃": 2}


def laid_statement(acts: list[Act], k: int) -> int | None:
    """The index (0-based) of the claim that the 亮牌 at ``acts[k]`` states the tiles of."""
    act = acts[k]
    if act.verb != "亮牌" or k == 0:
        return None
    played = [j for j in range(k - 1, -1, -1) if not inert(acts[j].verb)]  # latest first
    if not played:
        return None
    j, right_after = played[0], True
    if acts[j].actor == act.actor and acts[j].verb == "補" and len(played) > 1:
        j, right_after = played[1], False  # 明杠, 補, 亮牌: shown once the replacement is drawn
    claim = acts[j]
    if (claim.actor == act.actor and claim.verb in LAID_COUNT and not claim.using
            and len(act.tiles) == LAID_COUNT[claim.verb]
            and (right_after or claim.verb == "明杠")):
        return j
    return None


def stated_laid(acts: list[Act]) -> dict[int, tuple[int, ...]]:
    """Act index (1, 2, …) of each 碰 / 明杠 → the tiles laid beside the claimed one, where
    the record states them."""
    out = {i: a.using for i, a in enumerate(acts, 1) if a.verb in LAID_COUNT and a.using}
    for k in range(len(acts)):
        j = laid_statement(acts, k)
        if j is not None:
            out[j + 1] = acts[k].tiles
    return out


def replay(incident: Incident) -> Timeline:
    """Replay the record; ``Timeline.before[i]`` is every hand just before act ``i``."""
    return _Replay(incident).run(incident)
