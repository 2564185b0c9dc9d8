"""Judgements run in a pool of worker processes, each under a time limit.

Judging is CPU-bound Python and clingo, so threads would queue behind one another; worker
processes let one slow log run while the others are answered.  A request that waits or
runs past the limit is answered 504; its worker finishes the job (the act limit bounds
it) and takes the next.  Recent answers are kept by their input: the live checking and the
judge button ask about the same text, and a referee re-judges the same log.

Jobs wait in one queue here, and a worker is given one only when it is free, so the queue
shows what is waiting.  When a worker frees and several short logs wait to be judged with
the same profile and settings, it takes them together and judges them in one clingo run
(``service.judge_many``, the batch engine): the rules' grounding, most of a short log's
judgement, is paid once for all of them, and under load the desk answers several times
as many logs a second.  A log alone, or a long one, is judged alone (the batch engine
costs more than the single path for one log, and saves little on a long one).

Each worker is a process of its own, and one that has judged ``recycle`` logs is replaced
by a fresh one, warmed before it is given work, while the others go on answering: clingo
keeps every term it has made for the life of its process, so a worker that judges ever new
logs grows a little with each, and only a new process starts again from the warm size.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.desk import RECYCLE, service

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House

# A log of at most this many lines may be judged in a batch; at most this many logs a batch
# (a batch's time grows with its logs, and every request in it waits for the whole).
BATCH_LINES = 200
BATCH_SIZE = 8
# A worker that frees waits this long before it takes the next jobs, so that the requests
# its answers make room for (a client sends its next log as its answer comes) can join
# them in one batch rather than one of them being judged alone.
LINGER = 0.005  # seconds


class Busy(Exception):
    """The judgement took longer than the time limit (its seconds are the argument)."""


class Broken(Exception):
    """The worker judging the request died; the pool has been started afresh."""


def _warm(houses: dict[str, House] | None = None) -> None:
    # Each worker compiles the grammar and loads the rules once, before the first request,
    # for the single path and the batch engine both; it knows the operator's house rules.
    service.use_houses(houses or {})
    log = "規則: tw16\n紀錄:\n1 東 打 三萬\n"
    service.judge(log)
    service.judge_many([log, log + "2 南 摸\n"])


def _ready() -> bool:
    return True


@dataclass
class Timing:
    """Where a request's time went in the pool (the API's ``Server-Timing`` header): how long
    it waited for a free worker, then how long its worker run took (the whole batch's, with
    the hand-over to and from the worker), and how many logs that run judged."""

    queued: float = 0.0  # seconds
    judged: float = 0.0  # seconds
    batch: int = 0  # 0: answered from the cache

    def header(self) -> str:
        if not self.batch:
            return 'cache;desc="answered from the cache"'
        return (f"queue;dur={self.queued * 1000:.1f}, "
                f'judge;dur={self.judged * 1000:.1f};desc="{self.batch} log(s) in one run"')


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    key: str  # the cache's key
    batch: str | None  # jobs of one batch key can be judged together; None: alone
    future: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())
    queued: float = field(default_factory=lambda: asyncio.get_running_loop().time())
    started: float = 0.0  # when a worker was given it (the loop's clock)
    batch_of: int = 0  # the logs its worker run judged


@dataclass
class _Worker:
    """One judging process (an executor of one), and how many logs it has judged."""

    executor: ProcessPoolExecutor
    judged: int = 0
    busy: bool = False  # judging, or being replaced


def _new_executor(houses: dict[str, House] | None = None) -> ProcessPoolExecutor:
    # spawn, not fork: the server has threads and an event loop a fork would copy.
    return ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=_warm,
        initargs=(houses or {},))


def _batch_key(fn: Callable[..., Any], args: tuple[Any, ...]) -> str | None:
    # service.judge's (text, profile, settings, reports, rules), all given, as the API
    # gives them.
    if fn is not service.judge or len(args) != 5 or args[0].count("\n") > BATCH_LINES:
        return None
    return json.dumps(args[1:], ensure_ascii=False, sort_keys=True)


class Judges:
    def __init__(self, workers: int | None = None, timeout: float = 10.0,
                 cache_size: int = 256, batch: int = BATCH_SIZE,
                 recycle: int = RECYCLE, houses: dict[str, House] | None = None) -> None:
        self.timeout = timeout
        self.cache_size = cache_size
        self.batch = batch
        self.recycle = recycle  # 0: never replace a worker that works
        self.houses = houses or {}  # serve --rules-dir's house rules, by name
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._queue: deque[_Job] = deque()
        self._dispatching = False
        self._running: set[asyncio.Task[None]] = set()
        self.batched = 0  # jobs judged in a batch with others, since the start
        self.replaced = 0  # workers replaced after ``recycle`` logs, since the start
        self._closed = False
        self._workers = [_Worker(_new_executor(self.houses))
                         for _ in range(workers or os.cpu_count() or 2)]

    async def start(self) -> None:
        """Start every worker (each warms up) before the first request is let in."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(w.executor, _ready)
                               for w in self._workers))

    def close(self) -> None:
        self._closed = True
        for worker in self._workers:
            worker.executor.shutdown(wait=True, cancel_futures=True)

    def busy(self) -> bool:
        """Whether some worker is judging."""
        return any(w.busy for w in self._workers)

    def pids(self) -> list[int]:
        """The worker processes' ids."""
        return [pid for w in self._workers for pid in w.executor._processes]

    async def run(self, fn: Callable[..., dict[str, Any]], *args: Any,
                  scale: float = 1) -> dict[str, Any]:
        """``fn(*args)`` in a worker, within ``scale`` times the time limit."""
        return (await self.timed(fn, *args, scale=scale))[0]

    async def timed(self, fn: Callable[..., dict[str, Any]], *args: Any,
                    scale: float = 1) -> tuple[dict[str, Any], Timing]:
        """``run``, and where the time went."""
        key = json.dumps([fn.__name__, *args], ensure_ascii=False, sort_keys=True)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key], Timing()
        job = _Job(fn, args, key, _batch_key(fn, args))
        self._queue.append(job)
        self._schedule()
        try:
            result = await asyncio.wait_for(asyncio.shield(job.future), self.timeout * scale)
        except TimeoutError:
            # Still queued, it is dropped (a cancelled future); running, its worker goes on.
            job.future.cancel()
            raise Busy(self.timeout * scale) from None
        done = asyncio.get_running_loop().time()
        return result, Timing(job.started - job.queued, done - job.started, job.batch_of)

    def _schedule(self, wait: float = 0) -> None:
        # Dispatch after the requests already read in this turn of the loop are queued too,
        # so that they can be judged together.
        if not self._dispatching:
            self._dispatching = True
            asyncio.get_running_loop().call_later(wait, self._dispatch)

    def _dispatch(self) -> None:
        self._dispatching = False
        free = [w for w in self._workers if not w.busy]
        while free and self._queue:
            first = self._queue.popleft()
            if first.future.done():  # timed out while it waited
                continue
            jobs = [first]
            if first.batch is not None:
                alike = [job for job in self._queue
                         if job.batch == first.batch and not job.future.done()]
                # Shared out among the free workers: not all to one while another idles.
                take = min(self.batch - 1, -(-(len(alike) + 1) // len(free)) - 1)
                for job in alike[:take]:
                    self._queue.remove(job)
                    jobs.append(job)
            worker = free.pop()
            worker.busy = True
            self.batched += len(jobs) if len(jobs) > 1 else 0
            now = asyncio.get_running_loop().time()
            for job in jobs:
                job.started, job.batch_of = now, len(jobs)
            task = asyncio.get_running_loop().create_task(self._work(worker, jobs))
            self._running.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self._running.discard)

    async def _work(self, worker: _Worker, jobs: list[_Job]) -> None:
        try:
            results = await self._judged(worker, jobs)
            for job, result in zip(jobs, results, strict=True):
                self._answer(job, result)
            worker.judged += len(jobs)
            if self.recycle and worker.judged >= self.recycle:
                await self._replace(worker)
        finally:
            worker.busy = False
            self._schedule(LINGER)

    async def _judged(self, worker: _Worker, jobs: list[_Job]) -> list[Any]:
        loop = asyncio.get_running_loop()
        try:
            if len(jobs) == 1:
                return [await loop.run_in_executor(worker.executor, jobs[0].fn, *jobs[0].args)]
            _, profile, settings, reports, rules = jobs[0].args
            return await loop.run_in_executor(
                worker.executor, service.judge_many, [job.args[0] for job in jobs], profile,
                settings, reports, rules)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): a fresh one takes its place.
            worker.executor.shutdown(wait=False, cancel_futures=True)
            worker.executor, worker.judged = _new_executor(self.houses), 0
            return [Broken() for _ in jobs]
        except Exception as err:  # the job's own failure is its request's
            return [err for _ in jobs]

    async def _replace(self, worker: _Worker) -> None:
        """A fresh process for ``worker``, warmed before it takes the old one's place (the
        old one ends once it is idle, which it is: its worker is busy being replaced)."""
        fresh = _new_executor(self.houses)
        try:
            await asyncio.get_running_loop().run_in_executor(fresh, _ready)
        except BrokenProcessPool:
            fresh.shutdown(wait=False, cancel_futures=True)
            return  # the old one goes on; the next job tries again
        if self._closed:  # the server stopped while it warmed
            fresh.shutdown(wait=True)
            return
        worker.executor.shutdown(wait=False)
        worker.executor, worker.judged = fresh, 0
        self.replaced += 1

    def _answer(self, job: _Job, result: Any) -> None:
        if isinstance(result, Exception):
            if not job.future.done():
                job.future.set_exception(result)
            return
        self._cache[job.key] = result
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        if not job.future.done():
            job.future.set_result(result)
