"""``adjudicator points``: every interpretation point and parameter, with each profile's value."""

from __future__ import annotations

import json
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer


class Format(StrEnum):
    text = "text"
    json = "json"


def points(
    fmt: Annotated[Format, typer.Option("--format", "-f", help="輸出格式：text 表格或 json")
                   ] = Format.text,
    sweep: Annotated[Path | None, typer.Option(
        "--sweep", metavar="PATH",
        help="逐一改動每個解釋點的每個讀法，裁決 PATH 下所有案例，列出哪些案例因而改變，"
             "並指出裁決改變卻未列出該解釋點的案例（有則結束碼 1）")] = None,
) -> None:
    """解釋點：列出每個解釋點（解釋.*）與參數、其問題、可選讀法，以及各規則的預設值。

    用 judge/check 的 --set ID=VALUE 或 diff 的 --a-set/--b-set 改其中一個。
    """
    if sweep is not None:
        _sweep(sweep, fmt)
        return
    data = _data()
    if fmt is Format.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        _text(data)


def _sweep(path: Path, fmt: Format) -> None:
    """Flip each point to each reading some profile does not take; judge the corpus twice."""
    from adjudicator.committee.diff import sweep
    from adjudicator.rules.files import profile_family, profile_names
    from adjudicator.ruling.interpretations import POINTS, profile_values

    if not path.exists():
        print(f"找不到：{path}", file=sys.stderr)
        raise typer.Exit(2)
    # A reading is flipped where some profile of the point's own family does not take it.
    flips = [{point.id: value} for point in POINTS.values() for value in point.readings
             if any(profile_values(p).get(point.id) != value for p in profile_names()
                    if profile_family(p).name == point.family)]
    from adjudicator.cli.progress import bar
    from adjudicator.committee.diff import count_cases

    start = time.perf_counter()
    with bar(count_cases([path]) * (1 + len(flips)), "掃描") as advance:
        reports = sweep([path], flips, advance)
    seconds = time.perf_counter() - start
    errors = sum(len(report.errors) for report in reports)
    rows = [{"id": pid, "reading": value,
             "changed": [c.name for c in report.changed],
             "undeclared": [c.name for c in report.changed if c.undeclared]}
            for report in reports for pid, value in report.b.settings.items()]
    if fmt is Format.json:
        # The figure is each row's "undeclared" summed: the output stays one JSON value.
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        _sweep_text(rows, seconds)
    raise typer.Exit(2 if errors else 1 if any(r["undeclared"] for r in rows) else 0)


def _sweep_figures(rows: list[dict[str, Any]], seconds: float) -> str:
    """The sweep's figures: flips, rulings changed, and those changed without listing the
    point (ruling-json.md: each must list it; the figure is to stay 0)."""
    changed = sum(len(r["changed"]) for r in rows)
    missing = sum(len(r["undeclared"]) for r in rows)
    return (f"{len(rows)} 個改動，{changed} 處裁決改變，{missing} 處裁決改變卻未列出所依解釋點"
            f"（{seconds:.0f} 秒）")


def _sweep_text(rows: list[dict[str, Any]], seconds: float) -> None:
    from rich.table import Table

    from adjudicator.cli.diff import wide_console

    console = wide_console()
    table = Table(title="解釋點改動後裁決改變的案例", show_lines=True, expand=True,
                  title_justify="left")
    for col in ("解釋點", "改為"):
        table.add_column(col, no_wrap=True)
    table.add_column("裁決改變的案例", overflow="fold", ratio=2)
    table.add_column("未列出此解釋點", overflow="fold", ratio=1)
    for r in rows:
        table.add_row(r["id"], r["reading"], "\n".join(r["changed"]) or "—",
                      "\n".join(r["undeclared"]) or "—")
    console.print(table)
    console.print(_sweep_figures(rows, seconds))


def _data() -> dict[str, Any]:
    from adjudicator.rules.files import profile_family, profile_names
    from adjudicator.ruling.interpretations import POINTS, known_params, profile_values

    values = {p: profile_values(p) for p in profile_names()}
    families = {p: profile_family(p).name for p in values}
    return {
        "profiles": list(values),
        "families": families,
        "points": [{"id": p.id, "question": p.question, "readings": p.readings,
                    "family": p.family,
                    "defaults": {name: v.get(p.id) for name, v in values.items()}}
                   for p in POINTS.values()],
        "params": [{"id": p.id, "question": p.question, "values": p.values,
                    "family": p.family,
                    "defaults": {name: v.get(p.id) for name, v in values.items()}}
                   for p in known_params().values()],
    }


def _text(data: dict[str, Any]) -> None:
    from adjudicator.cli.diff import wide_console

    console = wide_console()
    families = data["families"]
    console.print(_table("解釋點", data["profiles"], data["points"], "readings", families))
    console.print(_table("參數", data["profiles"], data["params"], "values", families))


def _table(title: str, profiles: list[str], rows: list[dict[str, Any]], choices: str,
           families: dict[str, str]) -> Any:
    from rich.table import Table

    table = Table(title=title, show_lines=True, expand=True, title_justify="left")
    table.add_column("ID", no_wrap=True)
    table.add_column("問題", ratio=2, overflow="fold")
    table.add_column("讀法（第一個為 rulebook 預設）" if choices == "readings" else "可用值",
                     ratio=3, overflow="fold")
    for name in profiles:
        table.add_column(name, no_wrap=True)
    for row in rows:
        options = row[choices]
        text = ("\n".join(f"{k}：{v}" for k, v in options.items()) if options else "非負整數")
        # A point of another family's rules is none of this profile's business.
        cells = [row["defaults"].get(p) or ("（未設）" if families[p] == row["family"] else "—")
                 for p in profiles]
        table.add_row(row["id"], row["question"], text, *cells)
    return table


def register(app: typer.Typer) -> None:
    app.command()(points)
