"""Does judging stay linear in the length of the record?  ms per act at 2,000 and 10,000 acts.

Run: ``.venv/bin/python bench/linearity.py [--runs R] [--acts A B]``.

Two long records, each judged whole in this process (after a warm-up judgement of a short
one), R times at each length (3 unless given), CPU time, medians:

* pungs and chows made, each turn as the rules allow it (bench/judge.py's make_pung_log);
* draws and discards with calls, and admitted offences that leave exactly 10 facts open
  (``make_open_log``: each seat's first admission makes it 相公, and each later one, after
  it has played on, may be the same fault reported again or a second one — asp/open.lp
  judges both ways, two more solves a fact).

Prints ms per act at each length, phase by phase (reading, replay, facts, the rules —
grounding and solving, the ruling), the open facts of the ruling, and the ratio of the
longer record's ms per act to the shorter's (issue #30 asks ≤ 1.3 for the whole).

To measure another source tree, run this file from outside both trees with that tree on
``PYTHONPATH`` (its ``adjudicator/asp`` and ``adjudicator/grammar`` linked to its own
``asp/`` and ``grammar/``); the records are this file's.

Asserts nothing: the machine is shared and noisy (CPU time, medians).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# The package first: bench/judge.py puts this tree on the path, and a tree named on
# PYTHONPATH must stay the one measured.
import adjudicator
from adjudicator.language import tiles
from adjudicator.language.seats import SEATS, next_seat

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from judge import HEADER, make_pung_log  # noqa: E402

TARGET = 1.3


def make_open_log(n_acts: int, open_facts: int = 10, seed: int = 7) -> str:
    """Turns of draw + discard, now and then a call (喊碰), and ``open_facts`` + 4 admissions
    of 偷牌 spread evenly over the record, seat after seat: the first four make each seat
    相公, each later one leaves open whether it is a second fault (one open fact each)."""
    rng = random.Random(seed)
    reports = open_facts + len(SEATS)
    slots = [n_acts * k // (reports + 1) for k in range(1, reports + 1)]
    lines: list[str] = []
    seat = "東"
    seq = 1
    made = 0
    while len(lines) < n_acts:
        tile = tiles.name(rng.randrange(34))
        lines.append(f"{seq} {seat} 摸")
        lines.append(f"{seq + 1} {seat} 打 {tile}")
        seq += 2
        if rng.random() < 0.1:
            caller = rng.choice([s for s in SEATS if s != seat])
            lines.append(f"{seq} {caller} 喊碰 {tile}")
            seq += 1
        if made < reports and len(lines) >= slots[made]:
            lines.append(f"{seq} {SEATS[made % len(SEATS)]} 自承 偷牌")
            seq += 1
            made += 1
        seat = next_seat(seat)
    return HEADER + "\n".join(lines[:n_acts]) + "\n"


def phases(text: str) -> tuple[dict[str, float], int]:
    """CPU seconds of each phase of one whole judgement, and its open facts."""
    from adjudicator.analysis import replay
    from adjudicator.language.reader import read
    from adjudicator.rules import engine
    from adjudicator.ruling import judge
    from adjudicator.ruling.atoms import ruling_of

    clock = time.process_time
    a = clock()
    incident = read(text)
    b = clock()
    rules = judge.rules_of(incident)
    timeline = replay.replay(incident)
    c = clock()
    facts = judge.facts_of(incident, timeline, rules)
    d = clock()
    answer = engine.solve_open(facts, rules.profile)
    e = clock()
    ruling = ruling_of(incident, rules, answer, timeline)
    f = clock()
    spent = {"read": b - a, "replay": c - b, "facts": d - c, "rules": e - d, "ruling": f - e}
    return spent, len(ruling.uncertain)


def measure(name: str, make: Callable[[int], str], sizes: tuple[int, int], runs: int) -> float:
    phases(make(200))  # warm: the chapters parsed, the caches filled
    per_act: dict[int, dict[str, float]] = {}
    for n in sizes:
        text = make(n)
        got = [phases(text) for _ in range(runs)]
        opened = got[0][1]
        keys = list(got[0][0])
        per_act[n] = {k: statistics.median(g[0][k] for g in got) * 1e3 / n for k in keys}
        per_act[n]["whole"] = statistics.median(sum(g[0].values()) for g in got) * 1e3 / n
        print(f"  {n:>6} acts: {per_act[n]['whole']:.3f} ms per act ("
              + ", ".join(f"{k} {per_act[n][k]:.3f}" for k in keys)
              + f"); {opened} open facts")
    small, big = sizes
    ratio = per_act[big]["whole"] / per_act[small]["whole"]
    by_phase = ", ".join(f"{k} {per_act[big][k] / per_act[small][k]:.2f}"
                         for k in per_act[big] if k != "whole" and per_act[small][k] > 0)
    print(f"  {name}: ms per act at {big:,} / at {small:,} = {ratio:.2f} "
          f"({'within' if ratio <= TARGET else 'over'} {TARGET}; by phase: {by_phase})")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--acts", type=int, nargs=2, default=(2000, 10000), metavar=("A", "B"))
    args = parser.parse_args()
    sizes = (args.acts[0], args.acts[1])
    print(f"adjudicator from {Path(adjudicator.__file__).parent}; {args.runs} runs a length, "
          f"CPU medians (load average {os.getloadavg()[0]:.1f})")
    for name, make in (("pungs and chows", make_pung_log), ("10 open facts", make_open_log)):
        print(f"{name}:")
        measure(name, make, sizes, args.runs)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
