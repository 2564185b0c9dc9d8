"""國標 fan cases (``cases/mcr/*.fan``): a hand and the fans worked out for it by hand.

A ``.fan`` file has ``key: value`` lines — 手牌 (concealed tiles, without the winning one),
和牌, and optionally 門前, 花牌, 門風, 圈風 and 情境 (自摸 絕張 搶杠 杠上開花 海底) — then
``期望:`` and one line per fan (``名 番`` or ``名 ×N 番``), ``合計 N``, and ``不成和`` for a
hand that is no win.  ``adjudicator score --profile mcr`` reads the same hand; this module
checks the fans against the expectations (tests/ruling/test_mcr.py, and coverage, which
counts a passing case's fans as the 國標 clauses it reaches).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.language.seats import SEAT_ALIASES
from adjudicator.language.tiles import parse_melds, parse_tiles

GLOB = "*.fan"
# 情境 words → the WinHand flags they set.
CONTEXT = {"自摸": "self_drawn", "絕張": "fourth_tile", "搶杠": "robbed_kong",
           "杠上開花": "kong_replacement", "海底": "last_tile"}


@dataclass
class FanExpectation:
    fans: list[tuple[str, int, int]]  # (name, count, 番), sorted
    total: int
    complete: bool


@dataclass
class FanCaseResult:
    path: Path
    failures: list[str] = field(default_factory=list)
    fans: list[str] = field(default_factory=list)  # the names of the fans expected

    @property
    def passed(self) -> bool:
        return not self.failures


def fields_of(text: str) -> tuple[dict[str, str], list[str]]:
    """The case's key: value fields and its expectation lines."""
    head, _, expected = text.partition("期望:")
    fields: dict[str, str] = {}
    for line in head.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    return fields, [x.strip() for x in expected.splitlines() if x.strip()]


def expected(lines: list[str]) -> FanExpectation:
    fans: list[tuple[str, int, int]] = []
    total, complete = -1, True
    for line in lines:
        words = line.split()
        if words == ["不成和"]:
            complete = False
        elif words[0] == "合計":
            total = int(words[1])
        else:
            count = int(words[1].removeprefix("×")) if len(words) == 3 else 1
            fans.append((words[0], count, int(words[-1])))
    return FanExpectation(sorted(fans), total, complete)


def run_fan_case(path: Path) -> FanCaseResult:
    from adjudicator.ruling import mcr
    from adjudicator.ruling.scoring import WinHand

    out = FanCaseResult(path)
    fields, lines = fields_of(path.read_text(encoding="utf-8"))
    want = expected(lines)
    out.fans = [name for name, _, _ in want.fans]
    winning = parse_tiles(fields["和牌"])
    flags = {CONTEXT[w]: True for w in fields.get("情境", "").split()}
    hand = WinHand(
        concealed=parse_tiles(fields["手牌"]), winning_tile=winning[0] if winning else None,
        exposed=parse_melds(fields.get("門前", "")), flowers=parse_tiles(fields.get("花牌", "")),
        seat=SEAT_ALIASES[fields.get("門風", "東")], dealer="東",
        round_wind=SEAT_ALIASES[fields.get("圈風", "東")], open_seat="東",
        **flags)  # type: ignore[arg-type]
    result = mcr.score(hand)
    got = sorted((r.kind.name, r.count, r.fan) for r in result.rows)
    if got != want.fans:
        out.failures.append(f"番種應為 {want.fans}，計得 {got}")
    if result.fan != want.total:
        out.failures.append(f"合計應為 {want.total}，計得 {result.fan}")
    if result.complete is not want.complete:
        out.failures.append("應" + ("成和" if want.complete else "不成和"))
    return out
