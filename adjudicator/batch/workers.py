"""A batch's local worker processes, forked from a warmed parent.

The parent judges the run's first chunk itself: that imports the pipeline, loads the
grammar and the rules' analyses and makes the first facts, the warm-up a fresh process
would pay before its first chunk.  Only then are the workers forked from it, so each
starts warm and costs a fork, not an interpreter start; a worker is replaced after some
``recycle`` logs by a new fork of the same warm parent (clingo keeps every term a process
has made, desk/__init__.py's RECYCLE).  One chunk is in flight per worker, sent as the
last came back, so neither side ever waits on a full pipe.

Where a platform has no ``fork`` (or it is unsafe, macOS) the workers are spawned and
warm up on their first chunk, as before.  A worker that dies mid-chunk (killed, out of
memory) leaves an error line for each log of its chunk and is replaced; the run goes on.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from adjudicator.batch.work import Line, judge_chunk

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

    from adjudicator.rules.rulesets import House

Chunk = list[tuple[str, str | None, str | None]]


def context() -> BaseContext:
    """``fork`` where the platform has it and it is safe; ``spawn`` elsewhere."""
    if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _own_streams() -> None:
    """Give a forked worker its own stdout and stderr objects on the same descriptors: the
    parent's may hold a lock its progress bar's thread took at the fork, or lines not yet
    written, which the worker would write again at its exit."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):
            continue
        setattr(sys, name, open(fd, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                                closefd=False))


def serve(conn: Connection, profile: str | None, settings: dict[str, str],
          house: House | None) -> None:
    """A worker's life: judge each chunk it is sent, until it is sent ``None``."""
    _own_streams()
    while (part := conn.recv()) is not None:
        conn.send(judge_chunk(part, profile, settings, True, house))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    judged: int = 0
    part: Chunk | None = None  # the chunk in flight


class Pool:
    """``workers`` processes, each replaced after ``recycle`` logs (0: never)."""

    def __init__(self, workers: int, recycle: int, profile: str | None,
                 settings: dict[str, str], house: House | None) -> None:
        self.size, self.recycle = workers, recycle
        self.args: tuple[Any, ...] = (profile, settings, house)
        self.context = context()
        self.idle: list[_Worker] = []
        self.busy: dict[Connection, _Worker] = {}

    def _start(self) -> _Worker:
        # What the parent has buffered would be written again by a forked worker's copy.
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
        mine, theirs = self.context.Pipe()
        process = self.context.Process(target=serve, args=(theirs, *self.args), daemon=True)
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def run(self, parts: Iterator[Chunk], on_line: Callable[[Line], None]) -> None:
        """Judge every chunk of ``parts``, each line handed to ``on_line`` as it comes."""
        try:
            self.idle = [self._start() for _ in range(self.size)]
            for part in parts:
                while not self.idle:
                    self._collect(on_line)
                self._send(self.idle.pop(), part)
            while self.busy:
                self._collect(on_line)
        finally:
            self._close()

    def _send(self, worker: _Worker, part: Chunk) -> None:
        try:
            worker.conn.send(part)
        except OSError:  # it died while idle: a fresh one takes the chunk
            worker = self._replaced(worker)
            worker.conn.send(part)
        worker.part = part
        self.busy[worker.conn] = worker

    def _collect(self, on_line: Callable[[Line], None]) -> None:
        """Wait for at least one worker's lines, hand them on and free the worker."""
        for conn in wait(list(self.busy)):
            worker = self.busy.pop(conn)  # type: ignore[call-overload]
            part = worker.part or []
            try:
                lines: list[Line] = conn.recv()
            except (EOFError, OSError):
                worker.process.join()
                code = worker.process.exitcode
                lines = [{"source": name, "error": f"內部錯誤（工作行程意外結束，結束碼 {code}）"}
                         for name, _, _ in part]
                worker = self._replaced(worker)
            for line in lines:
                on_line(line)
            worker.judged += len(part)
            worker.part = None
            if self.recycle and worker.judged >= self.recycle:
                worker = self._replaced(worker)
            self.idle.append(worker)

    def _replaced(self, worker: _Worker) -> _Worker:
        self._stop(worker)
        return self._start()

    @staticmethod
    def _stop(worker: _Worker) -> None:
        try:
            worker.conn.send(None)
        except OSError:
            pass  # it is gone already
        worker.process.join(timeout=10)
        if worker.process.is_alive():
            worker.process.terminate()
            worker.process.join()
        worker.conn.close()

    def _close(self) -> None:
        for worker in [*self.idle, *self.busy.values()]:
            if worker.part is not None:  # stopped mid-run (an interrupt): no waiting for it
                worker.process.terminate()
            self._stop(worker)
        self.idle, self.busy = [], {}


def judge_locally(parts: Iterator[Chunk], on_line: Callable[[Line], None],
                  profile: str | None, settings: dict[str, str], workers: int,
                  recycle: int, house: House | None) -> None:
    """The chunks judged by ``workers`` local processes forked after this one has judged
    the first chunk (its warm-up)."""
    first = next(parts, None)
    if first is None:
        return
    for line in judge_chunk(first, profile, settings, True, house):
        on_line(line)
    Pool(workers, recycle, profile, settings, house).run(parts, on_line)
