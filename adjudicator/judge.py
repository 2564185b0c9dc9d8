"""The pipeline: log text → Incident → replay → facts → clingo → Ruling."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from clingo import Symbol, SymbolType

from . import engine, facts, reader, tracker, winfacts
from .errors import LogError
from .incident import Incident
from .interpretations import describe
from .paths import profile_names
from .reasons import Context, render
from .ruling import (
    Finding,
    Interpretation,
    NextHand,
    Pattern,
    Payment,
    Problem,
    Ruling,
    Uncertain,
    Win,
    balances_of,
)

FINDING_ORDER = ("優先", "詐和", "包賠", "相公", "代位賠付", "錯杠", "錯碰", "錯打明牌",
                 "過水", "眼牌違規", "禁制", "喊碰未碰", "強制復原")


def judge_text(text: str, *, profile: str | None = None,
               settings: dict[str, str] | None = None) -> Ruling:
    """Judge a log; ``LogError`` if it does not parse or names an unknown profile."""
    return judge(reader.read(text), profile=profile, settings=settings)


def judge(incident: Incident, *, profile: str | None = None,
          settings: dict[str, str] | None = None) -> Ruling:
    name = profile or incident.header.profile
    if name not in profile_names():
        line = incident.header.lines.get("規則", 1)
        lines = incident.source.splitlines()
        raise LogError(line, 1, f"規則名稱（{'、'.join(profile_names())}）",
                       source_line=lines[line - 1] if 0 < line <= len(lines) else "",
                       detail=f"沒有「{name}」這個規則")
    timeline = tracker.replay(incident)
    symbols = facts.all_facts(incident, timeline, settings)
    symbols += winfacts.win_facts(incident, timeline)
    atoms = engine.solve(symbols, name)
    return _ruling(incident, name, atoms)


def _args(sym: Symbol) -> list[Symbol]:
    return list(sym.arguments)


def _val(sym: Symbol) -> int | str:
    if sym.type == SymbolType.Number:
        return sym.number
    if sym.type == SymbolType.String:
        return sym.string
    return str(sym)


def _ruling(incident: Incident, profile: str, atoms: list[Symbol]) -> Ruling:
    ctx = Context(incident.acts)
    by_name: dict[str, list[list[Symbol]]] = defaultdict(list)
    for atom in atoms:
        by_name[atom.name].append(_args(atom))
    ruling = Ruling(profile=profile, status="decided")
    ruling.findings = _findings(ctx, by_name)
    ruling.wins = _wins(ctx, by_name)
    ruling.payments = _payments(incident, ctx, by_name)
    ruling.balances = balances_of(ruling.payments)
    ruling.hand_ends = bool(by_name.get("hand_ends"))
    ruling.next_hand = _next_hand(by_name)
    ruling.interpretations = _interpretations(by_name)
    ruling.problems = [Problem(int(_val(a[1])), _val(a[2]) or None, str(_val(a[3])),
                               str(_val(a[4]))) for a in by_name["problem"]]
    ruling.problems.sort(key=lambda p: p.line)
    ruling.uncertain = [Uncertain(ctx.seq(a[0].number), str(a[1]), "")
                        for a in by_name["open_fact"]]
    if ruling.problems:
        ruling.status = "inconsistent"
    elif ruling.uncertain:
        ruling.status = "undetermined"
    return ruling


def _findings(ctx: Context, by_name: dict[str, list[list[Symbol]]]) -> list[Finding]:
    clauses: dict[tuple, list[str]] = defaultdict(list)
    whys: dict[tuple, list[Symbol]] = defaultdict(list)
    for kind, seat, at, clause in by_name["finding_clause"]:
        clauses[(kind.string, seat.string, at.number)].append(clause.string)
    for kind, seat, at, why in by_name["finding_why"]:
        whys[(kind.string, seat.string, at.number)].append(why)
    overs = {(k.string, s.string, a.number): o.string for k, s, a, o in by_name["finding_over"]}
    windows = {(k.string, s.string, a.number): w.number for k, s, a, w in by_name["finding_window"]}
    out = []
    for kind, seat, at in by_name["finding"]:
        key = (kind.string, seat.string, at.number)
        out.append(Finding(
            kind=key[0], seat=key[1], at=ctx.seq(key[2]),  # type: ignore[arg-type]
            clauses=tuple(sorted(set(clauses[key]))),
            why=tuple(sorted({render(ctx, key[1], w) for w in whys[key]})),
            over=overs.get(key),  # type: ignore[arg-type]
            window={"draws": windows[key]} if key in windows else None,
        ))
    rank = {k: i for i, k in enumerate(FINDING_ORDER)}
    out.sort(key=lambda f: (f.at or 0, rank.get(f.kind, 99), f.seat))
    return out


def _wins(ctx: Context, by_name: dict[str, list[list[Symbol]]]) -> list[Win]:
    valid = {w.number for w, _ in by_name["win_valid"]}
    tai = {w.number: t.number for w, t in by_name["win_tai"]}
    false_tai = {w.number: t.number for w, t in by_name["false_win_tai"]}
    patterns: dict[int, list[Pattern]] = defaultdict(list)
    for w, name, n, clause in by_name["win_pattern"]:
        if w.number in valid:
            patterns[w.number].append(Pattern(name.string, n.number, clause.string))
    for w, name, n, clause in by_name["false_pattern"]:
        patterns[w.number].append(Pattern(name.string, n.number, clause.string))
    whys: dict[int, list[Symbol]] = defaultdict(list)
    for w, _, why in by_name["win_invalid"]:
        whys[w.number].append(why)
    out = []
    for w, seat, self_drawn, frm in sorted(by_name["win"], key=lambda a: a[0].number):
        i = w.number
        ok = i in valid
        out.append(Win(
            seat=seat.string, at=ctx.seq(i), valid=ok,  # type: ignore[arg-type]
            self_drawn=bool(self_drawn.number),
            from_seat=None if frm.string == "none" else frm.string,  # type: ignore[arg-type]
            tai=tai.get(i) if ok else false_tai.get(i),
            patterns=tuple(sorted(patterns[i], key=lambda p: _clause_order(p.clause))),
            why=tuple(sorted({render(ctx, seat.string, y) for y in whys[i]})),
            clauses=("和牌",) if ok else ("詐和.1",),
        ))
    return out


def _clause_order(clause: str) -> tuple[int, str]:
    head, _, num = clause.partition(".")
    return (int(num), head) if num.isdigit() else (999, clause)


def _payments(incident: Incident, ctx: Context,
              by_name: dict[str, list[list[Symbol]]]) -> list[Payment]:
    base = incident.header.base or 0
    per_tai = incident.header.per_tai if incident.header.per_tai is not None else 1
    clauses: dict[Symbol, list[str]] = defaultdict(list)
    for pid, clause in by_name["payment_clause"]:
        clauses[pid].append(clause.string)
    instead = {pid: seat.string for pid, seat in by_name["payment_instead"]}
    shares = {pid: Fraction(n.number, d.number) for pid, n, d in by_name["payment_share"]}
    out = []
    for pid, frm, to, bases, tai, basis, at in by_name["payment"]:
        amount = (bases.number * base + tai.number * per_tai) * shares.get(pid, Fraction(1))
        out.append(Payment(
            frm=str(_val(frm)), to=str(_val(to)), amount=amount, tai=tai.number,
            basis=basis.string, clauses=tuple(sorted(set(clauses[pid]))),
            at=ctx.seq(at.number), instead_of=instead.get(pid)))  # type: ignore[arg-type]
    out.sort(key=lambda p: (p.at or 0, p.frm, p.to))
    return out


def _next_hand(by_name: dict[str, list[list[Symbol]]]) -> NextHand | None:
    rows = by_name.get("next_hand")
    if not rows:
        return None
    dealer, streak, counts, clause = sorted(rows)[0]
    return NextHand(dealer.string, streak.number, bool(counts.number),  # type: ignore[arg-type]
                    (clause.string,))


def _interpretations(by_name: dict[str, list[list[Symbol]]]) -> list[Interpretation]:
    readings = {i.string: v.string for i, v in by_name["reading_value"]}
    used = sorted({p.string for _, p in by_name["depends_on"]})
    return [Interpretation(pid, f"{readings.get(pid, '?')}: {describe(pid, readings.get(pid, ''))}")
            for pid in used]
