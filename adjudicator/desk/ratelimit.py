"""A per-client limit on the requests that make the desk work: every POST (judge, lint,
score, diff, match, the pages' forms) and every PDF.

Each client (its address, as uvicorn gives it: behind a trusted proxy, the forwarded
one) has a bucket of ``burst`` requests that refills at ``per_minute``; a request finding
it empty is answered 429 with ``Retry-After``, before its body is read.  Reading pages and
the archive is not limited: it costs the desk next to nothing.  ``per_minute`` 0 turns the
limit off (a load bench on loopback).  The table of clients is bounded: the longest idle
are forgotten first, which only ever gives one a full bucket again.

Loopback clients (this machine: a load bench, a monitor) are not limited unless asked.  A
reverse proxy on the same machine must therefore pass the client's address
(``X-Forwarded-For``, which uvicorn takes from 127.0.0.1), or every client would be
loopback.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from adjudicator.desk import PER_MINUTE
from adjudicator.desk.service import error

BURST = 30
CLIENTS = 10_000  # clients remembered at once


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # not an address (a Unix socket, a test client)
        return False


def costly(method: str, path: str) -> bool:
    """Whether a request makes the desk work: a POST, or a PDF to print."""
    return method == "POST" or path.endswith(".pdf")


class RateLimit:
    def __init__(self, app: ASGIApp, per_minute: float = PER_MINUTE, burst: int = BURST,
                 clients: int = CLIENTS, loopback: bool = False) -> None:
        self.app = app
        self.loopback = loopback  # loopback clients limited too
        self.rate = per_minute / 60  # tokens a second
        self.burst = burst
        self.clients = clients
        self.refused = 0
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, now: float | None = None) -> float:
        """Take one request from ``client``'s bucket: 0 when it may go, else the seconds
        until it may."""
        now = time.monotonic() if now is None else now
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return wait

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or not self.rate
                or not costly(scope["method"], scope["path"])):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        if not self.loopback and _is_loopback(client):
            await self.app(scope, receive, send)
            return
        wait = self.take(client)
        if not wait:
            await self.app(scope, receive, send)
            return
        self.refused += 1
        seconds = math.ceil(wait)
        payload = error(f"請求太頻繁：每位用戶每分鐘至多 {self.rate * 60:g} 次送出；"
                        f"請 {seconds} 秒後再試", "rate_limited", retry_after=seconds)
        headers = {"Retry-After": str(seconds)}
        if scope["path"].startswith("/api/"):
            answer = JSONResponse(payload, 429, headers=headers)
        else:
            from adjudicator.desk.pages import error_page

            answer = error_page(429, payload)
            answer.headers.update(headers)
        await answer(scope, receive, send)
