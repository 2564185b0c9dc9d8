"""The report as PDF, printed by headless Chromium (the HTML report is laid out for A4).

No PDF library renders CJK text and our CSS as well as the browser the referee would print
from; when Chromium is not installed the desk says so (503) instead of failing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-pdf-header-footer")
TIMEOUT = 60  # seconds


class NoChromium(Exception):
    """There is no Chromium to print with."""


def chromium() -> str | None:
    """``$ADJUDICATOR_CHROMIUM``, else ``chromium`` on the PATH, else None."""
    named = os.environ.get("ADJUDICATOR_CHROMIUM")
    if named is not None:
        return named if Path(named).is_file() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def render(html: str) -> bytes:
    """``html`` printed to PDF; ``NoChromium`` when there is none, ``RuntimeError`` if it
    fails to print."""
    exe = chromium()
    if exe is None:
        raise NoChromium
    with tempfile.TemporaryDirectory(prefix="adjudicator-pdf-") as work:
        page, out = Path(work) / "report.html", Path(work) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        done = subprocess.run(
            [exe, *FLAGS, f"--user-data-dir={work}/profile", f"--print-to-pdf={out}",
             page.as_uri()], capture_output=True, timeout=TIMEOUT, check=False)
        if not out.is_file():
            raise RuntimeError(done.stderr.decode("utf-8", "replace")[-500:])
        return out.read_bytes()
