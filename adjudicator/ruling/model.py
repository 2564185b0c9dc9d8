"""The typed ruling, and its JSON form (the contract in shared/spec/ruling-json.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from adjudicator.language.incident import Money
from adjudicator.language.seats import SEATS, Seat

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import RuleSet

Status = Literal["decided", "undetermined", "inconsistent"]

# A status in words, the one vocabulary for it: at the head of a report, in a table cell
# (diff, the desk's archive), in a match ledger's column.
STATUS_WORDS: dict[str, str] = {
    "decided": "裁決確定",
    "undetermined": "紀錄不足：部分結論有待查明",
    "inconsistent": "紀錄自相矛盾：僅就可判部分裁決",
}
STATUS_SHORT: dict[str, str] = {
    "decided": "裁決確定", "undetermined": "紀錄不足", "inconsistent": "紀錄矛盾"}
STATUS_LEDGER: dict[str, str] = {
    "decided": "已決", "undetermined": "未定", "inconsistent": "自相矛盾"}


@dataclass(frozen=True)
class Reason:
    """One reason of the answer set in words, with what it cites and what it rests on."""

    text: str
    acts: tuple[int, ...] = ()  # sequence numbers of the acts the reason names
    clauses: tuple[str, ...] = ()  # clauses applied at this step (why_clause/2)
    premises: tuple[Reason, ...] = ()  # intermediate conclusions it rests on (why_premise/2)


@dataclass(frozen=True)
class Finding:
    """An offence or a finding about a player at an act, with its clauses and reasons."""

    kind: str
    seat: Seat
    at: int | None  # the sequence number of the act the finding is about
    clauses: tuple[str, ...]
    why: tuple[str, ...] = ()  # one line per reason, rendered from the answer set
    over: Seat | None = None  # for 優先: the player who lost
    window: dict[str, int] | None = None  # for 代位賠付: the draws the window covers
    reasons: tuple[Reason, ...] = ()  # the same reasons, with their acts and premises


@dataclass(frozen=True)
class Pattern:
    """A scoring pattern a win counts, its 台 and its clause."""

    name: str
    tai: int
    clause: str


@dataclass(frozen=True)
class Win:
    """A declared win: whether it stands, from whom, what it is worth and why."""

    seat: Seat
    at: int | None
    valid: bool
    self_drawn: bool
    from_seat: Seat | None
    tai: int | None
    patterns: tuple[Pattern, ...] = ()
    why: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()
    reasons: tuple[Reason, ...] = ()
    open: tuple[str, ...] = ()  # open facts its validity or 台 waits on (status undetermined)


@dataclass(frozen=True)
class Payment:
    """Money one party pays another, on what basis and under which clauses."""

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
    """Who deals the next hand, and the streak it carries."""

    dealer: Seat
    streak: int
    counts_streak: bool
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Interpretation:
    """An interpretation point the ruling depended on, and the reading taken."""

    id: str
    reading: str


@dataclass(frozen=True)
class SourceLine:
    """A line of the log, for a problem to quote."""

    line: int
    text: str  # the line as written, comment removed


@dataclass(frozen=True)
class Problem:
    """Where the record cannot have happened (the ruling is then inconsistent)."""

    line: int
    at: int | None
    kind: str
    detail: str
    conflicts: tuple[SourceLine, ...] = ()  # the lines of the record that contradict each other


@dataclass(frozen=True)
class Possibility:
    """What holds, beyond the decided ruling, when an open fact is one way."""

    assumption: str  # the way the open fact is taken, in words
    findings: tuple[Finding, ...] = ()
    wins: tuple[Win, ...] = ()  # the wins as they then stand (those the decided ruling leaves open)
    payments: tuple[Payment, ...] = ()  # payments that then follow besides the decided ones
    balances: dict[str, Money] = field(default_factory=dict)  # all balances then
    hand_ends: bool | None = None  # only when the decided ruling does not say
    next_hand: NextHand | None = None
    interpretations: tuple[Interpretation, ...] = ()


@dataclass(frozen=True)
class Uncertain:
    """A fact the record leaves open, what depends on it, and each way it may be."""

    at: int | None
    fact: str  # what the record leaves open
    changes: str  # what depends on it
    term: str = ""  # the open fact as the rules name it
    possibilities: tuple[Possibility, ...] = ()


@dataclass
class Ruling:
    """What the rules decide for one log: findings, wins, money, the next hand, what
    stays open and where the record contradicts itself."""

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
    # What the header says of the occasion (date, venue, table, referee, hand, players).
    meta: dict[str, Any] = field(default_factory=dict)
    warnings: list[LogWarning] = field(default_factory=list)
    # By which rules it was judged (rules/rulesets.py; ruling-json.md, third edition).
    rules: RuleSet | None = None


@dataclass(frozen=True)
class LogWarning:
    """Something a careful reader of the log would query that is no contradiction."""

    line: int
    message: str


def balances_of(payments: list[Payment]) -> dict[str, Money]:
    """Net money per chair (and per outside bettor): what each received minus what it paid."""
    out: dict[str, Money] = {s: 0 for s in SEATS}
    for p in payments:
        # A whole amount is summed as an int: as exact, and far cheaper than a Fraction
        # (a ruling is balanced once per possibility of what the record leaves open).
        amount = p.amount.numerator if p.amount.denominator == 1 else p.amount
        out[p.frm] = out.get(p.frm, 0) - amount
        out[p.to] = out.get(p.to, 0) + amount
    return {k: _exact(v) for k, v in out.items()}


def _exact(value: Fraction | int) -> Money:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else value


def money_json(value: Money) -> int | str:
    value = _exact(value)
    return value if isinstance(value, int) else f"{value.numerator}/{value.denominator}"


def signed_money(value: Money | str) -> str:
    """An amount as the rulings print a balance: a gain with "+", exact ("+1/2")."""
    v = value if isinstance(value, str) else money_json(value)
    return f"+{v}" if Fraction(str(v)) > 0 else str(v)


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
        "uncertain": [_uncertain(u) for u in r.uncertain],
        "problems": [_problem(p) for p in r.problems],
        "meta": r.meta,
        "warnings": [{"line": w.line, "message": w.message} for w in r.warnings],
        "rules": None if r.rules is None else r.rules.to_json(),
    }


def _next_hand(n: NextHand | None) -> dict[str, Any] | None:
    return None if n is None else {"dealer": n.dealer, "streak": n.streak,
                                   "counts_streak": n.counts_streak, "clauses": list(n.clauses)}


def _reason(r: Reason) -> dict[str, Any]:
    return {"text": r.text, "acts": list(r.acts), "clauses": list(r.clauses),
            "premises": [_reason(p) for p in r.premises]}


def _problem(p: Problem) -> dict[str, Any]:
    return {"line": p.line, "at": p.at, "kind": p.kind, "detail": p.detail,
            "conflicts": [{"line": c.line, "text": c.text} for c in p.conflicts]}


def _uncertain(u: Uncertain) -> dict[str, Any]:
    return {"at": u.at, "fact": u.fact, "changes": u.changes, "term": u.term,
            "possibilities": [_possibility(p) for p in u.possibilities]}


def _possibility(p: Possibility) -> dict[str, Any]:
    out: dict[str, Any] = {
        "if": p.assumption,
        "findings": [_finding(f) for f in p.findings],
        "wins": [_win(w) for w in p.wins],
        "payments": [_payment(x) for x in p.payments],
        "balances": {k: money_json(v) for k, v in p.balances.items()},
        "interpretations": [{"id": i.id, "reading": i.reading} for i in p.interpretations],
    }
    if p.hand_ends is not None:
        out["hand_ends"] = p.hand_ends
    if p.next_hand is not None:
        out["next_hand"] = _next_hand(p.next_hand)
    return out


def _finding(f: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": f.kind, "seat": f.seat, "at": f.at,
                           "clauses": list(f.clauses), "why": "；".join(f.why)}
    if f.over is not None:
        out["over"] = f.over
    if f.window is not None:
        out["window"] = f.window
    if f.reasons:
        out["reasons"] = [_reason(x) for x in f.reasons]
    return out


def _win(w: Win) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": w.seat, "at": w.at, "valid": w.valid, "self_drawn": w.self_drawn,
        "from": w.from_seat, "tai": w.tai,
        "patterns": [{"name": p.name, "tai": p.tai, "clause": p.clause} for p in w.patterns],
        "clauses": list(w.clauses),
    }
    # A win the record leaves open is neither valid nor void: say so rather than let
    # "valid": false read as a ruling (what each possibility gives is under "uncertain").
    undetermined = not w.valid and not w.why and bool(w.open)
    if not w.valid:
        out["why"] = "；".join(w.why or w.open)
    if w.open:
        out["open"] = list(w.open)
    if undetermined:
        out["undetermined"] = True
        out["clauses"] = out["clauses"] or ["和牌型態"]
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
