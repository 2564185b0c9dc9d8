"""The command line: ``adjudicator judge | check | score | diff | coverage | points``.

Each command lives in its own module and registers itself here.
"""

from __future__ import annotations

import typer

from . import check_cli, coverage_cli, diff_cli, judge_cli, points_cli, score_cli

app = typer.Typer(
    help="台灣十六張麻將 裁判：讀事故紀錄，依條款裁決。",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (judge_cli, check_cli, score_cli, diff_cli, coverage_cli, points_cli):
    module.register(app)


def main() -> None:
    app()
