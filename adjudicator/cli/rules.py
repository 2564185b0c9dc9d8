"""``adjudicator rules init | show``: write a club's house-rules file, or print one against
the profile it extends (docs/house-rules.md)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from adjudicator.cli.options import fail, house_rules

app = typer.Typer(help="家規：寫一份家規檔（init），或把家規檔與其依據的規則對照列出（show）。",
                  no_args_is_help=True)


class Format(StrEnum):
    text = "text"
    json = "json"


@app.command()
def init(
    output: Annotated[Path | None, typer.Argument(
        help="寫入此檔（如 龍山.rules；不寫則印出）")] = None,
    base: Annotated[str, typer.Option(
        "--base", metavar="PROFILE", help="家規所依據的規則，如 tw16、tw16-alt、gd")] = "tw16",
    force: Annotated[bool, typer.Option("--force", help="檔案已存在時覆寫")] = False,
) -> None:
    """寫一份家規檔：每個解釋點與參數都以註解列出其問題、讀法與依據規則的值。

    改哪一項，就去掉該行開頭的 # 並填上值；填好名稱、版本後以 rules show 核對。
    """
    from adjudicator.rules.rulesets import profile_names, template

    if base not in profile_names():
        fail(f"--base：沒有「{base}」這個規則；可用的有 {'、'.join(profile_names())}")
    text = template(base)
    if output is None:
        sys.stdout.write(text)
        return
    if output.exists() and not force:
        fail(f"{output} 已存在；要覆寫請加 --force")
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"無法寫入 {output}：{err}")
    print(f"已寫入 {output}：填好名稱、版本，改要改的值，再以 adjudicator rules show {output} 核對",
          file=sys.stderr)


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="家規檔")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="輸出格式：text 表格或 json")
                   ] = Format.text,
    all_: Annotated[bool, typer.Option(
        "--all", help="列出每個解釋點與參數（預設只列與依據規則不同者）")] = False,
) -> None:
    """把家規檔與其依據的規則對照列出：名稱、版本、依據、雜湊，以及每個改動之值。

    結束碼：0 家規可用；2 家規檔有誤（指出行號、應寫什麼與最接近的鍵或讀法）。
    """
    from adjudicator.rules.rulesets import comparison, rule_set

    house = house_rules(file, "rules show")
    assert house is not None
    rules = rule_set(house.profile, house)
    rows = comparison(house)
    if fmt is Format.json:
        print(json.dumps({"rules": rules.to_json(), "values": rows}, ensure_ascii=False,
                         indent=2))
        return
    from rich.table import Table

    from adjudicator.cli.diff import wide_console

    console = wide_console()
    version = f" {house.version}" if house.version else ""
    console.print(f"{house.name}{version}　依據 {house.extends}（{house.family} 一族）"
                  f"　雜湊 {rules.hash[:19]}")
    table = Table(show_lines=True, expand=True)
    table.add_column("ID", no_wrap=True)
    table.add_column("問題", ratio=2, overflow="fold")
    table.add_column(house.profile, ratio=1, overflow="fold")
    table.add_column("家規", ratio=1, overflow="fold")
    shown = [r for r in rows if all_ or r["differs"]]
    for row in shown:
        mark = " ＊" if row["differs"] else ""
        table.add_row(row["id"], row["question"], row["base_words"],
                      row["house_words"] + mark)
    console.print(table)
    changed = sum(r["differs"] for r in rows)
    console.print(f"{changed} 處與 {house.profile} 不同" + ("（＊）" if all_ and changed else ""))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="rules")
