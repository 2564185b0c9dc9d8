"""The desk as a referee uses it: Debian's Chromium driven by Playwright against a real
``adjudicator serve`` on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.report.pdf import HEADLESS

# The log has been checked and parses (a fragment is warned of its unstated start).
CHECKED = "#lint-state.ok, #lint-state.warn"
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is not installed (apt-get install -y chromium)")

ARGS = list(HEADLESS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 412, "height": 915}, locale="zh-TW",
                                  base_url=server)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto("/")
    page.wait_for_selector(CHECKED)  # the sample log has been checked
    yield page
    context.close()


def _type_log(page: Any, text: str) -> None:
    page.fill("#log", "")
    page.locator("#log").press_sequentially(text[:40])  # typed, like a referee would
    page.fill("#log", text)
    page.dispatch_event("#log", "input")


def test_a_typo_is_shown_under_its_line_with_a_caret_and_a_suggestion(page: Any) -> None:
    log = "規則: tw16\n莊家: 東\n\n紀錄:\n11 西 打 七筒\n12 東 碰 七同\n13 東 打 九萬\n"
    _type_log(page, log)
    diag = page.locator('.diag.error[data-line="6"]')
    diag.wait_for()
    # It sits right under line 6, not elsewhere.
    above = diag.evaluate("d => d.previousElementSibling.dataset.line")
    assert above == "6"
    assert page.locator(".diag.error").count() == 1
    caret = diag.locator("pre.caret").inner_text()
    assert caret.splitlines()[0] == "12 東 碰 七同"
    assert caret.splitlines()[1].endswith("^")
    assert "第 6 行" in diag.inner_text() and "建議" in diag.inner_text()
    assert "牌名" in diag.inner_text()
    # Fixing it clears the error.
    page.fill("#log", log.replace("七同", "七筒"))
    page.dispatch_event("#log", "input")
    page.wait_for_selector(CHECKED)
    assert page.locator(".diag.error").count() == 0


def test_a_contradiction_is_a_warning_under_the_discard(page: Any) -> None:
    hand = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索"
    log = f"規則: tw16\n莊家: 東\n西 手牌: {hand}\n紀錄:\n11 西 摸 東\n12 西 打 中\n"
    _type_log(page, log)
    warn = page.locator('.diag.warn[data-line="6"]', has_text="手中並無")
    warn.wait_for()
    assert warn.evaluate("d => d.previousElementSibling.dataset.line") == "6"


def test_tapping_builds_a_hand_and_shows_the_count(page: Any) -> None:
    page.click('.tab[data-tab="hand"]')
    page.click('.seat[data-seat="南"]')
    taps = ["一萬", "二萬", "三萬", "四萬", "五萬", "六萬", "七萬", "八萬", "九萬"]
    for tile in taps:
        page.click(f'.tile[data-tile="{tile}"]')
    assert page.inner_text("#hand-count") == "9"
    page.click('.suit[data-suit="字"]')
    for tile in ["東", "東", "中", "中"]:
        page.click(f'.tile[data-tile="{tile}"]')
    assert page.inner_text("#hand-count") == "13"
    page.click('.kind[data-kind="門前"]')
    page.click('.meld[data-meld="碰"]')
    page.click('.tile[data-tile="白"]')
    assert page.inner_text("#hand-count") == "16"
    page.click('.kind[data-kind="花"]')
    page.click('.suit[data-suit="花"]')
    page.click('.tile[data-tile="春"]')
    assert page.inner_text("#hand-count") == "16"  # flowers are not among the sixteen
    page.click("#hand-add")
    text = page.input_value("#log")
    lines = text.splitlines()
    at = lines.index("南 手牌: 一萬 二萬 三萬 四萬 五萬 六萬 七萬 八萬 九萬 東 東 中 中")
    assert lines[at + 1] == "南 門前: 碰 白" and lines[at + 2] == "南 花: 春"
    assert at < lines.index("紀錄:")
    page.wait_for_selector(CHECKED)  # what the taps wrote parses


def test_tapping_writes_an_act_line_with_the_players_names_on_the_seats(page: Any) -> None:
    assert "阿德" in page.inner_text('.seat[data-seat="西"]')
    page.click('.seat[data-seat="西"]')
    page.click('.act[data-act="打"]')
    page.click('.suit[data-suit="筒"]')
    page.click('.tile[data-tile="七筒"]')  # a discard is whole with its tile: written
    assert page.input_value("#log").rstrip().splitlines()[-1] == "西 打 七筒"
    assert page.inner_text("#draft") == "已寫入：西 打 七筒"
    # The 下家's draw is set up next; 北 chows instead, the discard filled in.
    page.click('.seat[data-seat="北"]')
    page.click('.act[data-act="吃"]')
    assert page.inner_text("#draft").startswith("北 吃 七筒")
    for tile in ("六筒", "八筒"):
        page.click(f'.tile[data-tile="{tile}"]')
    assert page.input_value("#log").rstrip().splitlines()[-1] == "北 吃 七筒 用 六筒 八筒"
    page.wait_for_selector(CHECKED)


def test_judge_shows_who_pays_whom_and_the_permalink_opens(page: Any, called: str) -> None:
    _type_log(page, called)
    page.wait_for_selector(CHECKED)
    page.click("#judge")
    page.wait_for_selector("#links:not([hidden])")
    report = page.frame_locator("#report")
    verdict = report.locator("section.verdict").inner_text()
    assert "東（阿明） 喊碰未碰" in verdict
    rows = report.locator("section:has(h2:text-is('賠付')) tbody tr")
    assert rows.count() == 1
    assert rows.first.inner_text().split("\t")[:3] == ["東（阿明）", "西（阿德）", "100"]
    balances = report.locator("table.balances").inner_text()
    assert "-100" in balances and "+100" in balances
    assert "上家" in report.locator("body").inner_text()  # the reason: 西 is not 東's 上家
    permalink = page.get_attribute("#permalink", "href")
    assert permalink and permalink.startswith("/r/")
    for ext in ("md", "html", "json", "pdf"):
        assert page.get_attribute(f"#dl-{ext}", "href") == f"{permalink}.{ext}"
    page.click("#permalink")
    page.wait_for_url(f"**{permalink}")
    bar = page.inner_text("#permalink-bar")
    assert "和平麻將會館" in bar and "陳大文" in bar and "7" in bar
    assert "東（阿明） 喊碰未碰" in page.inner_text("section.verdict")
    # And the archive lists it under the player's name.
    page.goto("/rulings?player=阿德")
    assert page.locator(f'#rulings a[href="{permalink}"]').count() == 1


def test_html_in_player_names_stays_text(page: Any, called: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    log = called.replace("阿明", "<i>阿明</i>").replace("小華", "<script>alert(1)</script>")
    _type_log(page, log)
    page.wait_for_selector(CHECKED)
    assert "<i>阿明</i>" in page.inner_text('.seat[data-seat="東"]')
    page.click("#judge")
    page.wait_for_selector("#links:not([hidden])")
    report = page.frame_locator("#report")
    assert "東（<i>阿明</i>） 喊碰未碰" in report.locator("section.verdict").inner_text()
    assert report.locator("i").count() == 0 and report.locator("body script").count() == 0
    page.click("#permalink")
    page.wait_for_selector("#permalink-bar")
    assert "<script>alert(1)</script>" in page.inner_text("#permalink-bar")
    assert page.locator("i").count() == 0 and page.locator("body script").count() == 0
    page.goto("/rulings?player=" + "<i>阿明</i>")
    assert "<i>阿明</i>" in page.inner_text("#rulings")
    assert page.input_value('input[name="player"]') == "<i>阿明</i>"
    assert page.locator("i").count() == 0
    assert dialogs == []


def test_a_refused_line_with_html_in_it_is_shown_as_text(page: Any) -> None:
    _type_log(page, "規則: tw16\n玩家: 東=<img/src=x/onerror=alert(1)>\n紀錄:\n")
    diag = page.locator('.diag.error[data-line="2"]')
    diag.wait_for()
    assert "<img/src=x/onerror=alert(1)>" in diag.inner_text()
    assert page.locator("img").count() == 0


def test_control_characters_typed_in_are_refused_under_their_line(page: Any) -> None:
    _type_log(page, "規則: tw16\n紀錄:\n11 西 打\x1b[31m 七筒\n")
    diag = page.locator('.diag.error[data-line="3"]')
    diag.wait_for()
    assert "控制字元" in diag.inner_text() and "U+001B" in diag.inner_text()


def test_a_huge_paste_is_refused_with_a_message(page: Any) -> None:
    page.fill("#log", "規則: tw16\n紀錄:\n" + ("# " + "x" * 1000 + "\n") * 300)
    page.dispatch_event("#log", "input")
    page.wait_for_selector('#lint-state:has-text("內容過大")')
    page.click("#judge")
    page.wait_for_selector('#judge-state:has-text("內容過大")')
    assert page.is_hidden("#links")


def test_deeply_nested_json_pasted_in_is_only_a_log_that_does_not_parse(page: Any) -> None:
    page.fill("#log", '{"text": ' + "[" * 5000 + "]" * 5000 + "}")
    page.dispatch_event("#log", "input")
    diag = page.locator('.diag.error[data-line="1"]')
    diag.wait_for()
    assert page.locator(".diag.error").count() == 1


EAST = Path(__file__).resolve().parents[2] / "cases" / "matches" / "east_round.match"


def test_an_uploaded_match_shows_its_ledger_totals_and_chart(page: Any) -> None:
    page.goto("/match")
    page.set_input_files("#match-file", str(EAST))
    page.wait_for_function("document.getElementById('match-text').value.includes('第9盤')")
    page.click("#match-judge")
    page.wait_for_url("**/m/*")
    permalink = page.url
    # east_round.match's totals, worked out by hand in the file.
    end = page.locator("#ledger tr.end td.money").all_inner_texts()
    assert end == ["+2700", "-2000", "-1100", "+400"]
    # Hand 5: 小美 draws her own win, 3 台 (東 pays 600, 南 the dealer 700, 西 600).
    words = page.inner_text('#ledger tr.words[data-hand="5"]')
    assert "莊 南（小華）連 0" in words and "小美 自摸 3 台" in words
    assert "小美 收 1,900" in words and "小華 付 700" in words
    fifth = page.locator('#ledger tr.hand[data-hand="5"]')
    assert fifth.locator(".delta").all_inner_texts() == ["-600", "-700", "-600", "+1900"]
    assert fifth.locator(".total").all_inner_texts() == ["+2800", "-2300", "-900", "+400"]
    assert "荒局，無人和牌" in page.inner_text('#ledger tr.words[data-hand="3"]')
    assert page.locator("#chart polyline.series").count() == 4
    assert page.locator("#chart").bounding_box()["width"] <= 412  # fits the phone
    page.click("#hand-4 summary")
    assert "收支：阿明 0 小華 0 阿德 +600 小美 -600" in page.inner_text("#hand-4")
    # The permalink is what the players are sent: it opens again, and the archive lists it.
    page.goto("/matches?player=小美")
    page.click(f'#matches a[href="/m/{permalink.rsplit("/m/", 1)[1]}"]')
    page.wait_for_url(permalink)
    assert page.locator("#ledger tr.end td.money").all_inner_texts() == end


def test_html_in_a_match_stays_text(page: Any) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    text = EAST.read_text("utf-8").replace("阿明", "<i>阿明</i>").replace(
        "小華", "<script>alert(1)</script>")
    page.goto("/match")
    page.fill("#match-text", text)
    page.click("#match-judge")
    page.wait_for_url("**/m/*")
    head = page.locator("#ledger thead th").all_inner_texts()
    assert head[1:] == ["<i>阿明</i>", "<script>alert(1)</script>", "阿德", "小美"]
    assert page.locator("main i").count() == 0 and page.locator("body script").count() == 0
    assert dialogs == []



def _hand_size(page: Any) -> tuple[str, str]:
    return page.inner_text("#hand-size"), page.inner_text("#hand-win")


def test_the_hand_count_follows_the_logs_family(page: Any) -> None:
    page.click('.tab[data-tab="hand"]')
    assert _hand_size(page) == ("16", "17")  # the sample log: 規則: tw16
    _type_log(page, "規則: gd\n莊家: 東\n紀錄:\n")
    assert _hand_size(page) == ("13", "14")  # four sets and a pair
    # No 規則: line: the profile picked decides, and with none picked the default (tw16).
    _type_log(page, "莊家: 東\n紀錄:\n")
    assert _hand_size(page) == ("16", "17")
    page.select_option("#profile", "gd")
    assert _hand_size(page) == ("13", "14")
    # The log's own line names the family it is judged in (another pick is refused).
    _type_log(page, "规则: tw16-alt\n莊家: 東\n紀錄:\n")
    assert _hand_size(page) == ("16", "17")


# 平和 (四副順子, 九筒 pair) on 西's discard: 1 番 → 分值 2, 西 pays 10 × 2 = 20 (粵番.平和).
GD_LOG = (Path(__file__).resolve().parents[2] / "cases" / "gd" / "fan_pinghu.case").read_text(
    encoding="utf-8")


def test_a_gd_log_is_judged_as_gd_unless_another_family_is_picked(page: Any) -> None:
    # The profile list is left as the page opens: the log's 規則: gd decides.
    assert page.input_value("#profile") == ""
    _type_log(page, GD_LOG)
    page.wait_for_selector(CHECKED)
    assert page.locator(".diag.error").count() == 0
    page.click("#judge")
    page.wait_for_selector("#links:not([hidden])")
    report = page.frame_locator("#report").locator("body").inner_text()
    assert "粵番.平和" in report and "1 番" in report and "代號 gd" in report
    rows = page.frame_locator("#report").locator("section:has(h2:text-is('賠付')) tbody tr")
    assert rows.first.inner_text().split("\t")[:3] == ["西", "南", "20"]
    # Picking a Taiwanese profile for it is refused, on the 規則: line, as the CLI does.
    page.select_option("#profile", "tw16")
    rule_line = GD_LOG.splitlines().index("規則: gd") + 1
    page.locator(f'.diag.error[data-line="{rule_line}"]', has_text="一族").wait_for()
    page.click("#judge")
    page.wait_for_selector("#judge-state.bad")
    assert "不能改依 tw16" in page.inner_text("#judge-state")
