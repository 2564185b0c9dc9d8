"""How long building a log's facts takes, in CPU ms a log, over bench/batch.py's corpus.

Run: ``.venv/bin/python bench/facts.py [N] [--rounds R] [--reference TREE]`` (N generated
logs, 1,000 unless given, made by ``bench/corpus.py`` as ``bench/batch.py`` makes them;
--reference: also time the package of another source tree, e.g. an earlier commit's
``git archive``, in turn with this one, on the same logs).  Each round is a new process
per tree, which reads and replays every log (not timed) and then times
``judge.facts_of`` over them:

* first pass: each log once, as a batch worker meets them (the process's memo tables
  start empty, so a hand seen first costs its analysis);
* second pass: the same logs again (every hand and fact seen before);
* facts a log, and whether both trees built the same facts (as sets, log by log).

Prints the median of the rounds for each tree and, with --reference, the ratio
reference / this tree, and the load average when the run began and ended.  Asserts
nothing: the machine is shared, so read the CPU figures and the ratio.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import make_log  # noqa: E402
from trees import arguments, in_turn, load, trees  # noqa: E402

# Run in a new process with the tree under test first on the path; prints one JSON line.
_CHILD = """
import hashlib, json, sys, time
import adjudicator
from adjudicator.analysis.replay import replay
from adjudicator.language.reader import read
from adjudicator.ruling import judge as J

texts = json.load(open(sys.argv[1], encoding="utf-8"))
ready = []
for text in texts:
    incident = read(text)
    ready.append((incident, replay(incident), J.rules_of(incident)))
passes, digest, count = [], hashlib.sha256(), 0
for k in range(2):
    start = time.process_time()
    built = [J.facts_of(incident, timeline, rules) for incident, timeline, rules in ready]
    passes.append((time.process_time() - start) * 1000 / len(ready))
    if k == 0:
        for facts in built:
            count += len(facts)
            digest.update("\\n".join(sorted(map(str, facts))).encode())
print(json.dumps({"first": passes[0], "second": passes[1], "facts": count / len(ready),
                  "digest": digest.hexdigest()[:16], "package": adjudicator.__file__}))
"""


def corpus(n: int) -> list[str]:
    # The seeds write_corpus gives bench/batch.py's corpus (bench/.corpus/).
    return [make_log(i) for i in range(n)]


def main() -> None:
    args = arguments(__doc__.splitlines()[0], 1000, "logs (1,000)")
    chosen = trees(args)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False,
                                     encoding="utf-8") as fh:
        json.dump(corpus(args.n), fh, ensure_ascii=False)
    print(f"{args.n} logs of bench/corpus.py, {args.rounds} rounds; load at start {load()}")
    results = in_turn(_CHILD, chosen, args.rounds, fh.name)
    os.unlink(fh.name)
    medians: dict[str, dict[str, float]] = {}
    for name, rows in results.items():
        medians[name] = {k: statistics.median(r[k] for r in rows) for k in ("first", "second")}
        print(f"{name:>10}: facts CPU ms a log, first pass {medians[name]['first']:.2f}, "
              f"second pass {medians[name]['second']:.2f}; {rows[0]['facts']:.1f} facts a "
              f"log ({rows[0]['package']})")
    if args.reference is not None:
        mine, ref = medians["this tree"], medians["reference"]
        same = {r["digest"] for rows in results.values() for r in rows}
        print(f"ratio reference / this tree: first pass {ref['first'] / mine['first']:.2f}, "
              f"second pass {ref['second'] / mine['second']:.2f}; facts "
              f"{'the same' if len(same) == 1 else 'DIFFER'} in both trees")
    print(f"load at end {load()}")


if __name__ == "__main__":
    main()
