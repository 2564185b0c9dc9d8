"""Throughput of ``adjudicator batch``, and where a log's CPU goes, measured in one run.

Run: ``.venv/bin/python bench/batch.py [N] [--sample S] [--stages-only] [--reading]`` (N
defaults to 10,000 generated logs, written once to bench/.corpus/).  Prints:

* logs/s of ``adjudicator batch`` (local worker processes, all cores) over the N logs, and
  its CPU ms a log, all processes (getrusage of the batch and its workers, the whole run),
  split into the batch process's own and its workers';
* the stage table: CPU ms a log of each stage (reading, validate, replay, facts, rule
  selection, program building, grounding, solve + splitting + open facts, ruling), by
  wrapping each stage's public function in one process that judges S logs in chunks as a
  worker does; the batch harness is the whole run's CPU less that pass's;
* reading by Lark alone and by the reader (known lines + Lark) on the same S logs;
* the ratio to the single-log loop (``judge`` log after log in one process, CPU a log) and
  to the floor (reading, validate, replay and facts, plus grounding and solving the facts
  with no rules, the cheaper of a Control a log and a Control a chunk);
* unless ``--stages-only``: peak memory, ms per act at 40, 400, 2,000 and 10,000 acts (the
  judgement should grow linearly) and a cold ``adjudicator judge`` of a 40-act log against
  ``python -c "import clingo"``, with the package's bytecode compiled first as ``pip
  install`` compiles it (bench/judge.py's ``installed_bytecode``).

``--reading`` prints the reading line alone.  Asserts nothing: the machine is shared and
noisy, so read the ratios, and the CPU figures rather than the wall ones.
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
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from corpus import make_log, write_corpus  # noqa: E402
from judge import COLD_TARGET, installed_bytecode  # noqa: E402
from judge import make_log as long_log  # noqa: E402

from adjudicator.batch import CHUNK  # noqa: E402

PY = ROOT / ".venv" / "bin" / "python"
EXE = ROOT / ".venv" / "bin" / "adjudicator"


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


# ``adjudicator batch`` run through this snippet, which reports at its exit the CPU of the
# batch process itself and that of its workers (the children it has waited for).
_SPLIT = """
import atexit, resource, sys
def _report():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("cpu-split", own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime,
          file=sys.stderr)
atexit.register(_report)
sys.argv = ["adjudicator", *sys.argv[1:]]
from adjudicator.cli import main
main()
"""


def batch_rate(folder: Path, n: int) -> tuple[float, dict, int, float, tuple[float, float]]:
    """logs/s wall, the summary, the largest worker's peak memory, CPU ms a log (the
    batch and its workers: on a shared machine the figure that load does not halve), and
    that CPU split: the batch process's own, its workers'."""
    out = Path(tempfile.mkdtemp()) / "out.jsonl"
    summary = out.with_suffix(".summary.json")
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run([str(PY), "-c", _SPLIT, "batch", str(folder), "-o", str(out),
                           "--summary-json", str(summary)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    cpu_ms = (_children_cpu() - cpu) * 1000 / n
    split = [line.split() for line in proc.stderr.splitlines() if line.startswith("cpu-split")]
    own, kids = (float(split[-1][1]), float(split[-1][2])) if split else (0.0, 0.0)
    return (n / seconds, json.loads(summary.read_text(encoding="utf-8")), peak, cpu_ms,
            (own * 1000 / n, kids * 1000 / n))


# ------------------------------------------------------------------ the stage table
#
# Each stage is a public function of the pipeline, wrapped here (the engine is not
# changed): a wrapper adds the process CPU time of its call, less that of any wrapped call
# inside it, to its stage.  Inside rules/engine.py's solve_many the stages are cut by clingo's
# own calls: selection until the chunk's Control is made, program building until it
# grounds, grounding, then solving, splitting the answer by log and the open facts.

STAGES = [
    ("reading", "reading (reader.parse)"),
    ("validate", "validate (validate.validate)"),
    ("replay", "replay (analysis.replay.replay)"),
    ("facts", "facts (ruling.pipeline.facts_of)"),
    ("rule set", "rule set of each log (ruling.pipeline.rules_of)"),
    ("selection", "rule selection (solve_many until its Control)"),
    ("program", "program building (Control made until ground)"),
    ("grounding", "grounding (Control.ground)"),
    ("solve", "solve + splitting + open facts (the rest of solve_many)"),
    ("ruling", "ruling (ruling.pipeline.ruling_of)"),
    ("json", "ruling to its JSON line (ruling.model.to_dict)"),
]


class Clock:
    """CPU seconds by stage, each call's own (nested wrapped calls are theirs)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.inner = [0.0]  # CPU of wrapped calls made inside the current one

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.inner.append(0.0)
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.process_time() - start
                inner = self.inner.pop()
                self.spent[stage] += took - inner
                self.inner[-1] += took
        return timed

    def add(self, stage: str, seconds: float) -> None:
        self.spent[stage] += seconds
        self.inner[-1] += seconds


def instrument(clock: Clock) -> None:
    """Wrap the pipeline's stages in this process (for the instrumented pass only)."""
    import clingo

    from adjudicator.analysis import replay
    from adjudicator.language import reader
    from adjudicator.rules import engine
    from adjudicator.ruling import model, pipeline

    reader.parse = clock.wrap("reading", reader.parse)
    reader.validate = clock.wrap("validate", reader.validate)
    replay.replay = clock.wrap("replay", replay.replay)
    pipeline.facts_of = clock.wrap("facts", pipeline.facts_of)
    pipeline.rules_of = clock.wrap("rule set", pipeline.rules_of)
    pipeline.ruling_of = clock.wrap("ruling", pipeline.ruling_of)
    model.to_dict = clock.wrap("json", model.to_dict)
    marks: dict[str, float] = {}
    made, ground = clingo.Control.__init__, clingo.Control.ground

    def control_init(self: Any, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        marks.setdefault("made", time.process_time())

    def timed_ground(self: Any, *args: Any, **kwargs: Any) -> None:
        marks.setdefault("ground", time.process_time())
        try:
            ground(self, *args, **kwargs)
        finally:
            marks.setdefault("grounded", time.process_time())

    clingo.Control.__init__ = control_init  # type: ignore[method-assign]
    clingo.Control.ground = timed_ground  # type: ignore[method-assign]
    solve_many = engine.solve_many

    def timed_solve_many(*args: Any, **kwargs: Any) -> Any:
        marks.clear()
        clock.inner.append(0.0)
        start = time.process_time()
        try:
            return solve_many(*args, **kwargs)
        finally:
            end = time.process_time()
            clock.inner.pop()
            made_at = marks.get("made", end)
            ground_at = marks.get("ground", made_at)
            grounded = marks.get("grounded", ground_at)
            for stage, took in (("selection", made_at - start), ("program", ground_at - made_at),
                                ("grounding", grounded - ground_at), ("solve", end - grounded)):
                clock.add(stage, took)
    engine.solve_many = timed_solve_many


def stage_pass(paths: list[Path], warm: list[Path]) -> tuple[dict[str, float], float]:
    """CPU ms a log of each stage and of the whole in-process pass, judging ``paths`` in
    chunks as a batch worker does (batch/work.py's judge_chunk), after ``warm``."""
    from adjudicator.batch.work import judge_chunk

    def items(group: list[Path]) -> list[tuple[str, str | None, str | None]]:
        return [(p.name, p.read_text(encoding="utf-8"), None) for p in group]

    judge_chunk(items(warm), None, {})
    clock = Clock()
    instrument(clock)
    chunks = [items(paths[i:i + CHUNK]) for i in range(0, len(paths), CHUNK)]
    start = time.process_time()
    for chunk in chunks:
        judge_chunk(chunk, None, {})
    whole = time.process_time() - start
    return {k: v * 1000 / len(paths) for k, v in clock.spent.items()}, whole * 1000 / len(paths)


def reading_both(texts: list[str], warm: list[str]) -> tuple[float, float | None]:
    """CPU ms a log of reading (parse, before validate) by Lark alone and by the reader as
    it reads (Lark and the known lines), over the same texts in this one run: each twice
    in turn after reading ``warm`` (as a worker has read its first chunk), the lesser."""
    from adjudicator.language import reader

    def cpu(parse: Callable[[str], object]) -> float:
        start = time.process_time()
        for text in texts:
            parse(text)
        return (time.process_time() - start) * 1000 / len(texts)

    for text in warm:
        reader.parse(text)
    lark_only = getattr(reader, "parse_lark", None)
    if lark_only is None:  # a reader with no other path than Lark
        return min(cpu(reader.parse), cpu(reader.parse)), None
    runs = [(cpu(lark_only), cpu(reader.parse)) for _ in range(2)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def single_loop(paths: list[Path]) -> tuple[float, float]:
    """The single-log loop (``judge`` log after log in this process): logs/s and CPU ms."""
    from adjudicator.language.json_form import read_any
    from adjudicator.ruling.judge import judge

    texts = [p.read_text(encoding="utf-8") for p in paths]
    start, cpu = time.perf_counter(), time.process_time()
    for text in texts:
        judge(read_any(text))
    return (len(texts) / (time.perf_counter() - start),
            (time.process_time() - cpu) * 1000 / len(texts))


def bare_grounding(paths: list[Path]) -> tuple[float, str]:
    """CPU ms a log of grounding and solving a log's facts with no rules, the cheaper of a
    Control a log and a Control a chunk (the facts made beforehand, not counted)."""
    import clingo

    from adjudicator.language.json_form import read_any
    from adjudicator.ruling.judge import prepare

    groups = [prepare(read_any(p.read_text(encoding="utf-8"))).facts for p in paths]

    def ground(batches: list[list[Any]]) -> float:
        start = time.process_time()
        for batch in batches:
            ctl = clingo.Control(["--warn=none"])
            with ctl.backend() as backend:
                for sym in batch:
                    backend.add_rule([backend.add_atom(sym)])
            ctl.ground([("base", [])])
            ctl.solve()
        return (time.process_time() - start) * 1000 / len(groups)

    each = ground(groups)
    chunked = ground([[s for g in groups[i:i + CHUNK] for s in g]
                      for i in range(0, len(groups), CHUNK)])
    return (each, "a Control a log") if each <= chunked else (chunked, "a Control a chunk")


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
    installed_bytecode()  # a cold start as the installed program makes it
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


def print_reading(n: int, lark_ms: float, reader_ms: float | None) -> None:
    if reader_ms is None:
        print(f"reading by Lark (reader.parse, {n} logs, after a warm-up chunk): {lark_ms:.2f} ms"
              " CPU a log")
    else:
        print(f"reading, {n} logs in this run after a warm-up chunk, CPU ms a log (process_time,"
              f" the lesser of two runs in turn): Lark alone (reader.parse_lark) {lark_ms:.2f},"
              f" the reader (known lines + Lark) {reader_ms:.2f}: {lark_ms / reader_ms:.1f}x less")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=320,
                        help="logs of the in-process passes (stages, single loop, floor)")
    parser.add_argument("--stages-only", action="store_true",
                        help="leave out ms per act, peak memory and the cold start")
    parser.add_argument("--reading", action="store_true",
                        help="only reading by Lark alone and by the reader, on the sample")
    args = parser.parse_args()
    folder = ROOT / "bench" / ".corpus" / str(args.n)
    paths = write_corpus(folder, args.n)
    sample = paths[CHUNK:CHUNK + args.sample]  # after the warm-up chunk
    reading = reading_both([p.read_text(encoding="utf-8") for p in sample],
                           [p.read_text(encoding="utf-8") for p in paths[:CHUNK]])
    if args.reading:
        print_reading(len(sample), *reading)
        return
    workers = os.cpu_count() or 1
    load = os.getloadavg()[0]
    rate, summary, peak, cpu_ms, (parent_ms, workers_ms) = batch_rate(folder, args.n)
    stages, in_process = stage_pass(sample, paths[:CHUNK])
    single, single_ms = single_loop(sample)
    bare, how = bare_grounding(sample)
    print(f"batch: {args.n} logs in {args.n / rate:.1f} s = {rate:.1f} logs/s "
          f"({workers} workers; target >= 120 logs/s; load average {load:.1f} at the start,"
          f" {os.getloadavg()[0]:.1f} now)")
    print(f"  CPU {cpu_ms:.1f} ms a log, all processes (getrusage of `adjudicator batch` "
          f"and its workers over the whole run, start-up included; target <= 16.5): "
          f"{1000 / cpu_ms:.1f} logs per CPU second")
    print(f"  statuses {summary['statuses']}; money moved {summary['money_moved']}")
    print(f"stages, CPU ms a log (process_time around each stage's public function, in one "
          f"process judging {len(sample)} logs in chunks of {CHUNK} as a worker does, after "
          f"a warm-up chunk):")
    for key, label in STAGES:
        print(f"  {label:<58} {stages.get(key, 0.0):6.2f}")
    named = sum(stages.values())
    print(f"  {'the pass less the stages above (read_any, chunking)':<58} "
          f"{in_process - named:6.2f}")
    print(f"  {'batch harness: whole-run CPU less the in-process pass':<58} "
          f"{cpu_ms - in_process:6.2f}   (processes, warm-up, chunks sent and lines written)")
    print(f"    of the whole run: the batch process {parent_ms:.2f} (files read, the first chunk"
          f" judged, which warms it before its workers are forked from it, lines written),"
          f" its workers {workers_ms:.2f}")
    print(f"  {'whole run':<58} {cpu_ms:6.2f}")
    print_reading(len(sample), *reading)
    print(f"single-log loop (judge log after log, one process): {single:.1f} logs/s, "
          f"{single_ms:.1f} ms CPU a log; batch takes {cpu_ms / single_ms:.2f}x its CPU a log"
          f" and runs {rate / (single * workers):.2f}x its rate times {workers} cores")
    floor = stages.get("reading", 0) + stages.get("validate", 0) + stages.get("replay", 0) \
        + stages.get("facts", 0) + bare
    print(f"floor: reading + validate + replay + facts (stages above) + grounding and solving "
          f"the facts with no rules ({bare:.2f} ms, {how}) = {floor:.2f} ms CPU a log; "
          f"batch is {cpu_ms / floor:.2f}x the floor")
    if args.stages_only:
        return
    print(f"  peak memory: workers {peak / 1024:.0f} MB (largest), this process "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    for n, ms in per_act():
        print(f"  {n:>6} acts: {ms:6.2f} ms/act")
    judge_s, import_s = cold()
    print(f"cold `adjudicator judge` (40 acts) {judge_s * 1000:.0f} ms vs "
          f"`python -c 'import clingo'` {import_s * 1000:.0f} ms, the package's bytecode "
          f"compiled as an install does (target <= {COLD_TARGET * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
