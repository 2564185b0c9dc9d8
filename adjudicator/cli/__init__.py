"""The command line: ``adjudicator judge | lint | batch | check | score | diff | coverage |
points | match | serve | users | tokens | archive``.

Each command lives in its own module and registers itself on the typer app
(cli/commands.py), which is built on first use: a plain ``adjudicator judge LOG`` runs
without typer (cli/judging.py), and a cold start is most of what a short log costs.
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    app: typer.Typer


def __getattr__(name: str) -> Any:
    if name == "app":
        from adjudicator.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["judge"]:
        # One judgement, then the process ends: the cyclic collector, run again and again
        # as the imports and the judgement allocate, finds next to nothing to free (the
        # same peak memory, 225 MB, for a 10,000-act log) and costs a tenth of a cold
        # judgement (a fifth of a 10,000-act one).
        gc.disable()
    # The modules a command imports make their dataclasses of code compiled by an earlier
    # process (dataclass_code.py): compiling it again is a fifth of a cold judgement.
    from adjudicator.dataclass_code import kept

    if args[:1] == ["judge"]:
        with kept("judge"):
            from adjudicator.cli.judging import quick

            judged = quick(args[1:])
        if judged:
            # What is alive now lives to the end: frozen, the interpreter's collections
            # at exit pass over it (some 40 M instructions).
            gc.freeze()
            return
        gc.enable()  # typer's commands may run long (serve, batch): collect there
    # typer's own dataclasses (judge --help too) in an entry of their own: the one-log
    # judge's entry holds only what it needs.
    with kept("commands"):
        from adjudicator.cli import chinese
        from adjudicator.cli.commands import app

        chinese.install()
        app()
