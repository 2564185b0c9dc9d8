"""``GET /api/health``: whether the desk can judge now, for a load balancer or a monitor.

It answers from the server process alone (no worker is asked), so it answers as soon as
the server listens, while the judging workers still warm up: 200 once one is warm, 503
(``starting``) before.  It says how many workers are warm and busy, how many requests
wait, and what the PDF printer holds.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from adjudicator import __version__

router = APIRouter(prefix="/api", tags=["api"])


@router.get("/health", responses={503: {"description": "no judging worker is warm yet"}})
async def health(request: Request) -> JSONResponse:
    """伺服器狀態：可裁決的工作行程數、等候中的請求、PDF 列印佇列。"""
    pool = request.app.state.judges.health()
    printer = getattr(request.app.state, "printer", None)
    body = {"status": "ok" if pool["ready"] else "starting", "version": __version__,
            "judges": pool, **({"printer": printer.health()} if printer else {})}
    return JSONResponse(body, 200 if pool["ready"] else 503)
