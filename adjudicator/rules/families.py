"""Profile families: rule sets over the same engine that differ in the game itself.

A profile belongs to one family: a family's base profile names it on its ``族:`` line
(asp/profiles/*.rules), every other profile is of the family of the one it extends.  The
family fixes what the engine cannot leave to parameters: how many sets a complete hand
holds, whether the game has flowers, and which rule chapters are loaded (a family's own
chapters live in ``asp/<folder>/`` and no other family grounds them).  This is the one
place that says so.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """A family of profiles: what the game itself is (sets, flowers, chapters, unit)."""

    name: str
    sets: int  # sets in a complete hand, beside the pair (3 * sets + 2 tiles with the win)
    flowers: bool  # whether the game is played with flowers (補花)
    folder: str | None  # asp/<folder>/ holds the family's own chapters
    shared: tuple[str, ...]  # the chapters under asp/ (relative) the family loads besides
    unit: str  # what a win's value is counted in (台, 番)
    round_clause: str  # the clause by which the round wind turns in a match (its 圈)

    @property
    def hand_tiles(self) -> int:
        """Tiles held between turns (3 * sets + 1)."""
        return 3 * self.sets + 1


# The frame every family loads: the record, the timeline, parameters, what is shown.
_FRAME = ("core.lp", "inputs.lp", "params.lp", "show.lp", "open.lp", "verb_class.lp")

TW16 = Family("tw16", 5, True, None, (), "台", "定莊")
GD = Family("gd", 4, False, "gd", _FRAME, "番", "粵.風圈")

FAMILIES: dict[str, Family] = {f.name: f for f in (TW16, GD)}
DEFAULT = TW16


def own_folders() -> set[str]:
    """The folders under asp/ that belong to one family only."""
    return {f.folder for f in FAMILIES.values() if f.folder}
