"""Judgements run in a pool of worker processes, each under a time limit.

Judging is CPU-bound Python and clingo, so threads would queue behind one another; worker
processes let one slow log run while the others are answered.  A request that waits or
runs past the limit is answered 504, and a judgement past it is cancelled: its worker is
ended and a warm one started in its place (a log must not keep a worker after its answer is
given up).  Recent answers are kept by their input: the live checking and the judge button
ask about the same text, and a referee re-judges the same log.

Jobs wait in one queue here, and a worker is given one only when it is free, so the queue
shows what is waiting.  When a worker frees and several short logs wait to be judged with
the same profile and settings, it takes them together and judges them in one clingo run
(``service.judge_many``, the batch engine): the rules' grounding, most of a short log's
judgement, is paid once for all of them, and under load the desk answers several times
as many logs a second.  A log alone, or a long one, is judged alone (the batch engine
costs more than the single path for one log, and saves little on a long one).

Each worker is a process of its own (desk/worker.py), which ends with the server however
the server ends.  A worker is given work only once it is warm (grammar and rules loaded,
one judgement made), and the pool never hands work to a dead one: a worker that dies,
idle or busy, is noticed at once (its socket closes) and a fresh one is warmed in its
place.  The server answers at once on starting (``health``); requests wait for the first
warm worker.  One that has judged ``recycle`` logs is replaced the same way: clingo keeps
every term it has made for the life of its process, so a worker that judges ever new logs
grows a little with each, and only a new process starts again from the warm size.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import socket
import subprocess
import sys
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.desk import RECYCLE, service
from adjudicator.desk.worker import HEAD

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
# A log of more lines or characters than these, and a whole match, is judged in the long
# lane: a worker of its own at the lowest CPU priority (worker.yield_cpu), one log at a
# time, at most LONG_QUEUE waiting (then 503).
# A hand's log is a few dozen lines, a whole hand some two hundred: long logs are rare,
# and a client sending the longest ones (10,000 acts, seconds of CPU each) must not take
# the workers that answer the short ones.
LONG_LINES = 400
LONG_CHARS = 16_000  # a 400-line log is some 6,000 characters; one line of 200 KB is long
LONG_QUEUE = 2
# A worker that has not warmed up in this long is ended and another started.
WARM_LIMIT = 120  # seconds
# After a worker fails to start, the next try waits this long (a broken install must not
# spin up processes in a loop).
RETRY = 2.0  # seconds


class Busy(Exception):
    """The judgement took longer than the time limit (its seconds are the argument)."""


class Crowded(Exception):
    """As many long logs as the long lane takes are waiting already."""


class Broken(Exception):
    """The worker judging the request died; a fresh one is being warmed in its place."""


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
    worker: _Worker | None = None  # the one judging it
    long: bool = False  # for the long lane


class _Process:
    """One worker process (desk/worker.py) and the socket the server speaks to it on."""

    def __init__(self, long: bool = False) -> None:
        ours, theirs = socket.socketpair()
        # A new interpreter, not a fork: the server has threads and an event loop a fork
        # would copy.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "adjudicator.desk.worker", str(theirs.fileno()),
             str(os.getpid()), "long" if long else "short"], pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL)
        theirs.close()
        self.sock = ours
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cancelled = False  # ended by the pool, its judgement past the time limit

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_unix_connection(sock=self.sock)

    async def receive(self) -> Any:
        """The next message; ``EOFError`` when the process is gone."""
        assert self.reader is not None
        try:
            head = await self.reader.readexactly(HEAD.size)
            return pickle.loads(await self.reader.readexactly(HEAD.unpack(head)[0]))
        except (asyncio.IncompleteReadError, ConnectionError) as err:
            raise EOFError from err

    def send(self, message: Any) -> None:
        assert self.writer is not None
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self.writer.write(HEAD.pack(len(data)) + data)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.writer is not None:
            self.writer.close()
        else:
            self.sock.close()

    def reap(self) -> None:
        self.kill()
        try:  # the long lane's worker, at nice 19, may take a while to end on a busy machine
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass


@dataclass
class _Worker:
    """A place in the pool: its process (warming, or ready for work) and its state."""

    long: bool = False  # the long lane's
    process: _Process | None = None
    ready: bool = False  # warm, and not ended
    busy: bool = False  # judging
    judged: int = 0  # logs this process has judged
    jobs: list[_Job] = field(default_factory=list)  # the run it is judging
    reply: asyncio.Future[Any] | None = None


def _is_long(fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
    if fn is service.match:
        return True
    return bool(args) and isinstance(args[0], str) and (
        len(args[0]) > LONG_CHARS or args[0].count("\n") > LONG_LINES)


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
        self.batched = 0  # jobs judged in a batch with others, since the start
        self.replaced = 0  # workers replaced after ``recycle`` logs, since the start
        self.cancelled = 0  # judgements ended past their time limit, since the start
        self.died = 0  # workers that died (killed, out of memory), since the start
        self._closed = False
        self.long_queue = LONG_QUEUE
        self.crowded = 0  # long logs refused with the long lane full, since the start
        self._workers = [_Worker() for _ in range(workers or os.cpu_count() or 2)]
        self._workers.append(_Worker(long=True))
        self._tasks: set[asyncio.Task[None]] = set()
        self._warmed: asyncio.Event | None = None
        self._first: asyncio.Event | None = None  # set once a worker has been warm

    async def start(self, wait: bool = True) -> None:
        """Start every worker; with ``wait``, return once all are warm (else at once: the
        server answers while they warm, and requests wait for the first)."""
        self._warmed, self._first = asyncio.Event(), asyncio.Event()
        for worker in self._workers:
            self._spawn(worker)
        if wait:
            await self._warmed.wait()

    def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        ending = [w.process for w in self._workers if w.process is not None]
        for process in ending:  # all told at once, so that they end side by side
            process.kill()
        for process in ending:
            process.reap()
        for worker in self._workers:
            worker.ready = False
        for job in self._queue:
            if not job.future.done():
                job.future.cancel()

    def busy(self) -> bool:
        """Whether some worker is judging."""
        return any(w.busy for w in self._workers)

    def pids(self, long: bool = False) -> list[int]:
        """The worker processes' ids (warm or warming), of the long lane with ``long``."""
        return [w.process.proc.pid for w in self._workers
                if w.process is not None and w.long == long]

    def health(self) -> dict[str, Any]:
        """What the health endpoint says of the pool."""
        short = [w for w in self._workers if not w.long]
        long = [w for w in self._workers if w.long]
        return {"workers": len(short), "ready": sum(w.ready for w in short),
                "busy": sum(w.busy for w in short),
                "queued": sum(not j.long for j in self._queue),
                "long": {"workers": len(long), "ready": sum(w.ready for w in long),
                         "busy": sum(w.busy for w in long),
                         "queued": sum(j.long for j in self._queue),
                         "refused": self.crowded},
                "cancelled": self.cancelled, "died": self.died, "replaced": self.replaced}

    # -------------------------------------------------------------- the processes

    def _task(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(self._tasks.discard)

    def _spawn(self, worker: _Worker, delay: float = 0) -> None:
        worker.ready, worker.busy, worker.judged = False, False, 0
        worker.process = None
        self._task(self._life(worker, delay))

    async def _life(self, worker: _Worker, delay: float) -> None:
        """One process of ``worker``'s place, from its start to its end; then the next."""
        if delay:
            await asyncio.sleep(delay)
        if self._closed:
            return
        try:
            process = _Process(worker.long)
        except OSError:
            self._spawn(worker, RETRY)
            return
        worker.process = process
        try:
            await process.connect()
            process.send(self.houses)  # the operator's house rules, before it warms
            hello = await asyncio.wait_for(process.receive(), WARM_LIMIT)
            if hello[0] != "ready":
                raise EOFError
        except (EOFError, TimeoutError, OSError):
            process.reap()
            if not self._closed:
                self._spawn(worker, RETRY)
            return
        worker.ready = True
        if self._first is not None:
            self._first.set()
        if self._warmed is not None and all(w.ready for w in self._workers):
            self._warmed.set()
        self._schedule()
        try:
            while True:
                message = await process.receive()
                if worker.reply is not None and not worker.reply.done():
                    worker.reply.set_result(message)
        except EOFError:
            pass
        # Ended: by the pool (past a time limit, recycled), by a signal, out of memory.
        if worker.process is process:  # not replaced already (a recycled worker is)
            worker.ready = False
            if worker.reply is not None and not worker.reply.done():
                worker.reply.set_exception(Broken())
        await asyncio.get_running_loop().run_in_executor(None, process.reap)
        if not self._closed and worker.process is process:
            self.died += not process.cancelled
            self._spawn(worker)

    async def _call(self, worker: _Worker, fn: Callable[..., Any], *args: Any) -> Any:
        assert worker.process is not None
        worker.reply = asyncio.get_running_loop().create_future()
        try:
            worker.process.send((fn, args))
        except (OSError, RuntimeError):
            raise Broken() from None
        kind, value = await worker.reply
        if kind == "err":
            raise value
        return value

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
        if self._first is not None and not self._first.is_set():
            # The server has just started: a request's time counts from when the first
            # worker is warm, not through the start-up.
            await asyncio.wait_for(self._first.wait(), WARM_LIMIT)
        job = _Job(fn, args, key, _batch_key(fn, args), long=_is_long(fn, args))
        if job.long and sum(j.long and not j.future.done()
                            for j in self._queue) >= self.long_queue:
            self.crowded += 1
            job.future.cancel()
            raise Crowded(self.long_queue)
        self._queue.append(job)
        self._schedule()
        try:
            result = await asyncio.wait_for(asyncio.shield(job.future), self.timeout * scale)
        except TimeoutError:
            # Still queued, it is dropped (a cancelled future); running, its worker is ended
            # once no job of its run is still awaited, and a warm one takes its place.
            job.future.cancel()
            worker = job.worker
            if worker is not None and worker.busy and job in worker.jobs and all(
                    j.future.done() for j in worker.jobs):
                self.cancelled += 1
                if worker.process is not None:
                    worker.process.cancelled = True
                    worker.process.kill()
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
        self._queue = deque(job for job in self._queue if not job.future.done())
        for long in (False, True):
            free = [w for w in self._workers if w.long == long and w.ready and not w.busy]
            waiting = [job for job in self._queue if job.long == long]
            while free and waiting:
                first = waiting.pop(0)
                jobs = [first]
                if first.batch is not None:
                    alike = [job for job in waiting if job.batch == first.batch]
                    # Shared out among the free workers: not all to one while another idles.
                    take = min(self.batch - 1, -(-(len(alike) + 1) // len(free)) - 1)
                    jobs += alike[:take]
                    for job in alike[:take]:
                        waiting.remove(job)
                for job in jobs:
                    self._queue.remove(job)
                self._give(free.pop(), jobs)

    def _give(self, worker: _Worker, jobs: list[_Job]) -> None:
        worker.busy, worker.jobs = True, jobs
        self.batched += len(jobs) if len(jobs) > 1 else 0
        now = asyncio.get_running_loop().time()
        for job in jobs:
            job.started, job.batch_of, job.worker = now, len(jobs), worker
        self._task(self._work(worker, jobs))

    async def _work(self, worker: _Worker, jobs: list[_Job]) -> None:
        process = worker.process
        try:
            results = await self._judged(worker, jobs)
            for job, result in zip(jobs, results, strict=True):
                self._answer(job, result)
            worker.judged += len(jobs)
            if (self.recycle and worker.judged >= self.recycle and not self._closed
                    and worker.process is process and process is not None):
                self.replaced += 1
                worker.process = None  # its end is not a death
                worker.ready = False
                process.kill()
                self._spawn(worker)
        finally:
            worker.busy, worker.jobs = False, []
            self._schedule(LINGER)

    async def _judged(self, worker: _Worker, jobs: list[_Job]) -> list[Any]:
        try:
            if len(jobs) == 1:
                return [await self._call(worker, jobs[0].fn, *jobs[0].args)]
            _, profile, settings, reports, rules = jobs[0].args
            return await self._call(worker, service.judge_many, [job.args[0] for job in jobs],
                                    profile, settings, reports, rules)
        except Broken:
            # The worker died (killed, out of memory, past its time limit): its place is
            # being warmed afresh (``_life``).
            return [Broken() for _ in jobs]
        except Exception as err:  # the job's own failure is its request's
            return [err for _ in jobs]

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
