"""One legal tw16 hand, played from a seed by four simple, rule-abiding players.

What the players do is random but never against the rules (000/001): they win whenever they
can (so nobody is ever 過水), claim sometimes, kong sometimes, discard by a small heuristic.
Where the rules restrict a claim or a discard, the players keep to the strictest reading:

- 吃 only from the 上家; not the tile just thrown by oneself this go-round nor its 絡 (same
  suit, a multiple of three apart), and after a chow no discard of the chowed tile or its
  絡 (禁制.6, 吃牌).  碰 never of a second copy in a go-round (碰牌: 同一巡內出現之相同
  第二張牌不得碰牌), read both ways: thrown by another since one's own last discard, or an
  earlier copy whose discarder has not thrown again; no discard of the punged tile after
  (禁制.6).
- No kong straight after a chow or pung (禁制.1) or after a 碰杠 (禁制.3); no 自摸 after a
  claim (禁制.4) nor on a 碰杠's replacement (禁制.2); no chow, pung or 碰杠 with three or
  fewer drawable tiles left (禁制.7); win > pung/kong > chow, the nearest winner after the
  discarder (攔和).
- No kong with fewer than two drawable tiles (so no replacement is ever the 海底 tile), and
  a 海底 tile that is a flower is passed (棄摸, allowed in tw16) rather than drawn.
- Flowers are laid out and replaced at once in play; after the deal in rounds from the
  dealer (001 補花: a replacement that is a flower waits for the next round).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .complete import is_complete
from .tiles import SEATS, is_flower, seat_after, suit_of
from .wall import Wall, WallExhausted


@dataclass(frozen=True)
class Act:
    """One numbered act of the record.  ``seat`` None is 牌局 (荒局)."""

    seat: int | None
    verb: str
    tiles: tuple[int, ...] = ()
    using: tuple[int, ...] = ()
    repl: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class Laid:
    """A position line inside the record: a hand laid down (``手牌``)."""

    seat: int
    tiles: tuple[int, ...]


Line = Act | Laid


@dataclass
class Player:
    concealed: list[int] = field(default_factory=list)
    melds: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    last_discard: int | None = None
    # tiles thrown by others since this player's own last discard (the go-round)
    seen: set[int] = field(default_factory=set)

    @property
    def n_exposed(self) -> int:
        return len(self.melds)

    def copy(self) -> Player:
        return Player(list(self.concealed), list(self.melds), list(self.flowers),
                      self.last_discard, set(self.seen))


@dataclass(frozen=True)
class Result:
    """How the hand ended: ``how`` is 和 (on a discard), 搶杠, 自摸, 花和 or 荒局."""

    how: str
    winner: int | None = None
    source: int | None = None  # the discarder (和) or the kong player (搶杠)
    act: int | None = None     # the number of the winning (or 荒局) act

    @property
    def payers(self) -> tuple[int, ...]:
        if self.winner is None:
            return ()
        if self.source is not None:
            return (self.source,)
        return tuple(s for s in range(4) if s != self.winner)


@dataclass
class State:
    """Everything before one line of the record (for faults)."""

    players: list[Player]
    drawable: int
    discards: list[int]  # every tile thrown so far, claimed or not
    river: list[int]     # the discards nobody claimed


@dataclass
class Game:
    seed: int
    dealer: int
    round_wind: int
    wall_start: int
    dealt: list[list[int]]          # the hands the positions state (flowers included or not)
    dealt_flowers: list[list[int]]  # flowers already laid out in the positions
    lines: list[Line]
    states: list[State]             # states[i]: before lines[i]
    result: Result
    final: list[Player]
    wall_left: list[int]
    river: list[int]  # discards nobody claimed
    # Whether the writer numbers the acts (a record without numbers says 起點: 開局).
    numbered: bool = True

    def act_number(self, index: int) -> int:
        """The sequence number the writer gives lines[index] (an Act)."""
        return sum(1 for x in self.lines[: index + 1] if isinstance(x, Act))


class _End(Exception):
    def __init__(self, result: Result) -> None:
        self.result = result


def _luo(x: int, t: int) -> bool:
    """x is t or one of its 絡 (same suit, 3 or 6 apart): the strict reading of 同（絡）牌."""
    return x == t or (suit_of(x) is not None and suit_of(x) == suit_of(t) and (x - t) % 3 == 0)


def _free_after(q: Player, laid: list[int], t: int, *, luo: bool = False) -> bool:
    """After laying ``laid`` to claim ``t``, something is left that 禁制.6 lets q discard: a
    player who could only throw the claimed tile (or its 絡, after a chow) does not claim."""
    rest = list(q.concealed)
    for x in laid:
        rest.remove(x)
    return any(not (_luo(x, t) if luo else x == t) for x in rest)


class Simulator:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # ---------------------------------------------------------------- recording
    def emit(self, line: Line) -> int:
        # Called before the line changes anything: states[i] is the table before lines[i].
        self.states.append(State([p.copy() for p in self.players], self.wall.drawable,
                                 list(self.discards), list(self.river)))
        self.lines.append(line)
        return sum(1 for x in self.lines if isinstance(x, Act))

    def end(self, how: str, winner: int | None = None, source: int | None = None) -> None:
        n = sum(1 for x in self.lines if isinstance(x, Act))
        if winner is not None and how != "花和":
            # A hand won on another's tile is written either way: with the won tile (as it
            # lies on the table) or the 16 the winner held (both say the same).
            shown = list(self.players[winner].concealed)
            if source is not None and self.rng.random() < 0.5:
                shown.remove(self.won_tile)
            self.emit(Laid(winner, tuple(sorted(shown))))
        raise _End(Result(how, winner, source, n))

    # ---------------------------------------------------------------- the hand
    def play(self) -> Game:
        for _ in range(100):
            try:
                return self._play_once()
            except WallExhausted:
                # A replacement owed with nothing drawable left: no rule says how the table
                # goes on, so this deal is dropped and the same seed deals again.
                continue
        raise RuntimeError(f"seed {self.seed}: no playable deal")  # pragma: no cover

    def _play_once(self) -> Game:
        rng = self.rng
        self.wall = Wall(rng)
        self.players = [Player() for _ in range(4)]
        self.lines: list[Line] = []
        self.states: list[State] = []
        self.discards: list[int] = []
        self.river: list[int] = []  # discards nobody claimed
        self.open_copies: set[tuple[int, int]] = set()  # (tile, discarder) in its go-round
        self.second_copy = False
        dealer = rng.randrange(4)
        round_wind = rng.randrange(4)
        order = [seat_after(dealer, k) for k in range(4)]
        for _ in range(4):
            for s in order:
                self.players[s].concealed += self.wall.deal(4)
        self.players[dealer].concealed += self.wall.deal(1)
        # Two ways referees write the deal: the dealt hands with their flowers and the 補花
        # in the record, or the hands after the 補花 with the flowers laid out.
        record_deal_flowers = rng.random() < 0.7
        if record_deal_flowers:
            dealt = [list(p.concealed) for p in self.players]
            wall_start = self.wall.drawable
            dealt_flowers: list[list[int]] = [[] for _ in range(4)]
        else:
            self._deal_flowers(order, emit=False)
            dealt = [list(p.concealed) for p in self.players]
            dealt_flowers = [list(p.flowers) for p in self.players]
            wall_start = self.wall.drawable
        try:
            if record_deal_flowers:
                self._deal_flowers(order, emit=True)
            self._check_flower_win(order)
            self._run(dealer)
            raise AssertionError("play ended without a result")  # pragma: no cover
        except _End as end:
            result = end.result
        return Game(self.seed, dealer, round_wind, wall_start, dealt, dealt_flowers,
                    self.lines, self.states, result, self.players, list(self.wall.tiles),
                    list(self.river))

    def _deal_flowers(self, order: list[int], emit: bool) -> None:
        while any(is_flower(t) for p in self.players for t in p.concealed):
            for s in order:
                p = self.players[s]
                for f in [t for t in p.concealed if is_flower(t)]:
                    r = self.wall.replace()
                    if emit:
                        self.emit(Act(s, "補花", (f,), repl=r))
                    p.concealed.remove(f)
                    p.flowers.append(f)
                    p.concealed.append(r)

    def _check_flower_win(self, order: list[int]) -> None:
        for s in order:
            if len(self.players[s].flowers) == 8:
                self.emit(Act(s, "和"))
                self.end("花和", s)

    def _run(self, dealer: int) -> None:
        seat, kind = dealer, "first"
        while True:
            if kind == "draw":
                self._draw(seat)
                kind = "drawn"
            discard = self._turn(seat, kind)
            seat, kind = self._after_discard(seat, discard)

    def _draw(self, s: int) -> None:
        if self.wall.drawable == 0:
            self.emit(Act(None, "荒局"))
            self.end("荒局")
        last = self.wall.drawable == 1
        if last and is_flower(self.wall.peek()):
            self.emit(Act(s, "棄摸"))
            self.emit(Act(None, "荒局"))
            self.end("荒局")
        t = self.wall.draw()
        note = "海底" if last and self.rng.random() < 0.5 else None
        self.emit(Act(s, "摸", (t,), note=note))
        self.players[s].concealed.append(t)
        self.last_in = t
        self._replace_flowers(s)

    def _replace_flowers(self, s: int) -> None:
        p = self.players[s]
        while is_flower(self.last_in):
            f = self.last_in
            r = self.wall.replace()
            self.emit(Act(s, "補花", (f,), repl=r))
            p.concealed.remove(f)
            p.flowers.append(f)
            p.concealed.append(r)
            self.last_in = r
        if len(p.flowers) == 8:
            self.emit(Act(s, "和"))
            self.end("花和", s)

    def _turn(self, s: int, kind: str) -> int:
        """From an intake to the discard; returns the discarded tile."""
        p = self.players[s]
        rng = self.rng
        haidi = kind == "drawn" and self.wall.drawable == 0
        may_win = kind in ("first", "drawn")
        may_kong = kind in ("first", "drawn") and not haidi
        while True:
            if may_win and is_complete(p.concealed, p.n_exposed):
                tiles = () if kind == "first" else (self.last_in,)
                self.emit(Act(s, "自摸", tiles))
                self.end("自摸", s)
            if not (may_kong and self.wall.drawable >= 2):
                break
            have = Counter(p.concealed)
            concealed_kongs = [t for t, n in have.items() if n == 4]
            added_kongs = [v[1][0] for v in p.melds if v[0] == "碰" and have[v[1][0]]]
            options = [("暗杠", t) for t in sorted(concealed_kongs)]
            options += [("加杠", t) for t in sorted(added_kongs)]
            if not options or rng.random() >= 0.75:
                break
            verb, t = rng.choice(options)
            if verb == "暗杠":
                self.emit(Act(s, "暗杠", (t,)))
                for _ in range(4):
                    p.concealed.remove(t)
                p.melds.append(("暗杠", (t,) * 4))
            else:
                self.emit(Act(s, "加杠", (t,)))
                p.concealed.remove(t)
                i = next(i for i, m in enumerate(p.melds) if m == ("碰", (t,) * 3))
                p.melds[i] = ("加杠", (t,) * 4)
                for k in (1, 2, 3):  # 搶杠: the nearest who can win on the added tile
                    o = self.players[seat_after(s, k)]
                    if is_complete(o.concealed + [t], o.n_exposed):
                        self.emit(Act(seat_after(s, k), "和", (t,)))
                        p.melds[i] = ("碰", (t,) * 3)  # the added tile is robbed
                        self.won_tile = t
                        o.concealed.append(t)
                        self.end("搶杠", seat_after(s, k), s)
            self._replacement(s)
        # After a 碰杠 ("kong") neither 自摸 (禁制.2) nor another kong (禁制.3); after a chow
        # or pung neither 自摸 (禁制.4) nor a kong (禁制.1).
        return self._discard(s, kind)

    def _replacement(self, s: int) -> None:
        r = self.wall.replace()
        self.emit(Act(s, "補", (r,)))
        self.players[s].concealed.append(r)
        self.last_in = r
        self._replace_flowers(s)

    def _discard(self, s: int, kind: str) -> int:
        p = self.players[s]
        banned: set[int] = set()
        if self.claimed is not None and kind in ("chow", "pung"):
            banned = {x for x in set(p.concealed) if _luo(x, self.claimed)} if kind == "chow" \
                else {self.claimed}
        choices = [t for t in p.concealed if t not in banned]  # never empty: see _free_after
        t = self._choose(p.concealed, choices)
        self.emit(Act(s, "打", (t,)))
        p.concealed.remove(t)
        p.last_discard = t
        p.seen = set()
        # A go-round of a discard lasts until its discarder throws again (the engine's
        # reading of 同一巡); a pung of a tile with an earlier copy still in its go-round
        # is avoided, as is one thrown by others since the claimer's own discard.
        self.open_copies = {(k, d) for k, d in self.open_copies if d != s}
        self.second_copy = any(k == t for k, _ in self.open_copies)
        self.open_copies.add((t, s))
        self.discards.append(t)
        self.river.append(t)
        self.claimed = None
        return t

    def _choose(self, hand: list[int], choices: list[int]) -> int:
        if self.rng.random() < 0.2:
            return self.rng.choice(sorted(choices))
        have = Counter(hand)

        def use(t: int) -> float:
            score = 3.0 * (have[t] - 1)
            if t < 27:
                for d, w in ((1, 2.0), (2, 1.0)):
                    for u in (t - d, t + d):
                        if suit_of(u) == suit_of(t) and 0 <= u < 27 and have[u]:
                            score += w
            return score + self.rng.random()

        return min(sorted(set(choices)), key=use)

    def _after_discard(self, s: int, t: int) -> tuple[int, str]:
        """Claims on the discard ``t`` of ``s``; returns who plays next and how."""
        rng = self.rng
        for k in (1, 2, 3):
            o = seat_after(s, k)
            q = self.players[o]
            if is_complete(q.concealed + [t], q.n_exposed):
                self.emit(Act(o, "和", (t,)))
                self.river.pop()
                self.won_tile = t
                q.concealed.append(t)
                self.end("和", o, s)
        nxt = seat_after(s)
        if self.wall.drawable >= 4:  # 禁制.7: no claim with three or fewer drawable left
            for k in (1, 2, 3):
                o = seat_after(s, k)
                q = self.players[o]
                n = q.concealed.count(t)
                if n < 2 or t in q.seen or self.second_copy or not _free_after(q, [t, t], t):
                    continue
                if n == 3 and rng.random() < 0.5:
                    self._claim(o, s, t, "明杠", (t,) * 3)
                    self._replacement(o)
                    return o, "kong"
                if rng.random() < 0.45:
                    self._claim(o, s, t, "碰", (t,) * 2)
                    return o, "pung"
            q = self.players[nxt]
            runs = self._chows(q, t)
            if runs and rng.random() < 0.35:
                a, b = rng.choice(runs)
                self._claim(nxt, s, t, "吃", (a, b))
                return nxt, "chow"
        self._seen(s, t)
        return nxt, "draw"

    def _claim(self, o: int, s: int, t: int, verb: str, used: tuple[int, ...]) -> None:
        """``o`` takes ``s``'s discard ``t`` by ``verb``, laying ``used`` from the hand with it
        (the replacement draw of a kong is the caller's)."""
        # Only a chow's record names the tiles used: a pung's or kong's are copies of ``t``.
        self.emit(Act(o, verb, (t,), using=used if verb == "吃" else ()))
        q = self.players[o]
        for u in used:
            q.concealed.remove(u)
        q.melds.append((verb, tuple(sorted((*used, t)))))
        self.river.pop()
        self._seen(s, t)
        self.claimed = t

    def _seen(self, s: int, t: int) -> None:
        for o in range(4):
            if o != s:
                self.players[o].seen.add(t)

    def _chows(self, q: Player, t: int) -> list[tuple[int, int]]:
        if t >= 27:
            return []
        if q.last_discard is not None and _luo(q.last_discard, t):
            return []
        have = set(q.concealed)
        out = []
        for a, b in ((t - 2, t - 1), (t - 1, t + 1), (t + 1, t + 2)):
            if 0 <= a and b < 27 and suit_of(a) == suit_of(t) == suit_of(b) \
                    and a in have and b in have and _free_after(q, [a, b], t, luo=True):
                out.append((a, b))
        return out

    claimed: int | None = None
    last_in: int = -1
    won_tile: int = -1


def simulate(seed: int) -> Game:
    """The legal game of ``seed`` (the same seed, the same game)."""
    return Simulator(seed).play()


__all__ = ["Act", "Game", "Laid", "Line", "Player", "Result", "SEATS", "State", "simulate"]
