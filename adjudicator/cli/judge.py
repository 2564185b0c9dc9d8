"""``adjudicator judge``: judge one incident log and print the ruling."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from adjudicator.cli.options import (
    Rules,
    fail,
    known_profile,
    profile_help,
    run_rules,
    set_help,
    settings,
)

if TYPE_CHECKING:
    from adjudicator.language.incident import Incident
    from adjudicator.ruling.model import Ruling


class Format(StrEnum):
    text = "text"
    json = "json"
    md = "md"
    html = "html"
    pdf = "pdf"


# What -o's suffix says when -f is not given.
SUFFIX_FORMATS = {".txt": Format.text, ".json": Format.json, ".md": Format.md,
                  ".markdown": Format.md, ".html": Format.html, ".htm": Format.html,
                  ".pdf": Format.pdf}


def format_for(fmt: Format | None, output: Path | None) -> Format:
    """-f when given; else what -o's suffix names; else the terminal report."""
    if fmt is not None:
        return fmt
    if output is not None:
        return SUFFIX_FORMATS.get(output.suffix.lower(), Format.text)
    return Format.text


def judge(
    log: Annotated[Path, typer.Argument(help="事故紀錄檔（UTF-8 文字或 JSON）；- 表示標準輸入")],
    fmt: Annotated[Format | None, typer.Option(
        "--format", "-f", show_default=False,
        help="輸出格式；不寫時依 -o 的副檔名（.json .md .html .pdf），否則 text")] = None,
    profile: Annotated[str | None, typer.Option(help=profile_help("紀錄"))] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help=set_help())] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="寫入此檔而不印出（html、pdf 報告可列印簽名）")] = None,
    rules: Rules = None,
) -> None:
    from adjudicator.language.errors import LogError
    from adjudicator.language.json_form import FormError, read_any
    from adjudicator.language.reader import decode
    from adjudicator.ruling.judge import judge as judge_incident

    known_profile(profile)
    house = run_rules(profile, rules)
    data = read_input(log, "紀錄檔")
    try:
        incident = read_any(decode(data))
        ruling = judge_incident(incident, profile=profile, settings=settings(set_),
                                 house=house)
    except (LogError, FormError) as err:
        fail(f"{log}：{err}")
    _emit(ruling, incident, format_for(fmt, output), output)


def register(app: typer.Typer) -> None:
    app.command(help="裁決一份事故紀錄，印出裁決（違規認定、和牌、賠付、收支、下盤）。")(judge)


def read_input(path: Path, what: str) -> bytes:
    """The bytes of ``path`` (standard input for -), or end the command saying why not."""
    try:
        return sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except OSError as err:
        fail(f"讀不到{what} {path}：{why_unreadable(err)}")


def why_unreadable(err: OSError) -> str:
    if isinstance(err, FileNotFoundError):
        return "沒有這個檔案"
    if isinstance(err, IsADirectoryError):
        return "這是資料夾，不是紀錄檔"
    if isinstance(err, PermissionError):
        return "沒有讀取權限"
    return err.strerror or str(err)


def _document(ruling: Ruling, incident: Incident, fmt: Format) -> str:
    """The ruling as JSON, Markdown or HTML text."""
    if fmt is Format.json:
        from adjudicator.ruling.model import to_json

        return to_json(ruling) + "\n"
    from adjudicator.report.model import build

    report = build(ruling, incident)
    if fmt is Format.md:
        from adjudicator.report.markdown import render as render_md

        return render_md(report)
    from adjudicator.report.html import render as render_html

    return render_html(report)


def _emit(ruling: Ruling, incident: Incident, fmt: Format, output: Path | None) -> None:
    if fmt is Format.text:
        from rich.console import Console

        from adjudicator.report.text import render

        if output is None:
            render(ruling, incident=incident)
            return
        with _open(output) as handle:
            render(ruling, Console(file=handle, width=100, no_color=True), incident)
        return
    if fmt is Format.pdf:
        emit_pdf(_document(ruling, incident, Format.html), output)
        return
    document = _document(ruling, incident, fmt)
    if output is None:
        sys.stdout.write(document)
        return
    with _open(output) as handle:
        handle.write(document)


def emit_pdf(html: str, output: Path | None) -> None:
    from adjudicator.report.pdf import PdfError, render

    if output is None and sys.stdout.isatty():
        fail("PDF 不能印在終端機上：請用 -o 報告.pdf 寫入檔案")
    try:
        data = render(html)
    except PdfError as err:
        fail(str(err))
    if output is None:
        sys.stdout.buffer.write(data)
        return
    try:
        output.write_bytes(data)
    except OSError as err:
        fail(f"無法寫入 {output}：{err}")


def _open(path: Path) -> TextIO:
    try:
        return path.open("w", encoding="utf-8")
    except OSError as err:
        fail(f"無法寫入 {path}：{err}")
