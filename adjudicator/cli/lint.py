"""``adjudicator lint``: what a careful reader of a log would query, before judging it."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


class Format(StrEnum):
    text = "text"
    json = "json"


def lint(
    log: Annotated[Path, typer.Argument(help="事故紀錄檔（UTF-8）；- 表示標準輸入")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="輸出格式：text 或 json")
                   ] = Format.text,
) -> None:
    """檢查紀錄：列出手牌張數不合、漏記摸牌、未載起點、序號混用、不合輪次等疑點。

    結束碼：0 無疑點，1 有疑點，2 紀錄無法讀取。
    """
    from adjudicator.analysis.warnings import log_warnings
    from adjudicator.language.errors import LogError
    from adjudicator.language.reader import decode, read

    try:
        data = sys.stdin.buffer.read() if str(log) == "-" else log.read_bytes()
    except OSError as err:
        print(f"讀不到紀錄檔 {log}：{err.strerror or err}", file=sys.stderr)
        raise typer.Exit(2) from None
    try:
        found = log_warnings(read(decode(data)))
    except LogError as err:
        print(f"{log}：{err}", file=sys.stderr)
        raise typer.Exit(2) from None
    if fmt is Format.json:
        rows = [{"line": w.line, "message": w.message} for w in found]
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
    else:
        for w in found:
            print(f"{log}:{w.line}: {w.message}")
        if not found:
            print(f"{log}：沒有疑點")
    raise typer.Exit(1 if found else 0)


def register(app: typer.Typer) -> None:
    app.command()(lint)
