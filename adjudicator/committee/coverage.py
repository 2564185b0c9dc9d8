"""Which clause ids (adjudicator/ruling/clauses.py) the rulings of a corpus cite, and which
none does.

A case exercises a clause when its ruling, judged under the case's own profile, cites it in
a finding, a win (its own clauses or a pattern's), a payment or the next hand.  A refusal
case (``*.refusal``, committee/refusals.py) exercises the clauses its expected refusal
cites, when the log is refused as it expects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.committee import fan_cases
from adjudicator.committee.cases import (
    UNJUDGED,
    case_name,
    find_cases,
    read_corpus,
    unjudged_why,
)
from adjudicator.committee.match_cases import run_match_case
from adjudicator.committee.refusals import GLOB, expected_refusal, is_refusal, run_refusal
from adjudicator.ruling.clauses import CLAUSES
from adjudicator.ruling.judge import judge
from adjudicator.ruling.mcr_fans import FANS, clause_of
from adjudicator.ruling.model import Ruling


@dataclass
class Coverage:
    cases: list[str] = field(default_factory=list)  # every case judged
    reached: dict[str, list[str]] = field(default_factory=dict)  # clause id → case names
    unknown: dict[str, list[str]] = field(default_factory=dict)  # cited but not a listed id
    errors: dict[str, str] = field(default_factory=dict)  # case name → why not judged

    @property
    def unreached(self) -> list[str]:
        return [c for c in CLAUSES if not self.reached.get(c)]

    def to_json(self) -> dict[str, Any]:
        return {
            "cases": len(self.cases),
            "clauses": {c: self.reached.get(c, []) for c in CLAUSES},
            "reached": sum(bool(self.reached.get(c)) for c in CLAUSES),
            "total": len(CLAUSES),
            "unreached": self.unreached,
            "unknown": self.unknown,
            "errors": self.errors,
        }


def cited(r: Ruling) -> set[str]:
    """Every clause id the ruling cites."""
    out = {c for f in r.findings for c in f.clauses}
    out |= {c for w in r.wins for c in w.clauses}
    out |= {p.clause for w in r.wins for p in w.patterns}
    out |= {c for p in r.payments for c in p.clauses}
    if r.next_hand is not None:
        out |= set(r.next_hand.clauses)
    return out


def coverage(paths: Iterable[Path]) -> Coverage:
    paths = list(paths)
    report = Coverage()
    for path, incident in read_corpus(p for p in paths if not is_refusal(p)):
        name = case_name(path)
        report.cases.append(name)
        if isinstance(incident, str):
            report.errors[name] = incident.splitlines()[0]
            continue
        try:
            ruling = judge(incident)
        except UNJUDGED as err:
            report.errors[name] = unjudged_why(err).splitlines()[0]
            continue
        _count(report, name, cited(ruling))
    for path in find_cases(paths, (GLOB,)):
        if is_refusal(path):
            _refusal(report, path)
    for path in find_cases(paths, ("*.match",)):
        _match(report, path)
    for path in find_cases(paths, (fan_cases.GLOB,)):
        _fans(report, path)
    return report


def _match(report: Coverage, path: Path) -> None:
    """A match case reaches what its hands' rulings cite, the clause each new 圈 turned by
    (定莊, 粵.風圈) and the clauses of its 插花 warnings, when it passes."""
    name = case_name(path)
    report.cases.append(name)
    result = run_match_case(path)
    if not result.passed or result.result is None:
        report.errors[name] = (result.error or result.failures[0]).splitlines()[0]
        return
    clauses = set()
    for hand in result.result.hands:
        clauses |= cited(hand.ruling)
        if hand.deal is not None and hand.deal.round_clause:
            clauses.add(hand.deal.round_clause)
        clauses |= {w.clause for w in hand.warnings if w.clause}  # a 插花 change out of time
    _count(report, name, clauses)


def _fans(report: Coverage, path: Path) -> None:
    """A 國標 fan case reaches the fans it expects (國標.N), when the hand scores them; the
    fans 002 does not list are not among the clause ids and are not counted."""
    name = case_name(path)
    report.cases.append(name)
    result = fan_cases.run_fan_case(path)
    if not result.passed:
        report.errors[name] = result.failures[0]
        return
    fans = {clause_of(f) for f in FANS if f.name in result.fans}
    _count(report, name, (c for c in fans if c in CLAUSES))


def _count(report: Coverage, name: str, clauses: Iterable[str]) -> None:
    for clause in sorted(clauses):
        target = report.reached if clause in CLAUSES else report.unknown
        target.setdefault(clause, []).append(name)


def _refusal(report: Coverage, path: Path) -> None:
    """A refusal case reaches its clauses only when the log is refused as it expects."""
    name = case_name(path)
    report.cases.append(name)
    result = run_refusal(path)
    if not result.passed:
        report.errors[name] = (result.error or result.failures[0]).splitlines()[0]
        return
    want = expected_refusal(path.read_text(encoding="utf-8"))
    assert want is not None  # it passed, so it has its frame line
    _count(report, name, want.clauses)
