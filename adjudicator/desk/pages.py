"""The pages a referee opens: the desk, the archive list, a ruling's permalink, downloads.

Pages are built on the server from two templates; every value that came from a user goes
through ``e`` (HTML-escaped, quotes included).  The stored report is the HTML renderer's own
output, which escapes what the log says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import escape
from importlib.resources import files
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response

from adjudicator.desk import api, history, security, service
from adjudicator.desk.archive import Query, Record
from adjudicator.desk.bar import BAR_CSS
from adjudicator.desk.limits import Refused
from adjudicator.desk.zone import local_time, today, zone_of
from adjudicator.language.seats import SEATS
from adjudicator.report import pdf
from adjudicator.report.html import PHONE_CSS, VIEWPORT
from adjudicator.ruling.model import STATUS_SHORT

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House

router = APIRouter(include_in_schema=False)

STATUS = STATUS_SHORT
OFFENCES = ("優先", "詐和", "包賠", "相公", "代位賠付", "錯杠", "錯碰", "錯打明牌", "過水",
            "眼牌違規", "禁制", "喊碰未碰", "強制復原")


# For reports filed before they carried their own viewport and phone layout: the page
# around them adds both (/report-phone.css), the report's words untouched.
OLD_REPORT_HEAD = f'{VIEWPORT}<link rel="stylesheet" href="/report-phone.css">'


def e(value: object) -> str:
    return escape(str(value), quote=True)


def _template(name: str) -> str:
    return files("adjudicator.desk").joinpath("templates", name).read_text("utf-8")


def _filled(title: str, body: str) -> str:
    """The page template around ``body``, with the signed-in account in its header and the
    CSRF token for its script and its forms (security.py)."""
    fills = {"title": e(title), "head": security.page_head(),
             "account": security.with_form_tokens(security.account_bar(e)),
             "body": security.with_form_tokens(body)}
    # One pass: a value that happens to contain "{{body}}" is not filled in again.
    return re.sub(r"\{\{(title|head|account|body)\}\}", lambda m: fills[m.group(1)],
                  _template("page.html"))


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(_filled(title, body))


# The kinds of act (the verb table's) whose buttons are always shown, in the order a hand
# is played and then disputed; calls, handling and tiles shown wait under 其他動作.  The
# last four are the referee's and the table's, marked on their buttons.
COMMON_KINDS = ("draw", "discard", "claim", "kong", "flower", "win", "announcement",
                "report", "referee", "mishap", "table")
REFEREE_KINDS = COMMON_KINDS[-4:]


def common_acts() -> list[str]:
    from adjudicator.language.vocabulary import VERBS, kind_of

    return sorted((v for v in VERBS if kind_of(v) in COMMON_KINDS),
                  key=lambda v: COMMON_KINDS.index(kind_of(v)))


def _buttons(cls: str, attr: str, words: tuple[str, ...] | list[str]) -> str:
    return "".join(f'<button type="button" class="{cls}" data-{attr}="{e(w)}">{e(w)}</button>'
                   for w in words)


def _act_buttons(words: list[str]) -> str:
    """Each act's button, with its shape from the verb table (its grammar terminal, and
    whether the referee may write it): desk.js reads what an act needs from these."""
    from adjudicator.language.vocabulary import kind_of, properties_of, terminal_of

    return "".join(
        f'<button type="button" class="act{" referee" if kind_of(w) in REFEREE_KINDS else ""}" '
        f'data-act="{e(w)}" data-shape="{terminal_of(w)}"'
        f'{" data-by-referee" if "referee" in properties_of(w) else ""}>{e(w)}</button>'
        for w in words)


@router.get("/")
async def desk(request: Request) -> HTMLResponse:
    from adjudicator.language.vocabulary import HEADER_KEYS, VERBS
    from adjudicator.language.vocabulary import OFFENCES as ACCUSABLE
    from adjudicator.rules.files import DEFAULT_PROFILE
    from adjudicator.rules.rulesets import (
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
    options += house_options(request, option)
    common = common_acts()
    more = [v for v in VERBS if v not in common]
    keys = sorted(set(HEADER_KEYS.values()))
    fills = {"profiles": options, "acts": _act_buttons(common),
             "more_acts": _act_buttons(more), "offences": _buttons("offence", "offence", ACCUSABLE),
             "targets": _buttons("target", "target", [*SEATS, "牌牆"]),
             "header_keys": e(" ".join(keys)), "today": e(today(zone_of(request))),
             "settings": setting_choices()}
    body = re.sub(r"\{\{(\w+)\}\}", lambda m: fills[m.group(1)], _template("desk.html"))
    return _page("裁判桌", body)


def house_options(request: Request, option: Callable[[str, str, str], str]) -> str:
    """The house rules the operator offers (serve --rules-dir), by name, as options."""
    return "".join(option(name, house_label(h), h.profile)
                   for name, h in request.app.state.houses.items())


def house_label(house: House) -> str:
    return f"{house.name}（家規，依據 {house.extends}）"


def setting_choices() -> str:
    """The settings list of the desk: every point's readings and every parameter's values,
    from their one definition (ruling/interpretations.toml)."""
    from adjudicator.ruling.interpretations import PARAMS, POINTS

    out = []
    for d in (*POINTS.values(), *PARAMS.values()):
        options = d.readings if d.id in POINTS else PARAMS[d.id].values
        if options is None:
            lo, hi = PARAMS[d.id].range
            options = {d.default: f"{lo}–{hi} {PARAMS[d.id].unit}"}
        out += [f'<option value="{e(d.id)}={e(v)}">{e(d.question)}：{e(meaning)}</option>'
                for v, meaning in options.items()]
    return "".join(out)


def _meta(r: Record, zone: ZoneInfo) -> str:
    pairs = [("日期", r.date), ("場地", r.venue), ("桌號", r.table_no), ("裁判", r.referee),
             ("盤號", r.hand_no), ("玩家", r.players), ("規則", _rules(r).removeprefix("規則 ")),
             ("版本", r.version),
             ("裁決時間", local_time(r.created, zone))]
    settings = json.loads(r.settings)
    if settings:
        pairs.append(("設定", "；".join(setting_words(k, v) for k, v in settings.items())))
    return spans(pairs)


def setting_words(point: str, value: str) -> str:
    """A --set override as words: 解釋.八張窗：所有進牌（含補牌）, tai_di_ting：6 台."""
    from adjudicator.ruling.interpretations import PARAMS, describe

    if point in PARAMS:
        from adjudicator.rules.rulesets import words

        return f"{point}：{words(PARAMS[point], value)}"
    return f"{point}：{describe(point, value)}"


def spans(pairs: list[tuple[str, str]]) -> str:
    """A permalink bar's facts, each labelled; the empty ones left out."""
    return "".join(f"<span><b>{e(k)}</b> {e(v)}</span>" for k, v in pairs if v)


def downloads(base: str, kinds: tuple[tuple[str, str], ...], query: str = "") -> str:
    """Download links of a filed record at ``base`` (``/r/ID``), one per (extension, label)."""
    return "".join(f'<a class="dl" id="dl-{ext}" href="{e(base)}.{ext}{e(query)}" download>'
                   f"{label}</a>" for ext, label in kinds)


def _download(content: str | bytes, media: str, name: str) -> Response:
    return Response(content, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


RULING_LINKS = (("md", "Markdown"), ("html", "HTML"), ("json", "JSON"), ("pdf", "PDF"))
MARKDOWN, HTML = "text/markdown; charset=utf-8", "text/html; charset=utf-8"
# What a filed ruling downloads as: extension → (its column, media type); PDF is printed.
RULING_FILES = {"md": ("report_md", MARKDOWN), "html": ("report_html", HTML),
                "json": ("ruling_json", "application/json")}


def stored_file(record: Any, ext: str, files: dict[str, tuple[str, str]], stem: str,
                entry: Any = None) -> Response:
    """One of a filed record's stored documents as a download, by its extension; a report
    prints the verification code of its chain ``entry``."""
    if ext not in files:
        raise Refused(404, service.error(f"沒有 .{ext} 這種下載", "not_found"))
    column, media = files[ext]
    content = history.stamp(ext, getattr(record, column), entry)
    return _download(content, media, f"{stem}-{record.id}.{ext}")


async def _shown(request: Request, ruling_id: str,
                 v: int | None) -> tuple[Record, list[Any], Any]:
    """A filed ruling's version ``v`` (else the one standing), its history and the entry
    of the version shown."""
    r = await api.filed(request, "ruling", ruling_id, v)
    entries = await run_in_threadpool(request.app.state.archive.history, ruling_id)
    return r, entries, history.shown_entry(entries, v)


@router.get("/r/{ruling_id}.{ext}")
async def download(request: Request, ruling_id: str, ext: str, v: int | None = None) -> Response:
    r, _, entry = await _shown(request, ruling_id, v)
    if ext != "pdf":
        return stored_file(r, ext, RULING_FILES, "ruling", entry)
    return await printed(request, history.stamp_html(r.report_html, entry),
                         f"ruling-{r.id}.pdf")


async def printed(request: Request, html: str, name: str) -> Response:
    """``html`` printed by the desk's printer (desk/printer.py) as the download ``name``, or
    the JSON error saying why not (503: no Chromium, the queue full, a failed print)."""
    from adjudicator.desk.printer import Full, TooSlow

    try:
        document = await request.app.state.printer.print(html)
    except pdf.NoChromium:
        return JSONResponse(service.error(
            "伺服器上沒有 Chromium，無法產生 PDF；請下載 HTML 後列印"
            "（管理者可安裝：apt-get install -y chromium）", "no_pdf"), status_code=503)
    except Full:
        return JSONResponse(service.error("PDF 列印佇列已滿，請稍後再試", "pdf_busy"), 503,
                            headers={"Retry-After": "5"})
    except TooSlow as err:
        return JSONResponse(service.error(f"PDF 列印逾時（上限 {err.args[0]:g} 秒）",
                                          "timeout"), 504)
    except pdf.PdfError as err:
        return JSONResponse(service.error(f"PDF 產生失敗：{err}", "pdf_failed"), 503)
    return _download(document, "application/pdf", name)


# After the downloads: /r/{id} would also match /r/{id}.md.
@router.get("/r/{ruling_id}")
async def permalink(request: Request, ruling_id: str, v: int | None = None) -> HTMLResponse:
    """The stored report as the players were given it, under a bar saying what it is, its
    history (corrections, a withdrawal) and the verification code of the version shown."""
    r, entries, entry = await _shown(request, ruling_id, v)
    base = f"/r/{quote(r.id)}"
    links = downloads(base, RULING_LINKS, history.version_query(v))
    who = security.who(request)
    past = history.box(base, entries, entry, who is not None and who.may("referee"))
    bar = (f'<nav class="desk-bar" id="permalink-bar"><a href="/">裁判桌</a> · '
           f'<a href="/rulings">裁決檔案</a>'
           f'<div class="desk-meta">{_meta(r, zone_of(request))}</div>'
           f'<div class="desk-downloads">{links}</div>{past}</nav><style>{BAR_CSS}</style>')
    report = history.stamp_html(r.report_html, entry)
    # The report's words stay as filed; only the page around them is added.
    if VIEWPORT not in report:
        report = report.replace("</head>", OLD_REPORT_HEAD + "</head>", 1)
    answer = HTMLResponse(report.replace("<body>", "<body>" + bar, 1))
    # The stored report's own stylesheet, as the program that judged it wrote it.
    answer.headers["Content-Security-Policy"] = security.policy(
        [*security.known_styles(), *security.head_styles(r.report_html)])
    return answer


@router.get("/report-phone.css")
async def report_phone_css() -> Response:
    return Response(PHONE_CSS, media_type="text/css; charset=utf-8",
                    headers={"Cache-Control": "public, max-age=3600"})


def _rules(r: Record) -> str:
    """By which rules a filed ruling was judged, from its ruling JSON's ``rules``."""
    from adjudicator.rules.rulesets import rules_label

    rules = r.summary()["rules"]
    return rules_label(rules) if rules else f"規則 {r.profile}"


STATE_WORDS = {"corrected": "（已更正）", "withdrawn": "（已撤回）"}


def _row(r: Record, state: str = "") -> str:
    cells = [f'<a href="/r/{e(quote(r.id))}">{e(r.date or r.created.strftime("%Y-%m-%d"))}</a>',
             e(r.table_no), e(" ".join(r.players.split())), e(" ".join(r.offences.split())),
             f'<span class="st {e(r.status)}">{e(STATUS.get(r.status, r.status))}</span>'
             f"{STATE_WORDS.get(state, '')}", e(r.referee), e(_rules(r))]
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


@router.get("/rulings")
async def rulings(request: Request, date: str = "", table: str = "", player: str = "",
                  offence: str = "") -> HTMLResponse:
    from adjudicator.language.vocabulary import canonical

    query = Query(date[:40], table[:40], player[:40], canonical(offence[:40]))
    found = await run_in_threadpool(request.app.state.archive.search, query)
    states = await run_in_threadpool(request.app.state.archive.states, [r.id for r in found])
    kinds = "".join(f'<option value="{e(k)}"{" selected" if k == query.offence else ""}>'
                    f"{e(k)}</option>" for k in OFFENCES)
    form = (
        '<form class="search" method="get" action="/rulings">'
        f'<label>日期 <input name="date" value="{e(query.date)}" placeholder="2026-11"></label>'
        f'<label>桌號 <input name="table" value="{e(query.table)}" size="4"></label>'
        f'<label>玩家 <input name="player" value="{e(query.player)}"></label>'
        f'<label>違規 <select name="offence"><option value="">（全部）</option>{kinds}'
        '</select></label><button type="submit">搜尋</button></form>')
    rows = ("".join(_row(r, states.get(r.id, "")) for r in found)
            or '<tr><td colspan="7">沒有符合的裁決</td></tr>')
    table_html = ('<table class="list" id="rulings"><thead><tr><th>日期</th><th>桌號</th>'
                  "<th>玩家</th><th>違規</th><th>狀態</th><th>裁判</th><th>規則</th></tr></thead>"
                  f"<tbody>{rows}</tbody></table>")
    link = f'<p class="note">JSON：<a href="/api/rulings?{e(urlencode(vars(query)))}">' \
           "/api/rulings</a></p>"
    return _page("裁決檔案", f"<h1>裁決檔案</h1>{form}{table_html}{link}")


def error_page(status: int, payload: dict[str, Any]) -> HTMLResponse:
    body = f'<h1>錯誤</h1><p class="error">{e(payload["error"]["message"])}</p>'
    return HTMLResponse(_filled("錯誤", body), status_code=status)

