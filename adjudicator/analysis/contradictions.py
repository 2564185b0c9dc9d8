"""Where a contradiction of the record lies: the lines that conflict, as written.

The replay (replay.py) says at which line the record stops being possible; this module
points at the other lines that make it so — the line before a falling sequence number,
the hand statement and the acts that moved the tile, every line a fifth copy came from.
It is bookkeeping over the record, like the replay; it judges nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from adjudicator.language import tiles as T
from adjudicator.language.incident import Act, Incident, Position
from adjudicator.ruling.model import SourceLine

_COMMENT = re.compile(r"[#＃]")


@lru_cache(maxsize=16)
def _lines(source: str) -> tuple[str, ...]:
    return tuple(source.splitlines())


def source_line(incident: Incident, line: int) -> SourceLine:
    """Line ``line`` of the log as written, without its comment."""
    lines = _lines(incident.source)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    cut = _COMMENT.search(text)
    return SourceLine(line, (text[: cut.start()] if cut else text).strip())


class Conflicts:
    """An index of the record by line and by tile, built once per incident."""

    def __init__(self, incident: Incident) -> None:
        self.incident = incident
        self.acts = incident.acts
        self.dealt = [p.line for p in incident.positions]
        self.hands: dict[str, list[int]] = {}
        self.tile_lines: dict[int, list[int]] = {}
        for pos in _positions(incident):
            if pos.kind == "手牌":
                self.hands.setdefault(pos.seat, []).append(pos.line)
            for t in set(_position_tiles(pos)):
                self.tile_lines.setdefault(t, []).append(pos.line)
        for act in self.acts:
            for t in set(_act_tiles(act)):
                self.tile_lines.setdefault(t, []).append(act.line)

    def lines(self, line: int, kind: str, detail: str) -> tuple[SourceLine, ...]:
        """The lines that conflict in the problem found at ``line`` (that line included)."""
        if kind == "seq_falls":
            found = self._before_falling(line)
        elif kind == "not_held":
            found = self._not_held(line, _tile_at_end(detail))
        elif kind == "fifth_copy":
            found = self._copies(line, _tile_at_start(detail))
        else:
            found = []
        numbers = sorted({n for n in [*found, line] if n > 0})
        return tuple(source_line(self.incident, n) for n in numbers)

    def _before_falling(self, line: int) -> list[int]:
        for prev, act in zip(self.acts, self.acts[1:], strict=False):
            if act.line == line:
                return [prev.line]
        return []

    def _not_held(self, line: int, tile: int | None) -> list[int]:
        act = next((a for a in self.acts if a.line == line), None)
        if act is None or tile is None:
            return []
        stated = [n for n in self.hands.get(str(act.actor), []) if n < line]
        since = stated[-1] if stated else 0
        moved = [a.line for a in self.acts if a.actor == act.actor and since < a.line < line
                 and tile in _act_tiles(a)]
        return [*stated[-1:], *moved]

    def _copies(self, line: int, tile: int | None) -> list[int]:
        if tile is None:
            return []
        # The replay checks the positions before the record together, at the first one's line.
        limit = max([line, *self.dealt]) if self.dealt and line <= max(self.dealt) else line
        return [n for n in self.tile_lines.get(tile, []) if n <= limit]


_BY_LENGTH = sorted(range(len(T.NAMES)), key=lambda t: -len(T.NAMES[t]))


def _tile_at_start(detail: str) -> int | None:
    return next((t for t in _BY_LENGTH if detail.startswith(T.NAMES[t])), None)


def _tile_at_end(detail: str) -> int | None:
    return next((t for t in _BY_LENGTH if detail.endswith(T.NAMES[t])), None)


def _positions(incident: Incident) -> Iterator[Position]:
    yield from incident.positions
    yield from (p for p in incident.record if isinstance(p, Position))


def _position_tiles(pos: Position) -> list[int]:
    return [*pos.tiles, *(t for m in pos.melds for t in m.tiles)]


def _act_tiles(act: Act) -> list[int]:
    extra = [] if act.replacement is None else [act.replacement]
    return [*act.tiles, *act.using, *extra]
