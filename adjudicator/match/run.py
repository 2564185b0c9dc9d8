"""Judging a match: every hand in order, the deal carried, the ledger booked.

A hand that cannot be judged (it does not parse, or the ruling is ``inconsistent``) or
whose deal is open and not stated stops the carry: the result then holds the hands up to
there and says why.  An ``undetermined`` hand books what holds in every possibility (the
decided payments) and carries only what every possibility agrees on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from adjudicator.language import reader
from adjudicator.language.errors import LogError
from adjudicator.language.incident import Incident
from adjudicator.match.carry import Carried, CarryWarning, Deal, advance, base_header, settle, start
from adjudicator.match.format import Match, MatchHeader
from adjudicator.match.ledger import Ledger, by_name
from adjudicator.rules.engine import EngineError
from adjudicator.rules.rulesets import House
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import Ruling

StopKind = Literal["parse", "inconsistent", "carry"]


@dataclass
class HandResult:
    number: int
    label: str
    line: int
    deal: Deal
    ruling: Ruling
    incident: Incident
    booked: bool  # False: inconsistent, its money not booked
    amounts: dict[str, Fraction] = field(default_factory=dict)
    totals: dict[str, Fraction] = field(default_factory=dict)
    warnings: list[CarryWarning] = field(default_factory=list)
    seconds: float = 0.0  # reading and judging this hand (batch reports it as ms)


@dataclass(frozen=True)
class Stop:
    hand: int
    kind: StopKind
    message: str


@dataclass
class MatchResult:
    match: Match
    hands: list[HandResult]
    ledger: Ledger
    stop: Stop | None = None
    next: Carried | None = None  # what the match carries after its last judged hand

    @property
    def warnings(self) -> list[CarryWarning]:
        return [w for h in self.hands for w in h.warnings]


def judge_match(match: Match, *, profile: str | None = None,
                settings: dict[str, str] | None = None,
                house: House | None = None) -> MatchResult:
    """Every hand of ``match`` judged in order (by ``house`` rules when given)."""
    header = match.header
    bettors = [b.bettor for b in header.side_bets if b.bettor]
    result = MatchResult(match, [], Ledger.of_players(header.seating, bettors))
    carried = start(header)
    for hand in match.hands:
        began = time.perf_counter()
        try:
            incident = reader.read(hand.text, base=base_header(carried, header))
            _same_stake(incident, header)
            settled = settle(carried, incident, hand.number, hand.bet_changes)
            if settled.deal is None:
                result.stop = Stop(hand.number, "carry", settled.stop or "")
                return result
            ruling = judge(incident, profile=profile, settings=settings, house=house)
        except LogError as err:
            result.stop = Stop(hand.number, "parse", f"第{hand.number}盤無法讀：{err}")
            return result
        except EngineError as err:
            result.stop = Stop(hand.number, "parse", f"第{hand.number}盤無法裁決：{err}")
            return result
        booked = ruling.status != "inconsistent"
        done = HandResult(hand.number, hand.label, hand.line, settled.deal, ruling, incident,
                          booked, warnings=settled.warnings,
                          seconds=time.perf_counter() - began)
        result.hands.append(done)
        if not booked:
            where = "；".join(f"第 {p.line} 行 {p.detail}" for p in ruling.problems)
            result.stop = Stop(hand.number, "inconsistent",
                               f"第{hand.number}盤的紀錄自相矛盾（{where}），無法裁決；帳目算到前一盤為止")
            return result
        done.amounts = by_name(ruling.balances, settled.deal.seating)
        done.totals = result.ledger.add(done.amounts)
        carried = advance(settled.deal, ruling, header.seat_change, settled.bets)
        result.next = carried
    return result


def _same_stake(incident: Incident, header: MatchHeader) -> None:
    """A hand may repeat the match's 規則, 底 and 台, not change them."""
    h = incident.header
    for key, mine, theirs in (("規則", header.profile, h.profile),
                              ("底", header.base, h.base), ("台", header.per_tai, h.per_tai)):
        if key in h.lines and mine != theirs:
            line = h.lines[key]
            source = incident.source.splitlines()
            raise LogError(line, 1, f"與將頭相同的「{key}: {mine}」",
                           source[line - 1] if line <= len(source) else "",
                           f"將頭的 {key} 適用於每一盤；此盤寫的是 {theirs}")
