"""What the rules' grounding costs over the bench corpus: ground atoms an act and CPU ms a log.

Run: ``.venv/bin/python bench/grounding.py [N] [--chunk C] [--runs R] [--reference TREE]``.

N generated logs (bench/corpus.py's seeds 0 … N-1, 1,000 unless given) are read and their
facts built, then grounded in chunks of C (``adjudicator batch``'s chunk unless given) as
rules/engine.py's ``solve_many`` grounds a chunk: the chapters the chunk reaches, the rules
its facts can fire, each given its incident argument, and the facts handed over through
the bridge rules.  Only clingo's ``ground`` call is timed (CPU); the atoms are clingo's
statistics of the ground program (``problem.lp.atoms``, after one solve), divided by the
acts of the N logs.

With ``--reference TREE`` (another source tree, such as a ``git archive`` of an earlier
commit, whose ``adjudicator/asp`` and ``adjudicator/grammar`` link to its own ``asp/`` and
``grammar/``: without them its package would load this tree's rules) both trees are run
in turn, R times each (3 unless given), each run in a new process, and the medians and
their ratio are printed.

Asserts nothing: the machine is shared and noisy (CPU time, medians).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _measure(count: int, chunk: int) -> dict[str, float | int | str]:
    """In a child process whose ``adjudicator`` is the tree under test: build the N logs'
    facts and ground them chunk by chunk."""
    import time

    import clingo
    from clingo import ast
    from corpus import make_log

    from adjudicator.analysis.replay import replay
    from adjudicator.facts import record
    from adjudicator.language.reader import read
    from adjudicator.rules import engine, incident_argument
    from adjudicator.rules.files import ASP
    from adjudicator.ruling.judge import facts_of

    profile = "tw16"
    logs = []
    for seed in range(count):
        incident = read(make_log(seed))
        logs.append(facts_of(incident, replay(incident), None))
    acts = sum(1 for group in logs for sym in group if sym.name == "act")
    cpu = 0.0
    atoms = 0
    for first in range(0, len(logs), chunk):
        facts = logs[first:first + chunk]
        # As engine.solve_many builds a chunk's program (its own helpers, in that order).
        taken = [[record.plain(sym) for sym in group] for group in facts]
        chosen = engine.select(profile, taken)
        dynamic = incident_argument.seeded(chosen.every, taken)
        warnings = engine.Warnings()
        ctl = clingo.Control(logger=warnings)
        with ast.ProgramBuilder(ctl) as builder:
            for path in chosen.files:
                for stm in incident_argument.transformed(path, dynamic).others:
                    builder.add(stm)
            for rule in chosen.rules:
                builder.add(incident_argument.transformed(rule.path, dynamic).rules[rule.index])
            for stm in incident_argument.declared(chosen.every, dynamic):
                builder.add(stm)
        with ast.ProgramBuilder(ctl) as builder:
            for stm in incident_argument.bridges(taken):
                builder.add(stm)
        with ctl.backend() as backend:
            for i in range(len(facts)):
                backend.add_rule([backend.add_atom(incident_argument.guard(i))])
        start = time.process_time()
        ctl.ground([("base", [])], context=incident_argument.Facts(facts, taken))
        cpu += time.process_time() - start
        warnings.check()
        ctl.solve()
        atoms += int(ctl.statistics["problem"]["lp"]["atoms"])
    return {"asp": str(ASP), "logs": len(logs), "acts": acts, "atoms": atoms, "cpu": cpu}


def _run(tree: Path, count: int, chunk: int, cache: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "ADJUDICATOR_CACHE_DIR": cache}
    # Run outside any source tree, so that only PYTHONPATH says whose package is loaded.
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                           str(count), "--chunk", str(chunk)],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        sys.exit(f"grounding.py: the run of {tree} failed:\n{proc.stderr.strip()}")
    got = json.loads(proc.stdout.splitlines()[-1])
    if not Path(got["asp"]).resolve().is_relative_to(tree.resolve()):
        sys.exit(f"grounding.py: {tree}'s package loads the rules of {got['asp']}: link "
                 f"{tree}/adjudicator/asp to ../asp (and adjudicator/grammar to ../grammar)")
    return got


def _line(name: str, runs: list[dict]) -> tuple[float, float]:
    each = [r["cpu"] * 1e3 / r["logs"] for r in runs]
    ms = statistics.median(each)
    per_act = runs[0]["atoms"] / runs[0]["acts"]
    print(f"{name}: {per_act:.1f} ground atoms an act ({runs[0]['atoms']} over "
          f"{runs[0]['acts']} acts), grounding {ms:.2f} ms of CPU a log (runs: "
          f"{', '.join(f'{x:.2f}' for x in each)})")
    return per_act, ms


def main() -> None:
    from adjudicator.batch import CHUNK

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, nargs="?", default=1000)
    parser.add_argument("--chunk", type=int, default=CHUNK)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--reference", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_measure(args.count, args.chunk)))
        return
    trees = {"this tree": ROOT}
    if args.reference is not None:
        trees[f"reference {args.reference}"] = args.reference.resolve()
    caches = {name: tempfile.mkdtemp(prefix="adjudicator-grounding-") for name in trees}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    print(f"{args.count} bench-corpus logs, chunks of {args.chunk}, {args.runs} runs a tree "
          f"in turn (load average {os.getloadavg()[0]:.1f})")
    for _ in range(args.runs):
        for name, tree in trees.items():
            runs[name].append(_run(tree, args.count, args.chunk, caches[name]))
    figures = {name: _line(name, got) for name, got in runs.items()}
    if args.reference is not None:
        (atoms, ms), (ref_atoms, ref_ms) = figures.values()
        print(f"this tree / reference: ground atoms an act {atoms / ref_atoms:.3f}, grounding "
              f"CPU {ms / ref_ms:.3f} ({ref_ms - ms:+.2f} ms a log saved)")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
