"""The dispute itself by tapping, at a phone and a desktop viewport: a wrong-pung dispute of
eight acts in at most 20 taps, judged to the payment worked out by hand; undo; the header
fields; nothing wider than the screen.  Debian's Chromium through Playwright against a real
``adjudicator serve`` (conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.desk.test_desk_browser import CHECKED, browser  # noqa: F401  (the fixture)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

# 南 pungs 東's 三萬 laying 三萬 四萬 (22) and throws 九筒; 西 draws and discards (24, 25),
# so the wrong pung stands (錯碰.2 既遂): when 北 reports it (26) 南 is 相公.  南 then
# pungs 西's 五筒 (27): a 相公 may not pung, a second violation, so 南 包賠 (相公二度違規:
# 底 plus the 台 of its face to each of three).  南's face: two pungs, no flowers — 0 台;
# the dealer 東 gets 作莊 1 台 beside (解釋.包賠莊台 yes).  東 300 + 100 = 400, 西 300,
# 北 300; 南 −1,000.
DISPUTE = """21 東 打 三萬
22 南 碰 三萬 用 三萬 四萬
23 南 打 九筒
24 西 摸
25 西 打 五筒
26 北 舉發 南 錯碰
27 南 碰 五筒
28 南 打 一萬""".splitlines()

# Each entry: what is tapped (selectors; "keys:…" types digits).  The seat and act that
# usually follow are set up after each line (下家 draws after a discard, a draw or claim
# is followed by the same seat's discard); a claim takes the latest discard.
TAPS = [
    "#seq-from", "keys:21",
    '.act[data-act="打"]', '.tile[data-tile="三萬"]',
    '.act[data-act="碰"]', '.tile[data-tile="三萬"]', '.tile[data-tile="四萬"]',
    '.suit[data-suit="筒"]', '.tile[data-tile="九筒"]',
    "#add",
    '.tile[data-tile="五筒"]',
    '.act[data-act="舉發"]', '.target[data-target="南"]', '.offence[data-offence="錯碰"]',
    '.seat[data-seat="南"]', '.act[data-act="碰"]', "#add",
    '.suit[data-suit="萬"]', '.tile[data-tile="一萬"]',
]


@pytest.fixture(params=[PHONE, DESKTOP], ids=["390x844", "1366x900"])
def desk(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(viewport=request.param, locale="zh-TW", base_url=server)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto("/")
    page.wait_for_selector(CHECKED)
    yield page
    context.close()


def _overflow(page: Any) -> int:
    """How far the page is wider than the screen, in CSS pixels."""
    return int(page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def _tap(page: Any, taps: list[str]) -> int:
    count = 0
    for tap in taps:
        if tap.startswith("keys:"):
            for key in tap[5:]:
                page.keyboard.press(key)
                count += 1
        else:
            page.click(tap)
            count += 1
    return count


def _record(page: Any) -> list[str]:
    lines = page.input_value("#log").splitlines()
    return [x for x in lines[lines.index("紀錄:") + 1:] if x.strip()]


def test_an_eight_act_dispute_is_tapped_in_twenty_taps_and_judged(desk: Any) -> None:
    assert _overflow(desk) == 0
    count = _tap(desk, TAPS)
    assert count <= 20
    assert _record(desk) == DISPUTE
    desk.wait_for_selector(CHECKED)
    assert desk.locator(".diag.error").count() == 0
    desk.click("#judge")
    desk.wait_for_selector("#links:not([hidden])")
    report = desk.frame_locator("#report")
    balances = report.locator("table.balances td").all_inner_texts()
    assert balances == ["+400", "-1,000", "+300", "+300"] or \
        balances == ["+400", "-1000", "+300", "+300"]
    verdict = report.locator("section.verdict").inner_text()
    assert "南（小華） 包賠" in verdict and "南（小華） 錯碰" in verdict
    assert _overflow(desk) == 0


def test_undo_takes_back_the_last_line_and_a_whole_draft_is_needed(desk: Any) -> None:
    before = desk.input_value("#log")
    desk.click('.act[data-act="打"]')
    assert desk.is_disabled("#add")  # 打 without its tile is no line
    desk.click('.tile[data-tile="五萬"]')
    assert _record(desk) == ["東 打 五萬"]
    # The act is not left selected for a half line: 南's draw is what is set up.
    assert desk.inner_text("#draft") == "已寫入：東 打 五萬"
    desk.click("#add")
    assert _record(desk) == ["東 打 五萬", "南 摸"]
    desk.click("#undo")
    assert _record(desk) == ["東 打 五萬"]
    desk.click("#undo")
    assert desk.input_value("#log") == before
    assert desk.is_disabled("#undo")


def test_the_header_fields_write_their_lines(desk: Any) -> None:
    # 日期 is today where the desk is (Asia/Taipei unless serve --tz says otherwise).
    today = desk.input_value("#h-date")
    assert f"日期: {today}" in desk.input_value("#log")
    desk.fill("#h-table", "7")
    desk.dispatch_event("#h-table", "change")
    desk.fill("#h-referee", "陳大文")
    desk.dispatch_event("#h-referee", "change")
    desk.select_option("#h-start", "開局")
    lines = desk.input_value("#log").splitlines()
    head = lines[:lines.index("紀錄:")]
    assert "桌號: 7" in head and "裁判: 陳大文" in head and "起點: 開局" in head
    desk.wait_for_selector(CHECKED)
    assert desk.locator(".diag.error").count() == 0
    # Emptying a box removes its line.
    desk.fill("#h-table", "")
    desk.dispatch_event("#h-table", "change")
    assert not any(x.startswith("桌號") for x in desk.input_value("#log").splitlines())


def test_referee_acts_and_the_referee_seat(desk: Any) -> None:
    desk.click('.seat[data-seat="裁判"]')
    desk.click('.act[data-act="發現"]')
    desk.click('.target[data-target="北"]')
    desk.click('.offence[data-offence="錯杠"]')
    desk.click('.act[data-act="荒局"]')
    desk.click('.seat[data-seat="西"]')
    desk.click('.act[data-act="自承"]')
    desk.click('.offence[data-offence="偷牌"]')
    assert _record(desk) == ["裁判 發現 北 錯杠", "牌局 荒局", "西 自承 偷牌"]
    desk.wait_for_selector(CHECKED)
    assert desk.locator(".diag.error").count() == 0
    # Every act of the language has its button.
    from adjudicator.language.vocabulary import OFFENCES, VERBS

    shown = set(desk.locator(".act").evaluate_all("bs => bs.map(b => b.dataset.act)"))
    assert shown == set(VERBS)
    offences = desk.locator(".offence").evaluate_all("bs => bs.map(b => b.dataset.offence)")
    assert offences == list(OFFENCES)


# The smallest text on a page, in CSS pixels (what a player reads on a phone); the chart's
# labels scale with it and are left out.
SMALLEST = """() => { let least = 1e9;
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const n = walk.currentNode; const p = n.parentElement;
    if (!n.textContent.trim() || !p || p.closest("svg") || !p.getClientRects().length) continue;
    least = Math.min(least, parseFloat(getComputedStyle(p).fontSize)); }
  return least; }"""


def _filed(server: str, text: str) -> str:
    import httpx2

    answer = httpx2.post(f"{server}/api/judge", params={"format": "html", "archive": "true"},
                         content=text.encode("utf-8"),
                         headers={"Content-Type": "text/plain; charset=utf-8"}, timeout=60)
    assert answer.status_code == 200
    return f"/r/{answer.headers['X-Ruling-Id']}"


def test_the_permalink_and_the_archive_fit_the_screen(desk: Any, server: str,
                                                      called: str) -> None:
    permalink = _filed(server, called)
    for path in (permalink, "/rulings"):
        desk.goto(path)
        assert _overflow(desk) == 0, path
        if desk.viewport_size["width"] < 500:
            assert desk.evaluate(SMALLEST) >= 15, path
    desk.goto(permalink)
    assert "東（阿明） 喊碰未碰" in desk.inner_text("section.verdict")
    assert "Asia/Taipei" not in desk.inner_text("#permalink-bar")  # a time, no zone code


def test_the_match_page_keeps_all_four_players_on_the_screen(desk: Any) -> None:
    from tests.desk.test_desk_browser import EAST

    desk.goto("/match")
    desk.fill("#match-text", EAST.read_text("utf-8"))
    desk.click("#match-judge")
    desk.wait_for_url("**/m/*")
    assert _overflow(desk) == 0
    width = desk.viewport_size["width"]
    for cell in desk.locator("#ledger tr.end td.money").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
    if width < 500:
        assert desk.evaluate(SMALLEST) >= 15
    assert desk.locator("#dl-pdf").count() == 1


# From the desk's own page (its origin, under its CSP): the JSON form of the tapped dispute
# is judged as its text, and a misspelled field of it is refused naming the field it means.
POST_JSON = """async (body) => {
  const r = await fetch("/api/judge", {method: "POST", body: JSON.stringify(body),
    headers: {"content-type": "application/json"}});
  return {status: r.status, body: await r.json()};
}"""


def test_the_json_form_is_judged_and_a_misspelled_field_refused(desk: Any) -> None:
    from adjudicator.language.json_form import to_json_form
    from adjudicator.language.reader import read

    head = "規則: tw16\n圈風: 東\n莊家: 東\n底: 300\n台: 100\n\n紀錄:\n"
    form = to_json_form(read(head + "\n".join(DISPUTE) + "\n"))
    judged = desk.evaluate(POST_JSON, form)
    assert judged["status"] == 200, judged["body"]
    assert judged["body"]["balances"] == {"東": 400, "南": -1000, "西": 300, "北": 300}
    form["events"][1]["tile"] = form["events"][1].pop("tiles")
    refused = desk.evaluate(POST_JSON, form)
    err = refused["body"]["error"]
    assert refused["status"] == 422
    assert (err["where"], err["field"], err["nearest"]) == ("events[1]", "tile", "tiles")
