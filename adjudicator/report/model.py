"""The referee's report, format-neutral: what the terminal, Markdown and HTML renderers show.

Built from the typed Ruling (and the Incident, for the timeline and the source lines); it
only arranges and words what the ruling holds.  Clause ids carry their paraphrase from
clauses.py; acts are named by their sequence number and their text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from adjudicator.analysis.contradictions import source_line
from adjudicator.language.incident import Act, Incident, Position, WallCount
from adjudicator.language.seats import SEATS
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.report.acts import act_words
from adjudicator.rules.rulesets import profile_label, profile_values, rules_label
from adjudicator.ruling.clauses import order_key, paraphrase
from adjudicator.ruling.interpretations import POINTS, describe
from adjudicator.ruling.model import (
    STATUS_WORDS,
    Finding,
    Interpretation,
    NextHand,
    Pattern,
    Payment,
    Possibility,
    Problem,
    Reason,
    Ruling,
    Uncertain,
    Win,
    money_json,
    signed_money,
)


@dataclass(frozen=True)
class ClauseRef:
    id: str
    paraphrase: str

    @property
    def label(self) -> str:
        return f"{self.id}（{self.paraphrase}）" if self.paraphrase else self.id


@dataclass(frozen=True)
class ActRef:
    seq: int | None
    text: str  # "東 碰 七筒"

    @property
    def label(self) -> str:
        if self.seq is None:
            return f"「{self.text}」"
        return f"第 {self.seq} 手「{self.text}」" if self.text else f"第 {self.seq} 手"


@dataclass(frozen=True)
class Row:
    """One line of the timeline: an act, a position stated or a wall count."""

    line: int
    seq: int | None
    text: str
    marks: tuple[str, ...] = ()  # what the ruling says at this act (◆) or rests on it (◇)
    conflict: bool = False  # a line of the record that contradicts another


@dataclass(frozen=True)
class ReasonView:
    text: str
    acts: tuple[ActRef, ...]
    clauses: tuple[ClauseRef, ...]
    premises: tuple[ReasonView, ...] = ()


@dataclass(frozen=True)
class FindingView:
    title: str  # "東 相公"
    at: ActRef | None
    note: str  # "優於 東" · "其後摸序 8 張"
    acts: tuple[ActRef, ...]  # every act the chain names, in order
    reasons: tuple[ReasonView, ...]
    clauses: tuple[ClauseRef, ...]
    # The act the finding is about, where ``at`` is the line that reported it (舉發 …).
    act: ActRef | None = None
    reported: str = ""  # 「第 26 手舉發」

    @property
    def cited(self) -> str:
        """Where the verdict says it happened: the act, and the report that made it known."""
        if self.act is None:
            return self.at.label if self.at else "紀錄外"
        return f"{self.act.label}，{self.reported}" if self.reported else self.act.label


@dataclass(frozen=True)
class WinView:
    title: str  # "南 自摸（第 40 手）"
    verdict: str  # 有效 · 無效 · 待查明
    tai: str
    patterns: tuple[tuple[Pattern, ClauseRef], ...]  # each with its clause in words
    reasons: tuple[ReasonView, ...]
    clauses: tuple[ClauseRef, ...]
    open: tuple[str, ...]
    patterns_note: str = ""  # why a void win still lists its patterns
    unit: str = "台"  # what the win is counted in (粵: 番; rules/families.py)


@dataclass(frozen=True)
class PaymentRow:
    frm: str
    to: str
    amount: str
    tai: int
    basis: str
    instead_of: str  # whom it is paid instead of (代位賠付), or ""
    clauses: tuple[ClauseRef, ...]
    at: ActRef | None
    unit: str = "台"  # what ``tai`` counts (粵: the win's 番)


@dataclass(frozen=True)
class PossibilityView:
    assumption: str
    lines: tuple[str, ...]  # what then holds besides the decided ruling
    payments: tuple[PaymentRow, ...]
    balances: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class UncertainView:
    fact: str
    at: ActRef | None
    changes: str
    possibilities: tuple[PossibilityView, ...]


@dataclass(frozen=True)
class ProblemView:
    line: int
    at: int | None
    detail: str
    conflicts: tuple[tuple[int, str], ...]


@dataclass
class Report:
    status: str
    status_words: str
    profile: str
    # By which rules: the profile, or the house rules' name, version and base; the hash.
    rules: str = ""
    # 日期 場地 桌號 裁判 盤號 as the header wrote them (absent ones left out), in that order.
    meta: list[tuple[str, str]] = field(default_factory=list)
    players: list[tuple[str, str]] = field(default_factory=list)  # (chair, name) 東南西北
    conclusion: list[str] = field(default_factory=list)  # who pays whom how much, in words
    signers: list[str] = field(default_factory=list)  # the referee, then 東 南 西 北
    verdict: list[str] = field(default_factory=list)
    timeline: list[Row] = field(default_factory=list)
    findings: list[FindingView] = field(default_factory=list)
    wins: list[WinView] = field(default_factory=list)
    payments: list[PaymentRow] = field(default_factory=list)
    balances: list[tuple[str, str]] = field(default_factory=list)
    balances_note: str = ""
    hand: str = ""
    # Each reading the ruling took, with the question it answers (interpretations.toml) and
    # the reading in words, marked where the house rules differ from their base profile.
    interpretations: list[tuple[Interpretation, str, str]] = field(default_factory=list)
    uncertain: list[UncertainView] = field(default_factory=list)
    problems: list[ProblemView] = field(default_factory=list)
    clauses: list[ClauseRef] = field(default_factory=list)  # every clause the report cites


# ------------------------------------------------------------------------------ words


signed = signed_money


def clause_ref(clause: str) -> ClauseRef:
    return ClauseRef(clause, paraphrase(clause))


def _refs(clauses: tuple[str, ...]) -> tuple[ClauseRef, ...]:
    return tuple(clause_ref(c) for c in sorted(clauses, key=order_key))


class _Acts:
    """Acts by sequence number (the first act that carries it)."""

    def __init__(self, incident: Incident) -> None:
        self.by_seq: dict[int, Act] = {}
        for act in incident.acts:
            self.by_seq.setdefault(act.seq, act)

    def ref(self, seq: int | None) -> ActRef | None:
        if seq is None:
            return None
        act = self.by_seq.get(seq)  # None when the report is built without the record
        return ActRef(seq, act_words(act) if act else "")


# ------------------------------------------------------------------------------ build


# The header fields a report shows, in the order it shows them.


class _Names:
    """Chairs as a report names them: 東（阿明） when the header gave a name, else 東."""

    def __init__(self, incident: Incident) -> None:
        self.by_seat = {seat: name for name, seat in incident.header.players.items()}

    def __call__(self, seat: str | None) -> str:
        if seat is None:
            return ""
        name = self.by_seat.get(seat)  # type: ignore[call-overload]
        return f"{seat}（{name}）" if name else seat


def seat_key(who: str) -> tuple[int, str]:
    """東 南 西 北 first, in that order, then outside bettors by name."""
    return (SEATS.index(who), "") if who in SEATS else (len(SEATS), who)  # type: ignore[arg-type]


def amount_words(value: object) -> str:
    """Money as a person reads it: 1,300; a split that is not whole as 700/3."""
    v = money_json(value)  # type: ignore[arg-type]
    return f"{v:,}" if isinstance(v, int) else str(v)


def build(ruling: Ruling, incident: Incident) -> Report:
    acts = _Acts(incident)
    who = _Names(incident)
    report = Report(ruling.status, STATUS_WORDS[ruling.status], ruling.profile,
                    rules_words(ruling))
    report.meta = [(word, value) for word, _, value in incident.header.occasion()]
    report.players = [(seat, who.by_seat[seat]) for seat in SEATS if seat in who.by_seat]
    referee = incident.header.referee
    report.signers = [f"裁判（{referee}）" if referee else "裁判", *map(who, SEATS)]
    report.findings = sorted((_finding(f, acts, who) for f in ruling.findings),
                             key=_finding_order)
    unit = unit_of(ruling.profile)
    penalised = {f.seat for f in ruling.findings if f.kind in FACE_PENALTIES}
    report.wins = [_win(w, acts, who, unit, w.seat in penalised) for w in ruling.wins]
    payments = sorted(ruling.payments, key=lambda p: (seat_key(p.frm), seat_key(p.to)))
    report.payments = [_payment(p, acts, who, unit) for p in payments]
    report.conclusion = _conclusion(payments, who)
    report.balances = [(who(s), signed(v))
                       for s, v in sorted(ruling.balances.items(), key=lambda x: seat_key(x[0]))]
    if ruling.status == "undetermined":
        report.balances_note = "只計各種可能中都成立的賠付；其餘見「待查明」"
    report.hand = _hand(ruling, who)
    report.interpretations = [_interpretation(i, ruling) for i in ruling.interpretations]
    report.uncertain = [_uncertain(u, acts, unit) for u in ruling.uncertain]
    report.problems = [_problem(p) for p in ruling.problems]
    report.timeline = _timeline(incident, ruling, report)
    report.verdict = _verdict(ruling, report)
    report.clauses = _cited(ruling)
    return report


def _reason(r: Reason, acts: _Acts) -> ReasonView:
    refs = tuple(a for a in map(acts.ref, r.acts) if a is not None)
    return ReasonView(r.text, refs, _refs(r.clauses),
                      tuple(_reason(p, acts) for p in r.premises))


def _chain_acts(at: int | None, reasons: tuple[ReasonView, ...]) -> list[int]:
    seqs = [] if at is None else [at]
    for r in reasons:
        seqs += [a.seq for a in r.acts if a.seq is not None]
        seqs += _chain_acts(None, r.premises)
    return seqs


def _finding_note(f: Finding) -> str:
    notes = []
    if f.over:
        notes.append(f"優於 {f.over}")
    if f.window:
        notes.append(f"其後摸序 {f.window['draws']} 張")
    return "；".join(notes)


# The acts by which an offence becomes known (a report of an act, not a second act).
REPORTS = VERB_CLASSES["report"]
# Findings that follow from another one (a 相公 from the 錯碰 it is for): a verdict lists
# them after the offences, act by act.
CONSEQUENCES = ("相公", "強制復原", "代位賠付", "包賠")
# The penalties counted on the face of a hand that did not win (詐和.*, 包賠).
FACE_PENALTIES = ("詐和", "包賠")


def _finding(f: Finding, acts: _Acts, who: _Names) -> FindingView:
    reasons = tuple(_reason(r, acts) for r in f.reasons)
    if not reasons:  # a ruling built before reasons were structured
        reasons = tuple(ReasonView(w, (), ()) for w in f.why)
    seqs = sorted(set(_chain_acts(f.at, reasons)))
    chain = tuple(a for a in map(acts.ref, seqs) if a is not None)
    at = acts.ref(f.at)
    act, reported = at, ""
    by = acts.by_seq.get(f.at) if f.at is not None else None
    if by is not None and by.verb in REPORTS:
        earlier = [a for a in chain if a.seq is not None and a.seq < by.seq]
        if earlier:
            act, reported = earlier[0], f"第 {by.seq} 手{by.verb}"
    return FindingView(f"{who(f.seat)} {f.kind}", at, _finding_note(f), chain,
                       reasons, _refs(f.clauses), act, reported)


def _finding_order(f: FindingView) -> tuple[int, int]:
    where = f.act or f.at
    seq = where.seq if where is not None and where.seq is not None else 1 << 30
    kind = f.title.split()[-1]
    return seq, CONSEQUENCES.index(kind) + 1 if kind in CONSEQUENCES else 0


def _win_title(w: Win, who: _Names | None = None, acts: _Acts | None = None) -> str:
    name = who or (lambda seat: seat or "")
    act = acts.by_seq.get(w.at) if acts is not None and w.at is not None else None
    # A win declared with 和 and no discard to win on (a flower win) is no 自摸: say 和.
    drawn = w.self_drawn and (act is None or act.verb != "和")
    how = "自摸" if drawn else f"和 {name(w.from_seat)} 之牌" if w.from_seat else "和"
    where = f"（第 {w.at} 手）" if w.at is not None else ""
    return f"{name(w.seat)} {how}{where}"


def _win_verdict(w: Win) -> str:
    if w.valid:
        return "有效"
    if w.open and not w.clauses:
        return "待查明"
    return "無效"


def unit_of(profile: str) -> str:
    """What a win is counted in under ``profile``'s family (台, 番)."""
    from adjudicator.rules.rulesets import profile_family

    try:
        return profile_family(profile).unit
    except KeyError:
        return "台"


def _win_tai(w: Win, unit: str = "台") -> str:
    # A void win scores nothing: a 台 beside 無效 would read as a score owed.
    if _win_verdict(w) == "無效":
        return ""
    if w.tai is not None:
        return f"{w.tai} {unit}"
    return f"{unit}數未知"


def _win(w: Win, acts: _Acts, who: _Names, unit: str = "台",
         penalised: bool = False) -> WinView:
    patterns = tuple((p, clause_ref(p.clause)) for p in w.patterns)
    # A void win's patterns are no score; a penalty counted on the hand's face (詐和, 包賠)
    # is the only reason to list them.
    if unit == "台" and penalised:
        void = "和牌無效；下列牌面台數只供計算罰則"
    else:
        void = f"和牌無效；下列{unit}數不計"
    note = void if patterns and _win_verdict(w) == "無效" else ""
    reasons = tuple(_reason(r, acts) for r in w.reasons)
    return WinView(_win_title(w, who, acts), _win_verdict(w), _win_tai(w, unit), patterns,
                   reasons, _refs(w.clauses), w.open, note, unit)


def _payment(p: Payment, acts: _Acts, who: _Names | None = None,
             unit: str = "台") -> PaymentRow:
    name = who or (lambda seat: seat or "")
    return PaymentRow(name(p.frm), name(p.to), amount_words(p.amount), p.tai, p.basis,
                      name(p.instead_of), _refs(p.clauses), acts.ref(p.at), unit)


def _conclusion(payments: list[Payment], who: _Names) -> list[str]:
    """「南 付 東 1,300（代位賠付：代 西、北）」: one line per payer and payee, seat order."""
    totals: dict[tuple[str, str], Fraction] = {}
    instead: dict[tuple[str, str], list[str]] = {}
    for p in payments:
        pair = (p.frm, p.to)
        totals[pair] = totals.get(pair, Fraction(0)) + Fraction(p.amount)
        if p.instead_of and p.instead_of not in instead.setdefault(pair, []):
            instead[pair].append(p.instead_of)
    lines = []
    for (frm, to), total in totals.items():
        stead = instead.get((frm, to))
        note = f"（代位賠付：代 {'、'.join(who(s) for s in stead)}）" if stead else ""
        lines.append(f"{who(frm)} 付 {who(to)} {amount_words(total)}{note}")
    return lines or ["無人付款"]


def _next_hand_words(n: NextHand, who: _Names | None = None) -> str:
    streak = "" if n.counts_streak else "，本盤不計連莊序"
    cite = f"（{'、'.join(n.clauses)}）" if n.clauses else ""
    dealer = who(n.dealer) if who else n.dealer
    return f"下盤莊家 {dealer}，連莊 {n.streak}{streak}{cite}"


def _hand(r: Ruling, who: _Names | None = None) -> str:
    words = "本盤終止" if r.hand_ends else "本盤繼續"
    if r.next_hand is not None:
        return f"{words}；{_next_hand_words(r.next_hand, who)}"
    if any(p.next_hand for u in r.uncertain for p in u.possibilities):
        return f"{words}；下盤莊家待查明"
    return words


def reading_words(i: Interpretation) -> str:
    """A reading as words: the ruling's 「wall: 任何人自牌牆摸牌」 without its code."""
    point = POINTS.get(i.id)
    code, sep, words = i.reading.partition(": ")
    return words if sep and point is not None and code in point.readings else i.reading


def _interpretation(i: Interpretation, ruling: Ruling) -> tuple[Interpretation, str, str]:
    point = POINTS.get(i.id)
    reading = reading_words(i)
    rules = ruling.rules
    if rules is not None and rules.house is not None and i.id in rules.settings():
        base = profile_values(rules.profile)[i.id]
        reading += f"（家規；{rules.profile} 為 {describe(i.id, base)}）"
    return i, point.question if point else "", reading


def rules_words(ruling: Ruling) -> str:
    """By which rules, as every report heads it: the profile, or the house rules' name,
    version and base; the first 12 characters of the rule set's hash (ruling-json.md)."""
    if ruling.rules is None:
        return f"規則 {profile_label(ruling.profile)}"
    return rules_label(ruling.rules.to_json())


def _possibility_lines(p: Possibility, unit: str = "台") -> tuple[str, ...]:
    lines = [f"{f.seat} {f.kind}（第 {f.at} 手；{'、'.join(f.clauses)}）"
             + (f"：{'；'.join(f.why)}" if f.why else "") for f in p.findings]
    for w in p.wins:
        view = _win_verdict(w)
        tai = _win_tai(w, unit)
        notes = "".join(f"（{o}）" for o in w.open)
        lines.append(f"{_win_title(w)}：{view}" + (f"，{tai}" if tai else "") + notes)
    if p.hand_ends is not None:
        lines.append("本盤終止" if p.hand_ends else "本盤繼續")
    if p.next_hand is not None:
        lines.append(_next_hand_words(p.next_hand))
    lines += [f"所依解釋 {i.id}：{reading_words(i)}" for i in p.interpretations]
    return tuple(lines)


def _uncertain(u: Uncertain, acts: _Acts, unit: str = "台") -> UncertainView:
    views = tuple(PossibilityView(p.assumption, _possibility_lines(p, unit),
                                  tuple(_payment(x, acts, unit=unit) for x in p.payments),
                                  tuple((s, signed(v)) for s, v in p.balances.items()))
                  for p in u.possibilities)
    return UncertainView(u.fact, acts.ref(u.at), u.changes, views)


def _problem(p: Problem) -> ProblemView:
    return ProblemView(p.line, p.at, p.detail, tuple((c.line, c.text) for c in p.conflicts))


# --------------------------------------------------------------------------- timeline


def _marks(ruling: Ruling, report: Report) -> dict[int, list[str]]:
    """Labels by sequence number: ◆ what the ruling says at an act, ◇ what rests on it."""
    marks: dict[int, list[str]] = {}

    def add(seq: int | None, label: str) -> None:
        if seq is not None and label not in marks.setdefault(seq, []):
            marks[seq].append(label)

    for f in report.findings:
        add(f.at.seq if f.at else None, f"◆ {f.title}")
    for w, view in zip(ruling.wins, report.wins, strict=True):
        add(w.at, f"◆ {view.title.split()[0]} 和牌{view.verdict}")
    for p in ruling.payments:
        add(p.at, "◆ 賠付")
    for u in ruling.uncertain:
        add(u.at, "◆ 待查明")
    for f in report.findings:
        for a in f.acts:
            add(a.seq, f"◇ {f.title}之依據")
    return marks


def _row_text(item: Act | Position | WallCount, incident: Incident) -> str:
    if isinstance(item, Act):
        return act_words(item)
    return source_line(incident, item.line).text


def _timeline(incident: Incident, ruling: Ruling, report: Report) -> list[Row]:
    marks = _marks(ruling, report)
    conflict = {line for p in report.problems for line, _ in p.conflicts}
    rows = [Row(p.line, None, source_line(incident, p.line).text, (), p.line in conflict)
            for p in incident.positions]
    seen: set[int] = set()
    for item in incident.record:
        seq = item.seq if isinstance(item, Act) else None
        # A ruling names acts by sequence number: a repeated number marks its first act only.
        labels = tuple(_ordered(marks.get(seq, []))) if seq is not None and seq not in seen else ()
        if seq is not None:
            seen.add(seq)
        rows.append(Row(item.line, seq, _row_text(item, incident), labels,
                        item.line in conflict))
    return rows


def _ordered(labels: list[str]) -> list[str]:
    said = [x for x in labels if x.startswith("◆")]
    rests = [x for x in labels if x.startswith("◇") and f"◆ {x[2:-3]}" not in said]
    return said + rests


# ---------------------------------------------------------------------------- verdict


def _verdict(ruling: Ruling, report: Report) -> list[str]:
    lines = [f"{f.title}（{f.cited}；{_ids(f.clauses)}）" for f in report.findings]
    for w in report.wins:
        lines.append(f"{w.title}：{w.verdict}" + (f"，{w.tai}" if w.tai else ""))
    if not ruling.findings and not ruling.wins:
        lines.append("無違規認定，無和牌")
    lines += report.conclusion
    money = "、".join(f"{s} {v}" for s, v in report.balances)
    lines.append(f"收支：{money}" + (f"（{report.balances_note}）" if report.balances_note else ""))
    lines.append(report.hand)
    lines += [f"待查明：{u.fact}" for u in report.uncertain]
    lines += [f"紀錄矛盾：第 {p.line} 行，{p.detail}" for p in report.problems]
    return lines


def _ids(refs: tuple[ClauseRef, ...]) -> str:
    return "、".join(c.id for c in refs)


def _cited(ruling: Ruling) -> list[ClauseRef]:
    ids: set[str] = set()
    for f in ruling.findings:
        ids.update(f.clauses)
        ids.update(c for r in f.reasons for c in _reason_clauses(r))
    for w in ruling.wins:
        ids.update(w.clauses)
        ids.update(p.clause for p in w.patterns)
    for p in ruling.payments:
        ids.update(p.clauses)
    if ruling.next_hand:
        ids.update(ruling.next_hand.clauses)
    for u in ruling.uncertain:
        ids.update(_possibility_clauses(u))
    return [clause_ref(c) for c in sorted(ids, key=order_key)]


def _reason_clauses(r: Reason) -> list[str]:
    return [*r.clauses, *(c for p in r.premises for c in _reason_clauses(p))]


def _possibility_clauses(u: Uncertain) -> set[str]:
    ids: set[str] = set()
    for p in u.possibilities:
        ids.update(c for f in p.findings for c in f.clauses)
        ids.update(c for w in p.wins for c in (*w.clauses, *(x.clause for x in w.patterns)))
        ids.update(c for x in p.payments for c in x.clauses)
        if p.next_hand:
            ids.update(p.next_hand.clauses)
    return ids
