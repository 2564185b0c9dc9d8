"""Correcting and withdrawing a filed ruling (a referee's): nothing is changed in place.

A correction is the log judged again (mended, or under the right profile) and filed as a
new version under the same permalink, with the reason; a withdrawal is an entry with the
reason and no ruling.  Both are chain entries naming whoever made them (ledger.py), and
the permalink shows them all, the version first told to the players included.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any
from urllib.parse import parse_qs, quote

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from adjudicator.desk import api, history, limits, security, service
from adjudicator.desk.api import ERRORS, LOG_BODY, Fmt, Profile, Settings
from adjudicator.desk.limits import Refused
from adjudicator.desk.pages import _page, e

router = APIRouter(tags=["api"])
MAX_REASON = 500
FORM_TYPE = "application/x-www-form-urlencoded"


def _reason(given: str) -> str:
    reason = given.strip()
    if not reason:
        raise Refused(400, service.error("須寫明理由（reason）", "no_reason"))
    if len(reason) > MAX_REASON:
        raise Refused(400, service.error(f"理由至多 {MAX_REASON} 字", "bad_reason"))
    limits.check_text(reason)
    return reason


async def _standing(request: Request, ruling_id: str) -> Any:
    return await api.filed(request, "ruling", ruling_id)


async def _correct(request: Request, ruling_id: str, log: api.LogInput,
                   reason: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Judge the mended log (under the ruling's own profile and settings unless others are
    given) and file it as the ruling's next version; the answer and its headers."""
    first = await _standing(request, ruling_id)
    profile = log.profile if log.profile is not None else first.profile
    settings = log.settings or json.loads(first.settings)
    result, headers = await api._timed(request, service.judge, log.text, profile, settings,
                                       True)
    entry = await run_in_threadpool(request.app.state.archive.correct, ruling_id, result,
                                    log.text, security.filer(request), reason)
    if entry is None:
        raise Refused(404, service.error("沒有這則裁決", "not_found"))
    for ext in ("html", "md"):
        result[ext] = history.stamp(ext, result[ext], entry)
    entries = await run_in_threadpool(request.app.state.archive.history, ruling_id)
    headers |= {"X-Ruling-Id": ruling_id, "Location": f"/r/{quote(ruling_id)}",
                "X-Verification-Code": entry.code,
                "X-Ruling-Version": str(len(history.versions(entries)))}
    return result, headers


@router.post("/api/rulings/{ruling_id}/correct", openapi_extra=LOG_BODY, responses=ERRORS)
async def correct(request: Request, ruling_id: str,
                  reason: Annotated[str, Query(description="更正的理由（必填）")] = "",
                  format: Fmt = Fmt.json, profile: Profile = None,
                  settings: Settings = []) -> Response:  # noqa: B006
    """更正一則存檔的裁決：送出修正後的紀錄（同 `/api/judge`），依原本的規則與設定（或另給）
    重新裁決，存成同一永久連結的新版本並記下理由；原裁決仍在，永久連結列出沿革。"""
    why = _reason(reason)
    log = await api.log_input(request, profile, settings)
    result, headers = await _correct(request, ruling_id, log, why)
    return api._answer(result, format, "ruling", headers)


async def _withdraw(request: Request, kind: str, ident: str, reason: str) -> Any:
    await api.filed(request, kind, ident)
    entry = await run_in_threadpool(request.app.state.archive.withdraw, ident,
                                    security.filer(request), reason, kind)
    if entry is None:
        raise Refused(404, service.error("沒有這筆紀錄", "not_found"))
    return entry


async def _json_reason(request: Request) -> str:
    obj = limits.parse_json(await limits.body(request))
    if not isinstance(obj, dict) or not isinstance(obj.get("reason"), str):
        raise Refused(400, service.error('JSON 須為 {"reason": "理由"}', "bad_json"))
    return _reason(obj["reason"])


_REASON_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": {"type": "object", "required": ["reason"],
               "properties": {"reason": {"type": "string"}}}}}}}


@router.post("/api/rulings/{ruling_id}/withdraw", openapi_extra=_REASON_BODY,
             responses=ERRORS)
async def withdraw(request: Request, ruling_id: str) -> JSONResponse:
    """撤回一則存檔的裁決（JSON `{"reason": "…"}`）：記下理由與撤回者，不刪除任何紀錄。"""
    entry = await _withdraw(request, "ruling", ruling_id, await _json_reason(request))
    return JSONResponse({"permalink": f"/r/{ruling_id}", "entry": entry.summary()})


@router.post("/api/matches/{match_id}/withdraw", openapi_extra=_REASON_BODY,
             responses=ERRORS)
async def withdraw_match(request: Request, match_id: str) -> JSONResponse:
    """撤回一個存檔的將（JSON `{"reason": "…"}`）。"""
    entry = await _withdraw(request, "match", match_id, await _json_reason(request))
    return JSONResponse({"permalink": f"/m/{match_id}", "entry": entry.summary()})


# ---------------------------------------------------------------------- the page


def _form(r: Any, text: str, reason: str = "", problem: dict[str, Any] | None = None,
          status: int = 200) -> HTMLResponse:
    base = f"/r/{quote(r.id)}"
    shown = ""
    if problem is not None:
        err = problem["error"]
        line = f"第 {err['line']} 行：" if err.get("line") else ""
        shown = f'<p class="error" id="amend-error">{e(line)}{e(err["message"])}</p>'
    body = (f'<h1>更正或撤回裁決</h1><p class="note"><a href="{e(base)}">{e(base)}</a>：'
            "原裁決不會消失；更正是同一永久連結的新版本，撤回只記下理由。兩者都記下你的名字。"
            f"</p>{shown}"
            f'<form class="amend" id="correct" method="post" action="{e(base)}/amend">'
            '<input type="hidden" name="action" value="correct">'
            '<h2>更正</h2><p><label>修正後的紀錄<br><textarea name="text" id="amend-text" '
            f'rows="16" cols="60" spellcheck="false">{e(text)}</textarea></label></p>'
            '<p><label>理由 <input name="reason" id="correct-reason" size="40" required '
            f'value="{e(reason)}"></label> <button type="submit" class="go" '
            'id="correct-submit">重新裁決並存成新版本</button></p></form>'
            f'<form class="amend" id="withdraw" method="post" action="{e(base)}/amend">'
            '<input type="hidden" name="action" value="withdraw"><h2>撤回</h2>'
            '<p><label>理由 <input name="reason" id="withdraw-reason" size="40" required>'
            '</label> <button type="submit" id="withdraw-submit">撤回這則裁決</button></p>'
            "</form>")
    page = _page("更正或撤回", body)
    page.status_code = status
    return page


@router.get("/r/{ruling_id}/amend", include_in_schema=False)
async def amend_form(request: Request, ruling_id: str) -> HTMLResponse:
    r = await _standing(request, ruling_id)
    return _form(r, r.text)


@router.post("/r/{ruling_id}/amend", include_in_schema=False)
async def amend(request: Request, ruling_id: str) -> Response:
    r = await _standing(request, ruling_id)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != FORM_TYPE:
        raise Refused(415, service.error("請用表單送出", "bad_form"))
    raw = await limits.body(request)
    try:
        fields = {k: v[0] for k, v in parse_qs(raw.decode("utf-8"), max_num_fields=6).items()}
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, service.error("表單內容須為 UTF-8", "bad_form")) from None
    text = re.sub("\r\n?", "\n", fields.get("text", r.text))
    try:
        reason = _reason(fields.get("reason", ""))
        if fields.get("action") == "withdraw":
            await _withdraw(request, "ruling", ruling_id, reason)
        else:
            limits.check_text(text)
            await _correct(request, ruling_id, api.LogInput(text), reason)
    except Refused as refused:
        return _form(r, text, fields.get("reason", ""), refused.payload, refused.status)
    return RedirectResponse(f"/r/{quote(ruling_id)}", status_code=303)
