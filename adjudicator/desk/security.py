"""Who may do what at the desk, and the headers every answer carries.

The layers, outermost first (app.py stacks them): ``Headers`` puts the security headers on
every answer; ``Gate`` refuses a write whose ``Origin`` is another site (and, on the open
loopback desk, a request for another host name, as a DNS-rebinding page would send);
asgi-csrf then wants the CSRF token of every write that carries the desk's session cookie;
Starlette's ``SessionMiddleware`` reads the signed cookie; ``Guard`` finds who the request
is from (a session, a bearer token, or the open desk) and whether that role may take the
path.  Requests without a browser's ambient credentials (a token, or a script on the open
desk) pass the CSRF layer untouched.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any
from urllib.parse import quote, urlsplit

from asgi_csrf import asgi_csrf
from sqlalchemy.engine import Engine
from starlette.datastructures import Headers as RequestHeaders
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from adjudicator.desk import accounts
from adjudicator.desk.accounts import Who
from adjudicator.desk.limits import MAX_BODY, too_large

SESSION_COOKIE = "adjudicator_session"
SESSION_AGE = 12 * 3600  # a club evening and then some
CSRF_FIELD = "csrftoken"  # asgi-csrf's form field (and its cookie)
CSRF_HEADER = "x-csrftoken"
WRITES_SAFE = {"GET", "HEAD", "OPTIONS"}
LOOPBACK_NAMES = {"localhost"}

# An answer for a refusal: status, the JSON error, whether the path is the API's.
Refusal = Callable[[Scope, int, dict[str, Any]], Response]

# What the page being built may show: who asked, and the CSRF token for its forms.
current_who: ContextVar[Who | None] = ContextVar("current_who", default=None)
current_csrf: ContextVar[Callable[[], str] | None] = ContextVar("current_csrf", default=None)


def error(message: str, code: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "line": None, "column": None}}


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# ---------------------------------------------------------------------- headers


def style_hash(css: str) -> str:
    digest = hashlib.sha256(css.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def head_styles(html: str) -> list[str]:
    """The ``<style>`` blocks of a document's head: a stored report's own stylesheet
    (what a log says is only ever in the body, escaped)."""
    return _STYLE.findall(html.split("<body", 1)[0])


def known_styles() -> list[str]:
    """The inline stylesheets the program writes: the report's, the match report's and the
    permalink bar's.  Read at run time, so a change to any of them needs no change here."""
    from adjudicator.desk.bar import BAR_CSS
    from adjudicator.match.report import _CSS as MATCH_CSS
    from adjudicator.report.html import STYLE

    return [STYLE, MATCH_CSS, BAR_CSS]


def policy(styles: list[str]) -> str:
    """The Content-Security-Policy: scripts only from the desk's own files, styles from its
    files or by the hash of a stylesheet it wrote, nothing framing the desk."""
    hashes = " ".join(dict.fromkeys(style_hash(css) for css in styles))
    return ("default-src 'self'; script-src 'self'; "
            f"style-src 'self' {hashes}; img-src 'self' data:; font-src 'self'; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


class Headers:
    """Sets the security headers on every answer (a CSP an answer set itself is kept)."""

    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        self.csp = policy(known_styles()).encode()
        self.fixed = [(b"x-content-type-options", b"nosniff"),
                      (b"x-frame-options", b"DENY"),
                      (b"referrer-policy", b"same-origin"),
                      (b"cross-origin-opener-policy", b"same-origin")]
        if https:
            self.fixed.append((b"strict-transport-security", b"max-age=31536000"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.fixed if k not in names]
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", self.csp))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ---------------------------------------------------------------------- origin


class Gate:
    """Refuses a cross-site write (its ``Origin``, or ``Sec-Fetch-Site``, names another
    site); on the open loopback desk, any request for a host name that is not loopback."""

    def __init__(self, app: ASGIApp, refuse: Refusal, origins: tuple[str, ...] = (),
                 loopback_only: bool = False) -> None:
        self.app = app
        self.refuse = refuse
        self.origins = {urlsplit(o).netloc.lower() for o in origins}
        self.loopback_only = loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = RequestHeaders(scope=scope)
        host = headers.get("host", "").lower()
        if self.loopback_only and not is_loopback(urlsplit("//" + host).hostname or ""):
            await self.refuse(scope, 421, error(
                f"這個裁判桌只在本機位址上開放，不接受主機名稱「{host}」", "bad_host"))(
                scope, receive, send)
            return
        if scope["method"] not in WRITES_SAFE:
            why = self._cross_site(headers, host)
            if why is not None:
                await self.refuse(scope, 403, error(why, "cross_site"))(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _cross_site(self, headers: RequestHeaders, host: str) -> str | None:
        origin = headers.get("origin")
        fetch_site = headers.get("sec-fetch-site")
        if origin == "null" and fetch_site == "same-origin":
            return None  # a browser that hides the origin still says where it came from
        if origin is not None:
            seen = urlsplit(origin).netloc.lower()
            if origin == "null" or (seen != host and seen not in self.origins):
                return f"拒絕來自其他網站（{origin}）的寫入"
            return None
        if fetch_site == "cross-site":
            return "拒絕來自其他網站的寫入"
        return None


class Csrf:
    """asgi-csrf around the app: a write with the desk's session cookie (and any sign-in)
    needs the token, as the form field ``csrftoken`` or the header ``X-CSRFToken``."""

    def __init__(self, app: ASGIApp, secret: str, https: bool, refuse: Refusal) -> None:
        async def failed(scope: Scope, send: Send, _reason: Any) -> None:
            answer = refuse(scope, 403, error(
                "缺少或不符的 CSRF 權杖：請重新載入頁面後再送出", "csrf"))

            async def nothing() -> Message:
                return {"type": "http.disconnect"}

            await answer(scope, nothing, send)

        def without_session(scope: Scope) -> bool:
            cookies = RequestHeaders(scope=scope).get("cookie", "")
            return scope["path"] != "/login" and f"{SESSION_COOKIE}=" not in cookies

        self.app = asgi_csrf(app, signing_secret=secret, always_protect={"/login"},
                             skip_if_scope=without_session, cookie_secure=https,
                             cookie_samesite="Lax", send_csrf_failed=failed)
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # asgi-csrf reads a whole form to find its token: bounded here, as every body is.
        size = 0
        started = False

        async def counted() -> Message:
            nonlocal size
            message = await receive()
            size += len(message.get("body", b""))
            if size > MAX_BODY:
                raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if started:
                raise
            refused = too_large()
            await self.refuse(scope, refused.status, refused.payload)(scope, receive, send)


class _TooLarge(Exception):
    pass


# ---------------------------------------------------------------------- who, and may they

GET = frozenset({"GET", "HEAD"})
# (methods, path, role): the first that matches decides; ``None`` is open to anyone.
ACCESS: tuple[tuple[frozenset[str], re.Pattern[str], str | None], ...] = tuple(
    (methods, re.compile(path), role) for methods, path, role in (
        # A permalink's unguessable id is the secret: the players read it without an account.
        (GET, r"/r/[^/]+", None), (GET, r"/m/[^/]+", None),
        (GET, r"/api/rulings/[^/]+", None), (GET, r"/api/matches/[^/]+", None),
        (GET, r"/static/.+", None), (GET, r"/static-offline-docs/.+", None),
        (GET, r"/docs", None), (GET, r"/openapi\.json", None),
        # Whether the desk is up and its workers warm (for a proxy's or a supervisor's check).
        (GET, r"/api/health", None),
        (GET | {"POST"}, r"/login", None), (frozenset({"POST"}), r"/logout", None),
        # Listing and searching the archive.
        (GET, r"/rulings|/matches|/api/rulings|/api/matches", "viewer"),
        (GET, r"/accounts", "admin"),
    ))
DEFAULT_ROLE = "referee"  # everything else: the desk, judging, filing, correcting


def required(method: str, path: str) -> str | None:
    for methods, pattern, role in ACCESS:
        if method in methods and pattern.fullmatch(path):
            return role
    return DEFAULT_ROLE


class Guard:
    """Finds who a request is from and refuses what that role may not do.

    The desk is open (everyone an admin, as before accounts) while the archive has no
    account and no live token, where the server allows it (loopback, or ``--open``)."""

    RECHECK = 2.0  # seconds an "is anyone signed up" answer is kept

    def __init__(self, app: ASGIApp, engine: Engine, refuse: Refusal,
                 open_allowed: bool = True) -> None:
        self.app = app
        self.engine = engine
        self.refuse = refuse
        self.open_allowed = open_allowed
        self._closed: tuple[float, bool] = (0.0, False)

    def is_open(self) -> bool:
        if not self.open_allowed:
            return False
        at, closed = self._closed
        if time.monotonic() - at > self.RECHECK:
            closed = accounts.any_credentials(self.engine)
            self._closed = (time.monotonic(), closed)
        return not closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from fastapi.concurrency import run_in_threadpool

        given = RequestHeaders(scope=scope).get("authorization", "")
        lookup = (given[:7].lower() == "bearer " or (scope.get("session") or {}).get("user")
                  or (self.open_allowed and time.monotonic() - self._closed[0] > self.RECHECK))
        try:  # the database is asked off the event loop; the open desk's answer is kept
            who = (await run_in_threadpool(self.identify, scope) if lookup
                   else self.identify(scope))
        except PermissionError as bad:
            answer = self.refuse(scope, 401, error(str(bad), "bad_token"))
            answer.headers["WWW-Authenticate"] = 'Bearer realm="adjudicator"'
            await answer(scope, receive, send)
            return
        scope.setdefault("state", {})["who"] = who
        current_who.set(who)
        current_csrf.set(scope.get("csrftoken"))
        role = required(scope["method"], scope["path"])
        if role is not None and who is None:
            await self._sign_in(scope)(scope, receive, send)
            return
        if role is not None and who is not None and not who.may(role):
            await self.refuse(scope, 403, error(
                f"{accounts.ROLE_WORDS[who.role]}「{who.name}」不能做這件事"
                f"（須為{accounts.ROLE_WORDS[role]}）", "forbidden"))(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def identify(self, scope: Scope) -> Who | None:
        headers = RequestHeaders(scope=scope)
        given = headers.get("authorization", "")
        if given[:7].lower() == "bearer ":
            holder = accounts.token_holder(self.engine, given[7:].strip())
            if holder is None:
                raise PermissionError("權杖無效或已撤銷")
            return holder
        session = scope.get("session") or {}
        if session.get("user"):
            found = accounts.account(self.engine, session["user"])
            if found is not None and found.stamp == session.get("stamp"):
                return Who(found.name, found.role, "session")
            session.clear()  # removed, or the password changed since
        if self.is_open():
            client = scope.get("client") or ("", 0)
            return Who(client[0] or "local", "admin", "open")
        return None

    def _sign_in(self, scope: Scope) -> Response:
        if scope["path"].startswith("/api/"):
            answer = self.refuse(scope, 401, error(
                "須登入：帳號密碼（/login）或 Authorization: Bearer 權杖", "login_required"))
            answer.headers["WWW-Authenticate"] = 'Bearer realm="adjudicator"'
            return answer
        target = scope["path"] + ("?" + scope["query_string"].decode("latin-1")
                                  if scope.get("query_string") else "")
        return RedirectResponse("/login?next=" + quote(target, safe=""), status_code=303)


def who(scope_or_request: Any) -> Who | None:
    """Who made this request (``Guard`` put it on the request's state)."""
    scope = getattr(scope_or_request, "scope", scope_or_request)
    return (scope.get("state") or {}).get("who")


def filer(request: Any) -> str:
    """How the archive names whoever files this request."""
    found = who(request)
    return found.label if found is not None else ""


# ---------------------------------------------------------------------- pages

_POST_FORM = re.compile(r'(<form\b[^>]*\bmethod="post"[^>]*>)', re.I)


def page_head() -> str:
    """What the page template's head gets: the CSRF token for a page's script (a page
    that writes with ``fetch`` loads static/csrf.js, which sends it)."""
    token = current_csrf.get()
    return f'<meta name="csrf-token" content="{token()}">' if token else ""


def with_form_tokens(html: str) -> str:
    """Every POST form of a page gets the CSRF token as a hidden field."""
    token = current_csrf.get()
    if token is None:
        return html
    field = f'<input type="hidden" name="{CSRF_FIELD}" value="{token()}">'
    return _POST_FORM.sub(lambda m: m.group(1) + field, html)


def account_bar(escape: Callable[[object], str]) -> str:
    """The page header's account part: who is signed in (and a way out), or a way in."""
    found = current_who.get()
    if found is None:
        return '<a href="/login" id="login-link">登入</a>'
    if found.via != "session":
        return ""
    extra = ' <a href="/accounts">帳號</a>' if found.may("admin") else ""
    return (f'<span class="account" id="account">{escape(found.name)}（'
            f'{accounts.ROLE_WORDS[found.role]}）</span>{extra}'
            '<form class="logout" method="post" action="/logout">'
            '<button type="submit" id="logout">登出</button></form>')


# ---------------------------------------------------------------------- sign-in throttle


class Throttle:
    """After ``limit`` failed sign-ins for one name from one address, that pair waits
    ``pause`` seconds: argon2 makes each guess slow, this makes many guesses slower."""

    def __init__(self, limit: int = 5, pause: float = 60.0) -> None:
        self.limit, self.pause = limit, pause
        self.failures: dict[tuple[str, str], tuple[int, float]] = {}

    def wait(self, key: tuple[str, str]) -> float:
        count, last = self.failures.get(key, (0, 0.0))
        left = last + self.pause - time.monotonic()
        return left if count >= self.limit and left > 0 else 0.0

    def failed(self, key: tuple[str, str]) -> None:
        count, last = self.failures.get(key, (0, 0.0))
        if time.monotonic() - last > self.pause:
            count = 0
        if len(self.failures) > 10_000:  # bounded: forget the oldest half
            for old in sorted(self.failures, key=lambda k: self.failures[k][1])[:5_000]:
                del self.failures[old]
        self.failures[key] = (count + 1, time.monotonic())

    def passed(self, key: tuple[str, str]) -> None:
        self.failures.pop(key, None)

