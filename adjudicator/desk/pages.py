"""The pages a referee opens: the desk, the archive list, a ruling's permalink, downloads.

Pages are built on the server from two templates; every value that came from a user goes
through ``e`` (HTML-escaped, quotes included).  The stored report is the HTML renderer's own
output, which escapes what the log says.
"""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response

from adjudicator.desk import pdf, service
from adjudicator.desk.archive import Query, Record
from adjudicator.desk.limits import Refused

router = APIRouter(include_in_schema=False)

STATUS = {"decided": "裁決確定", "undetermined": "紀錄不足", "inconsistent": "紀錄矛盾"}
OFFENCES = ("優先", "詐和", "包賠", "相公", "代位賠付", "錯杠", "錯碰", "錯打明牌", "過水",
            "眼牌違規", "禁制", "喊碰未碰", "強制復原")


# Only for the bar: the desk's own stylesheet would restyle the report under it.
BAR_CSS = """
nav.desk-bar { font-family: sans-serif; font-size: 14px; background: #f4f6f8;
  border: 1px solid #d5dae0; border-radius: 6px; padding: 6px 10px; margin-bottom: 10px; }
nav.desk-bar .desk-meta span { margin-right: 12px; display: inline-block; }
nav.desk-bar a { margin-right: 12px; }
@media print { nav.desk-bar { display: none; } }
"""


def e(value: object) -> str:
    return escape(str(value), quote=True)


def _template(name: str) -> str:
    return files("adjudicator.desk").joinpath("templates", name).read_text("utf-8")


def _page(title: str, body: str) -> HTMLResponse:
    html = _template("page.html").replace("{{title}}", e(title)).replace("{{body}}", body)
    return HTMLResponse(html)


@router.get("/")
async def desk() -> HTMLResponse:
    from adjudicator.rules.files import DEFAULT_PROFILE, profile_names

    # The default profile is the one chosen until the referee picks another (a log of
    # another family, 規則: gd, needs its own picked: families are not mixed).
    options = "".join(
        f'<option value="{e(p)}"{" selected" if p == DEFAULT_PROFILE else ""}>{e(p)}</option>'
        for p in profile_names())
    return _page("裁判桌", _template("desk.html").replace("{{profiles}}", options))


async def _record(request: Request, ruling_id: str) -> Record:
    record = await run_in_threadpool(request.app.state.archive.get, ruling_id)
    if record is None:
        raise Refused(404, service.error("沒有這則裁決", "not_found"))
    return record


def _meta(r: Record) -> str:
    pairs = [("日期", r.date), ("場地", r.venue), ("桌號", r.table_no), ("裁判", r.referee),
             ("盤號", r.hand_no), ("玩家", r.players), ("規則", r.profile), ("版本", r.version),
             ("裁決時間", r.created.strftime("%Y-%m-%d %H:%M UTC"))]
    settings = json.loads(r.settings)
    if settings:
        pairs.append(("設定", " ".join(f"{k}={v}" for k, v in settings.items())))
    return "".join(f"<span><b>{e(k)}</b> {e(v)}</span>" for k, v in pairs if v)


def downloads(ruling_id: str) -> str:
    base = f"/r/{quote(ruling_id)}"
    return "".join(f'<a class="dl" href="{e(base)}.{ext}" download>{label}</a>'
                   for ext, label in (("md", "Markdown"), ("html", "HTML"), ("json", "JSON"),
                                      ("pdf", "PDF")))


def _download(content: str | bytes, media: str, name: str) -> Response:
    return Response(content, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/r/{ruling_id}.md")
async def as_markdown(request: Request, ruling_id: str) -> Response:
    r = await _record(request, ruling_id)
    return _download(r.report_md, "text/markdown; charset=utf-8", f"ruling-{r.id}.md")


@router.get("/r/{ruling_id}.html")
async def as_html(request: Request, ruling_id: str) -> Response:
    r = await _record(request, ruling_id)
    return _download(r.report_html, "text/html; charset=utf-8", f"ruling-{r.id}.html")


@router.get("/r/{ruling_id}.json")
async def as_json(request: Request, ruling_id: str) -> Response:
    r = await _record(request, ruling_id)
    return _download(r.ruling_json, "application/json", f"ruling-{r.id}.json")


@router.get("/r/{ruling_id}.pdf")
async def as_pdf(request: Request, ruling_id: str) -> Response:
    r = await _record(request, ruling_id)
    try:
        document = await run_in_threadpool(pdf.render, r.report_html)
    except pdf.NoChromium:
        return JSONResponse(service.error(
            "伺服器上沒有 Chromium，無法產生 PDF；請下載 HTML 後列印"
            "（管理者可安裝：apt-get install -y chromium）", "no_pdf"), status_code=503)
    except (RuntimeError, OSError) as err:
        return JSONResponse(service.error(f"PDF 產生失敗：{err}", "pdf_failed"), 500)
    return _download(document, "application/pdf", f"ruling-{r.id}.pdf")


# After the downloads: /r/{id} would also match /r/{id}.md.
@router.get("/r/{ruling_id}")
async def permalink(request: Request, ruling_id: str) -> HTMLResponse:
    """The stored report as the players were given it, under a bar saying what it is."""
    r = await _record(request, ruling_id)
    bar = (f'<nav class="desk-bar" id="permalink-bar"><a href="/">裁判桌</a> · '
           f'<a href="/rulings">裁決檔案</a><div class="desk-meta">{_meta(r)}</div>'
           f'<div class="desk-downloads">{downloads(r.id)}</div></nav><style>{BAR_CSS}</style>')
    return HTMLResponse(r.report_html.replace("<body>", "<body>" + bar, 1))


def _row(r: Record) -> str:
    cells = [f'<a href="/r/{e(quote(r.id))}">{e(r.date or r.created.strftime("%Y-%m-%d"))}</a>',
             e(r.table_no), e(" ".join(r.players.split())), e(" ".join(r.offences.split())),
             f'<span class="st {e(r.status)}">{e(STATUS.get(r.status, r.status))}</span>',
             e(r.referee)]
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


@router.get("/rulings")
async def rulings(request: Request, date: str = "", table: str = "", player: str = "",
                  offence: str = "") -> HTMLResponse:
    from adjudicator.language.reader import canonical

    query = Query(date[:40], table[:40], player[:40], canonical(offence[:40]))
    found = await run_in_threadpool(request.app.state.archive.search, query)
    kinds = "".join(f'<option value="{e(k)}"{" selected" if k == query.offence else ""}>'
                    f"{e(k)}</option>" for k in OFFENCES)
    form = (
        '<form class="search" method="get" action="/rulings">'
        f'<label>日期 <input name="date" value="{e(query.date)}" placeholder="2026-11"></label>'
        f'<label>桌號 <input name="table" value="{e(query.table)}" size="4"></label>'
        f'<label>玩家 <input name="player" value="{e(query.player)}"></label>'
        f'<label>違規 <select name="offence"><option value="">（全部）</option>{kinds}'
        '</select></label><button type="submit">搜尋</button></form>')
    rows = "".join(_row(r) for r in found) or '<tr><td colspan="6">沒有符合的裁決</td></tr>'
    table_html = ('<table class="list" id="rulings"><thead><tr><th>日期</th><th>桌號</th>'
                  "<th>玩家</th><th>違規</th><th>狀態</th><th>裁判</th></tr></thead>"
                  f"<tbody>{rows}</tbody></table>")
    link = f'<p class="note">JSON：<a href="/api/rulings?{e(urlencode(vars(query)))}">' \
           "/api/rulings</a></p>"
    return _page("裁決檔案", f"<h1>裁決檔案</h1>{form}{table_html}{link}")


def error_page(status: int, payload: dict[str, Any]) -> HTMLResponse:
    body = f'<h1>錯誤</h1><p class="error">{e(payload["error"]["message"])}</p>'
    html = _template("page.html").replace("{{title}}", "錯誤").replace("{{body}}", body)
    return HTMLResponse(html, status_code=status)

