"""The command line: ``adjudicator judge | check | score``."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from . import score_cli

app = typer.Typer(
    help="台灣十六張麻將 裁判：讀事故紀錄，依條款裁決。",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Format(StrEnum):
    text = "text"
    json = "json"


def _fail(message: str, code: int = 2) -> None:
    print(message, file=sys.stderr)
    raise typer.Exit(code)


def _settings(pairs: list[str]) -> dict[str, str]:
    from .interpretations import POINTS

    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            _fail(f"--set 應寫成 ID=VALUE，例如 解釋.八張窗=all，不是「{pair}」")
        if key.startswith("解釋.") and (key not in POINTS or value not in POINTS[key].readings):
            known = POINTS.get(key)
            choices = "、".join(known.readings) if known else "、".join(POINTS)
            _fail(f"--set {key}={value}：可用的是 {choices}")
        out[key] = value
    return out


@app.command()
def judge(
    log: Annotated[Path, typer.Argument(help="事故紀錄檔（UTF-8）；- 表示標準輸入")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="輸出格式")] = Format.text,
    profile: Annotated[str | None, typer.Option(
        help="規則（覆蓋紀錄的 規則:），如 tw16-alt")] = None,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="改一個解釋點或參數，如 解釋.八張窗=all（可重複）")] = None,
) -> None:
    """裁決一份事故紀錄，印出裁決（違規認定、和牌、賠付、收支、下盤）。"""
    from .errors import LogError
    from .judge import judge_text
    from .ruling import to_json

    try:
        text = sys.stdin.read() if str(log) == "-" else log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        _fail(f"讀不到紀錄檔 {log}：{err}")
    try:
        ruling = judge_text(text, profile=profile, settings=_settings(set_ or []))
    except LogError as err:
        _fail(f"{log}：{err}")
    if fmt is Format.json:
        print(to_json(ruling))
    else:
        from .render_text import render

        render(ruling)


@app.command()
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


score_cli.register(app)


def main() -> None:
    app()
