"""The desk's PDF printing: one Chromium, kept running and reused, and a bounded queue.

Each PDF request waits its turn for the one browser (report/pdf.py's ``Browser``, driven
from one thread); at most ``queue`` requests wait or print at a time, and one more is
refused at once (``Full``: 503), so a burst of PDF requests costs one Chromium's processes
and a few reports' memory, never a browser each.  A print past its time limit is answered
504 and ends the browser (the next print starts a fresh one): a report that will not print
must not hold the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from adjudicator.desk import PDF_QUEUE as QUEUE
from adjudicator.report.pdf import Browser

PRINT_LIMIT = 30.0  # seconds a request may wait and print; a cold Chromium takes a few


class Full(Exception):
    """As many PDF requests as the queue holds are waiting already."""


class TooSlow(Exception):
    """The print took longer than the limit (its seconds are the argument)."""


class Printer:
    def __init__(self, queue: int = QUEUE, timeout: float = PRINT_LIMIT) -> None:
        self.queue = queue
        self.timeout = timeout
        self.refused = 0  # requests refused with the queue full, since the start
        self._browser = Browser(timeout)
        # One thread: the browser is driven by one caller at a time, and the thread that
        # starts Chromium lives as long as the printer (Chromium's parent-death signal).
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="pdf")
        self._waiting = 0

    async def print(self, html: str) -> bytes:
        """``html`` as a PDF; ``Full`` when the queue is full, ``TooSlow`` past the limit,
        ``PdfError`` (``NoChromium``) when it cannot be printed."""
        if self._waiting >= self.queue:
            self.refused += 1
            raise Full(self.queue)
        self._waiting += 1
        try:
            job = asyncio.get_running_loop().run_in_executor(self._thread,
                                                             self._browser.print, html)
            try:
                return await asyncio.wait_for(asyncio.shield(job), self.timeout)
            except TimeoutError:
                # The print then fails in its thread; its failure is this answer's, told.
                job.add_done_callback(lambda done: done.cancelled() or done.exception())
                self._end_browser()
                raise TooSlow(self.timeout) from None
        finally:
            self._waiting -= 1

    def _end_browser(self) -> None:
        # Its pipe closes under the printing thread, whose print then fails; the next print
        # starts another browser.
        pid = self._browser.pid()
        if pid is not None:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)

    def health(self) -> dict[str, Any]:
        return {"queued": self._waiting, "queue": self.queue, "refused": self.refused,
                "chromium": self._browser.pid() is not None,
                "sandboxed": self._browser.sandboxed, "printed": self._browser.printed}

    def close(self) -> None:
        # The print under way ends first, those waiting are dropped; then the browser is
        # ended and waited for (a close submitted to the thread could be dropped with them).
        self._thread.shutdown(wait=True, cancel_futures=True)
        self._browser.close()
