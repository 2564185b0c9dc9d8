"""Load on the desk's API: POST /api/judge with a 40-act log, on loopback, for a while.

Run: ``.venv/bin/python bench/desk_load.py [--seconds 30] [--warmup 15] [--clients 8]
[--rate R] [--same]``.  Starts ``adjudicator serve`` on a free port (SQLite in a temporary
folder), puts it under the same load for ``--warmup`` seconds first (not counted: the
workers' caches and clingo's table of terms fill with what the logs bring, see
desk/pool.py), then keeps ``--clients`` requests in flight for ``--seconds`` — or, with
``--rate``, sends R requests a second whatever the answers (an open load: the question "does
it serve R judgements a second, and how fast", latency counted from when each was due).
Each request is a different log (the seed varies, so no answer comes from the server's
cache) unless ``--same``.  Prints requests/s,
p50/p95/max latency and, from the answers' Server-Timing header, how much of it was waiting
for a worker and how much the worker's run (and how many logs a run judged), the CPU each
request cost the server (its own process and its judging workers) and this load
generator, and the server's memory (its process and the workers)
at each tenth of the run, then at its start and end with the change (flat memory: a change
near zero).  Asserts nothing; not part of the test suite.

The generator shares the machine's cores with the server it measures, so it is made as
cheap as it can be: the logs are written before the clock starts, and each client speaks
HTTP/1.1 over one kept-alive socket by hand (httpx2's client, with each log made in the
loop, cost 5.6 ms of CPU a request against 0.8).  Its CPU share is printed, so a reader
knows what it took away.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from judge import make_log  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (from /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def cpu_s(pid: int, children: bool = False) -> float:
    """User+system CPU seconds ``pid`` has used itself (threads included), or with
    ``children`` the CPU of its children that have ended and been waited for."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    at = 13 if children else 11
    return (int(fields[at]) + int(fields[at + 1])) / os.sysconf("SC_CLK_TCK")


def workers_cpu_s(server: int) -> float:
    """The CPU of the server's judging workers: those running now, and those it replaced
    (ended and waited for, so counted in its children's time)."""
    return sum(cpu_s(w) for w in tree(server)[1:]) + cpu_s(server, children=True)


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in KB (from /proc)."""
    total = 0
    for p in tree(pid):
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines()
                              if line.startswith("VmRSS:")))
        except (OSError, StopIteration):
            continue
    return total


def request(port: int, body: bytes) -> bytes:
    return (f"POST /api/judge HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n"
            f"content-type: text/plain; charset=utf-8\r\ncontent-length: {len(body)}\r\n\r\n"
            ).encode() + body


SERVER_TIMING = re.compile(rb"queue;dur=([\d.]+), judge;dur=([\d.]+);desc=\"(\d+) ")


async def answer(reader: asyncio.StreamReader) -> tuple[int, tuple[float, float, int] | None]:
    """Read one response off a kept-alive connection; its status, and from its
    Server-Timing header the seconds it waited for a worker, the seconds its worker run
    took and the logs that run judged."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in lines
                  if line[:15].lower() == b"content-length:")
    await reader.readexactly(length)
    found = SERVER_TIMING.search(head)
    timing = (float(found[1]) / 1000, float(found[2]) / 1000, int(found[3])) if found else None
    return int(lines[0].split(b" ", 2)[1]), timing


Timings = list[tuple[float, float, int]]


async def run(port: int, todo: Iterator[bytes], seconds: float, clients: int,
              pid: int, rate: float | None = None
              ) -> tuple[list[float], Timings, int, list[tuple[float, int]]]:
    """``clients`` requests kept in flight (each sends its next as its answer comes), or with
    ``rate`` requests sent at that many a second whatever the answers, over up to
    ``clients`` connections; a request's latency is then counted from when it was due, so a
    server that falls behind shows it (no request waits unseen for a free connection)."""
    latencies: list[float] = []
    timings: Timings = []
    failures = 0
    memory: list[tuple[float, int]] = []
    start = time.perf_counter()
    end = start + seconds
    due = (start + i / rate for i in itertools.count()) if rate else None

    async def client() -> None:
        nonlocal failures
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while True:
            t0 = time.perf_counter() if due is None else next(due)
            if t0 >= end:
                break
            if t0 > time.perf_counter():
                await asyncio.sleep(t0 - time.perf_counter())
            writer.write(next(todo))
            status, timing = await answer(reader)
            latencies.append(time.perf_counter() - t0)
            failures += status != 200
            if timing:
                timings.append(timing)
        writer.close()

    async def sample() -> None:
        while time.perf_counter() < end:
            memory.append((time.perf_counter() - start, rss_kb(pid)))
            await asyncio.sleep(seconds / 10)

    await asyncio.gather(sample(), *(client() for _ in range(clients)))
    return latencies, timings, failures, memory


def spread(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms  p95 {p95 * 1000:.0f} ms  "
            f"max {ordered[-1] * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=15,
                        help="seconds of the same load before the measured run")
    parser.add_argument("--clients", type=int, default=8,
                        help="requests in flight; with --rate, the connections (default 32)")
    parser.add_argument("--rate", type=float, default=None,
                        help="send this many requests a second, whatever the answers")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--recycle", type=int, default=None,
                        help="the server's --recycle (logs a worker judges before it is replaced)")
    parser.add_argument("--same", action="store_true", help="the same log every time")
    args = parser.parse_args()
    if args.rate and "--clients" not in sys.argv:
        args.clients = 32
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # More logs than the server could judge in the time: none is sent twice.
    count = int((args.warmup + args.seconds) * 400) + 100
    bodies = [request(port, make_log(40, seed=7 if args.same else 1000 + i).encode())
              for i in range(count)]
    with tempfile.TemporaryDirectory() as work:
        cmd = [sys.executable, "-m", "adjudicator", "serve", "--port", str(port),
               "--db", f"sqlite:///{work}/archive.db"]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        if args.recycle is not None:
            cmd += ["--recycle", str(args.recycle)]
        server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if httpx2.get(url + "/api/rulings", timeout=2).status_code == 200:
                        break
                except httpx2.TransportError:
                    time.sleep(0.2)
            for seed in range(4):  # warm: every worker has judged once
                httpx2.post(url + "/api/judge", content=make_log(40, seed=seed).encode(),
                            timeout=60)
            todo = iter(bodies)
            if args.warmup:
                asyncio.run(run(port, todo, args.warmup, args.clients, server.pid, args.rate))
            load = os.getloadavg()[0]
            main_pid = server.pid
            before = (cpu_s(main_pid), workers_cpu_s(main_pid), time.process_time())
            began = time.monotonic()
            latencies, timings, failures, memory = asyncio.run(
                run(port, todo, args.seconds, args.clients, server.pid, args.rate))
            took = time.monotonic() - began
            after = (cpu_s(main_pid), workers_cpu_s(main_pid), time.process_time())
            memory.append((took, rss_kb(server.pid)))  # at the end, the workers still up
        finally:
            server.terminate()
            server.wait(timeout=30)
    n = len(latencies)
    load_is = (f"{args.rate:g} requests/s sent over up to {args.clients} connections"
               if args.rate else f"{args.clients} clients")
    print(f"POST /api/judge, 40-act log ({'same log' if args.same else 'a new log each time'}),"
          f" {load_is}, {took:.1f} s after {args.warmup:.0f} s of warm-up,"
          f" load average {load:.1f} at the start")
    print(f"requests: {n}  failures: {failures}  rate: {n / took:.1f} req/s")
    print(f"latency: {spread(latencies)}")
    if timings:
        queued, judged, batch = zip(*timings, strict=True)
        print(f"  of which waiting for a worker: {spread(list(queued))}")
        print(f"  of which the worker's run:     {spread(list(judged))}  "
              f"(logs a run: mean {statistics.mean(batch):.1f}, max {max(batch)})")
    server_ms, workers_ms, client_ms = (
        (b - a) / n * 1000 for a, b in zip(before, after, strict=True))
    total = server_ms + workers_ms + client_ms
    print(f"CPU a request: server {server_ms:.1f} ms  workers {workers_ms:.1f} ms  "
          f"load generator {client_ms:.1f} ms ({client_ms / total:.0%} of {total:.1f} ms)  "
          f"-> {2000 / total:.0f} req/s on 2 idle cores")
    print("server memory (RSS, all processes): " + "  ".join(
        f"{t:.0f}s {kb / 1024:.0f} MB" for t, kb in memory))
    first, last = memory[0][1], memory[-1][1]
    low, high = min(kb for _, kb in memory), max(kb for _, kb in memory)
    print(f"memory: start {first / 1024:.0f} MB  end {last / 1024:.0f} MB  "
          f"change {(last - first) / 1024:+.0f} MB ({(last - first) / first:+.1%})  "
          f"range {low / 1024:.0f}-{high / 1024:.0f} MB")


if __name__ == "__main__":
    main()
