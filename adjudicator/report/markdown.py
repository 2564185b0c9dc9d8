"""The referee's report as Markdown (GitHub-flavoured tables), from report.Report."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from adjudicator.report import model, sections

T = TypeVar("T")

_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def md(text: str) -> str:
    """Text safe inside Markdown (and inside a table cell)."""
    return _SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return out + [""]


def _clauses(refs: tuple[model.ClauseRef, ...]) -> str:
    return "、".join(md(c.id) for c in refs)


def _head(r: model.Report) -> list[str]:
    lines = [f"# {sections.REPORT.title}", ""]
    if r.meta:
        lines += _table([md(k) for k, _ in r.meta], [[md(v) for _, v in r.meta]])
    if r.players:
        lines += ["玩家：" + "　".join(f"{s}（{md(n)}）" for s, n in r.players), ""]
    lines += [f"**{md(r.status_words)}** · 規則 {md(r.profile)}", "", *_heading(sections.VERDICT)]
    return lines + [f"- {md(v)}" for v in r.verdict] + [""]


def _signatures(r: model.Report) -> list[str]:
    lines = _opening(sections.SIGNATURES)
    return lines + [f"- {md(who)}：＿＿＿＿＿＿＿＿＿＿" for who in r.signers] + [""]


def _timeline(r: model.Report) -> list[str]:
    rows = [[str(x.line), "" if x.seq is None else str(x.seq),
             md(x.text) + (" ⚠" if x.conflict else ""), md("；".join(x.marks))]
            for x in r.timeline]
    return _opening(sections.TIMELINE) + _table(sections.TIMELINE.head(), rows)


def _reason(view: model.ReasonView, depth: int) -> list[str]:
    pad = "  " * depth
    lines = [f"{pad}- {md(view.text)}"]
    if view.clauses:
        lines.append(f"{pad}  （依 {_clauses(view.clauses)}）")
    for p in view.premises:
        lines += _reason(p, depth + 1)
    return lines


def _finding(n: int, f: model.FindingView) -> list[str]:
    where = f"（{md(f.at.label)}）" if f.at else ""
    lines = [f"### {n}. {md(f.title)}{where}", ""]
    if f.note:
        lines += [md(f.note), ""]
    lines.append("1. 所依動作：" + ("；".join(md(a.label) for a in f.acts) or "（無）"))
    lines.append("2. 理由：")
    lines += ["   " + x for v in f.reasons for x in _reason(v, 0)] or ["   - （無）"]
    lines.append("3. 條款：")
    lines += [f"   - {md(c.label)}" for c in f.clauses]
    lines += [f"4. 認定：**{md(f.title)}**", ""]
    return lines


def _findings(r: model.Report) -> list[str]:
    out = _heading(sections.FINDINGS)
    if not r.findings:
        return out + [sections.FINDINGS.empty, ""]
    for n, f in enumerate(r.findings, 1):
        out += _finding(n, f)
    return out


def _win(w: model.WinView) -> list[str]:
    tai = f"，{md(w.tai)}" if w.tai else ""
    lines = [f"### {md(w.title)}：{md(w.verdict)}{tai}", ""]
    lines += [f"- 待查明：{md(o)}" for o in w.open]
    lines += [f"- 理由：{md(x.text)}" for x in w.reasons]
    if w.clauses:
        lines.append(f"- 條款：{'；'.join(md(c.label) for c in w.clauses)}")
    if lines[-1] != "":
        lines.append("")
    if w.patterns:
        if w.patterns_note:
            lines += [md(w.patterns_note), ""]
        rows = [[md(p.name), str(p.tai), md(clause.label)] for p, clause in w.patterns]
        lines += _table(sections.PATTERNS.head(w.unit), rows)
    return lines


def _wins(r: model.Report) -> list[str]:
    if not r.wins:
        return []
    out = _heading(sections.WINS)
    for w in r.wins:
        out += _win(w)
    return out


def _payment_rows(rows: list[model.PaymentRow] | tuple[model.PaymentRow, ...]) -> list[str]:
    body = [[md(p.frm), md(p.to), p.amount, str(p.tai), md(p.basis), md(p.instead_of),
             _clauses(p.clauses), "" if p.at is None else str(p.at.seq)] for p in rows]
    unit = rows[0].unit if rows else "台"
    return _table(sections.PAYMENTS.head(unit), body)


def _money(r: model.Report) -> list[str]:
    out = _heading(sections.PAYMENTS)
    out += _payment_rows(r.payments) if r.payments else [sections.PAYMENTS.empty, ""]
    out += _heading(sections.BALANCES)
    if r.balances_note:
        out += [md(r.balances_note), ""]
    out += _table([md(s) for s, _ in r.balances], [[v for _, v in r.balances]])
    return out + _heading(sections.HAND) + [md(r.hand), ""]


def _interpretations(r: model.Report) -> list[str]:
    if not r.interpretations:
        return []
    rows = [[md(i.id), md(question), md(i.reading)] for i, question in r.interpretations]
    return _heading(sections.INTERPRETATIONS) + _table(sections.INTERPRETATIONS.head(), rows)


def _possibility(p: model.PossibilityView) -> list[str]:
    lines = [f"**若{md(p.assumption)}：**", ""]
    lines += [f"- {md(x)}" for x in p.lines]
    lines.append("")
    if p.payments:
        lines += [f"{sections.THEN_PAYMENTS.title}：", ""] + _payment_rows(p.payments)
    if p.balances:
        lines += [f"{sections.THEN_BALANCES.title}：", ""]
        lines += _table([md(s) for s, _ in p.balances], [[v for _, v in p.balances]])
    return lines


def _uncertain_one(u: model.UncertainView) -> list[str]:
    where = f"（{md(u.at.label)}）" if u.at else ""
    lines = [f"### {md(u.fact)}{where}", ""]
    if not u.possibilities:
        return lines + [md(u.changes), ""]
    for p in u.possibilities:
        lines += _possibility(p)
    return lines


def _heading(section: sections.Section) -> list[str]:
    return [f"## {section.title}", ""]


def _opening(section: sections.Section) -> list[str]:
    """A section's heading and the line saying what it lists."""
    return _heading(section) + [md(section.intro), ""]


def _listing(section: sections.Section, items: Sequence[T], each: Callable[[T], list[str]],
             ) -> list[str]:
    """A section that lists items under its opening, or nothing when there are none."""
    if not items:
        return []
    return _opening(section) + [line for item in items for line in each(item)]


def _uncertain(r: model.Report) -> list[str]:
    return _listing(sections.UNCERTAIN, r.uncertain, _uncertain_one)


def _problem(p: model.ProblemView) -> list[str]:
    lines = [f"### 第 {p.line} 行：{md(p.detail)}", ""]
    rows = [[str(n), md(text)] for n, text in p.conflicts]
    return lines + (_table(sections.PROBLEMS.head(), rows) if rows else [])


def _problems(r: model.Report) -> list[str]:
    return _listing(sections.PROBLEMS, r.problems, _problem)


def _glossary(r: model.Report) -> list[str]:
    if not r.clauses:
        return []
    rows = [[md(c.id), md(c.paraphrase)] for c in r.clauses]
    return _heading(sections.GLOSSARY) + _table(sections.GLOSSARY.head(), rows)


def render(report: model.Report) -> str:
    parts = [_head(report), _timeline(report), _findings(report), _wins(report),
             _money(report), _interpretations(report), _uncertain(report), _problems(report),
             _glossary(report), _signatures(report)]
    lines = [line for part in parts for line in part]
    return "\n".join(lines).rstrip("\n") + "\n"
