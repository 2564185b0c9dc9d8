"""``adjudicator judge``: judge one incident log and print the ruling (the typer command;
its options and what it does are cli/judging.py's, which also runs a plain command line
without typer)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adjudicator.cli.judging import (
    FORMAT,
    HELP,
    LOG_HELP,
    OUTPUT,
    PROFILE,
    RULES,
    SET,
    SUFFIX_FORMATS,
    Format,
    format_for,
    run,
    why_unreadable,
)

__all__ = ["SUFFIX_FORMATS", "Format", "format_for", "judge", "register", "why_unreadable"]


def judge(
    log: Annotated[Path, typer.Argument(help=LOG_HELP)],
    fmt: Annotated[Format | None, typer.Option(
        *FORMAT.flags, help=FORMAT.help, show_default=False)] = None,
    profile: Annotated[str | None, typer.Option(*PROFILE.flags, help=PROFILE.help)] = None,
    set_: Annotated[list[str] | None, typer.Option(*SET.flags, help=SET.help)] = None,
    output: Annotated[Path | None, typer.Option(*OUTPUT.flags, help=OUTPUT.help)] = None,
    rules: Annotated[Path | None, typer.Option(*RULES.flags, help=RULES.help,
                                               metavar="FILE")] = None,
) -> None:
    run(log, fmt, profile, set_, output, rules)


def register(app: typer.Typer) -> None:
    app.command(help=HELP)(judge)
