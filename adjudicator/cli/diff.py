"""``adjudicator diff``: which rulings of a corpus change between two profiles or settings."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from adjudicator.cli.options import fail

if TYPE_CHECKING:
    from rich.console import Console

    from adjudicator.committee.diff import CaseDiff, DiffReport, Side


class Format(StrEnum):
    text = "text"
    json = "json"
    md = "md"


def diff(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="案例檔或資料夾（預設 cases/；資料夾內找 *.case 與 *.log）")] = None,
    a: Annotated[str | None, typer.Option(
        "--a", metavar="PROFILE", help="A 邊的規則，如 tw16（預設：各案 規則: 所寫）")] = None,
    a_set: Annotated[list[str] | None, typer.Option(
        "--a-set", metavar="ID=VALUE",
        help="A 邊改一個解釋點或參數，如 解釋.八張窗=wall（可重複）")] = None,
    b: Annotated[str | None, typer.Option(
        "--b", metavar="PROFILE", help="B 邊的規則，如 tw16-alt（預設：各案 規則: 所寫）")] = None,
    b_set: Annotated[list[str] | None, typer.Option(
        "--b-set", metavar="ID=VALUE",
        help="B 邊改一個解釋點或參數，如 解釋.八張窗=all（可重複）")] = None,
    a_rules: Annotated[Path | None, typer.Option(
        "--a-rules", metavar="FILE", help="A 邊依一份家規檔裁決（代替 --a；見 adjudicator rules）")
    ] = None,
    b_rules: Annotated[Path | None, typer.Option(
        "--b-rules", metavar="FILE", help="B 邊依一份家規檔裁決（代替 --b），如 龍山.rules")
    ] = None,
    fmt: Annotated[Format, typer.Option(
        "--format", "-f", help="輸出格式：text 表格、json、md（會議紀錄用 Markdown）")
    ] = Format.text,
    archive: Annotated[str | None, typer.Option(
        "--archive", metavar="DB",
        help="改以裁判桌的裁決檔案為案例：資料庫 URL，或 default（adjudicator-archive.db）")
    ] = None,
    verdicts_only: Annotated[bool, typer.Option(
        "--verdicts-only", help="只列賠付或裁決改變的案例，略過只差引用條款的")] = False,
    workers: Annotated[int | None, typer.Option(
        help="本機工作行程數（預設：所有核心；1 表示在本行程內）")] = None,
) -> None:
    """比較規則：把整批案例各依 A、B 兩邊裁決一次，逐案列出裁決改變之處。

    結束碼：0 沒有任何裁決改變；1 有案例的裁決改變（可用來把關規則修改）；
    2 輸入有誤或有案例無法裁決。
    """
    from adjudicator.committee.cases import missing
    from adjudicator.committee.diff import diff_corpus

    paths = paths or [Path("cases")]
    side_a, side_b = _side("--a", a, a_set, a_rules), _side("--b", b, b_set, b_rules)
    if workers is not None and workers < 1:
        fail("--workers 須是正整數")
    if side_a == side_b:
        fail("A、B 兩邊相同，無從比較：請以 --a/--b 或 --a-rules/--b-rules 指定規則，"
             "或以 --a-set/--b-set 改解釋點")
    _same_family(side_a.base, side_b.base)
    if archive is not None:
        report = _archive_diff(archive, side_a, side_b)
    else:
        if missing(paths):
            fail("找不到：" + "、".join(str(p) for p in missing(paths)))
        from adjudicator.cli.progress import bar
        from adjudicator.committee.diff import count_cases

        with bar(2 * count_cases(paths), "裁決") as advance:
            report = diff_corpus(paths, side_a, side_b, advance, workers)
    report.verdicts_only = verdicts_only
    {Format.text: _text, Format.json: _json, Format.md: _markdown}[fmt](report)
    raise typer.Exit(2 if report.errors else 1 if report.changed else 0)


def _archive_diff(url: str, a: Side, b: Side) -> DiffReport:
    """The desk's archived logs as the corpus (the committee's real cases)."""
    from adjudicator.committee.diff import diff_logs
    from adjudicator.desk.archive import Archive

    try:
        logs = list(Archive(None if url == "default" else url, create=False).logs())
    except Exception as err:  # a bad URL, an unreachable server, a missing driver
        fail(f"--archive：無法開啟裁決檔案 {url}：{err}")
    return diff_logs(logs, a, b)


def _same_family(a: str | None, b: str | None) -> None:
    if (why := family_mismatch(a, b)) is not None:
        fail(why)


def family_mismatch(a: str | None, b: str | None) -> str | None:
    """Why profiles ``a`` and ``b`` cannot be compared (this command and the desk's
    /api/diff), or None: two families judge different games, nothing to compare."""
    from adjudicator.rules.rulesets import profile_family

    if a is None or b is None:
        return None
    fa, fb = profile_family(a), profile_family(b)
    if fa != fb:
        return (f"--a {a} 屬 {fa.name} 一族、--b {b} 屬 {fb.name} 一族：不同一族的規則是不同的"
                "牌戲（台灣十六張的紀錄不是廣東麻將的紀錄），不能互相比較")
    return None


def _side(option: str, profile: str | None, pairs: list[str] | None,
          rules: Path | None = None) -> Side:
    from adjudicator.cli.options import house_rules
    from adjudicator.committee.diff import Side
    from adjudicator.rules.rulesets import check_profile
    from adjudicator.ruling.interpretations import SettingError, parse_settings

    if profile is not None and rules is not None:
        fail(f"{option} 與 {option}-rules 只能擇一：家規檔已寫明它依據的規則")
    try:
        if profile is not None:
            check_profile(profile)
    except SettingError as err:
        fail(f"{option}：{err}")
    house = house_rules(rules, f"{option}-rules")
    try:
        return Side(profile, parse_settings(pairs or [], option=f"{option}-set"), house)
    except SettingError as err:
        fail(str(err))


def _summary(report: DiffReport) -> str:
    verdicts = len(report.verdicts_changed)
    text = (f"{len(report.cases)} 案中 {len(report.changed)} 案裁決改變"
            f"（A：{report.a.label()}；B：{report.b.label()}），用時 {report.seconds:.2f} 秒"
            f"\n其中賠付或裁決改變 {verdicts} 案；只差引用條款 {len(report.changed) - verdicts} 案")
    if report.errors:
        text += f"；{len(report.errors)} 案無法裁決"
    if report.other_family:
        text += f"；{len(report.other_family)} 案屬另一族的規則，不在比較之列"
    return text


def _depends(case: CaseDiff) -> str:
    a = "、".join(case.depends_a) or "無"
    b = "、".join(case.depends_b) or "無"
    text = f"所依解釋點：A {a}；B {b}"
    if case.undeclared:
        text += f"。注意：改的是 {'、'.join(case.flipped)}，裁決改變卻未列為所依解釋點"
    return text


# ------------------------------------------------------------------------- text


def wide_console() -> Console:
    """A rich console; when output is not a terminal, 140 columns rather than rich's 80."""
    from rich.console import Console

    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=140)


def _text(report: DiffReport) -> None:
    from rich.table import Table

    from adjudicator.committee.diff import ASPECTS

    console = wide_console()
    for case in report.shown:
        table = Table(title=case.name, caption=_depends(case), show_lines=True, expand=True,
                      title_justify="left", caption_justify="left")
        table.add_column("項目", no_wrap=True)
        table.add_column(f"A：{report.a.label()}", ratio=1, overflow="fold")
        table.add_column(f"B：{report.b.label()}", ratio=1, overflow="fold")
        for change in case.changes:
            table.add_row(ASPECTS[change.aspect], *_cells(change.aspect, change.a, change.b))
        console.print(table)
    for case in report.errors:
        print(f"{case.name}：{case.error}", file=sys.stderr)
    console.print(_summary(report))


def _cells(aspect: str, a: list[object], b: list[object]) -> tuple[str, str]:
    from adjudicator.committee.diff import item_text

    return ("\n".join(item_text(aspect, x) for x in a) or "（無）",
            "\n".join(item_text(aspect, x) for x in b) or "（無）")


# ------------------------------------------------------------------ json, markdown


def _json(report: DiffReport) -> None:
    print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))


def _markdown(report: DiffReport) -> None:
    from adjudicator.committee.diff import ASPECTS

    lines = [f"# 規則比較：A {report.a.label()} · B {report.b.label()}", "",
             _summary(report) + "。", ""]
    for case in report.shown:
        lines += [f"## {case.name}", "",
                  f"| 項目 | A：{_md(report.a.label())} | B：{_md(report.b.label())} |",
                  "|---|---|---|"]
        for change in case.changes:
            left, right = _cells(change.aspect, change.a, change.b)
            lines.append(f"| {ASPECTS[change.aspect]} | {_md(left)} | {_md(right)} |")
        lines += ["", _depends(case) + "。", ""]
    if report.errors:
        lines += ["## 無法裁決", ""]
        lines += [f"- `{case.name}`：{_md(str(case.error).splitlines()[0])}"
                  for case in report.errors]
        lines.append("")
    print("\n".join(lines).rstrip())


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def register(app: typer.Typer) -> None:
    app.command()(diff)
