"""``adjudicator lint``: what a careful reader of a log would query, before judging it.

It judges the log as ``judge`` does and prints the ruling's ``warnings``: the same list
the JSON ruling and the desk's check carry (some, like 「未載起點」, exist only where the
ruling has a question they answer).
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from adjudicator.cli.options import Profile, Rules, Settings


class Format(StrEnum):
    text = "text"
    json = "json"


def lint(
    log: Annotated[Path, typer.Argument(
        help="事故紀錄檔（UTF-8，文字或 JSON 形式）；- 表示標準輸入")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="輸出格式：text 或 json")
                   ] = Format.text,
    profile: Profile = None,
    set_: Settings = None,
    rules: Rules = None,
) -> None:
    """檢查紀錄：列出手牌張數與時機不合、漏記摸牌、序號混用、不合輪次，以及裁決因紀錄未載起點而待查明等疑點。

    與裁決 JSON 的 warnings 為同一份清單。結束碼：0 無疑點，1 有疑點，2 紀錄無法讀取。
    """
    from adjudicator.cli.judge import read_input
    from adjudicator.cli.options import fail, known_profile, run_rules, settings
    from adjudicator.language.errors import LogError
    from adjudicator.language.json_form import FormError, read_any
    from adjudicator.language.reader import decode
    from adjudicator.ruling.judge import judge

    known_profile(profile)
    house = run_rules(profile, rules)
    data = read_input(log, "紀錄檔")
    try:
        found = judge(read_any(decode(data)), profile=profile, settings=settings(set_),
                      house=house).warnings
    except (LogError, FormError) as err:
        fail(f"{log}：{err}")
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
