"""What several commands share: refusing with exit 2, the run's profile and --set values
(checked), and those options as typer options."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

SETTING_EXAMPLE = "解釋.八張窗=all"


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` to stderr and end the command (exit 2: the input is at fault).

    SystemExit, not typer.Exit: it ends a typer command the same way (click lets it
    through) and also ends code a command calls outside typer's reach."""
    print(message, file=sys.stderr)
    raise SystemExit(code)


def profile_help(overrides: str) -> str:
    return f"規則（覆蓋{overrides}的 規則:），如 tw16-alt"


def set_help(example: str = SETTING_EXAMPLE) -> str:
    return f"改一個解釋點或參數，如 {example}（可重複）"


def known_profile(profile: str | None) -> None:
    """Refuse a --profile no file in asp/profiles/ defines."""
    from adjudicator.rules.files import not_judged, profile_names

    if profile is not None and profile not in profile_names():
        fail(f"--profile：{not_judged(profile) or f'沒有「{profile}」這個規則'}；"
             f"可用的有 {'、'.join(profile_names())}")


def settings(pairs: list[str] | None) -> dict[str, str]:
    """The --set pairs, checked (an unknown point or value ends the command)."""
    from adjudicator.ruling.interpretations import SettingError, parse_settings

    try:
        return parse_settings(pairs or [])
    except SettingError as err:
        fail(str(err))


def profile_option(overrides: str) -> object:
    return typer.Option(help=profile_help(overrides))


def set_option(example: str = SETTING_EXAMPLE) -> object:
    return typer.Option("--set", help=set_help(example))


Profile = Annotated[str | None, profile_option("紀錄")]
Settings = Annotated[list[str] | None, set_option()]
Output = Annotated[Path | None, typer.Option("--output", "-o", help="寫入此檔而不印出")]
