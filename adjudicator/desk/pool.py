"""Judgements run in a pool of worker processes, each under a time limit.

Judging is CPU-bound Python and clingo, so threads would queue behind one another; worker
processes let one slow log run while the others are answered.  A request that waits or
runs past the limit is answered 504; its worker finishes the job (the act limit bounds
it) and takes the next.  Recent answers are kept by their input: the live checking and the
judge button ask about the same text, and a referee re-judges the same log.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from adjudicator.desk import service


class Busy(Exception):
    """The judgement took longer than the time limit (its seconds are the argument)."""


class Broken(Exception):
    """The worker judging the request died; the pool has been started afresh."""


def _warm() -> None:
    # Each worker compiles the grammar and loads the rules once, before the first request.
    service.judge("規則: tw16\n紀錄:\n1 東 打 三萬\n")


def _ready() -> bool:
    return True


class Judges:
    def __init__(self, workers: int | None = None, timeout: float = 10.0,
                 cache_size: int = 256) -> None:
        self.workers = workers or os.cpu_count() or 2
        self.timeout = timeout
        self.cache_size = cache_size
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn, not fork: the server has threads and an event loop a fork would copy.
        return ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm)

    async def start(self) -> None:
        """Start every worker (each warms up) before the first request is let in."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _ready)
                               for _ in range(self.workers)))

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)

    async def run(self, fn: Callable[..., dict[str, Any]], *args: Any,
                  scale: float = 1) -> dict[str, Any]:
        """``fn(*args)`` in a worker, within ``scale`` times the time limit."""
        key = json.dumps([fn.__name__, *args], ensure_ascii=False, sort_keys=True)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, fn, *args)
        try:
            result = await asyncio.wait_for(future, self.timeout * scale)
        except TimeoutError:
            raise Busy(self.timeout * scale) from None
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool for what follows.
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            raise Broken from None
        self._cache[key] = result
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return result
