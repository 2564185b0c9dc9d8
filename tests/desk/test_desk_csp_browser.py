"""The desk's pages in Debian's Chromium (Playwright) under their Content-Security-Policy:
no violation on any page, the open loopback desk and a desk with accounts alike (signing in,
judging through the page's script, the report in its frame, a form's CSRF token)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.report.pdf import HEADLESS

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
EAST = ROOT / "cases" / "matches" / "east_round.match"
PASSWORD = "correct horse battery"
CHECKED = "#lint-state.ok, #lint-state.warn"
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is not installed (apt-get install -y chromium)")

# Collects what the browser reports as a CSP violation, from before any page script runs.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
    + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=list(HEADLESS))
        yield chromium
        chromium.close()


class Watched:
    """A page whose CSP violations (events and console messages) are gathered."""

    def __init__(self, browser: Any, base: str) -> None:
        self.context = browser.new_context(viewport={"width": 412, "height": 915},
                                           locale="zh-TW", base_url=base)
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(m.text)
                     if "Content Security Policy" in m.text else None)

    def violations(self) -> list[str]:
        seen = list(self.console)
        for frame in self.page.frames:
            try:
                seen += frame.evaluate("window.__violations || []")
            except Exception:  # a frame navigating away
                pass
        return seen

    def visit(self, path: str) -> None:
        self.page.goto(path)
        self.page.wait_for_load_state("networkidle")
        assert self.violations() == [], path


def _judge_on_the_page(page: Any, called: str) -> str:
    page.goto("/")
    page.wait_for_selector(CHECKED)
    page.fill("#log", called)
    page.dispatch_event("#log", "input")
    page.wait_for_selector(CHECKED)
    page.click("#judge")
    page.wait_for_selector("#links:not([hidden])")
    verdict = page.frame_locator("#report").locator("section.verdict").inner_text()
    assert "喊碰未碰" in verdict
    permalink = page.get_attribute("#permalink", "href")
    assert permalink
    return permalink


def _match_on_the_page(page: Any) -> str:
    page.goto("/match")
    page.set_input_files("#match-file", str(EAST))
    page.wait_for_function("document.getElementById('match-text').value.includes('第9盤')")
    page.click("#match-judge")
    page.wait_for_url("**/m/*")
    return page.url


def test_no_csp_violation_on_the_open_desks_pages(browser: Any, server: str,
                                                  called: str) -> None:
    watched = Watched(browser, server)
    try:
        page = watched.page
        permalink = _judge_on_the_page(page, called)
        # The report's own stylesheet applied in the frame (allowed by its hash).
        colour = page.frame_locator("#report").locator("h2").first.evaluate(
            "h => getComputedStyle(h).borderBottomStyle")
        assert colour == "solid"
        assert watched.violations() == []
        match = _match_on_the_page(page)
        assert watched.violations() == []
        for path in (permalink, permalink + "?v=1", match, "/rulings", "/matches",
                     "/login", f"{permalink}/amend"):
            watched.visit(path)
        watched.visit("/docs")
        page.wait_for_selector(".swagger-ui .opblock")
        assert watched.violations() == []
    finally:
        watched.context.close()


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory, serving: Any) -> Iterator[str]:
    """``adjudicator serve`` on an archive with a referee's account."""
    from adjudicator.desk import accounts
    from adjudicator.desk.archive import Archive

    db = f"sqlite:///{tmp_path_factory.mktemp('club') / 'archive.db'}"
    accounts.add_user(Archive(db).engine, "rita", PASSWORD, "referee")
    with serving(db, workers=1, probe="/login") as url:
        yield url


def test_a_referee_signs_in_and_judges_through_the_page(browser: Any, club_server: str,
                                                        called: str) -> None:
    watched = Watched(browser, club_server)
    try:
        page = watched.page
        page.goto("/rulings")
        page.wait_for_url("**/login?next=*")
        page.fill('input[name="name"]', "rita")
        page.fill('input[name="password"]', PASSWORD)
        page.click("#login-submit")
        page.wait_for_url("**/rulings")
        assert "rita" in page.inner_text("#account")
        # The page's own script sends the CSRF token with its writes (static/csrf.js).
        permalink = _judge_on_the_page(page, called)
        match = _match_on_the_page(page)  # a plain form, with its hidden token
        page.goto(f"{permalink}/amend")
        page.fill("#withdraw-reason", "重複送出")
        page.click("#withdraw-submit")
        page.wait_for_selector("#withdrawn")
        assert "重複送出" in page.inner_text("#withdrawn")
        assert watched.violations() == []
        page.goto("/rulings")
        assert "（已撤回）" in page.inner_text("#rulings")
        page.click("#logout")
        page.wait_for_url("**/login")
        # Players with the links read them without signing in.
        for path in (permalink, match):
            page.goto(path)
            assert page.locator("#permalink-bar").count() == 1
        assert watched.violations() == []
    finally:
        watched.context.close()
