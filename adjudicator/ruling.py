"""The typed ruling, and its JSON form (the contract in shared/spec/ruling-json.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from .incident import Money
from .seats import SEATS, Seat

Status = Literal["decided", "undetermined", "inconsistent"]


@dataclass(frozen=True)
class Finding:
    kind: str
    seat: Seat
    at: int | None  # the sequence number of the act the finding is about
    clauses: tuple[str, ...]
    why: tuple[str, ...] = ()  # one line per reason, rendered from the answer set
    over: Seat | None = None  # for 優先: the player who lost
    window: dict[str, int] | None = None  # for 代位賠付: the draws the window covers


@dataclass(frozen=True)
class Pattern:
    name: str
    tai: int
    clause: str


@dataclass(frozen=True)
class Win:
    seat: Seat
    at: int | None
    valid: bool
    self_drawn: bool
    from_seat: Seat | None
    tai: int | None
    patterns: tuple[Pattern, ...] = ()
    why: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Payment:
    frm: str  # a chair, or an outside bettor's name
    to: str
    amount: Money
    tai: int
    basis: str
    clauses: tuple[str, ...]
    at: int | None = None
    instead_of: Seat | None = None  # 代位賠付: who would have paid


@dataclass(frozen=True)
class NextHand:
    dealer: Seat
    streak: int
    counts_streak: bool
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Interpretation:
    id: str
    reading: str


@dataclass(frozen=True)
class Problem:
    line: int
    at: int | None
    kind: str
    detail: str


@dataclass(frozen=True)
class Uncertain:
    at: int | None
    fact: str  # what the record leaves open
    changes: str  # what depends on it


@dataclass
class Ruling:
    profile: str
    status: Status
    findings: list[Finding] = field(default_factory=list)
    wins: list[Win] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    balances: dict[str, Money] = field(default_factory=dict)
    hand_ends: bool = False
    next_hand: NextHand | None = None
    interpretations: list[Interpretation] = field(default_factory=list)
    uncertain: list[Uncertain] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def balances_of(payments: list[Payment]) -> dict[str, Money]:
    """Net money per chair (and per outside bettor): what each received minus what it paid."""
    out: dict[str, Fraction] = {s: Fraction(0) for s in SEATS}
    for p in payments:
        out[p.frm] = out.get(p.frm, Fraction(0)) - p.amount
        out[p.to] = out.get(p.to, Fraction(0)) + p.amount
    return {k: _exact(v) for k, v in out.items()}


def _exact(value: Fraction | int) -> Money:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else value


def money_json(value: Money) -> int | str:
    value = _exact(value)
    return value if isinstance(value, int) else f"{value.numerator}/{value.denominator}"


def to_dict(r: Ruling) -> dict[str, Any]:
    return {
        "profile": r.profile,
        "status": r.status,
        "findings": [_finding(f) for f in r.findings],
        "wins": [_win(w) for w in r.wins],
        "payments": [_payment(p) for p in r.payments],
        "balances": {k: money_json(v) for k, v in r.balances.items()},
        "hand_ends": r.hand_ends,
        "next_hand": None if r.next_hand is None else {
            "dealer": r.next_hand.dealer, "streak": r.next_hand.streak,
            "counts_streak": r.next_hand.counts_streak, "clauses": list(r.next_hand.clauses)},
        "interpretations": [{"id": i.id, "reading": i.reading} for i in r.interpretations],
        "uncertain": [{"at": u.at, "fact": u.fact, "changes": u.changes} for u in r.uncertain],
        "problems": [{"line": p.line, "at": p.at, "kind": p.kind, "detail": p.detail}
                     for p in r.problems],
    }


def _finding(f: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": f.kind, "seat": f.seat, "at": f.at,
                           "clauses": list(f.clauses), "why": "；".join(f.why)}
    if f.over is not None:
        out["over"] = f.over
    if f.window is not None:
        out["window"] = f.window
    return out


def _win(w: Win) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": w.seat, "at": w.at, "valid": w.valid, "self_drawn": w.self_drawn,
        "from": w.from_seat, "tai": w.tai,
        "patterns": [{"name": p.name, "tai": p.tai, "clause": p.clause} for p in w.patterns],
        "clauses": list(w.clauses),
    }
    if not w.valid:
        out["why"] = "；".join(w.why)
    return out


def _payment(p: Payment) -> dict[str, Any]:
    out: dict[str, Any] = {"from": p.frm, "to": p.to, "amount": money_json(p.amount),
                           "tai": p.tai, "basis": p.basis, "clauses": list(p.clauses),
                           "at": p.at}
    if p.instead_of is not None:
        out["instead_of"] = p.instead_of
    return out


def to_json(r: Ruling) -> str:
    return json.dumps(to_dict(r), ensure_ascii=False, indent=2)
