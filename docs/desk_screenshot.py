"""Take the README's screenshots on a phone-sized headless Chromium: docs/desk.png (a typo
caught, tapping), docs/desk-ruling.png (a log judged) and docs/desk-match.png (a match's
ledger and chart, from cases/matches/east_round.match).

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
LOG = """規則: tw16
莊家: 東
底: 300
台: 100
玩家: 東=阿明 南=小華 西=阿德 北=小美
日期: 2026-11-30 20:15
桌號: 7
裁判: 陳大文

紀錄:
11 阿德 打 七筒
12 阿明 喊碰 七筒
13 北 摸
14 北 打 一萬
15 東 碰 八同
"""
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
                page = browser.new_page(viewport={"width": 412, "height": 915},
                                        device_scale_factor=2)
                page.set_default_timeout(60_000)
                page.goto(url + "/")
                # First the typo, caught under its line …
                page.fill("#log", LOG)
                page.dispatch_event("#log", "input")
                page.wait_for_selector('.diag.error[data-line="15"]')
                page.click('.seat[data-seat="西"]')
                page.click('.act[data-act="打"]')
                page.click('.suit[data-suit="筒"]')
                page.click('.tile[data-tile="七筒"]')
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(ROOT / "docs" / "desk.png"), full_page=False)
                # … then the fixed log judged.
                page.fill("#log", LOG.replace("15 東 碰 八同\n", ""))
                page.dispatch_event("#log", "input")
                page.wait_for_selector("#lint-state.ok, #lint-state.warn")  # a fragment: warned
                page.click("#judge")
                page.wait_for_selector("#links:not([hidden])")
                page.wait_for_timeout(500)
                page.locator(".judge").screenshot(path=str(ROOT / "docs" / "desk-ruling.png"))
                # A whole match, uploaded: its ledger and the running totals.
                page.goto(url + "/match")
                page.set_input_files("#match-file",
                                     str(ROOT / "cases" / "matches" / "east_round.match"))
                page.wait_for_function(
                    "document.getElementById('match-text').value.includes('第9盤')")
                page.click("#match-judge")
                page.wait_for_selector("#chart")
                page.locator("#ledger").scroll_into_view_if_needed()
                page.evaluate("window.scrollTo(0, document.getElementById('ledger')"
                              ".getBoundingClientRect().top + window.scrollY - 60)")
                page.screenshot(path=str(ROOT / "docs" / "desk-match.png"), full_page=False)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
