"""``adjudicator coverage``: every clause id with the cases whose rulings cite it."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from adjudicator.committee.coverage import Coverage


class Format(StrEnum):
    text = "text"
    json = "json"


def coverage(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="案例檔或資料夾（預設 cases/；資料夾內找 *.case、*.log、*.refusal、*.match"
             " 與 *.fan）")] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="輸出格式：text 表格或 json")
                   ] = Format.text,
    unreached_only: Annotated[bool, typer.Option(
        "--unreached", help="只列沒有案例涵蓋的條款")] = False,
) -> None:
    """條款涵蓋：列出每個條款編號及裁決引用它的案例，並列出沒有案例涵蓋的條款。

    案例的裁決在 認定、和牌（含牌型）、賠付 或 下盤 引用某條款，即算涵蓋該條款；
    拒收案例（*.refusal）的紀錄如其「#! refused:」行所言被拒收時，算涵蓋拒收所引的條款；
    整將案例（*.match）涵蓋各盤裁決所引、換圈所依（定莊、粵.風圈）與插花時機警告所引的
    條款；國標計番案例（*.fan）計得其期望番種時，涵蓋那些番種（國標.N）。
    """
    from adjudicator.committee.cases import missing
    from adjudicator.committee.coverage import coverage as measure

    paths = paths or [Path("cases")]
    if missing(paths):
        print("找不到：" + "、".join(str(p) for p in missing(paths)), file=sys.stderr)
        raise typer.Exit(2)
    report = measure(paths)
    if fmt is Format.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        _text(report, unreached_only)


def _text(report: Coverage, unreached_only: bool) -> None:
    from rich.table import Table

    from adjudicator.cli.diff import wide_console
    from adjudicator.ruling.clauses import CLAUSES

    console = wide_console()
    if not unreached_only:
        table = Table(title="條款涵蓋", show_lines=False, expand=True, title_justify="left")
        table.add_column("條款", no_wrap=True)
        table.add_column("案數", justify="right", no_wrap=True)
        table.add_column("案例", overflow="fold")
        for clause in CLAUSES:
            names = report.reached.get(clause, [])
            table.add_row(clause, str(len(names)), "\n".join(names) or "—")
        console.print(table)
    unreached = report.unreached
    console.print(f"未涵蓋的條款（{len(unreached)}）：" + ("、".join(unreached) or "無"))
    for clause, names in report.unknown.items():
        console.print(f"注意：{clause} 不在條款表中，卻被引用於 {'、'.join(names)}")
    for name, why in report.errors.items():
        console.print(f"無法裁決 {name}：{why}")
    console.print(f"{len(CLAUSES) - len(unreached)}／{len(CLAUSES)} 條款有案例涵蓋"
                  f"（{len(report.cases)} 案）")


def register(app: typer.Typer) -> None:
    app.command()(coverage)
