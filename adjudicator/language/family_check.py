"""What a log may say under its profile's family: the checks the grammar cannot make,
because which family a log is judged by is known only once its profile is resolved.

A family without flowers (Guangdong, 136 tiles: 粵.牌數) refuses any flower: a 花 line,
a 補花 or 搶花 act, a flower tile anywhere in the log.  The refusal names the line, as a
parse error does, and the clause it rests on; the command exits 2.
"""

from __future__ import annotations

from adjudicator.language import tiles as tl
from adjudicator.language.errors import LogError
from adjudicator.language.incident import Act, Incident, Position
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.rules.families import Family

_FLOWER_ACTS = VERB_CLASSES["flower"]
# The clause of each family without flowers that says which tiles its game has.
TILE_SET_CLAUSE = {"gd": "粵.牌數"}


class FamilyRefusal(LogError):
    """A log its family's game cannot have; ``clause`` is the clause id it runs against
    (what coverage counts for a case that expects the refusal: committee/refusals.py)."""

    def __init__(self, line: int, column: int, expected: str, source_line: str = "",
                 detail: str | None = None, hint: str | None = None, clause: str = "") -> None:
        self.clause = clause
        super().__init__(line, column, expected, source_line, detail, hint)

    def __reduce__(self) -> tuple[type[FamilyRefusal], tuple]:  # type: ignore[override]
        return (type(self), (self.line, self.column, self.expected, self.source_line,
                             self.detail, self.hint, self.clause))


def _flower_line(incident: Incident) -> int | None:
    """The first line of the log that brings a flower in, if any."""
    lines: list[int] = []
    for item in [*incident.positions, *incident.record]:
        if isinstance(item, Position):
            held = [*item.tiles, *(t for m in item.melds for t in m.tiles)]
            if item.kind == "花" or any(tl.is_flower(t) for t in held):
                lines.append(item.line)
        elif isinstance(item, Act):
            named = [*item.tiles, *item.using,
                     *([item.replacement] if item.replacement is not None else [])]
            if item.verb in _FLOWER_ACTS or any(tl.is_flower(t) for t in named):
                lines.append(item.line)
    return min(lines) if lines else None


def check(incident: Incident, family: Family) -> None:
    """``LogError`` if the log says something its family's game does not have."""
    if family.flowers:
        return
    line = _flower_line(incident)
    if line is None:
        return
    source = incident.source.splitlines()
    clause = TILE_SET_CLAUSE.get(family.name, "")
    cited = f"（{clause}）" if clause else ""
    raise FamilyRefusal(line, 1, f"{family.name} 規則下的行（此規則共 136 張牌，沒有花牌）",
                        source_line=source[line - 1] if 0 < line <= len(source) else "",
                        detail=f"規則 {family.name} 不用花牌{cited}：不能有花牌、補花或搶花",
                        clause=clause)
