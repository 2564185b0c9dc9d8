"""Load on the desk's API: POST /api/judge with a 40-act log, on loopback, for a while.

Run: ``.venv/bin/python bench/desk_load.py [--seconds 30] [--clients 8] [--same]``.
Starts ``adjudicator serve`` on a free port (SQLite in a temporary folder), warms it,
then keeps ``--clients`` requests in flight.  Each request is a different log (the seed
varies, so no answer comes from the server's cache) unless ``--same``.  Prints requests/s,
p50/p95/max latency and the server's memory (its process and the workers) at each tenth of
the run, then at its start and end with the change (flat memory: a change near zero).
Asserts nothing; not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from judge import make_log  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in KB (from /proc)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines()
                              if line.startswith("VmRSS:")))
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                todo += [int(c) for c in children]
        except (OSError, StopIteration):
            continue
    return total


async def run(url: str, seconds: float, clients: int, same: bool,
              pid: int) -> tuple[list[float], int, list[tuple[float, int]]]:
    latencies: list[float] = []
    failures = 0
    memory: list[tuple[float, int]] = []
    start = time.monotonic()
    end = start + seconds
    counter = iter(range(10**9))

    async def client(http: httpx2.AsyncClient) -> None:
        nonlocal failures
        while time.monotonic() < end:
            log = make_log(40, seed=7 if same else 1000 + next(counter))
            t0 = time.perf_counter()
            r = await http.post(url + "/api/judge", content=log.encode(),
                                headers={"content-type": "text/plain; charset=utf-8"})
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                failures += 1

    async def sample() -> None:
        while time.monotonic() < end:
            memory.append((time.monotonic() - start, rss_kb(pid)))
            await asyncio.sleep(seconds / 10)

    limits = httpx2.Limits(max_connections=clients)
    async with httpx2.AsyncClient(timeout=60, limits=limits) as h:
        await asyncio.gather(sample(), *(client(h) for _ in range(clients)))
    return latencies, failures, memory


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--same", action="store_true", help="the same log every time")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as work:
        cmd = [sys.executable, "-m", "adjudicator", "serve", "--port", str(port),
               "--db", f"sqlite:///{work}/archive.db"]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
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
            began = time.monotonic()
            latencies, failures, memory = asyncio.run(
                run(url, args.seconds, args.clients, args.same, server.pid))
            took = time.monotonic() - began
            memory.append((took, rss_kb(server.pid)))  # at the end, the workers still up
        finally:
            server.terminate()
            server.wait(timeout=30)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"POST /api/judge, 40-act log ({'same log' if args.same else 'a new log each time'}),"
          f" {args.clients} clients, {took:.1f} s")
    print(f"requests: {len(latencies)}  failures: {failures}  "
          f"rate: {len(latencies) / took:.1f} req/s")
    print(f"latency: p50 {statistics.median(latencies) * 1000:.0f} ms  "
          f"p95 {p95 * 1000:.0f} ms  max {latencies[-1] * 1000:.0f} ms")
    print("server memory (RSS, all processes): " + "  ".join(
        f"{t:.0f}s {kb / 1024:.0f} MB" for t, kb in memory))
    first, last = memory[0][1], memory[-1][1]
    print(f"memory: start {first / 1024:.0f} MB  end {last / 1024:.0f} MB  "
          f"change {(last - first) / 1024:+.0f} MB ({(last - first) / first:+.1%})")


if __name__ == "__main__":
    main()
