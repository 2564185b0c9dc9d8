"""Signing in and out at the desk, and the admin's list of accounts and tokens.

A signed-in account is a session: Starlette's signed cookie (HttpOnly, SameSite=Lax,
Secure behind HTTPS) holding the name and a stamp of the password hash, so that a changed
password or a removed account ends every session at once.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from adjudicator.desk import accounts, limits, security, service
from adjudicator.desk.limits import Refused
from adjudicator.desk.pages import _page, e

router = APIRouter(include_in_schema=False)
FORM_TYPE = "application/x-www-form-urlencoded"


def _next(target: str) -> str:
    """Only a path on this desk: ``//host``, ``/\\host`` (read as ``//`` by browsers) or
    ``https://…`` would leave it."""
    return target if target.startswith("/") and not target.startswith(("//", "/\\")) else "/"


def _form(target: str = "/", name: str = "", problem: str = "",
          status: int = 200) -> HTMLResponse:
    shown = f'<p class="error" id="login-error">{e(problem)}</p>' if problem else ""
    body = (f'<h1>登入</h1>{shown}'
            '<form class="login" id="login" method="post" action="/login">'
            f'<input type="hidden" name="next" value="{e(_next(target))}">'
            f'<p><label>帳號 <input name="name" value="{e(name)}" autocomplete="username" '
            'required></label></p>'
            '<p><label>密碼 <input name="password" type="password" '
            'autocomplete="current-password" required></label></p>'
            '<p><button type="submit" class="go" id="login-submit">登入</button></p></form>'
            '<p class="note">永久連結不需登入；裁決檔案的列表與搜尋、裁決與存檔需要帳號。'
            '帳號由管理者以 <code>adjudicator users add</code> 建立。</p>')
    page = _page("登入", body)
    page.status_code = status
    return page


async def _fields(request: Request) -> dict[str, str]:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != FORM_TYPE:
        raise Refused(415, service.error("請用表單送出", "bad_form"))
    raw = await limits.body(request)
    try:
        parsed = parse_qs(raw.decode("utf-8"), max_num_fields=8)
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, service.error("表單內容須為 UTF-8", "bad_form")) from None
    return {k: v[0] for k, v in parsed.items()}


@router.get("/login")
async def login_form(request: Request, next: str = "/") -> HTMLResponse:
    return _form(next)


@router.post("/login")
async def login(request: Request) -> Response:
    fields = await _fields(request)
    name, password = fields.get("name", "")[:64], fields.get("password", "")[:1024]
    target = _next(fields.get("next", "/"))
    client = (request.client.host if request.client else "")
    key = (name, client)
    throttle: security.Throttle = request.app.state.throttle
    if (left := throttle.wait(key)) > 0:
        return _form(target, name, f"嘗試太多次，請 {left:.0f} 秒後再試", 429)
    engine = request.app.state.archive.engine
    found = await run_in_threadpool(accounts.check_password, engine, name, password)
    if found is None:
        throttle.failed(key)
        return _form(target, name, "帳號或密碼不對", 401)
    throttle.passed(key)
    request.session.clear()
    request.session.update({"user": found.name, "stamp": found.stamp})
    return RedirectResponse(target, status_code=303)


@router.post("/logout")
async def logout(request: Request) -> Response:
    request.session.clear()
    return RedirectResponse("/login", status_code=303)


@router.get("/accounts")
async def account_list(request: Request) -> HTMLResponse:
    """The admin's view: accounts and tokens (they are changed with ``adjudicator users``
    and ``adjudicator tokens`` on the server, which also show a token's secret once)."""
    engine = request.app.state.archive.engine
    people = await run_in_threadpool(accounts.users, engine)
    given = await run_in_threadpool(accounts.tokens, engine)
    rows = "".join(f"<tr><td>{e(a.name)}</td><td>{e(accounts.ROLE_WORDS[a.role])}</td>"
                   f"<td>{e(a.created)}</td></tr>" for a in people)
    token_rows = "".join(
        f"<tr><td>{e(t.id)}</td><td>{e(t.name)}</td><td>{e(accounts.ROLE_WORDS[t.role])}</td>"
        f"<td>{e(t.created)}</td><td>{e(t.revoked or '有效')}</td></tr>" for t in given)
    body = ('<h1>帳號與權杖</h1><table class="list" id="accounts"><thead><tr><th>帳號</th>'
            f'<th>角色</th><th>建立</th></tr></thead><tbody>{rows}</tbody></table>'
            '<h2>平台權杖</h2><table class="list" id="tokens"><thead><tr><th>id</th>'
            '<th>名稱</th><th>角色</th><th>建立</th><th>狀態</th></tr></thead>'
            f'<tbody>{token_rows}</tbody></table>'
            '<p class="note">在伺服器上管理：<code>adjudicator users add|list|remove</code>、'
            '<code>adjudicator tokens create|list|revoke</code>（各加 <code>--db</code>）。</p>')
    return _page("帳號", body)
