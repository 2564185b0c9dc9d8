"""``adjudicator judge``: judge one incident log and print the ruling."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


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




def register(app: typer.Typer) -> None:
    app.command()(judge)
