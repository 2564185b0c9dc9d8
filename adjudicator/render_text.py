"""The ruling for people at the table: a terminal report."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .ruling import Ruling, money_json

STATUS_WORDS = {
    "decided": ("裁決確定", "green"),
    "undetermined": ("紀錄不足，部分結論有待查明", "yellow"),
    "inconsistent": ("紀錄自相矛盾，僅就可判部分裁決", "red"),
}


def _money(value: object) -> str:
    v = money_json(value)  # type: ignore[arg-type]
    return f"+{v}" if isinstance(v, int) and v > 0 else str(v)


def _findings(r: Ruling) -> Table | Text:
    if not r.findings:
        return Text("無違規認定。")
    table = Table(title="認定", show_lines=True, expand=True)
    for col in ("手", "座位", "認定", "條款", "理由"):
        table.add_column(col)
    for f in r.findings:
        kind = f.kind + (f"（優於 {f.over}）" if f.over else "")
        if f.window:
            kind += f"（其後 {f.window['draws']} 張）"
        table.add_row(str(f.at or ""), f.seat, kind, "、".join(f.clauses), "\n".join(f.why))
    return table


def _wins(r: Ruling) -> Table | None:
    if not r.wins:
        return None
    table = Table(title="和牌", expand=True)
    for col in ("手", "座位", "結果", "台數", "牌型"):
        table.add_column(col)
    for w in r.wins:
        how = "自摸" if w.self_drawn else f"和 {w.from_seat} 之銃"
        verdict = ("有效 " if w.valid else "無效 ") + how
        if not w.valid and w.why:
            verdict += "\n" + "\n".join(w.why)
        patterns = "\n".join(f"{p.name} {p.tai}台（{p.clause}）" for p in w.patterns)
        table.add_row(str(w.at or ""), w.seat, verdict, "" if w.tai is None else str(w.tai),
                      patterns)
    return table


def _payments(r: Ruling) -> Table | None:
    if not r.payments:
        return None
    table = Table(title="賠付", expand=True)
    for col in ("付", "收", "金額", "台", "事由", "條款"):
        table.add_column(col)
    for p in r.payments:
        basis = p.basis + (f"（代 {p.instead_of} 付）" if p.instead_of else "")
        table.add_row(p.frm, p.to, str(money_json(p.amount)), str(p.tai), basis,
                      "、".join(p.clauses))
    return table


def _closing(r: Ruling) -> Text:
    lines = [" ".join(f"{s} {_money(v)}" for s, v in r.balances.items())]
    lines.insert(0, "收支：")
    text = Text(" ".join(lines) + "\n")
    text.append("本盤終止" if r.hand_ends else "本盤繼續")
    if r.next_hand:
        n = r.next_hand
        text.append(f"；下盤莊家 {n.dealer}，連莊 {n.streak}"
                    + ("" if n.counts_streak else "（本盤不計連莊序）"))
    return text


def _notes(r: Ruling) -> list[Text]:
    out = []
    for i in r.interpretations:
        out.append(Text(f"所依解釋 {i.id}：{i.reading}", style="cyan"))
    for u in r.uncertain:
        out.append(Text(f"待查明（第 {u.at} 手）：{u.fact} {u.changes}", style="yellow"))
    for p in r.problems:
        out.append(Text(f"矛盾（第 {p.line} 行）：{p.detail}", style="red"))
    return out


def render(r: Ruling, console: Console | None = None) -> None:
    console = console or Console()
    words, colour = STATUS_WORDS[r.status]
    parts: list = [Text(f"規則 {r.profile}", style="bold"), _findings(r)]
    parts += [t for t in (_wins(r), _payments(r)) if t is not None]
    parts += [_closing(r), *_notes(r)]
    console.print(Panel(Group(*parts), title=words, border_style=colour))
