"""The typer app: every command registered (run by ``adjudicator.cli.main``)."""

from __future__ import annotations

import typer

from adjudicator.cli import accounts as accounts_cli
from adjudicator.cli import batch as batch_cli
from adjudicator.cli import check as check_cli
from adjudicator.cli import coverage as coverage_cli
from adjudicator.cli import diff as diff_cli
from adjudicator.cli import judge as judge_cli
from adjudicator.cli import lint as lint_cli
from adjudicator.cli import match as match_cli
from adjudicator.cli import points as points_cli
from adjudicator.cli import rules as rules_cli
from adjudicator.cli import score as score_cli
from adjudicator.cli import serve as serve_cli

app = typer.Typer(
    help="台灣十六張麻將 裁判：讀事故紀錄，依條款裁決。",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (judge_cli, lint_cli, batch_cli, check_cli, score_cli, diff_cli, coverage_cli,
               points_cli, rules_cli, match_cli, serve_cli, accounts_cli):
    module.register(app)
