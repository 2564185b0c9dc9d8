"""The ASGI app: the desk's pages, its static files and the JSON API, in one process.

``create_app`` is what ``adjudicator serve`` runs under uvicorn; tests build it in-process.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from adjudicator import __version__
from adjudicator.desk import (
    PDF_QUEUE,
    RECYCLE,
    accounts,
    amend,
    api,
    docs,
    health,
    login,
    match_pages,
    pages,
    security,
    service,
)
from adjudicator.desk.archive import Archive
from adjudicator.desk.limits import MAX_BODY, Refused, too_large
from adjudicator.desk.pool import Broken, Busy, Crowded, Judges
from adjudicator.desk.printer import Printer
from adjudicator.desk.ratelimit import RateLimit
from adjudicator.desk.zone import DEFAULT_TZ, zone_named

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House

DESCRIPTION = """台灣十六張麻將 裁判的 JSON API。

紀錄以 `text/plain`（UTF-8）送出，或以 JSON `{"text": "…", "profile": "…", "settings": {…}}`。
錯誤一律為 JSON：`{"error": {"code", "message", "line", "column", …}}`。
限制：內容至多 256 KB、至多 10,000 個動作、JSON 至多 16 層、每次裁決有時間上限（逾時 504，
該次裁決即中止）；每位用戶每分鐘的送出次數有上限（逾量 429，見 Retry-After）；PDF 依序列印，
佇列滿時 503。`GET /api/health` 回報伺服器狀態。
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


def _refusal(scope: Scope, status: int, payload: dict[str, Any]) -> Response:
    """A refusal by the security layers: JSON for the API, the error page for a person."""
    path = scope["path"]
    if path.startswith("/api/") or path.endswith(".json"):
        return JSONResponse(payload, status)
    return pages.error_page(status, payload)


def _keys(archive: Archive) -> tuple[str, str]:
    """The session cookie's key and the CSRF token's, both from the archive's one secret."""
    secret = accounts.signing_key(archive.engine).encode()
    return tuple(hmac.new(secret, use, hashlib.sha256).hexdigest()  # type: ignore[return-value]
                 for use in (b"session", b"csrf"))


def create_app(db: str | None = None, workers: int | None = None,
               timeout: float = 10.0, recycle: int = RECYCLE,
               houses: dict[str, House] | None = None, *, open_allowed: bool = True,
               loopback_only: bool = False, https: bool = False,
               origins: tuple[str, ...] = (), warm_first: bool = True,
               pdf_queue: int = PDF_QUEUE, rate_limit: float = 0,
               limit_loopback: bool = False, tz: str = DEFAULT_TZ) -> FastAPI:
    """The desk on the archive ``db``.

    ``houses`` are the house-rules sets it offers by name (serve --rules-dir: the
    operator's files, read once here; a request or a log only names one);
    ``open_allowed``: with no account and no token in the archive, everyone may do
    everything (``serve`` allows it on loopback or with ``--open``); ``loopback_only``:
    refuse host names that are not loopback (the open loopback desk, against DNS
    rebinding); ``https``: cookies are Secure and HSTS is sent (behind a TLS proxy);
    ``origins``: the addresses browsers use, when a proxy does not pass the Host on;
    ``warm_first``: the first request is let in once every judging worker is warm (tests);
    ``serve`` answers at once, and requests wait for the first warm worker;
    ``rate_limit``: requests a minute a client may send that make the desk work (0: no
    limit; ``serve`` sets ``PER_MINUTE``), loopback clients too with ``limit_loopback``;
    ``tz``: the zone the table is in (new logs' 日期, filing times shown)."""
    archive = Archive(db)
    houses = houses or {}
    zone = zone_named(tz)  # before the pool starts: a wrong name fails at once

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.judges = Judges(workers, timeout, recycle=recycle, houses=houses)
        app.state.printer = Printer(pdf_queue)
        await app.state.judges.start(wait=warm_first)
        try:
            yield
        finally:
            app.state.judges.close()
            app.state.printer.close()

    app = FastAPIOffline(title="adjudicator 裁判桌", version=__version__,
                         description=DESCRIPTION, lifespan=lifespan, redoc_url=None,
                         docs_url=None)
    app.state.archive = archive
    app.state.houses = houses
    app.state.tz = zone
    app.state.throttle = security.Throttle()
    session_key, csrf_key = _keys(archive)
    # Added innermost first: a request meets Headers, BodyLimit, Gate, Csrf, the session,
    # then Guard (security.py says what each does).
    app.add_middleware(security.Guard, engine=archive.engine, refuse=_refusal,
                       open_allowed=open_allowed)
    app.add_middleware(SessionMiddleware, secret_key=session_key,
                       session_cookie=security.SESSION_COOKIE, max_age=security.SESSION_AGE,
                       same_site="lax", https_only=https)
    app.add_middleware(security.Csrf, secret=csrf_key, https=https, refuse=_refusal)
    app.add_middleware(security.Gate, refuse=_refusal, origins=origins,
                       loopback_only=loopback_only)
    app.add_middleware(BodyLimit)
    app.add_middleware(RateLimit, per_minute=rate_limit, loopback=limit_loopback)
    app.add_middleware(security.Headers, https=https)
    app.include_router(api.router)
    app.include_router(amend.router)
    app.include_router(health.router)
    app.include_router(pages.router)
    app.include_router(match_pages.router)
    app.include_router(login.router)
    app.include_router(docs.router)
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

    @app.exception_handler(Crowded)
    async def crowded(request: Request, exc: Crowded) -> Response:
        return JSONResponse(service.error(
            f"長紀錄一次只裁決一份，已有 {exc.args[0]} 份在等候；請稍後再試", "long_busy"), 503,
            headers={"Retry-After": "10"})

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
