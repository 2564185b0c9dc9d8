"""A simulated game as referees narrate it: the same play, written with the table's words.

The acts stay what the players did; the narration adds what a referee writes beside them and
leaves out what the record does not need (incident-language.md):

- ``入手`` or ``靠張`` after a draw that is thrown away (靠張 only then: a tile pressed to the
  hand may not be won on, 台.23), ``入手`` also before a 自摸;
- wins written without their tile: ``和`` on a discard and ``和`` right after a ``加杠``
  (搶杠), ``自摸`` on the tile just drawn;
- ``推倒`` after a win, before the hand is laid down;
- the winner's hand laid down as a ``手牌:`` line or as ``亮牌`` of every concealed tile,
  with the won tile or without it;
- a pung's pair or a chow's two shown with ``亮牌`` right after the claim (the chow then
  written without ``用``);
- some records without numbers (the header then says ``起點: 開局``).

It draws on its own random stream (from the seed), so the game is the same game as
``simulate(seed)`` writes plainly, and the numbers the writer gives the acts move with what
is inserted: the result's act is renumbered.
"""

from __future__ import annotations

import random
from dataclasses import replace

from adjudicator.language.vocabulary import VERB_CLASSES

from .game import Act, Game, Laid, Line, State

# Each narration's chance where it can be written.
P_ROW = 0.3       # 入手 / 靠張 after a drawn tile that is thrown
P_TOUCH = 0.4     # of those, 靠張 rather than 入手
P_ROW_WIN = 0.3   # 入手 before a 自摸
P_NO_TILE = 0.5   # a win written without its tile
P_PUSH = 0.6      # 推倒 after the win
P_SHOW_HAND = 0.4  # the hand laid down as 亮牌 rather than a 手牌 line
P_SHOW_CLAIM = 0.3  # 亮牌 of what a pung or chow laid with the claimed tile
P_UNNUMBERED = 0.3  # the record written without numbers


def narrate(game: Game) -> Game:
    """``game`` written with the narration of this module (deterministic per seed)."""
    rng = random.Random(f"narrate-{game.seed}")
    lines: list[Line] = []
    states: list[State] = []
    win_at: int | None = None
    old = game.lines
    for i, line in enumerate(old):
        state = game.states[i]
        nxt = old[i + 1] if i + 1 < len(old) else None
        if isinstance(line, Laid):
            lines_, states_ = _laid(rng, line, state, lines, states)
            lines, states = lines_, states_
            continue
        line, extra = _act(rng, line, nxt, old, i)
        lines.append(line)
        states.append(state)
        if game.result.act is not None and _number(old, i) == game.result.act:
            win_at = sum(isinstance(x, Act) for x in lines)
        after = game.states[i + 1] if i + 1 < len(game.states) else state
        for e in extra:
            lines.append(e)
            states.append(after)
    result = game.result if win_at is None else replace(game.result, act=win_at)
    return replace(game, lines=lines, states=states, result=result,
                   numbered=rng.random() >= P_UNNUMBERED)


def _number(lines: list[Line], i: int) -> int:
    return sum(1 for x in lines[: i + 1] if isinstance(x, Act))


def _act(rng: random.Random, a: Act, nxt: Line | None, old: list[Line],
         i: int) -> tuple[Act, list[Act]]:
    """The act as narrated, and the narration acts written right after it."""
    extra: list[Act] = []
    s = a.seat
    if a.verb in VERB_CLASSES["draw"] and isinstance(nxt, Act) and nxt.seat == s:
        if nxt.verb == "打" and rng.random() < P_ROW:
            extra.append(Act(s, "靠張" if rng.random() < P_TOUCH else "入手"))
        elif nxt.verb == "自摸" and rng.random() < P_ROW_WIN:
            extra.append(Act(s, "入手"))
    elif a.verb == "自摸" and a.tiles and rng.random() < P_NO_TILE:
        a = replace(a, tiles=())
    elif a.verb == "和" and a.tiles and rng.random() < P_NO_TILE:
        a = replace(a, tiles=())
    elif a.verb == "碰" and rng.random() < P_SHOW_CLAIM:
        extra.append(Act(s, "亮牌", a.tiles * 2))
    elif a.verb == "吃" and a.using and rng.random() < P_SHOW_CLAIM:
        extra.append(Act(s, "亮牌", a.using))
        a = replace(a, using=())
    if a.verb in VERB_CLASSES["declares_win"] and _ends_with_hand(old, i) and rng.random() < P_PUSH:
        extra.append(Act(s, "推倒"))
    return a, extra


def _ends_with_hand(old: list[Line], i: int) -> bool:
    """The win at ``i`` is followed by its hand laid down (not a flower win)."""
    return i + 1 < len(old) and isinstance(old[i + 1], Laid)


def _laid(rng: random.Random, laid: Laid, state: State, lines: list[Line],
          states: list[State]) -> tuple[list[Line], list[State]]:
    """The winner's hand: a 手牌 line as the simulator wrote it, or 亮牌 of the same tiles."""
    if rng.random() < P_SHOW_HAND:
        return [*lines, Act(laid.seat, "亮牌", laid.tiles)], [*states, state]
    return [*lines, laid], [*states, state]


__all__ = ["narrate"]
