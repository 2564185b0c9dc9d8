"""``adjudicator points``: every interpretation point and parameter, with each profile's value."""

from __future__ import annotations

import json
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from adjudicator.cli.options import Rules, run_rules

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House


class Format(StrEnum):
    text = "text"
    json = "json"
    md = "md"


def points(
    fmt: Annotated[Format, typer.Option(
        "--format", "-f", help="輸出格式：text 表格、json，或 md（docs/points.md 即由此生成）")
    ] = Format.text,
    sweep: Annotated[Path | None, typer.Option(
        "--sweep", metavar="PATH",
        help="逐一改動每個解釋點的每個讀法，裁決 PATH 下所有案例，列出哪些案例因而改變，"
             "並指出裁決改變卻未列出該解釋點的案例（有則結束碼 1）")] = None,
    rules: Rules = None,
) -> None:
    """解釋點：列出每個解釋點（解釋.*）與參數、其問題、讀法、條款與原文依據，及各規則的值。

    --rules 另列一份家規的值，並標出它與所依據的規則不同之處。
    用 judge/check 的 --set ID=VALUE 或 diff 的 --a-set/--b-set 改其中一個。
    """
    house = run_rules(None, rules)
    if sweep is not None:
        _sweep(sweep, fmt)
        return
    data = points_data(house)
    if fmt is Format.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    elif fmt is Format.md:
        sys.stdout.write(markdown(data))
    else:
        _text(data)


def _sweep(path: Path, fmt: Format) -> None:
    """Flip each point to each reading some profile does not take; judge the corpus twice."""
    from adjudicator.committee.diff import sweep
    from adjudicator.rules.rulesets import profile_family, profile_names, profile_values
    from adjudicator.ruling.interpretations import POINTS

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
    if fmt is not Format.text:
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


def points_data(house: House | None = None) -> dict[str, Any]:
    """Every point and parameter as defined (interpretations.toml), with each shipped
    profile's value, and a house-rules set's where given (``house``: its name, the profile
    it extends, and the ids where it differs from that profile)."""
    from adjudicator.rules.rulesets import profile_family, profile_names, profile_values
    from adjudicator.ruling.interpretations import PARAMS, POINTS, Param, Point

    values = {p: profile_values(p) for p in profile_names()}
    families = {p: profile_family(p).name for p in values}
    own = dict(house.values) if house is not None else {}

    def row(p: Point | Param, choices: str, options: dict[str, str] | None) -> dict[str, Any]:
        out: dict[str, Any] = {"id": p.id, "question": p.question, choices: options,
                               "family": p.family, "default": p.default, "clause": p.clause,
                               "seed": None if p.seed is None else {
                                   "file": p.seed.file, "clause": p.seed.clause,
                                   "says": p.seed.says},
                               "defaults": {name: v.get(p.id) for name, v in values.items()}}
        if isinstance(p, Param) and p.values is None:
            out["range"], out["unit"] = list(p.range), p.unit
        if house is not None:
            out["house"] = own.get(p.id)
        return out

    data: dict[str, Any] = {
        "profiles": list(values),
        "families": families,
        "points": [row(p, "readings", p.readings) for p in POINTS.values()],
        "params": [row(p, "values", p.values) for p in PARAMS.values()],
    }
    if house is not None:
        base = values[house.profile]
        data["house"] = {**house.to_json(), "profile": house.profile,
                         "differs": [k for k, v in house.values if base.get(k) != v]}
    return data


def _text(data: dict[str, Any]) -> None:
    from adjudicator.cli.diff import wide_console

    console = wide_console()
    families = data["families"]
    console.print(_table("解釋點", data["profiles"], data["points"], "readings", families,
                         data.get("house")))
    console.print(_table("參數", data["profiles"], data["params"], "values", families,
                         data.get("house")))


def _options(row: dict[str, Any], choices: str) -> str:
    options = row[choices]
    if options:
        return "\n".join(f"{k}：{v}" for k, v in options.items())
    lo, hi = row["range"]
    return f"{lo}–{hi} {row['unit']}"


def _table(title: str, profiles: list[str], rows: list[dict[str, Any]], choices: str,
           families: dict[str, str], house: dict[str, Any] | None) -> Any:
    from rich.table import Table

    table = Table(title=title, show_lines=True, expand=True, title_justify="left")
    table.add_column("ID", no_wrap=True)
    table.add_column("問題（條款；原文）", ratio=2, overflow="fold")
    table.add_column("讀法" if choices == "readings" else "可用值", ratio=3, overflow="fold")
    for name in profiles:
        table.add_column(name, no_wrap=True)
    if house is not None:
        table.add_column(f"{house['name']}\n（＊與 {house['profile']} 不同）", ratio=1)
    for row in rows:
        seed = row["seed"]
        where = f"\n（{row['clause']}；{seed['file']} {seed['clause']}）" if seed else ""
        # A point of another family's rules is none of this profile's business.
        cells = [row["defaults"].get(p) or ("（未設）" if families[p] == row["family"] else "—")
                 for p in profiles]
        if house is not None:
            value = row.get("house")
            cells.append("—" if value is None else
                         f"{value} ＊" if row["id"] in house["differs"] else value)
        table.add_row(row["id"], row["question"] + where, _options(row, choices), *cells)
    return table


def markdown(data: dict[str, Any]) -> str:
    """docs/points.md: every point and parameter as defined, and each profile's value."""
    profiles = data["profiles"]
    lines = ["# Interpretation points and parameters", "",
             "Generated by `adjudicator points -f md` from "
             "`adjudicator/ruling/interpretations.toml` and `asp/profiles/*.rules`; "
             "tests/committee/test_house_rules.py fails when this file drifts from them. "
             "How to add a point, and how a club writes its own rules: "
             "[house-rules.md](house-rules.md).", ""]
    for title, key, choices in (("Interpretation points", "points", "readings"),
                                ("Parameters", "params", "values")):
        lines += [f"## {title}", "",
                  "| id | question | clause | rests on | " + ("readings" if choices ==
                  "readings" else "values") + " | " + " | ".join(profiles) + " |",
                  "|---" * (5 + len(profiles)) + "|"]
        for row in data[key]:
            seed = row["seed"]
            rests = f"{seed['file']} {seed['clause']}：{seed['says']}" if seed else ""
            options = ("<br>".join(f"`{k}` {v}" for k, v in row[choices].items())
                       if row[choices] else f"{row['range'][0]}–{row['range'][1]} {row['unit']}")
            cells = [f"`{row['defaults'][p]}`" if row["defaults"].get(p) else "—"
                     for p in profiles]
            lines.append(f"| `{row['id']}` | {_md(row['question'])} | {row['clause']} | "
                         f"{_md(rests)} | {options} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def register(app: typer.Typer) -> None:
    app.command()(points)
