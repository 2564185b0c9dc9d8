"""The ruling for people at the table: a terminal report (rich: colour, tables)."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from adjudicator.language.incident import Incident
from adjudicator.report import model, sections
from adjudicator.ruling.model import Ruling

STATUS_COLOUR = {"decided": "green", "undetermined": "yellow", "inconsistent": "red"}


# A run with a digit in it (罰則.2, 2,200, -700/3, 第 28 手's 28) is one unit: never split.
_UNIT = re.compile(r"[^\s，、；：（）「」『』。]+|.", re.S)


def units(text: str) -> list[str]:
    """``text`` cut where a line may break: between CJK characters, never inside a clause
    id or an amount."""
    out: list[str] = []
    for found in _UNIT.finditer(text):
        word = found.group()
        if len(word) > 1 and any("0" <= ch <= "9" for ch in word):
            out.append(word)
        else:
            out.extend(word)
    return out


class Folded:
    """Chinese text folded at the width available, not at its few spaces (rich word-wraps
    at spaces, which splits "第 36 手" across lines), and never inside an id or amount."""

    def __init__(self, text: str, style: str = "") -> None:
        self.text = text
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 8)
        line = ""
        for unit in units(self.text):
            if line and cell_len(line + unit) > width:
                yield Text(line.rstrip(), style=self.style)
                line = unit.lstrip()
                continue
            line += unit
        yield Text(line, style=self.style)


class _Folding(Table):
    """A table whose cells fold where they meet the edge: rich's default cuts a cell with
    "…", which on a narrow terminal (or a pipe, 80 columns) hid clause ids and sums."""

    def add_column(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        kwargs.setdefault("overflow", "fold")
        super().add_column(*args, **kwargs)  # type: ignore[arg-type]


def _clause(c: model.ClauseRef) -> Text:
    text = Text(c.id, style="bold cyan")
    if c.paraphrase:
        text.append(f"  {c.paraphrase}", style="dim")
    return text


def _ids(refs: tuple[model.ClauseRef, ...]) -> str:
    # The blank lets a narrow cell wrap between ids instead of inside one.
    return "、 ".join(c.id for c in refs)


def _signed_style(value: str) -> str:
    return "green" if value.startswith("+") else "red" if value.startswith("-") else ""


def _bullets(lines: list[str] | tuple[str, ...]) -> Table:
    items = Table.grid(padding=(0, 1))
    items.add_column(width=1)
    items.add_column(overflow="fold")
    for line in lines:
        items.add_row("•", Folded(line))
    return items


def _verdict(r: model.Report) -> Panel:
    colour = STATUS_COLOUR[r.status]
    # The rules go inside the panel, folded: a house name and a hash outrun a title.
    return Panel(Group(Folded(r.rules), _bullets(r.verdict)),
                 title=f"[bold]{r.status_words}[/]", border_style=colour, title_align="left")


def _meta(r: model.Report) -> RenderableType | None:
    """日期 場地 桌號 裁判 盤號 and the players, as the header gave them."""
    lines = ["　".join(f"{key}：{value}" for key, value in r.meta)] if r.meta else []
    if r.players:
        lines.append("玩家：" + "　".join(f"{seat}（{name}）" for seat, name in r.players))
    return Group(*(Folded(line) for line in lines)) if lines else None


def _timeline(r: model.Report) -> Table | None:
    if not r.timeline:
        return None
    table = _Folding(title=sections.TIMELINE.title, title_justify="left", expand=True,
                     show_edge=False)
    line, seq, record, marked = sections.TIMELINE.head()
    table.add_column(line, justify="right", style="dim")
    table.add_column(seq, justify="right")
    table.add_column(record)
    table.add_column(marked)
    for row in r.timeline:
        marks = Text()
        for n, m in enumerate(row.marks):
            marks.append(("\n" if n else "") + m, style="bold yellow" if m[0] == "◆" else "dim")
        style = "red" if row.conflict else "" if row.seq is not None else "dim"
        text = row.text + (" ⚠" if row.conflict else "")
        table.add_row(str(row.line), "" if row.seq is None else str(row.seq),
                      Text(text, style=style), marks)
    return table


def _reason(tree: Tree, v: model.ReasonView) -> None:
    clauses = f"（依 {_ids(v.clauses)}）" if v.clauses else ""
    node = tree.add(Folded(v.text + clauses))
    for p in v.premises:
        _reason(node, p)


def _finding(n: int, f: model.FindingView) -> Tree:
    title = Text(f"{n}. {f.title}", style="bold")
    if f.at:
        title.append(f"（{f.at.label}）")
    if f.note:
        title.append(f"　{f.note}", style="dim")
    tree = Tree(title)
    acts = tree.add(Text("動作", style="magenta"))
    for a in f.acts:
        acts.add(a.label)
    reasons = tree.add(Text("理由", style="magenta"))
    for v in f.reasons:
        _reason(reasons, v)
    clauses = tree.add(Text("條款", style="magenta"))
    for c in f.clauses:
        clauses.add(_clause(c))
    tree.add(Text(f"⇒ {f.title}", style="bold"))
    return tree


def _findings(r: model.Report) -> RenderableType:
    if not r.findings:
        return Text(sections.FINDINGS.empty, style="dim")
    return Panel(Group(*(_finding(n, f) for n, f in enumerate(r.findings, 1))),
                 title=sections.FINDINGS.title, title_align="left", border_style="blue")


def _win(w: model.WinView) -> RenderableType:
    style = "green" if w.verdict == "有效" else "yellow" if w.verdict == "待查明" else "red"
    head = Text(f"{w.title}：", style="bold")
    head.append(w.verdict + (f"，{w.tai}" if w.tai else ""), style=f"bold {style}")
    parts: list[RenderableType] = [head]
    parts += [Text(f"待查明：{o}", style="yellow") for o in w.open]
    parts += [Folded(f"理由：{x.text}") for x in w.reasons]
    parts += [_clause(c) for c in w.clauses]
    if w.patterns:
        if w.patterns_note:
            parts.append(Text(w.patterns_note, style="dim"))
        table = _Folding(show_edge=False)
        name, tai, clause = sections.PATTERNS.head(w.unit)
        table.add_column(name)
        table.add_column(tai, justify="right")
        table.add_column(clause)
        for p, clause in w.patterns:
            table.add_row(p.name, str(p.tai), _clause(clause))
        parts.append(table)
    return Group(*parts)


def _wins(r: model.Report) -> Panel | None:
    if not r.wins:
        return None
    return Panel(Group(*(_win(w) for w in r.wins)), title=sections.WINS.title,
                 title_align="left", border_style="blue")


def payment_line(p: model.PaymentRow) -> str:
    """One payment as a sentence: a table of eight columns cannot fold on a narrow screen
    without splitting its ids and sums."""
    stead = f"，代 {p.instead_of}" if p.instead_of else ""
    at = f"；第 {p.at.seq} 手" if p.at is not None and p.at.seq is not None else ""
    return (f"{p.frm} 付 {p.to} {p.amount}（{p.basis}，{p.tai} {p.unit}{stead}；"
            f"{'、'.join(c.id for c in p.clauses)}{at}）")


def _payments(rows: list[model.PaymentRow] | tuple[model.PaymentRow, ...],
              title: str = sections.PAYMENTS.title) -> RenderableType:
    return Group(Text(title, style="italic"), _bullets([payment_line(p) for p in rows]))


def _balances(pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...],
              title: str = sections.BALANCES.title) -> Table:
    # One row per chair: four named chairs side by side do not fit a phone's width.
    table = _Folding(title=title, title_justify="left")
    table.add_column("")
    table.add_column("", justify="right")
    table.show_header = False
    for seat, value in pairs:
        table.add_row(seat, Text(value, style=_signed_style(value)))
    return table


def _money(r: model.Report) -> list[RenderableType]:
    out: list[RenderableType] = []
    out.append(_payments(r.payments) if r.payments
               else Text(sections.PAYMENTS.empty, style="dim"))
    out.append(_balances(r.balances))
    if r.balances_note:
        out.append(Text(r.balances_note, style="yellow"))
    out.append(Text(r.hand, style="bold"))
    return out


def _interpretations(r: model.Report) -> Table | None:
    if not r.interpretations:
        return None
    table = _Folding(title=sections.INTERPRETATIONS.title, title_justify="left", expand=True)
    for col in sections.INTERPRETATIONS.head():
        table.add_column(col)
    for i, question, reading in r.interpretations:
        table.add_row(Text(i.id, style="cyan"), question, reading)
    return table


def _possibility(p: model.PossibilityView) -> list[RenderableType]:
    out: list[RenderableType] = [Text(f"若{p.assumption}：", style="bold")]
    out.append(_bullets(p.lines))
    if p.payments:
        out.append(_payments(p.payments, sections.THEN_PAYMENTS.title))
    if p.balances:
        out.append(_balances(p.balances, sections.THEN_BALANCES.title))
    return out


def _uncertain_one(u: model.UncertainView) -> Panel:
    title = u.fact + (f"（{u.at.label}）" if u.at else "")
    parts: list[RenderableType] = [x for p in u.possibilities for x in _possibility(p)]
    return Panel(Group(*(parts or [Text(u.changes)])), title=f"{sections.UNCERTAIN.title}：{title}",
                 title_align="left", border_style="yellow")


def _problems(r: model.Report) -> list[RenderableType]:
    out: list[RenderableType] = []
    for p in r.problems:
        table = _Folding(show_edge=False)
        line_no, record = sections.PROBLEMS.head()
        table.add_column(line_no, justify="right")
        table.add_column(record)
        for line, text in p.conflicts:
            table.add_row(str(line), Text(text, style="red"))
        out.append(Panel(table, title=f"{sections.PROBLEMS.title}：第 {p.line} 行，{p.detail}",
                         title_align="left", border_style="red"))
    return out


def _glossary(r: model.Report) -> Table | None:
    if not r.clauses:
        return None
    table = _Folding(title=sections.GLOSSARY.title, title_justify="left", expand=True,
                     show_edge=False)
    clause, paraphrase = sections.GLOSSARY.head()
    table.add_column(clause, style="cyan")
    table.add_column(paraphrase, style="dim")
    for c in r.clauses:
        table.add_row(c.id, c.paraphrase)
    return table


def renderables(report: model.Report) -> list[RenderableType]:
    parts: list[RenderableType | None] = [
        _meta(report), _verdict(report), _timeline(report), _findings(report), _wins(report),
        *_money(report), _interpretations(report),
        *(_uncertain_one(u) for u in report.uncertain), *_problems(report), _glossary(report)]
    return [p for p in parts if p is not None]


def render(r: Ruling, console: Console | None = None, incident: Incident | None = None) -> None:
    """Print the report; with ``incident`` it includes the timeline of the record."""
    console = console or Console()
    for part in renderables(model.build(r, incident or Incident())):
        console.print(part)
