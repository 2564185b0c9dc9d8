"""``adjudicator serve``: the referee's desk and the JSON API, in one process."""

from __future__ import annotations

from typing import Annotated

import typer

from adjudicator.desk import RECYCLE


def serve(
    host: Annotated[str, typer.Option(help="聽取的位址")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="埠號")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="裁決檔案的資料庫：預設為本資料夾的 SQLite 檔 adjudicator-archive.db；"
             "或 sqlite:///路徑、postgresql://使用者:密碼@主機/資料庫")] = None,
    workers: Annotated[int | None, typer.Option(
        help="同時裁決的工作行程數（預設：CPU 核心數）")] = None,
    timeout: Annotated[float, typer.Option(help="每次裁決的時間上限（秒）")] = 10.0,
    recycle: Annotated[int, typer.Option(
        min=0, help="工作行程裁決滿這麼多份紀錄後換一個新的，記憶體才不隨執行時間增長"
                    "（0：不換）")] = RECYCLE,
    tz: Annotated[str, typer.Option(
        help="裁判桌所在的時區（IANA 名稱）：新紀錄的日期與裁決時間依此顯示")] = "Asia/Taipei",
) -> None:
    """開啟裁判桌網頁與 JSON API（http://HOST:PORT/，API 說明在 /docs）。"""
    import uvicorn

    from adjudicator.desk.app import create_app

    if not 0 < port < 65536:
        print(f"--port：{port} 不是可用的埠號（1–65535）")
        raise typer.Exit(2)
    from adjudicator.desk.zone import zone_named

    try:
        zone_named(tz)
    except ValueError as err:
        print(f"--tz：{err}")
        raise typer.Exit(2) from None
    try:
        app = create_app(db, workers, timeout, recycle, tz)
    except Exception as err:  # an unreachable database, a bad URL, a missing driver
        print(f"無法開啟裁決檔案 {db or '（預設 SQLite 檔）'}：{err}")
        raise typer.Exit(2) from None
    print(f"裁判桌：http://{host}:{port}/　API 說明：http://{host}:{port}/docs", flush=True)
    # One server process: its judging workers are the pool's (more uvicorn workers would
    # each start a pool, more processes than cores, and split the batches).  uvloop and
    # httptools cost a request less of the server's CPU than asyncio's loop and h11; the
    # access log is off (a line a request, and at log level warning it is not shown).
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False,
                loop="uvloop", http="httptools")


def register(app: typer.Typer) -> None:
    app.command()(serve)
