"""Simulated games at scale: clean games, injected faults and mutated logs, judged and counted.

Run: ``python bench/simulate.py --games 10000 --mutations 100000`` (``--jobs 2`` processes;
``--findings DIR`` writes the shortest log seen for each failure class there).  Prints:
clean games judged, false accusations by finding kind, wrong ``inconsistent``, wrong
winner/payers, per fault kind caught/injected %, mutated logs and the exceptions other than
``LogError`` by type.  Deterministic: game ``i`` is seed ``i``; mutation ``j`` edits the
game of seed ``j % games`` with seed ``j``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.language.errors import LogError  # noqa: E402
from adjudicator.simulation.check import caught, clean_failures, judge  # noqa: E402
from adjudicator.simulation.faults import FAULTS, inject  # noqa: E402
from adjudicator.simulation.game import Act, Game, simulate  # noqa: E402
from adjudicator.simulation.mutate import mutate  # noqa: E402
from adjudicator.simulation.writer import write  # noqa: E402

Example = tuple[str, str]  # (failure class, log)


def _class_of(failure: str) -> str:
    """A failure's class: its text up to the seat/act detail."""
    return failure.split(":")[0] if failure.startswith(("false", "winner", "payers")) \
        else failure


def clean_job(seed: int) -> tuple[list[str], list[Example]]:
    game = simulate(seed)
    text = write(game)
    try:
        failures = clean_failures(game, judge(text))
    except LogError as err:
        failures = [f"LogError on a clean game: {str(err).splitlines()[0]}"]
    except Exception as err:  # noqa: BLE001 — counted, that is the point
        failures = [f"exception {type(err).__name__}"]
    classes = sorted({_class_of(f) for f in failures})
    examples = [(c, text + "# " + "; ".join(f for f in failures if _class_of(f) == c) + "\n")
                for c in classes]
    for f in failures:  # a false accusation shows in the record cut right after its act
        if f.startswith("false ") and " at " in f:
            cut = _cut_after(game, int(f.rsplit(" at ", 1)[1]))
            if cut is not None and f in _false(game, cut):
                examples.append((_class_of(f), cut + f"# engine: {f}\n"))
    return failures, examples


def _cut_after(game: Game, act: int) -> str | None:
    lines, n = [], 0
    for line in game.lines:
        lines.append(line)
        n += isinstance(line, Act)
        if n == act:
            return write(game, lines)
    return None


def _false(game: Game, text: str) -> list[str]:
    try:
        return [f for f in clean_failures(game, judge(text)) if f.startswith("false ")]
    except Exception:  # noqa: BLE001
        return []


def fault_job(seed: int) -> tuple[list[tuple[str, str]], list[Example]]:
    game = simulate(seed)
    out: list[tuple[str, str]] = []
    examples: list[Example] = []
    for kind in FAULTS:
        fault = inject(game, kind, seed)
        if fault is None:
            continue
        try:
            ruling = judge(fault.text)
            ok = caught(fault, ruling)
            got = "caught" if ok else "missed"
            if not ok:
                said = sorted({f"{f['kind']}@{f['at']}" for f in ruling["findings"]}
                              | {f"{p['kind']}@{p.get('at')}" for p in ruling["problems"]})
                examples.append((f"fault {kind} missed", fault.text + f"# engine: "
                                 f"{ruling['status']} {' '.join(said) or '-'}; expected "
                                 f"{fault.finding} at {fault.act}\n"))
        except LogError:
            got = "LogError"
            examples.append((f"fault {kind} LogError", fault.text))
        except Exception as err:  # noqa: BLE001
            got = f"exception {type(err).__name__}"
            examples.append((f"fault {kind} {got}", fault.text))
        out.append((kind, got))
    return out, examples


def mutation_job(args: tuple[int, int]) -> tuple[str, list[Example]]:
    j, games = args
    text, _ = mutate(write(simulate(j % games)), j)
    try:
        judge(text)
        return "ruling", []
    except LogError:
        return "LogError", []
    except Exception as err:  # noqa: BLE001
        name = f"{type(err).__name__}: {str(err)[:70]}"
        return name, [(f"mutation {type(err).__name__}", text)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--mutations", type=int, default=10000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--findings", type=Path, default=None)
    a = ap.parse_args()
    shortest: dict[str, str] = {}

    def keep(examples: list[Example]) -> None:
        for cls, text in examples:
            if cls not in shortest or len(text) < len(shortest[cls]):
                shortest[cls] = text

    start = time.time()
    with Pool(a.jobs) as pool:
        false: Counter[str] = Counter()
        classes: Counter[str] = Counter()
        bad_games = 0
        for failures, ex in pool.imap_unordered(clean_job, range(a.games), chunksize=4):
            bad_games += bool(failures)
            for f in failures:
                classes[_class_of(f)] += 1
                if f.startswith("false "):
                    false[f.split()[1].rstrip(":")] += 1
            keep(ex)
        print(f"clean games: {a.games}, judged wrong: {bad_games} "
              f"({100 * bad_games / max(a.games, 1):.1f}%)  [{time.time() - start:.0f}s]")
        print("  false accusations by finding kind:",
              dict(false.most_common()) or "none")
        for cls, n in classes.most_common():
            print(f"  {n:6d}  {cls}")
        sys.stdout.flush()

        per: Counter[tuple[str, str]] = Counter()
        for out, ex in pool.imap_unordered(fault_job, range(a.games), chunksize=4):
            for kind, got in out:
                per[(kind, got)] += 1
            keep(ex)
        print(f"faults  [{time.time() - start:.0f}s]")
        for kind in FAULTS:
            n = sum(v for (k, _), v in per.items() if k == kind)
            c = per[(kind, "caught")]
            rest = {g: v for (k, g), v in per.items() if k == kind and g != "caught"}
            print(f"  {kind:24s} caught {c}/{n} ({100 * c / max(n, 1):.1f}%)  {rest}")
        sys.stdout.flush()

        outcome: Counter[str] = Counter()
        jobs = ((j, a.games) for j in range(a.mutations))
        for got, ex in pool.imap_unordered(mutation_job, jobs, chunksize=32):
            outcome[got] += 1
            keep(ex)
        other = {k: v for k, v in outcome.items() if k not in ("ruling", "LogError")}
        print(f"mutated logs: {a.mutations}, ruling {outcome['ruling']}, LogError "
              f"{outcome['LogError']}, other exceptions {sum(other.values())}  "
              f"[{time.time() - start:.0f}s]")
        for k, v in sorted(other.items(), key=lambda kv: -kv[1]):
            print(f"  {v:6d}  {k}")
    if a.findings:
        a.findings.mkdir(parents=True, exist_ok=True)
        for cls, text in sorted(shortest.items()):
            slug = "".join(c if c.isalnum() else "_" for c in cls)[:60]
            (a.findings / f"{slug}.log").write_text(f"# {cls}\n{text}", encoding="utf-8")
        print(f"shortest example per class: {a.findings}/ ({len(shortest)} files)")


if __name__ == "__main__":
    main()
