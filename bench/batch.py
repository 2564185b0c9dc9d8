"""Throughput of ``adjudicator batch``, as ratios measured in one run.

Run: ``.venv/bin/python bench/batch.py [N] [--sample S]`` (N defaults to 10,000 generated logs,
written once to bench/.corpus/).  Prints:

* logs/s of ``adjudicator batch`` (local worker processes, all cores) over the N logs;
* against (a) the single-log loop (``judge`` log after log in one process) and (b) the
  floor: reading the log, building its facts and grounding + solving those facts with an
  empty rule base — both on the first S logs, per process, and scaled by the worker count
  so that the ratio compares like with like;
* ms per act at 40, 400, 2,000 and 10,000 acts (the judgement should grow linearly);
* the rules' step alone (one clingo run a chunk, as ``adjudicator batch`` makes them), CPU ms
  a log;
* peak memory of the batch run (parent and workers);
* a cold ``adjudicator judge`` of a 40-act log against ``python -c "import clingo"``.

Asserts nothing: the machine is shared and noisy, so read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from corpus import make_log, write_corpus  # noqa: E402
from judge import make_log as long_log  # noqa: E402

from adjudicator.batch import CHUNK  # noqa: E402

PY = ROOT / ".venv" / "bin" / "python"
EXE = ROOT / ".venv" / "bin" / "adjudicator"


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def batch_rate(folder: Path, n: int) -> tuple[float, dict, int, float]:
    """logs/s wall, the summary, the largest worker's peak memory, and CPU ms a log (the
    batch and its workers: on a shared machine the figure that load does not halve)."""
    out = Path(tempfile.mkdtemp()) / "out.jsonl"
    summary = out.with_suffix(".summary.json")
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run([str(EXE), "batch", str(folder), "-o", str(out), "--summary-json",
                           str(summary)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    cpu_ms = (_children_cpu() - cpu) * 1000 / n
    return n / seconds, json.loads(summary.read_text(encoding="utf-8")), peak, cpu_ms


def single_and_floor(paths: list[Path]) -> tuple[float, float]:
    import clingo

    from adjudicator.language.json_form import read_any
    from adjudicator.ruling.judge import judge, symbols_of

    texts = [p.read_text(encoding="utf-8") for p in paths]
    judge(read_any(texts[0]))
    start = time.perf_counter()
    for text in texts:
        judge(read_any(text))
    single = len(texts) / (time.perf_counter() - start)
    start = time.perf_counter()
    for text in texts:
        ctl = clingo.Control(["--warn=none"])
        with ctl.backend() as backend:
            for sym in symbols_of(read_any(text)):
                backend.add_rule([backend.add_atom(sym)])
        ctl.ground([("base", [])])
        ctl.solve()
    floor = len(texts) / (time.perf_counter() - start)
    return single, floor


def rules_step(paths: list[Path], chunk: int = CHUNK) -> float:
    """CPU ms a log of the rules' step alone in batch (rules/engine.py's solve_many over
    chunks of ``chunk`` logs, their facts built beforehand), after a warm-up chunk."""
    from adjudicator.language.json_form import read_any
    from adjudicator.rules import engine
    from adjudicator.ruling.judge import symbols_of

    groups = [symbols_of(read_any(p.read_text(encoding="utf-8"))) for p in paths]
    engine.solve_many(groups[:chunk], "tw16")
    start = time.process_time()
    for i in range(0, len(groups), chunk):
        engine.solve_many(groups[i:i + chunk], "tw16")
    return (time.process_time() - start) * 1000 / len(groups)


def per_act() -> list[tuple[int, float]]:
    from adjudicator.ruling.judge import judge_text

    out = []
    # Draws and discards without stated hands (bench/judge.py's log): a dealt hand cannot
    # last 10,000 acts, and what is measured is how the judgement grows with the record.
    for n in (40, 400, 2000, 10000):
        text = long_log(n)
        start = time.perf_counter()
        judge_text(text)
        out.append((n, (time.perf_counter() - start) * 1000 / n))
    return out


def cold() -> tuple[float, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as f:
        f.write(make_log(1, n_acts=40))  # a dealt, stated hand of 40 acts
    judge_times, import_times = [], []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([str(EXE), "judge", f.name, "-f", "json"], check=True,
                       capture_output=True)
        judge_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([str(PY), "-c", "import clingo"], check=True)
        import_times.append(time.perf_counter() - start)
    os.unlink(f.name)
    return statistics.median(judge_times), statistics.median(import_times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=100)
    args = parser.parse_args()
    folder = ROOT / "bench" / ".corpus" / str(args.n)
    paths = write_corpus(folder, args.n)
    workers = os.cpu_count() or 1
    rate, summary, peak, cpu_ms = batch_rate(folder, args.n)
    single, floor = single_and_floor(paths[:args.sample])
    print(f"batch: {args.n} logs in {args.n / rate:.1f} s = {rate:.1f} logs/s "
          f"({workers} workers; target >= 166 logs/s, 10,000 in <= 60 s)")
    print(f"  CPU {cpu_ms:.1f} ms a log (all processes; {1000 / cpu_ms:.1f} logs per CPU "
          f"second; load average now {os.getloadavg()[0]:.1f})")
    print(f"  statuses {summary['statuses']}; money moved {summary['money_moved']}")
    print(f"  (a) single-log loop {single:.1f} logs/s a process, x{workers} = "
          f"{single * workers:.1f}: batch is {rate / (single * workers):.2f}x that")
    print(f"  (b) floor (read + facts + ground/solve with no rules) {floor:.1f} logs/s a "
          f"process, x{workers} = {floor * workers:.1f}: batch is "
          f"{floor * workers / rate:.1f}x slower than the floor")
    print(f"  the rules' step alone (engine.solve_many, chunks of {CHUNK}): "
          f"{rules_step(paths[:args.sample]):.1f} ms CPU a log")
    print(f"  peak memory: workers {peak / 1024:.0f} MB (largest), this process "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    for n, ms in per_act():
        print(f"  {n:>6} acts: {ms:6.2f} ms/act")
    judge_s, import_s = cold()
    print(f"cold `adjudicator judge` (40 acts) {judge_s * 1000:.0f} ms vs "
          f"`python -c 'import clingo'` {import_s * 1000:.0f} ms (target <= 250 ms)")


if __name__ == "__main__":
    main()
