"""The referee's report as PDF: the HTML report printed by headless Chromium.

One layout for screen and paper: the PDF is the HTML file as Chromium prints it on A4
(its @page rules give the margins and the page numbers), so the two never drift apart.
Chromium is found on PATH (Debian: ``apt-get install chromium fonts-noto-cjk``); without
it ``PdfError`` says so.  No Python PDF library was taken on: the ones on PyPI either need
system libraries of their own (WeasyPrint: Pango) or cannot lay out CJK text offline.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Flags for a quiet headless Chromium: no network, no first-run work, no GPU, no sandbox
# (which needs privileges a container rarely grants).  The desk's browser tests and its
# screenshot script start Chromium with the same.
HEADLESS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync")
FLAGS = (*HEADLESS, "--no-pdf-header-footer")  # a one-shot print
TIMEOUT = 120  # seconds; a cold Chromium on a loaded 2-core machine takes a few


class PdfError(Exception):
    """The PDF could not be made; ``str()`` says why in words for the referee."""


class NoChromium(PdfError):
    """There is no Chromium to print with (a server answers 503, not a failure)."""


def chromium() -> str | None:
    """The Chromium (or Chrome) executable, or None when there is none."""
    override = os.environ.get("ADJUDICATOR_CHROMIUM")
    if override:
        return override if Path(override).exists() else None
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def render(html: str) -> bytes:
    """``html`` printed to PDF on A4 by headless Chromium."""
    browser = chromium()
    if browser is None:
        raise NoChromium("找不到 Chromium，無法輸出 PDF：請安裝 chromium（Debian："
                       "apt-get install chromium fonts-noto-cjk），或改用 -f html 再列印")
    with tempfile.TemporaryDirectory(prefix="adjudicator-pdf-") as work:
        page = Path(work) / "report.html"
        page.write_text(html, encoding="utf-8")
        out = Path(work) / "report.pdf"
        command = [browser, *FLAGS, f"--user-data-dir={Path(work) / 'profile'}",
                   f"--print-to-pdf={out}", page.as_uri()]
        try:
            done = subprocess.run(command, capture_output=True, timeout=TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise PdfError(f"Chromium 無法輸出 PDF：{err}") from None
        if not out.is_file() or not out.read_bytes().startswith(b"%PDF"):
            tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
            raise PdfError("Chromium 沒有寫出 PDF" + (f"：{tail[0]}" if tail else ""))
        return out.read_bytes()


def page_count(data: bytes) -> int:
    """Pages in a PDF Chromium wrote (its page objects are not compressed in streams)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))
