"""What several commands share: refusing with exit 2, the run's profile and --set values
(checked), and those options as typer options."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House

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


RULES_HELP = "依一份家規檔裁決（名稱、版本、依據的規則與所改之值；見 adjudicator rules init）"


def house_rules(path: Path | None, option: str = "--rules") -> House | None:
    """The house rules of ``path``, read and checked (a bad file ends the command, exit 2)."""
    if path is None:
        return None
    from adjudicator.rules.rulesets import RulesError, load_house

    try:
        return load_house(path)
    except RulesError as err:
        fail(f"{option}：{err}")


def run_rules(profile: str | None, path: Path | None) -> House | None:
    """--profile and --rules of one command: the house rules, if any (not both)."""
    if profile is not None and path is not None:
        fail("--profile 與 --rules 只能擇一：家規檔已寫明它依據的規則")
    return house_rules(path)


def known_profile(profile: str | None) -> None:
    """Refuse a --profile no file in asp/profiles/ defines."""
    from adjudicator.rules.files import not_judged
    from adjudicator.rules.rulesets import profile_names

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
Rules = Annotated[Path | None, typer.Option("--rules", metavar="FILE", help=RULES_HELP)]
Output = Annotated[Path | None, typer.Option("--output", "-o", help="寫入此檔而不印出")]
