"""``adjudicator match``: judge every hand of a match file and print the match report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from adjudicator.cli.judge import Format
from adjudicator.cli.options import (
    Output,
    Rules,
    fail,
    known_profile,
    profile_option,
    run_rules,
    set_option,
    settings,
)


def match(
    file: Annotated[Path, typer.Argument(help="將的紀錄檔（.match，UTF-8）；- 表示標準輸入")],
    fmt: Annotated[Format, typer.Option(
        "--format", "-f", help="輸出格式（pdf：A4，末頁為裁判與玩家簽名頁；需 -o）")] = Format.text,
    csv_: Annotated[bool, typer.Option("--csv", help="只印帳目（CSV：每盤收支與累計）")] = False,
    profile: Annotated[str | None, profile_option("將頭")] = None,
    set_: Annotated[list[str] | None, set_option("解釋.包賠下莊=荒局")] = None,
    output: Output = None,
    rules: Rules = None,
) -> None:
    """依序裁決一將的每一盤：接續莊家、連莊、圈風與座位，印出每盤裁決與每人累計帳目。

    結束狀態：0 全部裁決；1 某盤自相矛盾或下盤未定而停止接續；2 檔案讀不了。
    """
    from adjudicator.cli.judge import read_input
    from adjudicator.language.errors import LogError
    from adjudicator.language.reader import decode
    from adjudicator.match import report
    from adjudicator.match.format import read_match
    from adjudicator.match.run import judge_match

    known_profile(profile)
    house = run_rules(profile, rules)
    run_settings = settings(set_)
    data = read_input(file, "將的紀錄檔")
    try:
        parsed = read_match(decode(data))
    except LogError as err:
        fail(f"{file}：{err}")
    result = judge_match(parsed, profile=profile, settings=run_settings, house=house)
    if csv_:
        document = report.ledger_csv(result)
    elif fmt is Format.json:
        document = report.to_json(result)
    elif fmt is Format.md:
        document = report.markdown(result)
    elif fmt in (Format.html, Format.pdf):
        document = report.to_html(result)
    else:
        document = report.text(result)
    if fmt is Format.pdf and not csv_:
        from adjudicator.cli.judge import emit_pdf

        emit_pdf(document, output)
    elif output is None:
        sys.stdout.write(document)
    else:
        try:
            output.write_text(document, encoding="utf-8")
        except OSError as err:
            fail(f"無法寫入 {output}：{err}")
    if result.stop is not None:
        print(f"{file}：{result.stop.message}", file=sys.stderr)
        raise typer.Exit(2 if result.stop.kind == "parse" else 1)


def register(app: typer.Typer) -> None:
    app.command()(match)
