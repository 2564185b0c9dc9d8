"""``adjudicator check``: judge case files and check their 期望: blocks, like a test runner."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def check(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="案例檔或資料夾（預設 cases/）")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="逐案列出")] = False,
) -> None:
    """檢查案例：裁決每個 *.case，逐條核對其 期望:，像測試工具一樣報告。"""
    from .cases import find_cases, run_case

    files = list(find_cases(paths or [Path("cases")]))
    passed = failed = 0
    for path in files:
        result = run_case(path)
        if result.passed:
            passed += 1
            if verbose:
                print(f"PASS {path}")
            continue
        failed += 1
        print(f"FAIL {path}")
        for line in ([result.error] if result.error else result.failures):
            print(f"  {line}")
    print(f"{passed} passed, {failed} failed")
    raise typer.Exit(1 if failed else 0)




def register(app: typer.Typer) -> None:
    app.command()(check)
