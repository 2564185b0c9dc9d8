"""A Ruling read from the rules' atoms: each shown predicate read through its declaration
(asp/show.lp, rules/interface.py), worded by the reasons' templates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from clingo import Symbol

from adjudicator.analysis import replay
from adjudicator.analysis.contradictions import Conflicts
from adjudicator.analysis.warnings import log_warnings, start_warnings
from adjudicator.language.incident import Act, Incident
from adjudicator.language.seats import SEATS
from adjudicator.language.vocabulary import FINDING_KINDS
from adjudicator.rules import engine, interface
from adjudicator.rules.rulesets import RuleSet
from adjudicator.ruling.clauses import order_key
from adjudicator.ruling.interpretations import describe
from adjudicator.ruling.model import (
    Finding,
    Interpretation,
    LogWarning,
    NextHand,
    Pattern,
    Payment,
    Problem,
    Reason,
    Ruling,
    Uncertain,
    Win,
    balances_of,
)
from adjudicator.ruling.reasons import Context, render
from adjudicator.ruling.reasons.words import term_value
from adjudicator.ruling.terms import SymbolLike, Term, shared
from adjudicator.ruling.undetermined import (
    NO_POSSIBILITIES,
    Known,
    finding_key,
    undetermined,
    win_key,
)


def ruling_of(incident: Incident, rules: RuleSet, answer: engine.Answer,
              timeline: replay.Timeline) -> Ruling:
    """The ruling of what the rules hold for this incident (single-log or batch engine);
    ``timeline`` is the replay its facts were built from, by ``rules``."""
    build = _Builder(incident, rules.profile)
    ruling = build(answer.atoms)
    ruling.rules = rules
    # Contradictions are the replay's, not the rules': they are the same in every answer set.
    if timeline.problems:
        index = Conflicts(incident)
        ruling.problems = sorted((_problem(index, p) for p in timeline.problems),
                                 key=lambda p: p.line)
        ruling.status = "inconsistent"
    if answer.possibilities:
        undetermined(ruling, answer, build, Context(build.acts))
    ruling.meta = meta(incident)
    # The atoms as the build read them (each symbol's parts are read from clingo once).
    read = list(map(build.terms, answer.atoms))
    found = {*log_warnings(incident, timeline), *count_warnings(incident, read),
             *start_warnings(incident, (u.term for u in ruling.uncertain))}
    ruling.warnings = sorted(found, key=lambda w: (w.line, w.message))
    return ruling


def count_warnings(incident: Incident, atoms: Iterable[SymbolLike]) -> list[LogWarning]:
    """A 相公 that rests only on the size of a stated hand (the rules' xianggong_by_size) is
    worth checking against the table: a slip of the pen in the hand line makes it."""
    by_seq = {a.seq: a for a in incident.acts}
    out = []
    size = SHOWN["xianggong_by_size"]
    for atom in atoms:
        if atom.name == size.name and len(atom.arguments) == size.arity:
            row = size.read(atom.arguments)
            seat, index = row.seat.string, row.at.number
            seq = incident.acts[index - 1].seq if 0 < index <= len(incident.acts) else None
            act = by_seq.get(seq) if seq is not None else None
            out.append(LogWarning(act.line if act else 0, f"{seat} 第 {seq} 手的相公只依紀錄"
                                  "所記手牌之張數推算（缺張、逾張）：請與牌桌核對該手牌"))
    return out


def meta(incident: Incident) -> dict[str, object]:
    """The header's words about the occasion and the people (ruling-json.md: meta)."""
    h = incident.header
    out: dict[str, object] = {key: value for _, key, value in h.occasion()}
    if h.players:
        out["players"] = {seat: name for seat in SEATS
                          for name, s in h.players.items() if s == seat}
    return out



# The shown predicates, each declared with its arguments named (asp/show.lp).
SHOWN = interface.shown()

# The atoms of an answer by predicate name, each as a row of its declared fields (Terms).
ByName = dict[str, list[Any]]


class _Citing(Context):
    """A Context that notes the acts a reason's words name (they are the ones it rests on)."""

    def __init__(self, acts: list[Act], by_name: ByName) -> None:
        super().__init__(acts)
        self.cited: list[int] = []
        self.premises: dict[Term, list[Term]] = defaultdict(list)
        self.clauses: dict[Term, list[str]] = defaultdict(list)
        for row in by_name["why_premise"]:
            self.premises[row.why].append(row.premise)
        for row in by_name["why_clause"]:
            self.clauses[row.why].append(row.clause.string)

    def act_text(self, index: int) -> str:
        self.cited.append(index)
        return super().act_text(index)

    def reason(self, seat: str, why: Term, depth: int = 0) -> Reason:
        """``why`` in words, with the acts it names, its clauses and (nested) premises."""
        self.cited = []
        text = render(self, seat, why)
        acts = tuple(dict.fromkeys(s for s in map(self.seq, self.cited) if s is not None))
        premises = () if depth > 8 else tuple(
            self.reason(seat, p, depth + 1) for p in sorted(self.premises.get(why, [])))
        return Reason(text, acts, tuple(sorted(set(self.clauses.get(why, [])))), premises)

    def reasons(self, seat: str, whys: list[Term]) -> tuple[Reason, ...]:
        found = {r.text: r for r in (self.reason(seat, w) for w in whys)}
        return tuple(found[t] for t in sorted(found))


class _Builder:
    """Builds the rulings of one judgement: the decided one, then each possibility's.

    A possibility holds mostly the decided ruling's atoms, so the builds share what they
    can: the acts, the symbols already read (terms.py), and the parts already built, each
    under the rows it was built from (the same rows build the same part).  With ``known``
    (the decided ruling's, undetermined.py) the findings and wins it holds are left out
    unworded: a possibility is read only for what it adds, so it costs about what it
    changes, not a whole ruling again.
    """

    def __init__(self, incident: Incident, profile: str) -> None:
        self.profile = profile
        self.acts = incident.acts  # a property that lists the record anew each time
        self.base = incident.header.base or 0
        self.per_tai = incident.header.per_tai if incident.header.per_tai is not None else 1
        self.terms = shared()
        self.findings: dict[tuple, tuple[tuple, Finding]] = {}  # (key, finding unworded)
        self.payments: dict[tuple, tuple[tuple, Payment]] = {}  # (sort key, payment)
        self.opens: dict[tuple[Term, ...], Uncertain] = {}

    def __call__(self, atoms: list[Symbol], known: Known | None = None) -> Ruling:
        """The ruling the atoms hold (the replay's contradictions are added by ``judge``)."""
        by_name: ByName = defaultdict(list)
        for term in map(self.terms, atoms):
            by_name[term.name].append(SHOWN[term.name].read(term.arguments))
        ctx = _Citing(self.acts, by_name)
        ruling = Ruling(profile=self.profile, status="decided")
        ruling.findings = _findings(ctx, by_name, self.findings,
                                    known.findings if known else frozenset())
        ruling.wins = _wins(ctx, by_name, known.wins if known else frozenset())
        ruling.payments = _payments(ctx, by_name, self.payments, self.base, self.per_tai)
        ruling.balances = balances_of(ruling.payments)
        ruling.hand_ends = bool(by_name.get("hand_ends"))
        ruling.next_hand = _next_hand(by_name)
        ruling.interpretations = _interpretations(by_name)
        ruling.uncertain = [self._open(ctx, row) for row in sorted(by_name["open_fact"])]
        if ruling.uncertain:
            ruling.status = "undetermined"
        return ruling

    def _open(self, ctx: Context, row: Any) -> Uncertain:
        """An open fact the rules list no possibilities of (undetermined.py adds them)."""
        if row not in self.opens:
            self.opens[row] = Uncertain(ctx.seq(row.at.number), render(ctx, "", row.fact),
                                        NO_POSSIBILITIES, str(row.fact))
        return self.opens[row]


def _ruling(incident: Incident, profile: str, atoms: list[Symbol]) -> Ruling:
    """The ruling the atoms hold, built on their own."""
    return _Builder(incident, profile)(atoms)


def _problem(index: Conflicts, p: replay.Problem) -> Problem:
    return Problem(p.line, p.seq, p.kind, p.detail, index.lines(p.line, p.kind, p.detail))


def _findings(ctx: _Citing, by_name: ByName, built: dict[tuple, tuple[tuple, Finding]],
              known: frozenset[tuple]) -> list[Finding]:
    """The findings, but those whose ``finding_key`` is ``known`` (left out unworded).

    A finding is keyed by the rows (of Terms, one per symbol) it is built from, until its
    reasons are worded: they rest on the why-graph, which a possibility may change.
    """
    clauses: dict[tuple, list[Term]] = defaultdict(list)
    whys: dict[tuple, list[Term]] = defaultdict(list)
    # Each row names its finding by (kind, seat, at), as finding/3 does.
    for row in by_name["finding_clause"]:
        clauses[_finding_of(row)].append(row.clause)
    for row in by_name["finding_why"]:
        whys[_finding_of(row)].append(row.why)
    overs = {_finding_of(row): row.over for row in by_name["finding_over"]}
    windows = {_finding_of(row): row.draws for row in by_name["finding_window"]}
    out = []
    for row in by_name["finding"]:
        given = (row, tuple(clauses[row]), overs.get(row), windows.get(row))
        if given not in built:
            finding = _finding(ctx, *given)
            built[given] = (finding_key(finding), finding)
        key, finding = built[given]
        if key in known:
            continue
        # Its reasons are worded only now: they are most of what a finding costs.
        reasons = ctx.reasons(finding.seat, whys[row])
        out.append(replace(finding, why=tuple(r.text for r in reasons), reasons=reasons))
    rank = {k: i for i, k in enumerate(FINDING_KINDS)}
    out.sort(key=lambda f: (f.at or 0, rank.get(f.kind, 99), f.seat))
    return out


def _finding_of(row: Any) -> tuple[Term, Term, Term]:
    """The finding a row of finding_clause, finding_why, … is about (a finding/3 row)."""
    return row.kind, row.seat, row.at


def _finding(ctx: Context, row: Any, clauses: tuple[Term, ...],
             over: Term | None, window: Term | None) -> Finding:
    """A finding with its clauses, before its reasons are worded."""
    return Finding(
        kind=row.kind.string, seat=row.seat.string,  # type: ignore[arg-type]
        at=ctx.seq(row.at.number),  # type: ignore[arg-type]
        clauses=tuple(sorted({c.string for c in clauses})),
        over=None if over is None else over.string,  # type: ignore[arg-type]
        window=None if window is None else {"draws": window.number},
    )


def _wins(ctx: _Citing, by_name: ByName,
          known: frozenset[tuple]) -> list[Win]:
    """The wins, but those whose ``win_key`` is ``known`` (left out unworded)."""
    valid = {r.win.number for r in by_name["win_valid"]}
    false = {r.win.number for r in by_name["false_win"]}
    clauses: dict[int, set[str]] = defaultdict(set)
    for r in by_name["win_clause"]:
        clauses[r.win.number].add(r.clause.string)
    tai = {r.win.number: r.tai.number for r in by_name["win_tai"]}
    false_tai = {r.win.number: r.tai.number for r in by_name["false_win_tai"]}
    patterns: dict[int, list[Pattern]] = defaultdict(list)
    # A valid or void win shows its 牌面; a 詐和 shows what it pays by (false_pattern).
    for r in by_name["win_pattern"]:
        if r.win.number not in false:
            patterns[r.win.number].append(Pattern(r.name.string, r.tai.number, r.clause.string))
    for r in by_name["false_pattern"]:
        patterns[r.win.number].append(Pattern(r.name.string, r.tai.number, r.clause.string))
    whys: dict[int, list[Term]] = defaultdict(list)
    for r in by_name["win_invalid"]:
        whys[r.win.number].append(r.why)
    unknown_tai = {r.win.number for r in by_name["win_tai_unknown"]}
    out = []
    for r in sorted(by_name["win"], key=lambda r: r.win.number):
        i = r.win.number
        win = Win(
            seat=r.seat.string, at=ctx.seq(i), valid=i in valid,  # type: ignore[arg-type]
            self_drawn=bool(r.self_drawn.number),
            from_seat=None if r.frm.string == "none" else r.frm.string,  # type: ignore[arg-type]
            tai=false_tai.get(i) if i in false else tai.get(i),
            patterns=tuple(sorted(patterns[i], key=lambda p: order_key(p.clause))),
            clauses=tuple(sorted(clauses[i], key=order_key)),
            open=("紀錄未載手牌：台數與其賠付無從計算",) if i in unknown_tai else (),
        )
        if win_key(win) in known:
            continue
        out.append(replace(win, why=tuple(sorted({render(ctx, win.seat, y) for y in whys[i]})),
                           reasons=ctx.reasons(win.seat, whys[i])))
    return out


def _payments(ctx: Context, by_name: ByName, built: dict[tuple, tuple[tuple, Payment]],
              base: int, per_tai: int) -> list[Payment]:
    """The payments, each built once per judgement for the rows it is built from."""
    clauses: dict[Term, list[Term]] = defaultdict(list)
    for r in by_name["payment_clause"]:
        clauses[r.id].append(r.clause)
    instead = {r.id: r.seat for r in by_name["payment_instead"]}
    shares = {r.id: (r.num, r.den) for r in by_name["payment_share"]}
    counts = {r.id: r.n for r in by_name["payment_count"]}
    out = []
    for row in by_name["payment"]:
        pid = row.id
        given = (row, tuple(clauses[pid]), instead.get(pid), shares.get(pid), counts.get(pid))
        if given not in built:
            payment = _payment(ctx, *given, base, per_tai)
            # Seat order 東 南 西 北, outside bettors after (by name), as the reports list them.
            built[given] = ((payment.at or 0, _who_order(payment.frm), _who_order(payment.to),
                             _seat_order(payment.instead_of), payment.basis), payment)
        out.append(built[given])
    out.sort(key=lambda keyed: keyed[0])
    return [payment for _, payment in out]


def _payment(ctx: Context, row: Any, clauses: tuple[Term, ...],
             instead: Term | None, share: tuple[Term, Term] | None, count: Term | None,
             base: int, per_tai: int) -> Payment:
    fraction = Fraction(share[0].number, share[1].number) if share else Fraction(1)
    return Payment(
        frm=str(term_value(row.frm)), to=str(term_value(row.to)),
        amount=(row.bases.number * base + row.tai.number * per_tai) * fraction,
        tai=row.tai.number if count is None else count.number,
        basis=row.basis.string, clauses=tuple(sorted({c.string for c in clauses})),
        at=ctx.seq(row.at.number),  # type: ignore[arg-type]
        instead_of=None if instead is None else instead.string)  # type: ignore[arg-type]


def _who_order(who: str) -> tuple[int, str]:
    return (SEATS.index(who), "") if who in SEATS else (len(SEATS), who)  # type: ignore[arg-type]


def _seat_order(seat: str | None) -> int:
    return SEATS.index(seat) if seat in SEATS else -1  # type: ignore[arg-type]


def _next_hand(by_name: ByName) -> NextHand | None:
    rows = by_name.get("next_hand")
    if not rows:
        return None
    first = sorted(rows)[0]
    return NextHand(first.dealer.string, first.streak.number,  # type: ignore[arg-type]
                    bool(first.counts.number), (first.clause.string,))


def _interpretations(by_name: ByName) -> list[Interpretation]:
    readings = {r.point.string: r.value.string for r in by_name["reading_value"]}
    used = sorted({r.point.string for r in by_name["depends_on"]})
    return [Interpretation(pid, f"{readings.get(pid, '?')}: {describe(pid, readings.get(pid, ''))}")
            for pid in used]
