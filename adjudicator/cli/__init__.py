"""The command line: ``adjudicator judge | lint | batch | check | score | diff | coverage |
points | rules | match | serve | users | tokens | archive``.

Each command lives in its own module and registers itself on the typer app
(cli/commands.py); a command imports what it does when it runs, so that the others' needs
(the desk's web stack, Dask, the reports) are not loaded for it.
"""

from __future__ import annotations


def main() -> None:
    from adjudicator.cli import chinese
    from adjudicator.cli.commands import app

    chinese.install()
    app()
