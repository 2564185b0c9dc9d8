"""The command line: ``adjudicator judge | lint | batch | check | score | diff | coverage |
points | rules | match | serve | users | tokens | archive``.

Each command lives in its own module and registers itself on the typer app
(cli/commands.py), which holds only the command a command line names; a command imports
what it does when it runs, so that the others' needs (the desk's web stack, Dask, the
reports) are not loaded for it.
"""

from __future__ import annotations


def main() -> None:
    import sys

    from adjudicator.cli import chinese
    from adjudicator.cli.commands import build

    chinese.install()
    build(sys.argv[1:])()
