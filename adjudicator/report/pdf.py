"""The referee's report as PDF: the HTML report printed by headless Chromium.

One layout for screen and paper: the PDF is the HTML file as Chromium prints it on A4
(its @page rules give the margins and the page numbers), so the two never drift apart.
Chromium is found on PATH (Debian: ``apt-get install chromium fonts-noto-cjk``); without
it ``PdfError`` says so.  No Python PDF library was taken on: the ones on PyPI either need
system libraries of their own (WeasyPrint: Pango) or cannot lay out CJK text offline.

``Browser`` is one Chromium kept running, driven over its DevTools pipe (no port is
opened): each print is a new tab that loads the report from a file with scripts off, is
printed, and is closed.  The desk keeps one for all its prints (desk/printer.py); a
command line prints with one for its one report.  Chromium runs in its own sandbox: a
server running as root starts it as the unprivileged user ``nobody`` (Chromium refuses
its sandbox to root); only where the sandbox cannot start (no user namespaces) does it run
without, which ``Browser.sandboxed`` says.  It runs at the lowest CPU priority, below the
judging, and ends when its pipe closes, so with the process that started it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import pwd
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Flags for a quiet headless Chromium: no network, no first-run work, no GPU, no sandbox
# (which needs privileges a container rarely grants).  The desk's browser tests and its
# screenshot script start Chromium with the same.
HEADLESS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync")
# The printing browser's: the same, with its sandbox, driven over the DevTools pipe.
BROWSER = (*(f for f in HEADLESS if f != "--no-sandbox"), "--remote-debugging-pipe",
           "--disable-extensions", "--mute-audio", "--no-default-browser-check")
TIMEOUT = 120  # seconds; a cold Chromium on a loaded 2-core machine takes a few
# Started through this: the DevTools pipe on descriptors 3 and 4 (where Chromium looks for
# it), the lowest CPU priority (nice 19, as the desk's long lane: desk/worker.py's
# yield_cpu), which Chromium's own processes inherit, so printing
# takes no CPU judging wants; the unprivileged user, a parent-death signal; then Chromium.
_START = (
    "import os,sys,ctypes\n"
    "r,w,uid,gid=(int(a) for a in sys.argv[1:5])\n"
    "os.dup2(r,3);os.dup2(w,4)\n"
    "os.setpriority(os.PRIO_PROCESS,0,19)\n"
    "if uid>=0:\n os.setgroups([]);os.setgid(gid);os.setuid(uid)\n"
    "try:\n ctypes.CDLL(None).prctl(1,9,0,0,0)\nexcept Exception:\n pass\n"
    "os.execv(sys.argv[5],sys.argv[5:])\n")


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


def _unprivileged() -> tuple[int, int]:
    """The user and group Chromium runs as: ``nobody`` when this process is root (-1, -1:
    this process's own)."""
    if sys.platform != "linux" or os.geteuid() != 0:
        return -1, -1
    try:
        user = pwd.getpwnam("nobody")
    except KeyError:
        return -1, -1
    return user.pw_uid, user.pw_gid


class Browser:
    """One headless Chromium, started on first use and kept for every ``print``."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self.sandboxed: bool | None = None  # known once started
        self.printed = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._work: str | None = None
        self._send = self._receive = -1
        self._buffer = b""
        self._id = 0
        self._events: list[dict[str, Any]] = []

    # ---------------------------------------------------------------- start and stop

    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _start(self) -> None:
        browser = chromium()
        if browser is None:
            raise NoChromium("找不到 Chromium，無法輸出 PDF：請安裝 chromium（Debian："
                             "apt-get install chromium fonts-noto-cjk），或改用 -f html 再列印")
        uid, gid = _unprivileged()
        self._work = tempfile.mkdtemp(prefix="adjudicator-pdf-")
        if uid >= 0:
            os.chown(self._work, uid, gid)
        for sandbox in (True, False):
            self._launch(browser, uid, gid, sandbox)
            try:
                self._call("Browser.getVersion", timeout=self.timeout)
            except PdfError:
                self.close(keep_work=True)
                continue
            self.sandboxed = sandbox
            return
        self.close()
        raise PdfError("Chromium 無法啟動")

    def _launch(self, browser: str, uid: int, gid: int, sandbox: bool) -> None:
        to_r, self._send = os.pipe()
        self._receive, from_w = os.pipe()
        flags = [*BROWSER, *([] if sandbox else ["--no-sandbox"]),
                 f"--user-data-dir={self._work}/profile", "about:blank"]
        home = {"HOME": str(self._work), "XDG_CACHE_HOME": f"{self._work}/cache",
                "XDG_CONFIG_HOME": f"{self._work}/config"}
        # A process group of its own (ended whole: close), in the server's session: a session
        # of its own would be an autogroup of its own, to which Linux gives a fair share of
        # the CPU whatever the nice of its processes.
        self._proc = subprocess.Popen(
            [sys.executable, "-S", "-c", _START, str(to_r), str(from_w), str(uid), str(gid),
             browser, *flags],
            pass_fds=(to_r, from_w), env={**os.environ, **home}, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, process_group=0)
        os.close(to_r)
        os.close(from_w)
        self._buffer, self._events = b"", []

    def close(self, keep_work: bool = False) -> None:
        """End Chromium (its whole process group) and remove its files."""
        for fd in (self._send, self._receive):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._send = self._receive = -1
        if self._proc is not None:
            with contextlib.suppress(OSError):
                os.killpg(self._proc.pid, 9)
            # At nice 19 on a busy machine a killed Chromium takes a while to end.
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=60)
            self._proc = None
        if self._work is not None and not keep_work:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ---------------------------------------------------------------- the pipe

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready = select.select([self._receive], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise PdfError(f"Chromium 在 {self.timeout:g} 秒內沒有回應")
            chunk = os.read(self._receive, 1 << 20)
            if not chunk:
                raise PdfError("Chromium 意外結束")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def _call(self, method: str, params: dict[str, Any] | None = None,
              session: str | None = None, timeout: float | None = None) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        try:
            os.write(self._send, json.dumps(message).encode() + b"\0")
        except OSError:
            raise PdfError("Chromium 意外結束") from None
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise PdfError(f"Chromium：{answer['error'].get('message')}")
                return answer.get("result", {})
            self._events.append(answer)

    def _event(self, method: str, session: str, deadline: float) -> None:
        while True:
            for at, event in enumerate(self._events):
                if event.get("method") == method and event.get("sessionId") == session:
                    del self._events[at]
                    return
            self._events.append(self._message(deadline))

    # ---------------------------------------------------------------- printing

    def print(self, html: str) -> bytes:
        """``html`` printed on A4 (its @page rules) in a new tab, scripts off."""
        if self._proc is None or self._proc.poll() is not None:
            self.close()
            self._start()
        assert self._work is not None
        deadline = time.monotonic() + self.timeout
        page = Path(self._work) / f"report-{self._id}.html"
        page.write_text(html, encoding="utf-8")
        page.chmod(0o644)
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        try:
            session = self._call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
            self._call("Emulation.setScriptExecutionDisabled", {"value": True}, session)
            self._call("Page.enable", session=session)
            self._call("Page.navigate", {"url": page.as_uri()}, session)
            self._event("Page.loadEventFired", session, deadline)
            data = self._call("Page.printToPDF", {
                "preferCSSPageSize": True, "printBackground": True,
                "displayHeaderFooter": False}, session)["data"]
        finally:
            with contextlib.suppress(PdfError):
                self._call("Target.closeTarget", {"targetId": target})
            self._events.clear()
            page.unlink(missing_ok=True)
        self.printed += 1
        document = base64.b64decode(data)
        if not document.startswith(b"%PDF"):
            raise PdfError("Chromium 沒有寫出 PDF")
        return document


def render(html: str) -> bytes:
    """``html`` printed to PDF on A4 by a headless Chromium of its own (the command line's
    one report; the desk keeps one running, desk/printer.py)."""
    with Browser() as browser:
        return browser.print(html)


def page_count(data: bytes) -> int:
    """Pages in a PDF Chromium wrote (its page objects are not compressed in streams)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))
