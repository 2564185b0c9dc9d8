"""One fault injected into a legal game: the log, the act it is at, the finding it must raise.

Each fault keeps the game up to a chosen point, puts in the faulty act and cuts the record
right after it (and after the laid-down hand of a declared win), so the fault is the only
thing wrong in the log.  What each must raise, as we read the rules:

- ``discard_out_of_turn``: a player throws a tile when it is another's turn to draw; its hand
  then counts 15 tiles: 缺張 (和牌型態), a 相公 cause (001 相公).  → 相公 at the discard.
- ``fifth_copy``: a draw of a tile whose four copies are all already in the stated hands,
  the sets and the sea: the log cannot have happened (incident-language.md, Errors).
  → status ``inconsistent``, a problem at the draw.
- ``pung_without_pair``: a pung laid with a tile that is not the discard's (錯碰之處理:
  a wrong set on the table), written `碰 T` then `亮牌 A B`; ``pung_without_pair_using``
  the same written `碰 T 用 A B` (both forms are in incident-language.md).
  → 錯碰 at the pung.
- ``false_win``: 自摸 declared on an incomplete hand (詐和: 錯和).  → 詐和 at the win.
- ``chow_wrong_seat``: a chow of the discard of a player who is not one's 上家 (吃牌;
  錯吃碰杠 is a 相公 cause).  → 相公 at the chow.
- ``self_draw_without_draw``: 自摸 declared straight after a chow or pung (禁制.4: a 自摸
  must begin with a draw; 001 詐和 lists 自摸違規).  → 詐和 at the win.
- ``pass_then_win``: the winner of a discard says 過 instead (過水), and within the same
  go-round, before a discard of its own, wins on the same tile (過水: 其後迄本身打出…
  不得和牌，否則視同詐和; 解釋.過水自摸 default: a 自摸 too).  → 詐和 at the later win.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.language.vocabulary import VERB_CLASSES

from .complete import is_complete
from .game import Act, Game, Laid, Line, State
from .tiles import N_KINDS, seat_after, suit_of
from .writer import write


@dataclass(frozen=True)
class Fault:
    kind: str      # the fault's name (a key of FAULTS)
    text: str      # the log
    act: int       # the number of the faulty act
    finding: str   # the finding kind it must raise, or "inconsistent"
    seat: int | None


def _acts_in(lines: list[Line]) -> int:
    return sum(1 for x in lines if isinstance(x, Act))


def _cut(game: Game, i: int, extra: list[Line], kind: str, finding: str,
         seat: int | None, at_offset: int = 0) -> Fault:
    """lines[:i] + extra; the faulty act is extra's act number ``at_offset`` (0: the first)."""
    lines = game.lines[:i] + extra
    act = _acts_in(game.lines[:i]) + 1 + at_offset
    return Fault(kind, write(game, lines), act, finding, seat)


def _indices(game: Game, pred: Callable[[Act, State], bool]) -> list[int]:
    return [i for i, x in enumerate(game.lines) if isinstance(x, Act) and pred(x, game.states[i])]


def _on_table(st: State) -> Counter[int]:
    seen: Counter[int] = Counter(st.river)
    for p in st.players:
        seen.update(p.concealed)
        for _, tiles in p.melds:
            seen.update(tiles)
    return seen


def discard_out_of_turn(game: Game, rng: random.Random) -> Fault | None:
    cands = _indices(game, lambda a, st: a.verb == "摸" and a.seat is not None)
    if not cands:
        return None
    i = rng.choice(cands)
    s = game.lines[i].seat  # type: ignore[union-attr]
    y = rng.choice([o for o in range(4) if o != s])
    tile = rng.choice(sorted(game.states[i].players[y].concealed))
    return _cut(game, i, [Act(y, "打", (tile,))], "discard_out_of_turn", "相公", y)


def fifth_copy(game: Game, rng: random.Random) -> Fault | None:
    cands = []
    for i in _indices(game, lambda a, st: a.verb == "摸"):
        full = [k for k, n in _on_table(game.states[i]).items() if n == 4 and k < N_KINDS]
        if full:
            cands.append((i, full))
    if not cands:
        return None
    i, full = rng.choice(cands)
    s = game.lines[i].seat  # type: ignore[union-attr]
    return _cut(game, i, [Act(s, "摸", (rng.choice(sorted(full)),))], "fifth_copy",
                "inconsistent", s)


def pung_without_pair(game: Game, rng: random.Random) -> Fault | None:
    return _wrong_pung(game, rng, using=False)


def pung_without_pair_using(game: Game, rng: random.Random) -> Fault | None:
    return _wrong_pung(game, rng, using=True)


def _wrong_pung(game: Game, rng: random.Random, using: bool) -> Fault | None:
    cands = []
    for i in _indices(game, lambda a, st: a.verb == "打"):
        if i + 1 >= len(game.lines) or not isinstance(game.lines[i + 1], Act) \
                or game.lines[i + 1].verb == "和":  # type: ignore[union-attr]
            continue
        d = game.lines[i]
        st = game.states[i + 1]
        for y in range(4):
            hand = st.players[y].concealed
            # Two tiles to lay, not a pair of the discard: one copy of it and another tile,
            # or two other tiles.
            others = sum(1 for x in hand if x != d.tiles[0])
            if y != d.seat and hand.count(d.tiles[0]) < 2 \
                    and others >= (1 if d.tiles[0] in hand else 2):
                cands.append((i, y))
    if not cands:
        return None
    i, y = rng.choice(cands)
    t = game.lines[i].tiles[0]  # type: ignore[union-attr]
    hand = list(game.states[i + 1].players[y].concealed)
    a = t if t in hand else rng.choice(sorted(x for x in hand if x != t))
    hand.remove(a)
    b = rng.choice(sorted(x for x in hand if x != t))
    if using:
        return _cut(game, i + 1, [Act(y, "碰", (t,), using=(a, b))], "pung_without_pair_using",
                    "錯碰", y)
    return _cut(game, i + 1, [Act(y, "碰", (t,)), Act(y, "亮牌", (a, b))], "pung_without_pair",
                "錯碰", y)


def false_win(game: Game, rng: random.Random) -> Fault | None:
    cands = []
    for i in _indices(game, lambda a, st: a.verb == "摸" and a.seat is not None):
        if i + 1 < len(game.lines) and isinstance(game.lines[i + 1], Act):
            s = game.lines[i].seat  # type: ignore[union-attr]
            p = game.states[i + 1].players[s]
            if not is_complete(p.concealed, p.n_exposed) and not any(t >= 34 for t in p.concealed):
                cands.append(i)
    if not cands:
        return None
    i = rng.choice(cands)
    a = game.lines[i]
    s = a.seat  # type: ignore[union-attr]
    p = game.states[i + 1].players[s]
    return _cut(game, i + 1, [Act(s, "自摸", a.tiles), Laid(s, tuple(sorted(p.concealed)))],  # type: ignore[union-attr,arg-type]
                "false_win", "詐和", s)


def chow_wrong_seat(game: Game, rng: random.Random) -> Fault | None:
    cands = []
    for i in _indices(game, lambda a, st: a.verb == "打"):
        if i + 1 >= len(game.lines) or not isinstance(game.lines[i + 1], Act):
            continue
        d = game.lines[i]
        t = d.tiles[0]  # type: ignore[union-attr]
        if suit_of(t) is None:
            continue
        for k in (2, 3):
            y = seat_after(d.seat, k)  # type: ignore[union-attr, arg-type]
            have = set(game.states[i + 1].players[y].concealed)
            for a, b in ((t - 2, t - 1), (t - 1, t + 1), (t + 1, t + 2)):
                if a >= 0 and b < 27 and suit_of(a) == suit_of(t) == suit_of(b) \
                        and a in have and b in have:
                    cands.append((i, y, a, b))
    if not cands:
        return None
    i, y, a, b = rng.choice(cands)
    t = game.lines[i].tiles[0]  # type: ignore[union-attr]
    return _cut(game, i + 1, [Act(y, "吃", (t,), using=(a, b))], "chow_wrong_seat", "相公", y)


# A claim that lays no kong (so no replacement follows it).
_CHOW_OR_PUNG = VERB_CLASSES["claim_or_chow"] - VERB_CLASSES["kong"]


def self_draw_without_draw(game: Game, rng: random.Random) -> Fault | None:
    cands = _indices(game, lambda a, st: a.verb in _CHOW_OR_PUNG)
    cands = [i for i in cands if i + 1 < len(game.lines)]
    if not cands:
        return None
    i = rng.choice(cands)
    y = game.lines[i].seat  # type: ignore[union-attr]
    p = game.states[i + 1].players[y]
    return _cut(game, i + 1, [Act(y, "自摸"), Laid(y, tuple(sorted(p.concealed)))],  # type: ignore[arg-type]
                "self_draw_without_draw", "詐和", y)


def pass_then_win(game: Game, rng: random.Random) -> Fault | None:
    r = game.result
    if r.how != "和" or r.act is None:
        return None
    w = next(i for i, x in enumerate(game.lines) if isinstance(x, Act) and x.verb == "和")
    t = game.lines[w].tiles[0]  # type: ignore[union-attr]
    st = game.states[w]
    y, s = r.winner, r.source
    assert y is not None and s is not None
    if _on_table(st)[t] >= 4 or st.drawable < 1:
        return None
    held = st.players[y].concealed + [t]
    n = seat_after(s)
    extra: list[Line] = [Act(y, "過", (t,))]
    if n == y:
        extra += [Act(y, "摸", (t,)), Act(y, "自摸", (t,))]
    else:
        q = st.players[n]
        if is_complete(q.concealed + [t], q.n_exposed):
            return None  # the drawer would win on it itself
        extra += [Act(n, "摸", (t,)), Act(n, "打", (t,)), Act(y, "和", (t,))]
    extra.append(Laid(y, tuple(sorted(held))))
    return _cut(game, w, extra, "pass_then_win", "詐和", y, at_offset=_acts_in(extra) - 1)


FAULTS: dict[str, Callable[[Game, random.Random], Fault | None]] = {
    "discard_out_of_turn": discard_out_of_turn,
    "fifth_copy": fifth_copy,
    "pung_without_pair": pung_without_pair,
    "pung_without_pair_using": pung_without_pair_using,
    "false_win": false_win,
    "chow_wrong_seat": chow_wrong_seat,
    "self_draw_without_draw": self_draw_without_draw,
    "pass_then_win": pass_then_win,
}


def inject(game: Game, kind: str, seed: int) -> Fault | None:
    """``game`` with one fault of ``kind`` (None where this game offers no place for it)."""
    return FAULTS[kind](game, random.Random(seed))
