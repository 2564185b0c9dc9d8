"""The ASGI app: the desk's pages, its static files and the JSON API, in one process.

``create_app`` is what ``adjudicator serve`` runs under uvicorn; tests build it in-process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from adjudicator import __version__
from adjudicator.desk import RECYCLE, api, match_pages, pages, service
from adjudicator.desk.archive import Archive
from adjudicator.desk.limits import MAX_BODY, Refused, too_large
from adjudicator.desk.pool import Broken, Busy, Judges
from adjudicator.desk.zone import DEFAULT_TZ, zone_named

DESCRIPTION = """台灣十六張麻將 裁判的 JSON API。

紀錄以 `text/plain`（UTF-8）送出，或以 JSON `{"text": "…", "profile": "…", "settings": {…}}`。
錯誤一律為 JSON：`{"error": {"code", "message", "line", "column", …}}`。
限制：內容至多 256 KB、至多 10,000 個動作、JSON 至多 16 層、每次裁決有時間上限（逾時 504）。
"""


class BodyLimit:
    """Refuses a declared body over ``MAX_BODY`` before any route reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for key, value in scope["headers"]:
                if key == b"content-length" and (not value.isdigit() or int(value) > MAX_BODY):
                    refused = too_large()
                    answer = (JSONResponse(refused.payload, refused.status)
                              if scope["path"].startswith("/api/")
                              else pages.error_page(refused.status, refused.payload))
                    await answer(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path.endswith(".json")


def create_app(db: str | None = None, workers: int | None = None,
               timeout: float = 10.0, recycle: int = RECYCLE, tz: str = DEFAULT_TZ) -> FastAPI:
    archive = Archive(db)
    zone = zone_named(tz)  # before the pool starts: a wrong name fails at once

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.judges = Judges(workers, timeout, recycle=recycle)
        await app.state.judges.start()
        try:
            yield
        finally:
            app.state.judges.close()

    app = FastAPIOffline(title="adjudicator 裁判桌", version=__version__,
                         description=DESCRIPTION, lifespan=lifespan, redoc_url=None)
    app.state.archive = archive
    app.state.tz = zone
    app.add_middleware(BodyLimit)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(match_pages.router)
    app.mount("/static", StaticFiles(directory=str(files("adjudicator.desk") / "static")),
              name="static")

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        if _wants_json(request):
            return JSONResponse(exc.payload, exc.status)
        return pages.error_page(exc.status, exc.payload)

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> Response:
        return JSONResponse(service.error(
            f"裁決逾時（上限 {exc.args[0]:g} 秒），請稍後再試", "timeout"), 504)

    @app.exception_handler(Broken)
    async def broken(request: Request, exc: Broken) -> Response:
        return JSONResponse(service.error("裁決中的工作行程意外結束，已重新啟動；請再送一次",
                                          "worker_died"), 503)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        payload = service.error(str(exc.detail), "http")
        if _wants_json(request):
            return JSONResponse(payload, exc.status_code, headers=exc.headers)
        return pages.error_page(exc.status_code, payload)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid"}
        where = ".".join(str(p) for p in first["loc"])
        return JSONResponse(service.error(f"{where}：{first['msg']}", "invalid"), 422)

    return app
