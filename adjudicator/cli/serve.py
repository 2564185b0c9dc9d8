"""``adjudicator serve``: the referee's desk and the JSON API, in one process."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from adjudicator.desk import PDF_QUEUE, PER_MINUTE, RECYCLE

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House


def serve(
    host: Annotated[str, typer.Option(help="聽取的位址")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="埠號")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="裁決檔案的資料庫：預設為本資料夾的 SQLite 檔 adjudicator-archive.db；"
             "或 sqlite:///路徑、postgresql://使用者:密碼@主機/資料庫")] = None,
    workers: Annotated[int | None, typer.Option(
        help="同時裁決的工作行程數（預設：CPU 核心數）")] = None,
    timeout: Annotated[float, typer.Option(help="每次裁決的時間上限（秒）")] = 10.0,
    rate_limit: Annotated[float, typer.Option(
        min=0, help="每位用戶（IP）每分鐘至多送出幾次（POST 與 PDF；0：不限）；本機位址"
                    "（127.0.0.1，如本機壓力測試）不限，除非加 --rate-limit-loopback"),
    ] = PER_MINUTE,
    rate_limit_loopback: Annotated[bool, typer.Option(
        help="本機位址也受 --rate-limit 限制（反向代理未傳 X-Forwarded-For 時）")] = False,
    pdf_queue: Annotated[int, typer.Option(
        min=1, help="同時等候或列印的 PDF 請求上限（再多則回 503）")] = PDF_QUEUE,
    recycle: Annotated[int, typer.Option(
        min=0, help="工作行程裁決滿這麼多份紀錄後換一個新的，記憶體才不隨執行時間增長"
                    "（0：不換）")] = RECYCLE,
    rules_dir: Annotated[Path | None, typer.Option(
        "--rules-dir", metavar="DIR",
        help="提供此資料夾內的家規檔（*.rules）：裁判桌與 API 以檔名（不含 .rules）選用，"
             "紀錄的 規則: 也可寫這個名稱；啟動時逐一檢查，有誤即不啟動")] = None,
    open_desk: Annotated[bool, typer.Option(
        "--open", help="在本機以外的位址也不設帳號：網路上任何人都能讀寫全部裁決")] = False,
    proxy: Annotated[list[str], typer.Option(
        help="前面的 HTTPS 反向代理的位址（可多次）：信任它的 X-Forwarded-For/Proto，"
             "cookie 加上 Secure，並送 HSTS")] = [],  # noqa: B006 (typer copies it)
    origin: Annotated[list[str], typer.Option(
        help="瀏覽器使用的網址，如 https://desk.club.tw（反向代理未轉送 Host 時；可多次）")
    ] = [],  # noqa: B006
    tz: Annotated[str, typer.Option(
        help="裁判桌所在的時區（IANA 名稱）：新紀錄的日期與裁決時間依此顯示")] = "Asia/Taipei",
) -> None:
    """開啟裁判桌網頁與 JSON API（http://HOST:PORT/，API 說明在 /docs）。

    只聽本機（預設）且沒有帳號時，裁判桌如單機般開放；聽取其他位址時須先以
    adjudicator users add 建立帳號（或以 --open 明示開放）。見 docs/desk-network.md。"""
    import uvicorn

    from adjudicator.desk import accounts
    from adjudicator.desk.app import create_app
    from adjudicator.desk.archive import Archive
    from adjudicator.desk.security import is_loopback
    from adjudicator.desk.zone import zone_named

    if not 0 < port < 65536:
        print(f"--port：{port} 不是可用的埠號（1–65535）")
        raise typer.Exit(2)
    try:
        zone_named(tz)
    except ValueError as err:
        print(f"--tz：{err}")
        raise typer.Exit(2) from None
    houses = _houses(rules_dir)
    # A proxy (or another address for browsers) puts a loopback desk on the network too.
    exposed = not is_loopback(host) or bool(proxy) or bool(origin)
    try:
        signed_up = accounts.any_credentials(Archive(db).engine)
    except Exception as err:  # an unreachable database, a bad URL, a missing driver
        print(f"無法開啟裁決檔案 {db or '（預設 SQLite 檔）'}：{err}")
        raise typer.Exit(2) from None
    if exposed and not signed_up and not open_desk:
        where = f" --db {db}" if db else ""
        print(f"拒絕在 {host} 上開啟沒有帳號的裁判桌：網路上任何人都能讀寫全部裁決。\n"
              f"先建立管理者帳號：adjudicator users add 名稱 --role admin{where}\n"
              "（裁判用 --role referee，只讀用 --role viewer；平台用 adjudicator tokens "
              "create）\n或以 --open 明示不設帳號。見 docs/desk-network.md。")
        raise typer.Exit(2)
    if exposed and not signed_up and open_desk:
        print(f"警告：--open：{host} 上沒有帳號，網路上任何人都能讀寫、列出全部裁決", flush=True)
    try:
        app = create_app(db, workers, timeout, recycle, houses,
                         open_allowed=not exposed or open_desk,
                         loopback_only=not exposed, https=bool(proxy),
                         origins=tuple(origin), warm_first=False,
                         pdf_queue=pdf_queue, rate_limit=rate_limit,
                         limit_loopback=rate_limit_loopback, tz=tz)
    except Exception as err:  # an unreachable database, a bad URL, a missing driver
        print(f"無法開啟裁決檔案 {db or '（預設 SQLite 檔）'}：{err}")
        raise typer.Exit(2) from None
    print(f"裁判桌：http://{host}:{port}/　API 說明：http://{host}:{port}/docs", flush=True)
    # One server process: its judging workers are the pool's (more uvicorn workers would
    # each start a pool, more processes than cores, and split the batches).  uvloop and
    # httptools cost a request less of the server's CPU than asyncio's loop and h11; the
    # access log is off (a line a request, and at log level warning it is not shown).
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False,
                loop="uvloop", http="httptools",
                forwarded_allow_ips=",".join(proxy) if proxy else None)


def _houses(folder: Path | None) -> dict[str, House]:
    """The operator's house rules, every file checked (a bad one: exit 2, saying where)."""
    from adjudicator.cli.options import fail
    from adjudicator.rules.rulesets import RulesError, load_folder, profile_names

    if folder is None:
        return {}
    if not folder.is_dir():
        fail(f"--rules-dir：{folder} 不是資料夾")
    try:
        houses = load_folder(folder)
    except RulesError as err:
        fail(f"--rules-dir：{err}")
    if clash := sorted(set(houses) & set(profile_names())):
        fail(f"--rules-dir：家規檔名與內建規則同名：{'、'.join(clash)}（請改檔名）")
    return houses


def register(app: typer.Typer) -> None:
    app.command()(serve)
