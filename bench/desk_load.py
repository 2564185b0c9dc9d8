"""Load on the desk's API: POST /api/judge with a 40-act log, on loopback, for a while.

Run: ``.venv/bin/python bench/desk_load.py [--seconds 30] [--warmup 15] [--clients 8]
[--rate R] [--same] [--archive] [--rate-limit N]``; issue 30's figures are
``--clients 8 --seconds 120`` (targets: >= 90 judgements/s, p95 <= 200 ms, flat memory).
Starts ``adjudicator serve`` on a free port (SQLite in a temporary
folder), puts it under the same load for ``--warmup`` seconds first (not counted: the
workers' caches and clingo's table of terms fill with what the logs bring, see
desk/pool.py), then keeps ``--clients`` requests in flight for ``--seconds`` — or, with
``--rate``, sends R requests a second whatever the answers (an open load: the question "does
it serve R judgements a second, and how fast", latency counted from when each was due).
Each request is a different log (the seed varies, so no answer comes from the server's
cache) unless ``--same``.  The answers are JSON and nothing is filed unless ``--archive``
(each judgement filed too, ``?archive=true``: the archive's cost, measured apart).  The
server is started with ``--rate-limit 0`` (the desk's per-client limit off; give
``--rate-limit N`` to measure it on), so that eight clients on one address are not the
limit measured.  Prints requests/s,
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

``--abusive`` adds, beside those clients, what a hostile one sends: two maximal logs a
second (10,000 acts, and a 250 KB line of tiles run together, each new) and two PDF
requests a second, each on a connection of its own; it prints what they were answered,
and the most Chromium processes the server had at once (sampled five times a second).
``--compare`` runs the quiet load and then the abusive one back to back, each
``--seconds`` long, and prints the short requests' p95 ratio: the machine is shared, so
two short runs next to each other compare best.  On starting, it prints how soon the
server answered ``/api/health`` and the first judgement.
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
            tasks = list(Path(f"/proc/{p}/task").iterdir())
        except OSError:  # ended
            continue
        for task in tasks:
            # A thread that ends meanwhile must not hide its process's other children (the
            # judging workers, Chromium) from the memory and the count.
            try:
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


def request(port: int, body: bytes, archive: bool = False) -> bytes:
    path = "/api/judge?archive=true" if archive else "/api/judge"
    return (f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n"
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

MAXIMAL_ACTS = "".join(f"{n} 東 摸\n{n + 1} 東 打 {t}\n" for n, t in zip(
    range(1, 10_000, 2), ["一萬", "九筒", "東", "中"] * 2500, strict=False))
MAXIMAL_LINE = "1 東 打 " + "三萬" * 40_000 + "\n"  # 240 KB on one line


def maximal(i: int) -> bytes:
    head = f"規則: tw16\n莊家: 東\n# abusive {i}\n紀錄:\n"
    return (head + (MAXIMAL_ACTS if i % 2 else MAXIMAL_LINE)).encode()


def chromiums(pid: int) -> tuple[int, int]:
    """Chromium browsers (not their helpers) and all Chromium processes under ``pid``."""
    browsers = every = 0
    for p in tree(pid)[1:]:
        try:
            args = Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if args and Path(args[0].decode(errors="replace")).name in ("chromium", "chrome"):
            every += 1
            browsers += not any(a.startswith(b"--type=") for a in args)
    return browsers, every


async def abuse(port: int, seconds: float, pdf_path: str, pid: int) -> dict[str, object]:
    """Two maximal logs and two PDF requests a second for ``seconds``; their answers."""
    statuses: dict[str, dict[int, int]] = {"log": {}, "pdf": {}}
    most = [0, 0]
    end = time.perf_counter() + seconds

    async def one(kind: str, raw: bytes) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(raw)
            status, _ = await asyncio.wait_for(answer(reader), 120)
            writer.close()
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            status = 0
        statuses[kind][status] = statuses[kind].get(status, 0) + 1

    async def sender() -> None:
        tasks, i = [], 0
        while time.perf_counter() < end:
            tasks.append(asyncio.create_task(one("log", request(port, maximal(i)))))
            pdf = (f"GET {pdf_path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n").encode()
            tasks.append(asyncio.create_task(one("pdf", pdf)))
            i += 1
            await asyncio.sleep(0.5)
        await asyncio.gather(*tasks)

    async def count() -> None:
        while time.perf_counter() < end:
            browsers, every = chromiums(pid)
            most[0], most[1] = max(most[0], browsers), max(most[1], every)
            await asyncio.sleep(0.2)

    await asyncio.gather(sender(), count())
    return {"statuses": statuses, "browsers": most[0], "chromium_processes": most[1]}


async def run(port: int, todo: Iterator[bytes], seconds: float, clients: int,
              pid: int, rate: float | None = None, pdf_path: str | None = None
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

    extra = [abuse(port, seconds, pdf_path, pid)] if pdf_path else []
    done = await asyncio.gather(sample(), *extra, *(client() for _ in range(clients)))
    if pdf_path:
        ABUSE.update(done[1])
    return latencies, timings, failures, memory


ABUSE: dict[str, object] = {}  # what the abusive client was answered, in the last run


def spread(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms  p95 {p95 * 1000:.0f} ms  "
            f"max {ordered[-1] * 1000:.0f} ms")


def report(label: str, args: argparse.Namespace, took: float, load: float,
           result: tuple[list[float], Timings, int, list[tuple[float, int]]],
           cpu: tuple[tuple[float, float, float], tuple[float, float, float]]) -> float:
    """Print one run's figures; its p95 latency (seconds)."""
    latencies, timings, failures, memory = result
    n = len(latencies)
    load_is = (f"{args.rate:g} requests/s sent over up to {args.clients} connections"
               if args.rate else f"{args.clients} clients")
    print(f"[{label}] POST /api/judge{'?archive=true' if args.archive else ''} (JSON answers"
          f"{', each filed' if args.archive else ', nothing filed'}; server --rate-limit "
          f"{args.rate_limit:g}), 40-act log "
          f"({'same log' if args.same else 'a new log each time'}), {load_is}, {took:.1f} s,"
          f" load average {load:.1f} at the start")
    print(f"requests: {n}  failures: {failures}  rate: {n / took:.1f} req/s")
    print(f"latency: {spread(latencies)}")
    if timings:
        queued, judged, batch = zip(*timings, strict=True)
        print(f"  of which waiting for a worker: {spread(list(queued))}")
        print(f"  of which the worker's run:     {spread(list(judged))}  "
              f"(logs a run: mean {statistics.mean(batch):.1f}, max {max(batch)})")
    before, after = cpu
    server_ms, workers_ms, client_ms = (
        (b - a) / n * 1000 for a, b in zip(before, after, strict=True))
    total = server_ms + workers_ms + client_ms
    print(f"CPU a request: server {server_ms:.1f} ms  workers {workers_ms:.1f} ms  "
          f"load generator {client_ms:.1f} ms ({client_ms / total:.0%} of {total:.1f} ms)")
    print("server memory (RSS, all processes): " + "  ".join(
        f"{t:.0f}s {kb / 1024:.0f} MB" for t, kb in memory))
    first, last = memory[0][1], memory[-1][1]
    low, high = min(kb for _, kb in memory), max(kb for _, kb in memory)
    print(f"memory: start {first / 1024:.0f} MB  end {last / 1024:.0f} MB  "
          f"change {(last - first) / 1024:+.0f} MB ({(last - first) / first:+.1%})  "
          f"range {low / 1024:.0f}-{high / 1024:.0f} MB")
    if label == "abusive":
        print(f"abusive client answered: {ABUSE['statuses']}  (0: no answer in 120 s)")
        print(f"Chromium at once: at most {ABUSE['browsers']} browser(s) under the server")
    ordered = sorted(latencies)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(f"issue 30's targets: {n / took:.1f} judgements/s (>= 90), p95 {p95 * 1000:.0f} ms "
          f"(<= 200), memory {(last - first) / first:+.1%} over the run (flat)")
    return p95


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
    parser.add_argument("--archive", action="store_true",
                        help="file every judgement (?archive=true): the archive's cost")
    parser.add_argument("--rate-limit", type=float, default=0,
                        help="the server's --rate-limit (requests a minute per client; 0: off)")
    parser.add_argument("--abusive", action="store_true",
                        help="beside the clients, two maximal logs and two PDFs a second")
    parser.add_argument("--compare", action="store_true",
                        help="the quiet run, then the abusive one, and the p95 ratio")
    args = parser.parse_args()
    if args.rate and "--clients" not in sys.argv:
        args.clients = 32
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    runs = 2 if args.compare else 1
    # More logs than the server could judge in the time: none is sent twice.
    count = int((args.warmup + args.seconds * runs) * 400) + 100
    bodies = [request(port, make_log(40, seed=7 if args.same else 1000 + i).encode(),
                      args.archive) for i in range(count)]
    labels = ["quiet", "abusive"] if args.compare else [
        "abusive" if args.abusive else "quiet"]
    p95s = []
    with tempfile.TemporaryDirectory() as work:
        cmd = [sys.executable, "-m", "adjudicator", "serve", "--port", str(port),
               "--db", f"sqlite:///{work}/archive.db", "--rate-limit", f"{args.rate_limit:g}"]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        if args.recycle is not None:
            cmd += ["--recycle", str(args.recycle)]
        started = time.monotonic()
        server = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        try:
            health = None
            for _ in range(3000):
                try:
                    httpx2.get(url + "/api/health", timeout=2)
                    health = time.monotonic() - started
                    break
                except httpx2.TransportError:
                    time.sleep(0.05)
            first = httpx2.post(url + "/api/judge", content=make_log(40, seed=99).encode(),
                                timeout=120)
            judged = time.monotonic() - started
            print(f"start: /api/health answered {health:.1f} s after the server was started,"
                  f" the first judgement ({first.status_code}) {judged:.1f} s after")
            for seed in range(4):  # warm: every worker has judged once
                httpx2.post(url + "/api/judge", content=make_log(40, seed=seed).encode(),
                            timeout=60)
            filed = httpx2.post(url + "/api/judge?archive=true",
                                content=make_log(40, seed=5).encode(), timeout=60)
            pdf_path = filed.headers["Location"] + ".pdf"
            # The printer's Chromium is started before the measured runs: its memory is
            # the server's from then on, not growth.
            httpx2.get(url + pdf_path, timeout=120)
            todo = iter(bodies)
            if args.warmup:
                asyncio.run(run(port, todo, args.warmup, args.clients, server.pid, args.rate))
            for label in labels:
                load = os.getloadavg()[0]
                before = (cpu_s(server.pid), workers_cpu_s(server.pid), time.process_time())
                began = time.monotonic()
                result = asyncio.run(run(port, todo, args.seconds, args.clients, server.pid,
                                         args.rate, pdf_path if label == "abusive" else None))
                took = time.monotonic() - began
                after = (cpu_s(server.pid), workers_cpu_s(server.pid), time.process_time())
                result[3].append((took, rss_kb(server.pid)))  # at the end
                p95s.append(report(label, args, took, load, result, (before, after)))
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.compare:
        print(f"short requests' p95: quiet {p95s[0] * 1000:.0f} ms, abusive "
              f"{p95s[1] * 1000:.0f} ms: {p95s[1] / p95s[0]:.2f}x")


if __name__ == "__main__":
    main()
