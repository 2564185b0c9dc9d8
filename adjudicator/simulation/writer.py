"""A simulated game written in the incident language (incident-language.md).

The header, each chair's dealt hand as a position line before `紀錄:`, the acts numbered
from 1 (a first act numbered 1 says the record starts at the deal; a game written without
numbers says so with `起點: 開局`), and the winner's hand laid down after the win as a
`手牌:` line (narrate.py writes some as `亮牌`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import Act, Game, Laid, Line
from .tiles import SEATS, name, names

BASE = 300
PER_TAI = 100


def act_text(a: Act) -> str:
    actor = "牌局" if a.seat is None else SEATS[a.seat]
    words = [actor, a.verb]
    if a.verb == "補花":
        words.append(name(a.tiles[0]))
        if a.repl is not None:
            words += ["補", name(a.repl)]
    elif a.verb == "暗杠" and len(a.tiles) == 4:
        words.append(" ".join(name(t) for t in a.tiles))
    else:
        words += [name(t) for t in a.tiles]
        if a.using:
            words += ["用"] + [name(t) for t in a.using]
    text = " ".join(words)
    return f"{text} （{a.note}）" if a.note else text


def line_text(line: Line) -> str:
    if isinstance(line, Laid):
        return f"{SEATS[line.seat]} 手牌: {names(line.tiles)}"
    return act_text(line)


def header(game: Game) -> list[str]:
    lines = [
        "規則: tw16",
        f"圈風: {SEATS[game.round_wind]}",
        f"莊家: {SEATS[game.dealer]}",
        f"底: {BASE}",
        f"台: {PER_TAI}",
        f"牌牆: {game.wall_start}",
    ]
    # Without numbers, only the header says that the record starts at the deal.
    return lines if game.numbered else [*lines, "起點: 開局"]


def positions(game: Game) -> list[str]:
    out = []
    for s in range(4):
        out.append(f"{SEATS[s]} 手牌: {names(game.dealt[s])}")
        if game.dealt_flowers[s]:
            out.append(f"{SEATS[s]} 花: {names(game.dealt_flowers[s])}")
    return out


def record(lines: Sequence[Line], numbered: bool = True) -> list[str]:
    out = ["紀錄:"]
    n = 0
    for line in lines:
        if isinstance(line, Act):
            n += 1
            out.append(f"{n} {line_text(line)}" if numbered else line_text(line))
        else:
            out.append(line_text(line))
    return out


def write(game: Game, lines: Sequence[Line] | None = None) -> str:
    """The log of ``game`` (or of ``lines`` over the same deal: a cut or a fault)."""
    body = header(game) + positions(game) + [""] + record(
        game.lines if lines is None else lines, numbered=game.numbered)
    return "\n".join(body) + "\n"
