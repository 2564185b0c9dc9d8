"""Take the README's screenshots on a phone-sized (390×844) headless Chromium:
docs/desk.png (a wrong-pung dispute being tapped in), docs/desk-ruling.png (it judged at the
desk), docs/desk-permalink.png (the permalink the players are sent) and docs/desk-match.png
(a match's ledger, from cases/matches/east_round.match).

Run: ``.venv/bin/python docs/desk_screenshot.py`` (needs /usr/bin/chromium).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
from playwright.sync_api import sync_playwright

from adjudicator.report.pdf import HEADLESS

ROOT = Path(__file__).resolve().parent.parent
HEADER = {"#h-table": "7", "#h-referee": "陳大文"}
# The dispute of tests/desk/test_desk_taps.py: 南's wrong pung, reported, then a pung as 相公.
TAPS = ["#seq-from", "keys:21",
        '.act[data-act="打"]', '.tile[data-tile="三萬"]',
        '.act[data-act="碰"]', '.tile[data-tile="三萬"]', '.tile[data-tile="四萬"]',
        '.suit[data-suit="筒"]', '.tile[data-tile="九筒"]', "#add", '.tile[data-tile="五筒"]',
        '.act[data-act="舉發"]', '.target[data-target="南"]']
REST = ['.offence[data-offence="錯碰"]', '.seat[data-seat="南"]', '.act[data-act="碰"]',
        "#add", '.suit[data-suit="萬"]', '.tile[data-tile="一萬"]']
ARGS = list(HEADLESS)


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as work:
        server = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "serve", "--port", str(port),
             "--db", f"sqlite:///{work}/a.db", "--workers", "1"], cwd=ROOT)
        try:
            for _ in range(300):
                try:
                    httpx2.get(url + "/api/rulings", timeout=2)
                    break
                except httpx2.TransportError:
                    time.sleep(0.2)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                page = browser.new_page(viewport={"width": 390, "height": 844},
                                        device_scale_factor=2)
                page.set_default_timeout(60_000)
                page.goto(url + "/")
                page.wait_for_selector("#lint-state.ok, #lint-state.warn")
                for box, value in HEADER.items():
                    page.fill(box, value)
                    page.dispatch_event(box, "change")
                _tap(page, TAPS)  # … up to the offence still to be picked
                page.locator("#seats").scroll_into_view_if_needed()
                page.evaluate("window.scrollTo(0, document.getElementById('seats')"
                              ".getBoundingClientRect().top + window.scrollY - 200)")
                page.screenshot(path=str(ROOT / "docs" / "desk.png"), full_page=False)
                _tap(page, REST)
                page.wait_for_selector("#lint-state.ok, #lint-state.warn")
                page.click("#judge")
                page.wait_for_selector("#links:not([hidden])")
                page.wait_for_timeout(500)
                page.evaluate("window.scrollTo(0, document.querySelector('section.judge')"
                              ".getBoundingClientRect().top + window.scrollY - 8)")
                page.screenshot(path=str(ROOT / "docs" / "desk-ruling.png"), full_page=False)
                page.goto(url + page.get_attribute("#permalink", "href"))
                page.screenshot(path=str(ROOT / "docs" / "desk-permalink.png"), full_page=False)
                # A whole match, uploaded: its ledger and the running totals.
                page.goto(url + "/match")
                page.set_input_files("#match-file",
                                     str(ROOT / "cases" / "matches" / "east_round.match"))
                page.wait_for_function(
                    "document.getElementById('match-text').value.includes('第9盤')")
                page.click("#match-judge")
                page.wait_for_selector("#chart")
                page.evaluate("window.scrollTo(0, document.getElementById('ledger')"
                              ".getBoundingClientRect().top + window.scrollY - 60)")
                page.screenshot(path=str(ROOT / "docs" / "desk-match.png"), full_page=False)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


def _tap(page: object, taps: list[str]) -> None:
    for tap in taps:
        if tap.startswith("keys:"):
            for key in tap[5:]:
                page.keyboard.press(key)  # type: ignore[attr-defined]
        else:
            page.click(tap)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
