"""The stage table of this tree and of another, in turn, on the same bench-corpus logs.

Run: ``.venv/bin/python bench/stages.py [N] [--rounds R] [--reference TREE]`` (N logs of
the 10,000-log bench corpus, 200 unless given, after its first chunk as a warm-up; TREE,
e.g. a ``git archive`` of an earlier commit).  Each round is a new process per tree that
judges the logs in chunks as a batch worker does and times each stage's public function
(bench/batch.py's ``stage_pass``, from the tree measured).  Prints CPU ms a log of each
stage, the least of the rounds, for each tree side by side, and the load average at the
start and the end.  Asserts nothing: the machine is shared, so compare the columns of one
run, not figures of different runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from corpus import write_corpus  # noqa: E402

from adjudicator.batch import CHUNK  # noqa: E402

# Run with the tree under test first on the path; prints one JSON line of stage figures.
_CHILD = """
import json, sys
from pathlib import Path
tree, folder, n, chunk = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
sys.path[:0] = [tree, tree + "/bench"]
import adjudicator
import batch
paths = sorted(folder.glob("*.log"))
stages, whole = batch.stage_pass(paths[chunk:chunk + n], paths[:chunk])
print(json.dumps({**stages, "whole pass": whole, "package": adjudicator.__file__}))
"""

KEYS = ("reading", "validate", "replay", "facts", "rule set", "selection", "program",
        "grounding", "solve", "ruling", "json", "whole pass")


def run(tree: Path, folder: Path, n: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(folder), str(n),
                           str(CHUNK)], capture_output=True, text=True, env=env,
                          cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    return json.loads(proc.stdout)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=200, help="logs (200)")
    parser.add_argument("--rounds", type=int, default=3, help="processes per tree (3)")
    parser.add_argument("--reference", type=Path, help="another source tree to time too")
    args = parser.parse_args()
    folder = ROOT / "bench" / ".corpus" / "10000"
    write_corpus(folder, CHUNK + args.n)  # the first logs of the 10,000 (the same seeds)
    trees = {"this tree": ROOT}
    if args.reference is not None:
        trees["reference"] = args.reference.resolve()
    print(f"{args.n} logs of the bench corpus after a warm-up chunk, {args.rounds} rounds; "
          f"load at start {_load()}")
    rows: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():  # in turn, so that load falls on both alike
            rows[name].append(run(tree, folder, args.n))
    print(f"{'CPU ms a log (least of the rounds)':<36}" + "".join(f"{n:>12}" for n in trees))
    for key in KEYS:
        print(f"{key:<36}" + "".join(f"{min(r.get(key, 0.0) for r in rows[n]):12.2f}"
                                     for n in trees))
    for name in trees:
        print(f"{name}: {rows[name][0]['package']}")
    print(f"load at end {_load()}")


if __name__ == "__main__":
    main()
