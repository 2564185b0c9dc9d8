"""The pages a referee opens: the desk, the archive list, a ruling's permalink, downloads.

Pages are built on the server from two templates; every value that came from a user goes
through ``e`` (HTML-escaped, quotes included).  The stored report is the HTML renderer's own
output, which escapes what the log says.
"""

from __future__ import annotations

import json
import re
from html import escape
from importlib.resources import files
from typing import Any
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response

from adjudicator.desk import api, service
from adjudicator.desk.archive import Query, Record
from adjudicator.desk.limits import Refused
from adjudicator.desk.zone import local_time, today, zone_of
from adjudicator.language.seats import SEATS
from adjudicator.report import pdf
from adjudicator.report.html import PHONE_CSS, VIEWPORT
from adjudicator.ruling.model import STATUS_SHORT

router = APIRouter(include_in_schema=False)

STATUS = STATUS_SHORT
OFFENCES = ("優先", "詐和", "包賠", "相公", "代位賠付", "錯杠", "錯碰", "錯打明牌", "過水",
            "眼牌違規", "禁制", "喊碰未碰", "強制復原")


# The bar above a filed report or match (static/bar.css) and, for reports filed before they
# carried their own, the report's phone layout (/report-phone.css): linked, never inline.
BAR_LINKS = '<link rel="stylesheet" href="/static/bar.css">'
REPORT_HEAD = (f'{VIEWPORT}<link rel="stylesheet" href="/report-phone.css">{BAR_LINKS}')


def e(value: object) -> str:
    return escape(str(value), quote=True)


def _template(name: str) -> str:
    return files("adjudicator.desk").joinpath("templates", name).read_text("utf-8")


def _page(title: str, body: str, head: str = "") -> HTMLResponse:
    fills = {"title": e(title), "body": body, "head": head}
    html = re.sub(r"\{\{(title|body|head)\}\}", lambda m: fills[m.group(1)],
                  _template("page.html"))
    return HTMLResponse(html)


# The act buttons always shown (the rest under 其他動作), and where the referee's acts begin.
COMMON_ACTS = ("摸", "打", "吃", "碰", "明杠", "暗杠", "加杠", "補花", "補", "和", "自摸", "推倒",
               "聽", "過", "舉發", "自承", "發現", "檢查", "弄亂", "眼牌", "荒局")
REFEREE_ACTS = ("舉發", "自承", "發現", "檢查", "弄亂", "荒局")


def _buttons(cls: str, attr: str, words: tuple[str, ...] | list[str]) -> str:
    return "".join(f'<button type="button" class="{cls}" data-{attr}="{e(w)}">{e(w)}</button>'
                   for w in words)


def _act_buttons(words: tuple[str, ...] | list[str]) -> str:
    return "".join(
        f'<button type="button" class="act{" referee" if w in REFEREE_ACTS else ""}" '
        f'data-act="{e(w)}">{e(w)}</button>' for w in words)


def _settings_list() -> str:
    """Every interpretation point's readings, in words, for the 設定 box to offer."""
    from adjudicator.ruling.interpretations import POINTS

    return "".join(f'<option value="{e(p.id)}={e(code)}" label="{e(p.question)}：{e(words)}">'
                   for p in POINTS.values() for code, words in p.readings.items())


@router.get("/")
async def desk(request: Request) -> HTMLResponse:
    from adjudicator.language.vocabulary import HEADER_KEYS, OFFENCES, VERBS
    from adjudicator.rules.files import (
        DEFAULT_PROFILE,
        profile_family,
        profile_label,
        profile_names,
        profile_title,
    )

    # Unless the referee picks one, the log's own 規則: line decides (as the CLI without
    # --profile): a 規則: gd log is judged as gd.  A pick of another family is refused.
    # Each option says how many tiles its family's hand holds, for the hand editor's count.
    def option(value: str, label: str, profile: str, chosen: str = "") -> str:
        tiles = profile_family(profile).hand_tiles
        return f'<option value="{e(value)}" data-tiles="{tiles}"{chosen}>{e(label)}</option>'

    options = option("", f"依紀錄的 規則:（未寫：{profile_title(DEFAULT_PROFILE)}）",
                     DEFAULT_PROFILE, " selected")
    options += "".join(option(p, profile_label(p), p) for p in profile_names())
    more = [v for v in VERBS if v not in COMMON_ACTS]
    keys = sorted(set(HEADER_KEYS.values()))
    fills = {"profiles": options, "acts": _act_buttons(COMMON_ACTS),
             "more_acts": _act_buttons(more), "offences": _buttons("offence", "offence", OFFENCES),
             "targets": _buttons("target", "target", [*SEATS, "牌牆"]),
             "header_keys": e(" ".join(keys)), "today": e(today(zone_of(request))),
             "points": _settings_list()}
    body = re.sub(r"\{\{(\w+)\}\}", lambda m: fills[m.group(1)], _template("desk.html"))
    return _page("裁判桌", body)


def _meta(r: Record, zone: ZoneInfo) -> str:
    from adjudicator.rules.files import profile_label

    pairs = [("日期", r.date), ("場地", r.venue), ("桌號", r.table_no), ("裁判", r.referee),
             ("盤號", r.hand_no), ("玩家", r.players), ("規則", profile_label(r.profile)),
             ("版本", r.version), ("裁決時間", local_time(r.created, zone))]
    settings = json.loads(r.settings)
    if settings:
        pairs.append(("設定", "；".join(setting_words(k, v) for k, v in settings.items())))
    return spans(pairs)


def setting_words(point: str, value: str) -> str:
    """A --set override as words: 解釋.八張窗：所有進牌（含補牌）."""
    from adjudicator.ruling.interpretations import describe

    return f"{point}：{describe(point, value)}"


def spans(pairs: list[tuple[str, str]]) -> str:
    """A permalink bar's facts, each labelled; the empty ones left out."""
    return "".join(f"<span><b>{e(k)}</b> {e(v)}</span>" for k, v in pairs if v)


def downloads(base: str, kinds: tuple[tuple[str, str], ...]) -> str:
    """Download links of a filed record at ``base`` (``/r/ID``), one per (extension, label)."""
    return "".join(f'<a class="dl" id="dl-{ext}" href="{e(base)}.{ext}" download>{label}</a>'
                   for ext, label in kinds)


def _download(content: str | bytes, media: str, name: str) -> Response:
    return Response(content, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


RULING_LINKS = (("md", "Markdown"), ("html", "HTML"), ("json", "JSON"), ("pdf", "PDF"))
MARKDOWN, HTML = "text/markdown; charset=utf-8", "text/html; charset=utf-8"
# What a filed ruling downloads as: extension → (its column, media type); PDF is printed.
RULING_FILES = {"md": ("report_md", MARKDOWN), "html": ("report_html", HTML),
                "json": ("ruling_json", "application/json")}


def stored_file(record: Any, ext: str, files: dict[str, tuple[str, str]],
                stem: str) -> Response:
    """One of a filed record's stored documents as a download, by its extension."""
    if ext not in files:
        raise Refused(404, service.error(f"沒有 .{ext} 這種下載", "not_found"))
    column, media = files[ext]
    return _download(getattr(record, column), media, f"{stem}-{record.id}.{ext}")


@router.get("/r/{ruling_id}.{ext}")
async def download(request: Request, ruling_id: str, ext: str) -> Response:
    r = await api.filed(request, "ruling", ruling_id)
    if ext != "pdf":
        return stored_file(r, ext, RULING_FILES, "ruling")
    return await printed(r.report_html, f"ruling-{r.id}.pdf")


async def printed(html: str, name: str) -> Response:
    """A filed report printed to PDF by the server's Chromium, as a download."""
    try:
        document = await run_in_threadpool(pdf.render, html)
    except pdf.NoChromium:
        return JSONResponse(service.error(
            "伺服器上沒有 Chromium，無法產生 PDF；請下載 HTML 後列印"
            "（管理者可安裝：apt-get install -y chromium）", "no_pdf"), status_code=503)
    except pdf.PdfError as err:
        return JSONResponse(service.error(f"PDF 產生失敗：{err}", "pdf_failed"), 500)
    return _download(document, "application/pdf", name)


# After the downloads: /r/{id} would also match /r/{id}.md.
@router.get("/r/{ruling_id}")
async def permalink(request: Request, ruling_id: str) -> HTMLResponse:
    """The stored report as the players were given it, under a bar saying what it is."""
    r = await api.filed(request, "ruling", ruling_id)
    links = downloads(f"/r/{quote(r.id)}", RULING_LINKS)
    bar = (f'<nav class="desk-bar" id="permalink-bar"><a href="/">裁判桌</a> · '
           f'<a href="/rulings">裁決檔案</a><div class="desk-meta">'
           f'{_meta(r, zone_of(request))}</div>'
           f'<div class="desk-downloads">{links}</div></nav>')
    # The report's words stay as filed; only the page around them is added.
    html = r.report_html
    head = REPORT_HEAD if VIEWPORT not in html else REPORT_HEAD.replace(VIEWPORT, "")
    html = html.replace("</head>", head + "</head>", 1)
    return HTMLResponse(html.replace("<body>", "<body>" + bar, 1))


@router.get("/report-phone.css")
async def report_phone_css() -> Response:
    return Response(PHONE_CSS, media_type="text/css; charset=utf-8",
                    headers={"Cache-Control": "public, max-age=3600"})


def _row(r: Record) -> str:
    cells = [f'<a href="/r/{e(quote(r.id))}">{e(r.date or r.created.strftime("%Y-%m-%d"))}</a>',
             e(r.table_no), e(" ".join(r.players.split())), e(" ".join(r.offences.split())),
             f'<span class="st {e(r.status)}">{e(STATUS.get(r.status, r.status))}</span>',
             e(r.referee)]
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


@router.get("/rulings")
async def rulings(request: Request, date: str = "", table: str = "", player: str = "",
                  offence: str = "") -> HTMLResponse:
    from adjudicator.language.vocabulary import canonical

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

