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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import write_corpus  # noqa: E402
from trees import ROOT, arguments, in_turn, load, trees  # noqa: E402

from adjudicator.batch import CHUNK  # noqa: E402

# Run with the tree under test first on the path; prints one JSON line of stage figures.
_CHILD = """
import json, sys
from pathlib import Path
import adjudicator
folder, n, chunk = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, str(Path(adjudicator.__file__).parents[1] / "bench"))
import batch
paths = sorted(folder.glob("*.log"))
stages, whole = batch.stage_pass(paths[chunk:chunk + n], paths[:chunk])
print(json.dumps({**stages, "whole pass": whole, "package": adjudicator.__file__}))
"""

KEYS = ("reading", "validate", "replay", "facts", "rule set", "selection", "program",
        "grounding", "solve", "ruling", "json", "whole pass")


def main() -> None:
    args = arguments(__doc__.splitlines()[0], 200, "logs (200)")
    folder = ROOT / "bench" / ".corpus" / "10000"
    write_corpus(folder, CHUNK + args.n)  # the first logs of the 10,000 (the same seeds)
    chosen = trees(args)
    print(f"{args.n} logs of the bench corpus after a warm-up chunk, {args.rounds} rounds; "
          f"load at start {load()}")
    rows = in_turn(_CHILD, chosen, args.rounds, str(folder), str(args.n), str(CHUNK))
    print(f"{'CPU ms a log (least of the rounds)':<36}" + "".join(f"{n:>12}" for n in chosen))
    for key in KEYS:
        print(f"{key:<36}" + "".join(f"{min(r.get(key, 0.0) for r in rows[n]):12.2f}"
                                     for n in chosen))
    for name in chosen:
        print(f"{name}: {rows[name][0]['package']}")
    print(f"load at end {load()}")


if __name__ == "__main__":
    main()
