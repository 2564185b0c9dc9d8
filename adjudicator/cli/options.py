"""What several commands share: refusing with exit 2, the run's profile and --set options
(as typer options; their words and checks are cli/common.py's)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adjudicator.cli.common import (
    RULES_HELP,
    SETTING_EXAMPLE,
    fail,
    known_profile,
    profile_help,
    run_rules,
    set_help,
    settings,
)

__all__ = ["SETTING_EXAMPLE", "Output", "Profile", "Rules", "Settings", "fail",
           "known_profile", "profile_option", "run_rules", "set_option", "settings"]


def profile_option(overrides: str) -> object:
    return typer.Option(help=profile_help(overrides))


def set_option(example: str = SETTING_EXAMPLE) -> object:
    return typer.Option("--set", help=set_help(example))


Profile = Annotated[str | None, profile_option("紀錄")]
Settings = Annotated[list[str] | None, set_option()]
Rules = Annotated[Path | None, typer.Option("--rules", metavar="FILE", help=RULES_HELP)]
Output = Annotated[Path | None, typer.Option("--output", "-o", help="寫入此檔而不印出")]
