"""The referee's report as one self-contained HTML file: inline CSS, no external assets,
laid out to print on A4 (``@page``, no table row or finding split across pages)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import TypeVar

from adjudicator.report import model, sections

T = TypeVar("T")

CSS = """
@page { size: A4; margin: 12mm 12mm 14mm 12mm;
        @bottom-center { content: "第 " counter(page) " 頁，共 " counter(pages) " 頁";
                         font-size: 8pt; color: #5c6670; } }
:root { --ink: #1d232b; --muted: #5c6670; --line: #d5dae0; --soft: #f4f6f8;
        --ok: #1f7a3a; --warn: #9a6400; --bad: #a32020; --mark: #fff6d6; }
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK TC", "Noto Sans TC", "PingFang TC", "Microsoft JhengHei",
       "Source Han Sans TC", sans-serif; color: var(--ink); font-size: 9.5pt;
       line-height: 1.4; max-width: 186mm; margin: 0 auto; padding: 6mm 0; }
h1 { font-size: 15pt; margin: 0 0 1mm; letter-spacing: .05em; }
h2 { font-size: 11pt; margin: 4mm 0 1.5mm; padding-bottom: .5mm;
     border-bottom: 1.2px solid var(--ink); break-after: avoid; page-break-after: avoid; }
h3 { font-size: 10pt; margin: 1.5mm 0 1mm; break-after: avoid; page-break-after: avoid; }
p { margin: .5mm 0 1mm; }
.meta { color: var(--muted); font-size: 9pt; }
dl.header { display: flex; flex-wrap: wrap; gap: .5mm 5mm; margin: 1mm 0; font-size: 9pt; }
dl.header div { display: flex; gap: 1.5mm; }
dl.header dt { color: var(--muted); }
dl.header dd { margin: 0; font-weight: 700; }
.status { display: inline-block; padding: .3mm 2.5mm; border-radius: 3mm; font-weight: 700;
          color: #fff; }
.status.decided { background: var(--ok); }
.status.undetermined { background: var(--warn); }
.status.inconsistent { background: var(--bad); }
.verdict { border: 1.2px solid var(--ink); border-radius: 2mm; padding: 2mm 4mm;
           margin: 2mm 0; }
.verdict ul { margin: .5mm 0 0; padding-left: 5mm; }
.verdict li { margin: .2mm 0; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 2mm; font-size: 8.5pt; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th, td { border: 1px solid var(--line); padding: .4mm 1.5mm; text-align: left;
         vertical-align: top; }
th { background: var(--soft); font-weight: 700; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; width: 1%; }
td.who { white-space: nowrap; }
table.balances { table-layout: fixed; }
table.balances td { text-align: right; font-variant-numeric: tabular-nums; font-weight: 700; }
tr.marked td { background: var(--mark); }
tr.conflict td { background: #fde8e8; }
.mark { display: inline-block; margin: 0 1mm 0 0; font-size: 8pt; padding: 0 1mm;
        border-radius: 1mm; border: 1px solid #c9b458; background: #fffbea; }
.mark.rest { border-color: var(--line); background: #fff; color: var(--muted); }
.card { border: 1px solid var(--line); border-left: 3px solid var(--ink); border-radius: 1.5mm;
        padding: 1mm 3mm; margin: 1.5mm 0; }
.card.open { border-left-color: var(--warn); }
.card.bad { border-left-color: var(--bad); }
.chain { margin: .5mm 0 0; padding: 0; list-style: none; }
.chain > li { position: relative; padding: .2mm 0 .2mm 11mm; break-inside: avoid; }
.chain > li::before { position: absolute; left: 0; width: 10mm; color: var(--muted);
                      font-size: 8pt; content: attr(data-step); }
.chain ul { margin: 0; padding-left: 4mm; }
.clause { font-weight: 700; }
.para { color: var(--muted); font-size: 8.5pt; }
.conclusion { font-weight: 700; }
.note { color: var(--muted); font-size: 8.5pt; }
.empty { color: var(--muted); }
.pos { color: var(--muted); }
.glossary { columns: 2; column-gap: 6mm; font-size: 8pt; margin: 1mm 0; padding: 0;
            list-style: none; }
.glossary li { break-inside: avoid; margin: 0 0 .5mm; }
.signatures { margin-top: 5mm; break-inside: avoid; page-break-inside: avoid; }
.signatures p { font-size: 8.5pt; color: var(--muted); }
.signatures ol { display: grid; grid-template-columns: repeat(5, 1fr); gap: 3mm;
                 list-style: none; padding: 0; margin: 2mm 0 0; }
.signatures li { border-top: 1px solid var(--ink); padding-top: 1mm; margin-top: 9mm;
                 font-size: 8.5pt; text-align: center; }
footer { margin-top: 3mm; color: var(--muted); font-size: 7.5pt; }
@media print { body { padding: 0; max-width: none; } a { color: inherit; } }
"""

# On a phone (the permalink the players are sent): body-size text, one column, wide tables
# scrolling in their own box; print keeps the A4 layout above.
PHONE_CSS = """
@media screen and (max-width: 720px) {
  html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
  body { font-size: 16px; line-height: 1.5; padding: 10px; max-width: none; }
  h1 { font-size: 22px; } h2 { font-size: 18px; } h3 { font-size: 16px; }
  .meta, dl.header, .note, .para, .mark, table, .glossary, .signatures p, .signatures li,
  .chain > li::before, footer { font-size: 15px; }
  table { display: block; overflow-x: auto; max-width: 100%; }
  table.balances { display: table; table-layout: auto; }
  th, td { padding: 4px 6px; }
  dl.header dt { flex: none; }
  .glossary { columns: 1; }
  .chain > li { padding-left: 0; }
  .chain > li::before { position: static; display: block; width: auto; }
  .signatures ol { grid-template-columns: repeat(2, 1fr); }
  .card, .verdict { overflow-wrap: anywhere; }
}
"""

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
# The report's one stylesheet: A4 and screen, then the phone's.
STYLE = CSS + PHONE_CSS


def e(text: object) -> str:
    return escape(str(text), quote=True)


def _table(head: list[str], rows: list[str], cls: str = "") -> str:
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _tr(cells: list[str], cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>{''.join(cells)}</tr>"


def _clause(c: model.ClauseRef) -> str:
    para = f' <span class="para">{e(c.paraphrase)}</span>' if c.paraphrase else ""
    return f'<span class="clause">{e(c.id)}</span>{para}'


def _ids(refs: tuple[model.ClauseRef, ...]) -> str:
    return "、".join(f'<span class="clause" title="{e(c.paraphrase)}">{e(c.id)}</span>'
                    for c in refs)


def _act(a: model.ActRef | None) -> str:
    return "" if a is None else e(a.label)


def _header(r: model.Report) -> str:
    """日期 場地 桌號 裁判 盤號 and the players, as the header gave them."""
    pairs = [*r.meta]
    if r.players:
        pairs.append(("玩家", "　".join(f"{s}（{n}）" for s, n in r.players)))
    items = "".join(f"<div><dt>{e(k)}</dt><dd>{e(v)}</dd></div>" for k, v in pairs)
    return f'<dl class="header">{items}</dl>' if items else ""


def _head(r: model.Report) -> str:
    items = "".join(f"<li>{e(v)}</li>" for v in r.verdict)
    return (f"<h1>{sections.REPORT.title}</h1>{_header(r)}"
            f'<p class="meta"><span class="status {e(r.status)}">'
            f"{e(r.status_words)}</span>　{e(r.rules)}</p>"
            f'<section class="verdict"><strong>{sections.VERDICT.title}</strong>'
            f"<ul>{items}</ul></section>")


def _signatures(r: model.Report) -> str:
    names = "".join(f"<li>{e(who)}</li>" for who in r.signers)
    return (f'<section class="signatures"><p>{e(sections.SIGNATURES.intro)}</p>'
            f"<ol>{names}</ol></section>")


def _row(x: model.Row) -> str:
    marks = "".join(f'<span class="mark{" rest" if m.startswith("◇") else ""}">{e(m)}</span>'
                    for m in x.marks)
    cls = "conflict" if x.conflict else "marked" if any(m.startswith("◆") for m in x.marks) else ""
    text = e(x.text) if x.seq is not None else f'<span class="pos">{e(x.text)}</span>'
    return _tr([f'<td class="num">{x.line}</td>',
                f'<td class="num">{"" if x.seq is None else x.seq}</td>',
                f"<td>{text}{' ⚠' if x.conflict else ''}</td>", f"<td>{marks}</td>"], cls)


def _timeline(r: model.Report) -> str:
    timeline = sections.TIMELINE
    # The rows' colours are the HTML's own, so only here does the legend explain them.
    note = f'<p class="note">{e(timeline.intro)}（底色：黃為裁決所在，紅為矛盾）</p>'
    return (f"<section><h2>{timeline.title}</h2>" + note
            + _table(timeline.head(), [_row(x) for x in r.timeline], "timeline")
            + "</section>")


def _reason(v: model.ReasonView) -> str:
    clauses = f'（依 {_ids(v.clauses)}）' if v.clauses else ""
    premises = "".join(_reason(p) for p in v.premises)
    inner = f"<ul>{premises}</ul>" if premises else ""
    return f"<li>{e(v.text)}{clauses}{inner}</li>"


def _finding(n: int, f: model.FindingView) -> str:
    acts = "；".join(e(a.label) for a in f.acts) or '<span class="empty">（無）</span>'
    reasons = "".join(_reason(v) for v in f.reasons) or '<li class="empty">（無）</li>'
    clauses = "<br>".join(_clause(c) for c in f.clauses)
    note = f'<p class="note">{e(f.note)}</p>' if f.note else ""
    where = f"（{_act(f.at)}）" if f.at else ""
    return (f'<div class="card"><h3>{n}. {e(f.title)}{where}</h3>{note}<ol class="chain">'
            f'<li data-step="動作">{acts}</li>'
            f'<li data-step="理由"><ul>{reasons}</ul></li>'
            f'<li data-step="條款">{clauses}</li>'
            f'<li data-step="認定"><span class="conclusion">{e(f.title)}</span></li>'
            f"</ol></div>")


def _findings(r: model.Report) -> str:
    body = "".join(_finding(n, f) for n, f in enumerate(r.findings, 1))
    body = body or f'<p class="empty">{sections.FINDINGS.empty}</p>'
    return f"<section><h2>{sections.FINDINGS.title}</h2>{body}</section>"


def _win(w: model.WinView) -> str:
    cls = "card" + (" open" if w.open and not w.clauses else " bad" if w.verdict == "無效" else "")
    tai = f"，{e(w.tai)}" if w.tai else ""
    notes = "".join(f'<p class="note">待查明：{e(o)}</p>' for o in w.open)
    notes += "".join(f"<p>理由：{e(x.text)}</p>" for x in w.reasons)
    if w.clauses:
        notes += "<p>條款：" + "；".join(_clause(c) for c in w.clauses) + "</p>"
    rows = [_tr([f"<td>{e(p.name)}</td>", f'<td class="num">{p.tai}</td>',
                 f"<td>{_clause(clause)}</td>"]) for p, clause in w.patterns]
    table = _table(sections.PATTERNS.head(w.unit), rows) if rows else ""
    if table and w.patterns_note:
        table = f'<p class="note">{e(w.patterns_note)}</p>{table}'
    return f'<div class="{cls}"><h3>{e(w.title)}：{e(w.verdict)}{tai}</h3>{notes}{table}</div>'


def _wins(r: model.Report) -> str:
    if not r.wins:
        return ""
    return (f"<section><h2>{sections.WINS.title}</h2>" + "".join(_win(w) for w in r.wins)
            + "</section>")


def _payments(rows: list[model.PaymentRow] | tuple[model.PaymentRow, ...]) -> str:
    body = [_tr([f'<td class="who">{e(p.frm)}</td>', f'<td class="who">{e(p.to)}</td>',
                 f'<td class="num">{e(p.amount)}</td>',
                 f'<td class="num">{p.tai}</td>', f"<td>{e(p.basis)}</td>",
                 f"<td>{e(p.instead_of)}</td>", f"<td>{_ids(p.clauses)}</td>",
                 f'<td class="num">{"" if p.at is None else p.at.seq}</td>']) for p in rows]
    unit = rows[0].unit if rows else "台"
    return _table(sections.PAYMENTS.head(unit), body)


def _balances(pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> str:
    cells = [f"<td>{e(v)}</td>" for _, v in pairs]
    return _table([s for s, _ in pairs], [_tr(cells)], "balances")


def _money(r: model.Report) -> str:
    payments, balances, hand = sections.PAYMENTS, sections.BALANCES, sections.HAND
    pay = _payments(r.payments) if r.payments else f'<p class="empty">{payments.empty}</p>'
    note = f'<p class="note">{e(r.balances_note)}</p>' if r.balances_note else ""
    return (f"<section><h2>{payments.title}</h2>{pay}</section>"
            f"<section><h2>{balances.title}</h2>{note}{_balances(r.balances)}</section>"
            f"<section><h2>{hand.title}</h2><p>{e(r.hand)}</p></section>")


def _interpretations(r: model.Report) -> str:
    if not r.interpretations:
        return ""
    rows = [_tr([f'<td class="clause">{e(i.id)}</td>', f"<td>{e(question)}</td>",
                 f"<td>{e(reading)}</td>"]) for i, question, reading in r.interpretations]
    table = _table(sections.INTERPRETATIONS.head(), rows)
    return f"<section><h2>{sections.INTERPRETATIONS.title}</h2>{table}</section>"


def _possibility(p: model.PossibilityView) -> str:
    items = "".join(f"<li>{e(x)}</li>" for x in p.lines)
    out = f"<h3>若{e(p.assumption)}：</h3><ul>{items}</ul>"
    if p.payments:
        out += f"<p>{sections.THEN_PAYMENTS.title}：</p>" + _payments(p.payments)
    if p.balances:
        out += f"<p>{sections.THEN_BALANCES.title}：</p>" + _balances(p.balances)
    return out


def _uncertain_one(u: model.UncertainView) -> str:
    where = f"（{_act(u.at)}）" if u.at else ""
    body = "".join(_possibility(p) for p in u.possibilities) or f"<p>{e(u.changes)}</p>"
    return f'<div class="card open"><h3>{e(u.fact)}{where}</h3>{body}</div>'


def _listing(section: sections.Section, items: Sequence[T], each: Callable[[T], str]) -> str:
    """A section that lists items under its heading and a note saying what they are, or
    nothing when there are none."""
    if not items:
        return ""
    body = "".join(each(item) for item in items)
    return (f'<section><h2>{e(section.title)}</h2><p class="note">{e(section.intro)}</p>'
            f"{body}</section>")


def _uncertain(r: model.Report) -> str:
    return _listing(sections.UNCERTAIN, r.uncertain, _uncertain_one)


def _problem(p: model.ProblemView) -> str:
    rows = [_tr([f'<td class="num">{n}</td>', f"<td>{e(text)}</td>"], "conflict")
            for n, text in p.conflicts]
    table = _table(sections.PROBLEMS.head(), rows) if rows else ""
    return f'<div class="card bad"><h3>第 {p.line} 行：{e(p.detail)}</h3>{table}</div>'


def _problems(r: model.Report) -> str:
    return _listing(sections.PROBLEMS, r.problems, _problem)


def _glossary(r: model.Report) -> str:
    if not r.clauses:
        return ""
    items = "".join(f'<li><span class="clause">{e(c.id)}</span> {e(c.paraphrase)}</li>'
                    for c in r.clauses)
    return (f"<section><h2>{sections.GLOSSARY.title}</h2>"
            f'<ul class="glossary">{items}</ul></section>')


def render(report: model.Report) -> str:
    body = "".join([_head(report), _timeline(report), _findings(report), _wins(report),
                    _money(report), _interpretations(report), _uncertain(report),
                    _problems(report), _glossary(report), _signatures(report)])
    return ("<!DOCTYPE html>\n"
            f'<html lang="zh-Hant"><head><meta charset="utf-8">{VIEWPORT}'
            f"<title>{sections.REPORT.title}</title>"
            f"<style>{STYLE}</style></head><body>{body}"
            "<footer>本報告只列出規則所推得之結論；條款大意為意譯，以規則原文為準。</footer>"
            "</body></html>\n")
