"""``adjudicator judge`` without typer: the command's options (one definition, which
cli/judge.py turns into the typer command), what it does, and a quick path for a plain
command line.

typer builds a pydantic adapter for each parameter of the command it runs: importing it
and parsing cost some 0.4 s, more than the whole judgement of a short log.  A command
line of only a log and the options below, each written ``--flag value`` or
``--flag=value``, is parsed here; anything else (--help, an unknown or repeated option,
a value that is not one of the choices, a value starting with "-") goes to typer, which
explains or refuses it.  tests/cli/test_quick_judge.py checks that both paths know the
same options and print the same thing.
"""

from __future__ import annotations

import errno
import os
import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from adjudicator.cli.common import (
    ABORTED_TEXT,
    fail,
    known_profile,
    profile_help,
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


# ------------------------------------------------------------------ the options


HELP = "裁決一份事故紀錄，印出裁決（違規認定、和牌、賠付、收支、下盤）。"
LOG_HELP = "事故紀錄檔（UTF-8 文字或 JSON）；- 表示標準輸入"


@dataclass(frozen=True)
class Option:
    name: str  # the parameter of run()
    flags: tuple[str, ...]
    help: str
    many: bool = False  # may be given again (a list)


FORMAT = Option("fmt", ("--format", "-f"),
                "輸出格式；不寫時依 -o 的副檔名（.json .md .html .pdf），否則 text")
PROFILE = Option("profile", ("--profile",), profile_help("紀錄"))
SET = Option("set_", ("--set",), set_help(), many=True)
OUTPUT = Option("output", ("--output", "-o"), "寫入此檔而不印出（html、pdf 報告可列印簽名）")
OPTIONS = (FORMAT, PROFILE, SET, OUTPUT)


def plain(args: list[str]) -> dict[str, object] | None:
    """The arguments of run() for a plain ``judge`` command line, or None for typer."""
    by_flag = {flag: option for option in OPTIONS for flag in option.flags}
    given: dict[str, object] = {}
    sets: list[str] = []
    log: str | None = None
    at = 0
    while at < len(args):
        arg = args[at]
        if arg == "-" or not arg.startswith("-"):
            if log is not None or not arg:
                return None
            log, at = arg, at + 1
            continue
        flag, eq, value = arg.partition("=")
        if not (eq and flag.startswith("--")):
            if at + 1 >= len(args):
                return None
            flag, value = arg, args[at + 1]
            at += 1
        at += 1
        option = by_flag.get(flag)
        if option is None or value.startswith("-"):
            return None
        if option.many:
            sets.append(value)
        elif option.name in given:
            return None
        else:
            given[option.name] = value
    if log is None:
        return None
    fmt = given.get("fmt")
    if fmt is not None and fmt not in Format.__members__.values():
        return None
    output = given.get("output")
    return {"log": Path(log), "fmt": None if fmt is None else Format(fmt),
            "profile": given.get("profile"), "set_": sets or None,
            "output": None if output is None else Path(str(output))}


def quick(args: list[str]) -> bool:
    """Judge as ``adjudicator judge ARGS`` would, if ARGS are plain; False (nothing done)
    when typer must read them."""
    given = plain(args)
    if given is None:
        return False
    try:
        run(**given)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        print(ABORTED_TEXT, file=sys.stderr)
        raise SystemExit(1) from None
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        # As click does: the reader went away; say nothing more on the closed pipe.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        raise SystemExit(1) from None
    return True


# ------------------------------------------------------------------ what it does


def run(log: Path, fmt: Format | None = None, profile: str | None = None,
        set_: list[str] | None = None, output: Path | None = None) -> None:
    from adjudicator.language.errors import LogError
    from adjudicator.language.json_form import FormError, read_any
    from adjudicator.language.reader import decode
    from adjudicator.ruling.judge import judge as judge_incident

    known_profile(profile)
    data = read_input(log, "紀錄檔")
    try:
        incident = read_any(decode(data))
        ruling = judge_incident(incident, profile=profile, settings=settings(set_))
    except (LogError, FormError) as err:
        fail(f"{log}：{err}")
    _emit(ruling, incident, format_for(fmt, output), output)


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
