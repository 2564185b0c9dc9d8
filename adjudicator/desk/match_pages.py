"""The desk's match pages: send a ``.match`` (upload or paste), read its ledger, keep it.

``/match`` is the form; it posts to itself (a plain form, so it works without script; the
small script only reads a chosen file into the text box).  A judged match is filed and
the browser is sent to its permalink ``/m/{id}``: the ledger as a table (per hand the deal,
the streak, the verdict and each player's total after it), the running totals as an inline
SVG chart, each hand in words, and the downloads.  Every value from a user goes through
``e``; the table and the chart are the match report's own (match/report.py).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from adjudicator.desk import api, history, limits, service
from adjudicator.desk.archive import MatchRecord
from adjudicator.desk.limits import Refused
from adjudicator.desk.pages import (
    BAR_CSS,
    HTML,
    MARKDOWN,
    _page,
    _template,
    downloads,
    e,
    house_label,
    printed,
    spans,
    stored_file,
)
from adjudicator.desk.zone import local_time, zone_of
from adjudicator.match import report
from adjudicator.ruling.model import signed_money

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House

router = APIRouter(include_in_schema=False)

FORM_TYPE = "application/x-www-form-urlencoded"


def _profiles(chosen: str, houses: dict[str, House]) -> str:
    """The rules a match may be judged by: the shipped profiles by their titles, then the
    house rules the operator offers (serve --rules-dir)."""
    from adjudicator.rules.rulesets import profile_label, profile_names

    def option(value: str, label: str) -> str:
        return (f'<option value="{e(value)}"{" selected" if value == chosen else ""}>'
                f"{e(label)}</option>")

    options = ['<option value="">（依將頭的 規則:）</option>']
    options += [option(p, profile_label(p)) for p in profile_names()]
    options += [option(name, house_label(h)) for name, h in houses.items()]
    return "".join(options)


def _form(houses: dict[str, House], text: str = "", profile: str = "",
          problem: dict[str, Any] | None = None, status: int = 200) -> HTMLResponse:
    shown = ""
    if problem is not None:
        err = problem["error"]
        caret = hint = ""
        if err.get("caret"):
            source = e(err.get("source_line") or "")
            caret = f'<pre class="caret">{source}\n{e(err["caret"])}</pre>'
        if err.get("expected"):
            hint = f'<p class="hint">建議：這裡寫{e(err["expected"])}</p>'
        line = e(err.get("line") or "")
        shown = (f'<div class="diag error" id="match-error" data-line="{line}">'
                 f'{caret}<p class="msg">{e(err["message"])}</p>{hint}</div>')
    # One pass: a value that happens to contain "{{text}}" is not filled in again.
    fills = {"profiles": _profiles(profile, houses), "error": shown, "text": e(text)}
    body = re.sub(r"\{\{(profiles|error|text)\}\}", lambda m: fills[m.group(1)],
                  _template("match.html"))
    page = _page("一將", body)
    page.status_code = status
    return page


@router.get("/match")
async def match_form(request: Request) -> HTMLResponse:
    return _form(request.app.state.houses)


@router.post("/match")
async def match_post(request: Request) -> Response:
    """Judge the posted match, file it, and send the browser to its permalink."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != FORM_TYPE:
        raise Refused(415, service.error("請用表單送出（或用 POST /api/match）", "bad_form"))
    raw = await limits.body(request)
    try:
        fields = parse_qs(raw.decode("utf-8"), max_num_fields=4, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, service.error("表單內容須為 UTF-8", "bad_form")) from None
    # Browsers send a text box's line ends as CR LF.
    text = (fields.get("text") or [""])[0].replace("\r\n", "\n")
    profile = (fields.get("profile") or [""])[0]
    try:
        limits.check_text(text)
        chosen, rules = api._profile(profile or None, request.app.state.houses)
        log = api.LogInput(text, chosen, {}, rules)
        result = await api.judge_match(request, log)
    except Refused as refused:
        return _form(request.app.state.houses, text, profile, refused.payload, refused.status)
    filed = await api._file(request, "match", result, text)
    return RedirectResponse(filed["Location"], status_code=303)


# What a filed match downloads as: extension → (its column, media type).
MATCH_FILES = {"md": ("report_md", MARKDOWN), "html": ("report_html", HTML),
               "json": ("match_json", "application/json"),
               "csv": ("ledger_csv", "text/csv; charset=utf-8")}


@router.get("/m/{match_id}.{ext}")
async def download(request: Request, match_id: str, ext: str) -> Response:
    m = await api.filed(request, "match", match_id)
    entries = await run_in_threadpool(request.app.state.archive.history, match_id)
    entry = history.shown_entry(entries, None)
    if ext == "pdf":
        return await printed(request, history.stamp_html(m.report_html, entry),
                             f"match-{m.id}.pdf")
    return stored_file(m, ext, MATCH_FILES, "match", entry)


def _meta(m: MatchRecord, d: dict[str, Any], zone: ZoneInfo) -> str:
    from adjudicator.rules.rulesets import profile_label, rules_label

    rules = rules_label(d["rules"]) if d.get("rules") else f"規則 {profile_label(m.profile)}"
    pairs = [("將", m.title), ("日期", m.date), ("場地", m.venue), ("桌號", m.table_no),
             ("裁判", m.referee), ("玩家", m.players), ("規則", rules.removeprefix("規則 ")),
             ("版本", m.version), ("裁決時間", local_time(m.created, zone))]
    return spans(pairs)


MATCH_LINKS = (("md", "Markdown"), ("html", "HTML"), ("json", "JSON"), ("csv", "帳目 CSV"),
               ("pdf", "PDF（附簽名頁）"))


def _ledger(d: dict[str, Any]) -> str:
    """The ledger as a phone reads it: a column per player (all four fit at 390 px), and per
    hand a line of words (the deal, who won how and for how much) over a row of each
    player's money in the hand and total after it."""
    names = d["names"]
    th = "".join(f'<th scope="col">{e(n)}</th>' for n in names)
    body = []
    for x in d["hands"]:
        label = f" {x['label']}" if x["label"] else ""
        deal = (f"第{x['hand']}盤{label}　{x['round_wind']}風圈 莊 {x['dealer']}"
                f"（{x['dealer_name']}）連 {x['streak']}")
        body.append(f'<tr class="words" data-hand="{x["hand"]}"><td colspan="{len(names) + 1}">'
                    f'<span class="deal">{e(deal)}</span>　'
                    f'<span class="summary">{e(report.hand_summary(x, d))}</span></td></tr>')
        cells = []
        for n in names:
            if x["booked"] and n in x["totals"]:
                delta, total = signed_money(x["balances"][n]), signed_money(x["totals"][n])
                cells.append(f'<td class="money" data-name="{e(n)}"><span class="delta">'
                             f'{e(delta)}</span><span class="total">{e(total)}</span></td>')
            else:
                cells.append(f'<td class="money" data-name="{e(n)}">—</td>')
        body.append(f'<tr class="hand" data-hand="{x["hand"]}"><th scope="row">{x["hand"]}</th>'
                    f'{"".join(cells)}</tr>')
    ends = "".join(f'<td class="money" data-name="{e(n)}">{e(signed_money(d["totals"][n]))}</td>'
                   for n in names)
    body.append(f'<tr class="end"><th scope="row">終局</th>{ends}</tr>')
    return (f'<p class="note">每格上為本盤收支，下為累計</p>'
            f'<table class="list ledger" id="ledger"><thead><tr><th scope="col">盤</th>{th}'
            f'</tr></thead><tbody>{"".join(body)}</tbody></table>')


def _hands(d: dict[str, Any]) -> str:
    out = []
    for x in d["hands"]:
        label = f" {x['label']}" if x["label"] else ""
        items = "".join(f"<li>{e(i)}</li>" for i in report.hand_items(x, d))
        items += "".join(f'<li class="warn">警告：{e(w)}</li>' for w in x["warnings"])
        out.append(f'<details class="hand" id="hand-{x["hand"]}"><summary>第{x["hand"]}盤'
                   f'{e(label)}　{e(report.hand_summary(x, d))}</summary><ul>{items}</ul>'
                   "</details>")
    return "".join(out)


@router.get("/m/{match_id}")
async def permalink(request: Request, match_id: str) -> HTMLResponse:
    """A filed match: its ledger, chart and hands as they were judged."""
    m = await api.filed(request, "match", match_id)
    d = json.loads(m.match_json)
    links = downloads(f"/m/{quote(m.id)}", MATCH_LINKS)
    entries = await run_in_threadpool(request.app.state.archive.history, match_id)
    entry = history.shown_entry(entries, None)
    code = (f'<p class="verification" id="verification">{e(history.code_line(entry))}</p>'
            if entry is not None else "")
    past = history.box(f"/m/{quote(m.id)}", entries, entry, False)
    bar = (f'<nav class="desk-bar" id="permalink-bar"><a href="/match">另一將</a> · '
           f'<a href="/matches">將的檔案</a>'
           f'<div class="desk-meta">{_meta(m, d, zone_of(request))}</div>'
           f'<div class="desk-downloads">{links}</div>{past}{code}</nav>'
           f'<style>{BAR_CSS}</style>')
    ends = "".join(f'<p class="{"stop error" if w.startswith("停止") else "next"}">{e(w)}</p>'
                   for w in report.end_words(d))
    body = (f'{bar}<h1 id="match-title">{e(report.title_words(d))}</h1>'
            f'<p class="note">{e(report.players_words(d))}</p>{ends}'
            f'<h2>帳目</h2>{_ledger(d)}'
            f'<div class="chart">{report.chart_svg(d)}</div>'
            f'<h2>各盤</h2>{_hands(d)}')
    return _page(report.title_words(d), body)


@router.get("/matches")
async def matches(request: Request, player: str = "") -> HTMLResponse:
    found = await run_in_threadpool(request.app.state.archive.matches, player[:40])
    rows = "".join(
        f'<tr><td><a href="/m/{e(quote(m.id))}">{e(m.title or m.date or m.id)}</a></td>'
        f"<td>{e(m.date)}</td><td>{e(m.players)}</td><td>{m.hands}</td>"
        f'<td>{"停止" if m.stopped else "完成"}</td></tr>' for m in found)
    rows = rows or '<tr><td colspan="5">沒有符合的將</td></tr>'
    form = ('<form class="search" method="get" action="/matches"><label>玩家 '
            f'<input name="player" value="{e(player[:40])}"></label>'
            '<button type="submit">搜尋</button> <a href="/match">送出一將</a></form>')
    table = ('<table class="list" id="matches"><thead><tr><th>將</th><th>日期</th><th>玩家</th>'
             f"<th>盤數</th><th>帳目</th></tr></thead><tbody>{rows}</tbody></table>")
    return _page("將的檔案", f"<h1>將的檔案</h1>{form}{table}")
