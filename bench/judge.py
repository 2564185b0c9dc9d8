"""How fast a log is judged: warm in-process and cold from the command line.

Run: ``.venv/bin/python bench/judge.py [--quick] [--cold] [--runs N] [--instructions]
[--reference TREE] [--from-source]`` (--cold: only the cold start; --runs: cold runs of each
kind, 5 unless given; --from-source: time the cold start without compiling the package's
bytecode first, which it otherwise does as ``pip install`` does; --reference: also run the
package of another source tree, e.g. an earlier commit's ``git archive``, in turn with this
one;
--instructions: also count a cold judgement's instructions under callgrind, as a whole
and by phase: steadier than CPU time on a shared machine, and some minutes).  Prints:

* the Python side (read, replay, facts) in µs per act at 40 … 10,000 acts;
* the rules' step alone for a 40-act log, CPU ms;
* a whole judgement in ms per act at 40, 400, 2,000 and 10,000 acts (it should stay
  flat: the rules must ground linearly in the length of the record), for a record of
  draws and discards (make_log) and for one where pungs and chows are made (make_pung_log);
* a cold ``adjudicator judge`` (a new process) of examples/wrong-pung-priority.log and of
  a 40-act log, against ``python -c "import clingo"``: min and median of 5 runs, wall and
  CPU (user+sys: steadier on a shared machine), with the cache folder warm and emptied
  before each run (adjudicator/cache.py);
* the cold ``judge`` of the 40-act log in turn with ``import clingo`` (and with the
  reference tree's ``judge``), run by run: its median CPU and wall, the median of the
  ratios pair by pair, and its median against the issue's target of 0.45 s;
* where a cold judgement of the 40-act log spends its CPU, phase by phase (imports, the
  parser loaded from the cache, the first read, the facts, the rules, the ruling).

Asserts nothing: the machine is shared and noisy.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.language import tiles  # noqa: E402
from adjudicator.language.seats import SEATS, next_seat  # noqa: E402
from adjudicator.ruling.judge import judge_text  # noqa: E402

HEADER = "規則: tw16\n圈風: 東\n莊家: 東\n底: 300\n台: 100\n牌牆: 56\n\n紀錄:\n"


def make_log(n_acts: int, seed: int = 7) -> str:
    """A plausible record: turns of draw + discard, with an occasional call, pung or report."""
    rng = random.Random(seed)
    lines: list[str] = []
    seat = "東"
    seq = 1
    while len(lines) < n_acts:
        tile = tiles.name(rng.randrange(34))
        lines.append(f"{seq} {seat} 摸")
        lines.append(f"{seq + 1} {seat} 打 {tile}")
        seq += 2
        roll = rng.random()
        if roll < 0.1:
            caller = rng.choice([s for s in SEATS if s != seat])
            lines.append(f"{seq} {caller} 喊碰 {tile}")
            seq += 1
        elif roll < 0.12:
            lines.append(f"{seq} {rng.choice(SEATS)} 自承 偷牌")
            seq += 1
        seat = next_seat(seat)
    return HEADER + "\n".join(lines[:n_acts]) + "\n"


def make_pung_log(n_acts: int, seed: int = 7) -> str:
    """A record where pungs and chows are really made, each turn as the rules allow it.

    A round of ten acts: X draws and discards, its 下家 pungs that tile and discards, the
    next chows that discard (its 上家's) and discards, the fourth draws and discards, and X
    draws and discards once more, so the next round starts one seat on.  No tile is thrown
    twice within eight acts, so no pung takes a second copy in a go-round, and nobody
    discards what it has just punged or chowed (禁制.6).  Past some forty acts a tile is
    seen a fifth time (no game is that long), so the replay reports fifth copies and the
    ruling is "inconsistent"; the rules are grounded and solved all the same.
    """
    rng = random.Random(seed)
    recent: list[int] = []

    def fresh(allowed: range | list[int]) -> int:
        tile = rng.choice([t for t in allowed if t not in recent])
        recent.append(tile)
        del recent[:-8]
        return tile

    lines: list[str] = []
    seat = "東"
    while len(lines) < n_acts:
        pung, chow = fresh(range(34)), fresh([9 * s + r for s in range(3) for r in range(1, 8)])
        after_chow, fourth, last = fresh(range(34)), fresh(range(34)), fresh(range(34))
        s1 = next_seat(seat)
        s2 = next_seat(s1)
        s3 = next_seat(s2)
        lines += [f"{seat} 摸", f"{seat} 打 {tiles.name(pung)}",
                  f"{s1} 碰 {tiles.name(pung)}", f"{s1} 打 {tiles.name(chow)}",
                  f"{s2} 吃 {tiles.name(chow)} 用 {tiles.name(chow - 1)} {tiles.name(chow + 1)}",
                  f"{s2} 打 {tiles.name(after_chow)}",
                  f"{s3} 摸", f"{s3} 打 {tiles.name(fourth)}",
                  f"{seat} 摸", f"{seat} 打 {tiles.name(last)}"]
        seat = s1
    body = "\n".join(f"{i} {line}" for i, line in enumerate(lines[:n_acts], start=1))
    return HEADER.replace("牌牆: 56\n", "") + body + "\n"


def python_part(text: str) -> dict[str, float]:
    """CPU seconds of the Python side of a judgement (no solving): read, replay, facts."""
    from adjudicator.analysis.replay import replay
    from adjudicator.language.reader import read
    from adjudicator.ruling.judge import facts_of

    clock = time.process_time
    a = clock()
    incident = read(text)
    b = clock()
    timeline = replay(incident)
    c = clock()
    facts_of(incident, timeline, None)
    d = clock()
    return {"read": b - a, "replay": c - b, "facts": d - c}


def rules_part(n_acts: int = 40, reps: int = 100) -> float:
    """CPU ms of the rules' step alone (engine.solve_open) for one log's facts."""
    from adjudicator.analysis.replay import replay
    from adjudicator.language.reader import read
    from adjudicator.rules import engine
    from adjudicator.ruling.judge import facts_of

    incident = read(make_log(n_acts))
    facts = facts_of(incident, replay(incident), None)
    engine.solve_open(facts, "tw16")
    start = time.process_time()
    for _ in range(reps):
        engine.solve_open(facts, "tw16")
    return (time.process_time() - start) * 1000 / reps


def per_act(n: int, make: Callable[[int], str] = make_log) -> float:
    """ms per act of one whole judgement of an n-act log (after a warm-up judgement)."""
    text = make(n)
    start = time.perf_counter()
    judge_text(text)
    return (time.perf_counter() - start) * 1000 / n


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(args: list[str], env: dict[str, str], before: object = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``args`` in a new process."""
    if callable(before):
        before()
    cpu, start = _cpu(), time.perf_counter()
    # Run outside the source tree: ``python -m`` puts its folder first on the path, before
    # a reference tree's PYTHONPATH.
    subprocess.run(args, check=True, capture_output=True, env={**os.environ, **env},
                   cwd=tempfile.gettempdir())
    return time.perf_counter() - start, _cpu() - cpu


# A cold judgement of one log, phase by phase, in CPU ms (run in a new process).
_PHASES = """
import os, sys, time
clock = time.process_time
marks = [("start", clock())]
# STOP_AFTER=k ends the run after the k-th phase (cold_instructions counts each prefix).
stop = int(os.environ.get("STOP_AFTER", "99"))
if stop == 0:
    raise SystemExit(0)
def mark(what):
    marks.append((what, clock()))
    if len(marks) > stop:
        raise SystemExit(0)
import adjudicator.cli.commands, adjudicator.language.json_form
mark("import the command line and the reader")
from adjudicator.ruling import judge as J
mark("import the judge")
from adjudicator.language import reader
reader.parser()
mark("load the parser")
incident = reader.read(open(sys.argv[1], encoding="utf-8").read())
mark("first read")
from adjudicator.analysis import replay
rules = J.rules_of(incident)
timeline = replay.replay(incident)
facts = J.facts_of(incident, timeline, rules)
mark("replay and facts")
from adjudicator.rules import engine
answer = engine.solve_open(facts, rules.profile)
mark("rules (ground, solve)")
from adjudicator.ruling import atoms as read_atoms
from adjudicator.ruling.model import to_json
to_json(read_atoms.ruling_of(incident, rules, answer, timeline))
mark("ruling and JSON")
import json
print(json.dumps({what: (t - marks[i][1]) * 1000 for i, (what, t) in enumerate(marks[1:])}))
"""


def cold_phases(log: str, env: dict[str, str], runs: int = 5) -> None:
    """Median CPU ms of each phase of a cold judgement of ``log`` (the cache folder warm)."""
    py = str(ROOT / ".venv" / "bin" / "python")
    seen: dict[str, list[float]] = {}
    for _ in range(runs):
        done = subprocess.run([py, "-c", _PHASES, log], check=True, capture_output=True,
                              text=True, env={**os.environ, **env})
        for what, ms in json.loads(done.stdout).items():
            seen.setdefault(what, []).append(ms)
    print("  cold judgement of a 40-act log, CPU ms by phase (median of "
          f"{runs}): " + ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in seen.items()))


def _instructions(args: list[str], env: dict[str, str]) -> int:
    """Instructions one run of ``args`` executes, counted by valgrind's callgrind."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *args], check=True, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0", **env})
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    raise RuntimeError(done.stderr)


def cold_instructions(log: str, env: dict[str, str]) -> None:
    """Instructions (M) of a cold judgement of ``log`` as a whole and phase by phase (each
    phase the difference between runs stopped after it and before it), against the
    interpreter alone and ``import clingo``.  Steady where CPU time is not: the machine is
    shared.  Without the package's bytecode cached (PYTHONDONTWRITEBYTECODE and no
    __pycache__) every import compiles its source: some 0.4 G more."""
    py = str(ROOT / ".venv" / "bin" / "python")
    exe = str(ROOT / ".venv" / "bin" / "adjudicator")
    whole = _instructions([py, exe, "judge", log, "-f", "json"], env)
    base = _instructions([py, "-c", "pass"], env)
    clingo_ = _instructions([py, "-c", "import clingo"], env)
    names = [line.split('"')[1] for line in _PHASES.splitlines()
             if line.startswith('mark("')]
    counts = [_instructions([py, "-c", _PHASES, log], {**env, "STOP_AFTER": str(k)})
              for k in range(len(names) + 1)]
    phases = ", ".join(f"{name} {(counts[k + 1] - counts[k]) / 1e6:.0f}"
                       for k, name in enumerate(names))
    print(f"  instructions (M): adjudicator judge {whole / 1e6:.0f}; python -c pass "
          f"{base / 1e6:.0f}; import clingo {clingo_ / 1e6:.0f}")
    print(f"  by phase (M): interpreter {counts[0] / 1e6:.0f}, {phases}")


def installed_bytecode() -> None:
    """Compile the package's modules as ``pip install`` does, so that a cold start is
    timed as an installed program runs: an editable checkout under PYTHONDONTWRITEBYTECODE
    would otherwise compile every module's source in every new process."""
    import compileall

    compileall.compile_dir(ROOT / "adjudicator", quiet=1)


def _bytecode() -> str:
    """Whether a new process finds the package's modules compiled (a .pyc as new as each
    source): PYTHONDONTWRITEBYTECODE without a __pycache__ leaves every import compiling
    its source, some 40% more instructions for a cold judgement."""
    import importlib.util

    sources = list((ROOT / "adjudicator").rglob("*.py"))
    stale = [f for f in sources
             if not (pyc := Path(importlib.util.cache_from_source(str(f)))).exists()
             or pyc.stat().st_mtime < f.stat().st_mtime]
    return ("bytecode cached" if not stale else
            f"{len(stale)} of {len(sources)} modules without fresh bytecode "
            "(python -m compileall adjudicator)")


# The bound on a cold judge of a 40-act log, cache warm, on this machine idle.
COLD_TARGET = 0.45


def reference_python(reference: Path, env: dict[str, str]) -> str:
    """The Python that runs ``reference`` with its own rules: its own venv when it has one.
    On PYTHONPATH alone, this tree's editable install still maps ``adjudicator.asp`` and
    the grammar here, so such a run would time the reference's code with this tree's
    rules: refused (SystemExit) unless they resolve inside the reference."""
    own = reference / ".venv" / "bin" / "python"
    py = str(own if own.exists() else ROOT / ".venv" / "bin" / "python")
    probe = "import adjudicator.asp as a; print(a.__file__)"
    found = subprocess.run([py, "-c", probe], env={**os.environ, **env}, check=True,
                           capture_output=True, text=True,
                           cwd=tempfile.gettempdir()).stdout.strip()
    if not Path(found).resolve().is_relative_to(reference.resolve()):
        raise SystemExit(f"--reference {reference}: its rules resolve to {found}, outside "
                         "it; give the tree a venv of its own (python3 -m venv .venv && "
                         ".venv/bin/pip install -e .)")
    return py


def cold_pairs(log: str, env: dict[str, str], runs: int, reference: Path | None) -> None:
    """The cold judge of ``log`` run in turn with each reference, pair by pair (a shared
    machine's speed drifts between minutes; a pair's ratio holds)."""
    py = str(ROOT / ".venv" / "bin" / "python")
    judge = [py, "-m", "adjudicator", "judge", log, "-f", "json"]
    others: dict[str, tuple[list[str], dict[str, str]]] = {
        'python -c "import clingo"': ([py, "-c", "import clingo"], env)}
    if reference is not None:
        cache = tempfile.mkdtemp(prefix="adjudicator-bench-reference-")
        other = {"PYTHONPATH": str(reference), "ADJUDICATOR_CACHE_DIR": cache}
        their_judge = [reference_python(reference, other), *judge[1:]]
        _timed(their_judge, other)  # fill its cache
        others[f"judge of {reference}"] = (their_judge, other)
    ours: list[tuple[float, float]] = []
    theirs: dict[str, list[tuple[float, float]]] = {name: [] for name in others}
    for _ in range(runs):
        ours.append(_timed(judge, env))
        for name, (args, other_env) in others.items():
            theirs[name].append(_timed(args, other_env))
    wall = statistics.median(w for w, _ in ours)
    cpu = statistics.median(c for _, c in ours)
    print(f"  cold judge of a 40-act log, {runs} runs in turn with the others: median CPU "
          f"{cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms; wall / target "
          f"{COLD_TARGET:.2f} s: {wall / COLD_TARGET:.2f} (load {os.getloadavg()[0]:.1f})")
    for name, times in theirs.items():
        ratio = statistics.median(a[1] / b[1] for a, b in zip(ours, times, strict=True))
        print(f"    against {name}: its median CPU "
              f"{statistics.median(c for _, c in times) * 1000:.0f} ms; CPU ratio pair by "
              f"pair, median {ratio:.2f}")


def cold_start(runs: int = 5, instructions: bool = False,
               reference: Path | None = None) -> None:
    exe = str(ROOT / ".venv" / "bin" / "adjudicator")
    py = str(ROOT / ".venv" / "bin" / "python")
    folder = Path(tempfile.mkdtemp(prefix="adjudicator-bench-cache-"))
    env = {"ADJUDICATOR_CACHE_DIR": str(folder)}

    def empty() -> None:
        shutil.rmtree(folder, ignore_errors=True)

    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as f:
        f.write(make_log(40))
    logs = {"examples/wrong-pung-priority.log": str(ROOT / "examples" /
                                                     "wrong-pung-priority.log"),
            "a 40-act log": f.name}

    def show(what: str, times: list[tuple[float, float]]) -> None:
        wall, cpu = [w for w, _ in times], [c for _, c in times]
        print(f"  {what:<58} min {min(wall) * 1000:5.0f} ms  "
              f"median {statistics.median(wall) * 1000:5.0f} ms  "
              f"(CPU min {min(cpu) * 1000:4.0f} ms, median {statistics.median(cpu) * 1000:4.0f})")

    show('python -c "import clingo"', [_timed([py, "-c", "import clingo"], env)
                                       for _ in range(runs)])
    for name, path in logs.items():
        args = [exe, "judge", path, "-f", "json"]
        _timed(args, env)  # fill the cache
        show(f"adjudicator judge {name}", [_timed(args, env) for _ in range(runs)])
        show("  … cache emptied before each run", [_timed(args, env, empty)
                                                    for _ in range(runs)])
    _timed([exe, "judge", f.name, "-f", "json"], env)  # fill the cache
    cold_pairs(f.name, env, runs, reference)
    cold_phases(f.name, env, runs)
    if instructions:
        cold_instructions(f.name, env)
    empty()
    Path(f.name).unlink()


def main() -> None:
    quick = "--quick" in sys.argv
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    reference = (Path(sys.argv[sys.argv.index("--reference") + 1]).resolve()
                 if "--reference" in sys.argv else None)
    if "--from-source" not in sys.argv:
        installed_bytecode()
    if "--cold" in sys.argv:
        print(f"cold start (a new process; {os.cpu_count()} cores, "
              f"load {os.getloadavg()[0]:.1f}; {_bytecode()}):")
        cold_start(runs, "--instructions" in sys.argv, reference)
        return
    sizes = (40, 400, 2000) if quick else (40, 400, 2000, 10000)
    # The Python side alone, to 10,000 acts: each column should stay flat (linear growth).
    python_part(make_log(40))
    for n in sizes:
        parts = python_part(make_log(n))
        cols = "  ".join(f"{k} {v * 1e6 / n:5.1f}" for k, v in parts.items())
        print(f"{n:>5} acts: Python side µs/act (CPU)  {cols}  "
              f"total {sum(parts.values()) * 1e6 / n:5.1f}")
    print(f"the rules' step of a 40-act log, CPU ms: {rules_part():5.2f}")
    judge_text(make_log(40))
    print("whole judgement, in process: " + "   ".join(
        f"{n} acts {per_act(n):5.2f} ms/act" for n in sizes))
    # Pungs and chows really made: every shown meld stays in the facts of each later act, so
    # this log grows faster than linearly on the Python side (see the commit of this line).
    print("whole judgement, pungs and chows made: " + "   ".join(
        f"{n} acts {per_act(n, make_pung_log):5.2f} ms/act" for n in sizes), flush=True)
    print(f"cold start (a new process; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
          f"{_bytecode()}):")
    cold_start(runs, "--instructions" in sys.argv, reference)


if __name__ == "__main__":
    main()
