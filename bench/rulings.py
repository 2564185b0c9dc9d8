"""Every ruling of the corpus, saved, so that a change to facts, rules or the pipeline can be
shown to change none (or exactly the ones it means to).

Run ``.venv/bin/python bench/rulings.py save OUT.jsonl [--bench N] [--no-long]`` before a
change and again after it, then ``.venv/bin/python bench/rulings.py compare A.jsonl B.jsonl``.

What is saved, one JSON line a log (its name and its ruling JSON, or why it was not judged):

* every ``*.case``, ``*.log`` and ``*.match`` under ``cases/`` and ``examples/``, a case
  judged with its own ``#! set:`` settings as ``adjudicator check`` judges it;
* the first N logs of the bench corpus (``bench/corpus.py``'s seeds 0 … N-1; 300 unless
  given);
* the long logs of ``bench/judge.py`` (draws and discards, and pungs and chows made) at
  400 and 2,000 acts, unless ``--no-long``.

``compare`` also reads the output of ``adjudicator batch -o`` (a ruling a line, named by its
``source``): two batch runs over ``bench/.corpus/10000`` compare the whole bench corpus in a
few minutes, through the chunk path that ``tests/batch`` holds identical to the single one.

``compare`` prints each log whose ruling differs (and those only one side has) and exits 1
when any does; 0 when every ruling is the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

LONG_ACTS = (400, 2000)


def corpus_files() -> list[Path]:
    found: list[Path] = []
    for folder in ("cases", "examples"):
        for pattern in ("*.case", "*.log", "*.match"):
            found.extend((ROOT / folder).rglob(pattern))
    return sorted(found)


def _judged(text: str, settings: dict[str, str] | None = None) -> object:
    from adjudicator.language.errors import LogError
    from adjudicator.ruling.judge import judge_text
    from adjudicator.ruling.model import to_dict

    try:
        return to_dict(judge_text(text, settings=settings or None))
    except LogError as err:
        return {"refused": str(err)}


def _match(text: str) -> object:
    from adjudicator.language.errors import LogError
    from adjudicator.match import report
    from adjudicator.match.format import read_match
    from adjudicator.match.run import judge_match

    try:
        return json.loads(report.to_json(judge_match(read_match(text))))
    except LogError as err:
        return {"refused": str(err)}


def rulings(bench: int, long: bool) -> Iterator[tuple[str, object]]:
    from adjudicator.committee.cases import case_settings
    from adjudicator.language.reader import decode

    for path in corpus_files():
        text = decode(path.read_bytes())
        name = str(path.relative_to(ROOT))
        if path.suffix == ".match":
            yield name, _match(text)
        else:
            yield name, _judged(text, case_settings(text))
    from corpus import make_log as corpus_log

    for seed in range(bench):
        yield f"bench/corpus/{seed:05d}", _judged(corpus_log(seed))
    if long:
        from judge import make_log, make_pung_log

        for n in LONG_ACTS:
            yield f"bench/long/draws-{n}", _judged(make_log(n))
            yield f"bench/long/pungs-{n}", _judged(make_pung_log(n))


def save(out: Path, bench: int, long: bool) -> None:
    count = 0
    with out.open("w", encoding="utf-8") as fh:
        for name, ruling in rulings(bench, long):
            fh.write(json.dumps({"name": name, "ruling": ruling}, ensure_ascii=False,
                                sort_keys=True) + "\n")
            count += 1
    print(f"{count} rulings saved to {out}")


def _load(path: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "name" in row:
            out[row["name"]] = row["ruling"]
        else:  # a line of `adjudicator batch -o`: the ruling itself, named by its source
            out[row["source"]] = row
    return out


def _without_timing(value: object, without: tuple[str, ...] = ()) -> object:
    """A ruling's JSON less what says how long it took (never part of what was decided)
    and the fields named in ``without`` (a field added since the save: --without)."""
    if isinstance(value, dict):
        return {k: _without_timing(v, without) for k, v in value.items()
                if k not in ("seconds", "elapsed", "ms", *without)}
    if isinstance(value, list):
        return [_without_timing(v, without) for v in value]
    return value


def compare(a: Path, b: Path, without: tuple[str, ...] = ()) -> int:
    left, right = _load(a), _load(b)
    changed = [n for n in sorted(left.keys() & right.keys())
               if _without_timing(left[n], without) != _without_timing(right[n], without)]
    only = sorted(left.keys() ^ right.keys())
    for name in changed:
        print(f"changed: {name}")
    for name in only:
        print(f"only in {'A' if name in left else 'B'}: {name}")
    print(f"{len(left.keys() & right.keys())} compared, {len(changed)} changed, "
          f"{len(only)} on one side only")
    return 1 if changed or only else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save", help="judge the corpus and save every ruling")
    s.add_argument("out", type=Path)
    s.add_argument("--bench", type=int, default=300, help="bench-corpus logs (300)")
    s.add_argument("--no-long", action="store_true", help="leave out the long logs")
    c = sub.add_parser("compare", help="the rulings two saves differ in")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--without", action="append", default=[], metavar="FIELD",
                   help="leave a field out of the comparison (one added since A was saved)")
    args = parser.parse_args()
    if args.command == "save":
        save(args.out, args.bench, not args.no_long)
    else:
        sys.exit(compare(args.a, args.b, tuple(args.without)))


if __name__ == "__main__":
    main()
