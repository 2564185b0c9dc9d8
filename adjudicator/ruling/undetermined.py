"""What the record leaves open: the decided ruling, and what holds only in some possibilities.

``engine.solve_open`` gives what holds in every answer set (the decided ruling is built from
it) and, for each choice of asp/open.lp taken one way, what holds in every answer set where
it is so.  Here each possibility's ruling is compared with the decided one: what it adds is
conditional on that open fact, and becomes an ``uncertain`` entry naming it.  Nothing is
concluded here that the answer sets do not hold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from clingo import Symbol

from adjudicator.rules import interface
from adjudicator.rules.engine import Answer
from adjudicator.rules.engine import Possibility as Held
from adjudicator.rules.rulesets import named_family
from adjudicator.ruling.model import (
    Finding,
    Payment,
    Possibility,
    Ruling,
    Uncertain,
    Win,
    signed_money,
)
from adjudicator.ruling.reasons import Context, render, render_assumption

# An open fact as asp/show.lp declares it: the act it is open at, and its term.
OPEN_FACT = interface.shown()["open_fact"]


# What a possibility must differ in to change the ruling: the conclusions, not the clauses
# or reasons cited for them (a 相公 player's 詐和 stays 詐和 whether or not its unrecorded
# hand was complete).
def finding_key(f: Finding) -> tuple:
    return (f.kind, f.seat, f.at, f.over, str(f.window))


def payment_key(p: Payment) -> tuple:
    return (p.frm, p.to, p.amount, p.tai, p.basis, p.at, p.instead_of)


def win_key(w: Win) -> tuple:
    return (w.seat, w.at, w.valid, w.tai, w.patterns, w.from_seat, w.open)


@dataclass(frozen=True)
class Known:
    """The findings, wins and payments the decided ruling holds, by the keys a possibility is
    compared on: a possibility's ruling may leave out such findings and wins (``_difference``
    drops them), so their reasons are not put into words once more for every possibility."""

    findings: frozenset[tuple]
    wins: frozenset[tuple]
    payments: frozenset[tuple]

    @classmethod
    def of(cls, ruling: Ruling) -> Known:
        return cls(frozenset(map(finding_key, ruling.findings)),
                   frozenset(map(win_key, ruling.wins)),
                   frozenset(map(payment_key, ruling.payments)))


# A possibility's ruling (from what holds in every answer set with it), leaving out what is known.
Build = Callable[[list[Symbol], Known], Ruling]
NO_POSSIBILITIES = "紀錄未載此事實；規則未列出其可能情形，相關結論從缺"


def undetermined(ruling: Ruling, answer: Answer, build: Build, ctx: Context) -> None:
    """Add to ``ruling`` (built from what holds in every answer set) what the open facts change."""
    groups: dict[tuple[int, str], list[Held]] = {}
    for held in answer.possibilities:
        groups.setdefault((held.open_at, str(held.fact)), []).append(held)
    # What a win is counted in: 台, or 番 in the Guangdong family.
    unit = named_family(ruling.profile).unit
    known = Known.of(ruling)
    # The decided atoms hold in every answer set with a choice taken one way too, so a
    # possibility holds at least them; one with no more atoms than there are decided ones
    # holds just them, has the decided ruling, and is not built again (most open facts
    # change nothing).  Counted, not compared: a hash of each atom is a call into clingo.
    decided = len(set(answer.atoms)) if answer.possibilities else 0
    entries = [e for e in (_entry(ruling, known, g, build, ctx, unit, decided)
                           for g in groups.values()) if e]
    terms = {term for _, term in groups}
    kept = [u for u in ruling.uncertain if u.term not in terms]
    kept += _brave_only(ruling, answer, terms, ctx)
    ruling.uncertain = sorted(kept + entries, key=lambda u: (u.at or 0, u.term))
    ruling.wins = [_mark(w, entries) for w in ruling.wins]
    if not ruling.problems:
        ruling.status = "undetermined" if ruling.uncertain else "decided"


def _brave_only(ruling: Ruling, answer: Answer, terms: set[str],
                ctx: Context) -> list[Uncertain]:
    """Open facts that hold in some answer set only and have no choice of their own."""
    known = {u.term for u in ruling.uncertain} | terms
    rows = [OPEN_FACT.read(a.arguments) for a in answer.brave if a.name == OPEN_FACT.name]
    return [Uncertain(ctx.seq(r.at.number), render(ctx, "", r.fact), NO_POSSIBILITIES,
                      str(r.fact))
            for r in rows if str(r.fact) not in known]


def _entry(ruling: Ruling, known: Known, group: list[Held], build: Build, ctx: Context,
           unit: str, decided: int) -> Uncertain | None:
    views = [None if len(h.atoms) <= decided else
             _difference(ruling, known, build(h.atoms, known),
                         render_assumption(ctx, h.choice, h.value)) for h in group]
    if not any(views):
        return None  # the open fact changes nothing the ruling says
    first = group[0]
    kept = tuple(v for v in views if v is not None)
    return Uncertain(ctx.seq(first.open_at), render(ctx, "", first.fact),
                     "；".join(_summary(v, unit) for v in kept), str(first.fact), kept)


def _difference(decided: Ruling, known: Known, then: Ruling,
                assumption: str) -> Possibility | None:
    """What ``then`` holds that ``decided`` (whose findings, wins and payments are ``known``)
    does not, or None when nothing."""
    findings = tuple(f for f in then.findings if finding_key(f) not in known.findings)
    wins = tuple(w for w in then.wins if win_key(w) not in known.wins)
    payments = tuple(p for p in then.payments if payment_key(p) not in known.payments)
    ends = then.hand_ends if then.hand_ends != decided.hand_ends else None
    next_hand = then.next_hand if then.next_hand != decided.next_hand else None
    readings = tuple(i for i in then.interpretations if i not in decided.interpretations)
    if not (findings or wins or payments or ends is not None or next_hand or readings):
        return None
    return Possibility(assumption, findings, wins, payments,
                       dict(then.balances) if payments else {}, ends, next_hand, readings)


def _summary(p: Possibility, unit: str) -> str:
    """One line: what holds if the open fact is this way."""
    items = [f"{f.seat} {f.kind}" for f in p.findings]
    items += [_win_words(w, unit) for w in p.wins]
    if p.payments:
        items.append("收支 " + " ".join(f"{s} {_signed(v)}" for s, v in p.balances.items()))
    if p.hand_ends is not None:
        items.append("本盤終止" if p.hand_ends else "本盤繼續")
    if p.next_hand is not None:
        items.append(f"下盤莊家 {p.next_hand.dealer} 連莊 {p.next_hand.streak}")
    return f"若{p.assumption}：{'，'.join(items)}"


def _win_words(w: Win, unit: str) -> str:
    if not w.valid:
        return f"{w.seat} 和牌無效"
    return f"{w.seat} 和牌有效（{f'{unit}數未知' if w.tai is None else f'{w.tai} {unit}'}）"


_signed = signed_money


def _mark(win: Win, entries: list[Uncertain]) -> Win:
    """A win whose standing differs between possibilities names the open facts it waits on."""
    facts = tuple(u.fact for u in entries for p in u.possibilities
                  for w in p.wins if (w.seat, w.at) == (win.seat, win.at))
    if not facts:
        return win
    # Neither valid nor void in every possibility: no clause or reason is settled for it.
    return replace(win, open=tuple(dict.fromkeys(win.open + facts)), clauses=(), why=(),
                   reasons=())
