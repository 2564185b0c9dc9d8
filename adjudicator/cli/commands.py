"""The typer app (run by ``adjudicator.cli.main``): each command's module, registered on it.

A command line that names a command gets an app holding that one command, so that a run
imports and builds only what it runs; ``--help``, a missing or an unknown command get every
command (the command list, click's "did you mean").
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

import typer

# Each command name and the module (adjudicator.cli.NAME) whose register() adds it.
MODULES = {"judge": "judge", "lint": "lint", "batch": "batch", "check": "check",
           "score": "score", "diff": "diff", "coverage": "coverage", "points": "points",
           "rules": "rules", "match": "match", "serve": "serve", "users": "accounts",
           "tokens": "accounts", "archive": "accounts"}


def _group() -> None:
    """A callback keeps the app a group of commands when it holds only one."""


def build(args: Sequence[str] = ()) -> typer.Typer:
    """The app for the command line ``args``: the one command it names, else all."""
    app = typer.Typer(
        help="台灣十六張麻將 裁判：讀事故紀錄，依條款裁決。",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_group)
    named = MODULES.get(args[0]) if args else None
    for module in dict.fromkeys([named] if named else MODULES.values()):
        import_module(f"adjudicator.cli.{module}").register(app)
    return app


def __getattr__(name: str) -> typer.Typer:
    # ``commands.app``, every command (the tests' CliRunner), is built when first asked for.
    if name != "app":
        raise AttributeError(name)
    globals()["app"] = made = build()
    return made
