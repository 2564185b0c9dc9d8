"""How fast a log is judged: warm in-process and cold from the command line.

Run: ``.venv/bin/python bench/judge.py``.  Prints medians; asserts nothing.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
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


def warm(text: str, runs: int) -> float:
    judge_text(text)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        judge_text(text)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cold(text: str, runs: int) -> float:
    exe = ROOT / ".venv" / "bin" / "adjudicator"
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as f:
        f.write(text)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([str(exe), "judge", f.name, "--format", "json"], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - t0)
    Path(f.name).unlink()
    return statistics.median(times)


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


def main() -> None:
    # The Python side alone, to 10,000 acts: each column should stay flat (linear growth).
    python_part(make_log(40))
    for n in (40, 400, 2000, 10000):
        parts = python_part(make_log(n))
        cols = "  ".join(f"{k} {v * 1e6 / n:5.1f}" for k, v in parts.items())
        print(f"{n:>5} acts: Python side µs/act (CPU)  {cols}  "
              f"total {sum(parts.values()) * 1e6 / n:5.1f}")
    for n, runs in ((40, 50), (400, 10), (2000, 5)):
        text = make_log(n)
        w = warm(text, runs)
        c = cold(text, 5)
        print(f"{n:>5} acts: judge warm median {w * 1000:7.1f} ms   "
              f"({w * 1e6 / n:6.1f} µs/act)   cold CLI median {c * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
