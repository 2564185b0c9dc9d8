"""Simulated games at scale: clean games, injected faults and mutated logs, judged and counted.

Run: ``python bench/simulate.py --games 10000 --faults 10000 --mutations 100000``
(``--jobs 2`` worker processes; ``--findings DIR`` writes the shortest log seen for each
failure class there).  Prints: clean games judged, false accusations by finding kind, wrong
``inconsistent``, wrong winner/payers, per fault kind caught/injected %, mutated logs and the
exceptions other than ``LogError`` by type, each phase's rate (logs/s), and a ``done-when:``
line per threshold of issue 12 (yes/NO).  ``--out FILE`` writes the same figures to FILE as
they come, for a run in the background (``--progress N`` puts running counts on stderr).

The logs are judged as ``adjudicator batch`` judges them: each worker reads a chunk of logs
and rules on it in one clingo run (rules/engine.py's solve_many, the batch engine;
tests/batch checks that its rulings are the single path's).  ``--engine single`` judges
each log alone instead (``judge_text``), to compare rates.

Deterministic: clean game ``i`` is seed ``i``; the faults are injected into the games of
seeds ``0 … faults-1`` (each kind where the game offers a place for it); mutation ``j`` edits
the game of seed ``j % games`` with seed ``j`` (``--mutate-games`` sets that ``games`` for a
run of mutations alone: ``--games 0 --faults 0``).  ``--first S`` starts every phase at seed
``S``, so a run too long for one sitting is made in pieces whose counts add up.

``--narrated`` writes the clean games as referees narrate them (simulation/narrate.py: 推倒,
亮牌, 靠張/入手, wins without a tile, bare 搶杠, records without numbers):
``python bench/simulate.py --narrated --games 10000 --faults 0 --mutations 0`` prints the
false accusations and wrong ``inconsistent`` over such games (docs/rule-texts.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.batch import CHUNK  # noqa: E402
from adjudicator.language.errors import LogError  # noqa: E402
from adjudicator.simulation.check import caught, clean_failures  # noqa: E402
from adjudicator.simulation.faults import FAULTS, Fault, inject  # noqa: E402
from adjudicator.simulation.game import Act, Game, simulate  # noqa: E402
from adjudicator.simulation.mutate import mutate  # noqa: E402
from adjudicator.simulation.narrate import narrate  # noqa: E402
from adjudicator.simulation.writer import write  # noqa: E402

Example = tuple[str, str]  # (failure class, log)
Judged = dict[str, Any] | Exception  # a ruling as JSON, or what judging raised
ENGINE = {"name": "batch", "narrated": ""}  # set in each worker by _init


def _init(engine: str, narrated: bool = False) -> None:
    ENGINE["name"] = engine
    ENGINE["narrated"] = "yes" if narrated else ""


def judge_all(texts: list[str]) -> list[Judged]:
    """Each log's ruling (as JSON) or the exception reading or judging it raised."""
    from adjudicator.ruling.model import to_dict

    if ENGINE["name"] == "single":
        from adjudicator.ruling.judge import judge_text

        out: list[Judged] = []
        for text in texts:
            try:
                out.append(to_dict(judge_text(text)))
            except Exception as err:  # noqa: BLE001 — counted, that is the point
                out.append(err)
        return out
    from adjudicator.language.reader import read
    from adjudicator.ruling.pipeline import Pipeline

    results: list[Judged | None] = [None] * len(texts)
    read_ok: list[tuple[int, Any]] = []
    for i, text in enumerate(texts):
        try:
            read_ok.append((i, read(text)))
        except Exception as err:  # noqa: BLE001
            results[i] = err
    judged = Pipeline().judge_many([inc for _, inc in read_ok])
    for (i, _), (ruling, _seconds) in zip(read_ok, judged, strict=True):
        results[i] = ruling if isinstance(ruling, Exception) else to_dict(ruling)
    return [r for r in results if r is not None]


def _class_of(failure: str) -> str:
    """A failure's class: its text up to the seat/act detail."""
    return failure.split(":")[0] if failure.startswith(("false", "winner", "payers")) \
        else failure


def clean_job(seeds: list[int]) -> list[tuple[list[str], list[Example]]]:
    games = [simulate(seed) for seed in seeds]
    if ENGINE["narrated"]:
        games = [narrate(game) for game in games]
    texts = [write(game) for game in games]
    return [_clean_failures(game, text, judged)
            for game, text, judged in zip(games, texts, judge_all(texts), strict=True)]


def _clean_failures(game: Game, text: str, judged: Judged) -> tuple[list[str], list[Example]]:
    if isinstance(judged, LogError):
        failures = [f"LogError on a clean game: {str(judged).splitlines()[0]}"]
    elif isinstance(judged, Exception):
        failures = [f"exception {type(judged).__name__}"]
    else:
        failures = clean_failures(game, judged)
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
    judged = judge_all([text])[0]
    if isinstance(judged, Exception):
        return []
    return [f for f in clean_failures(game, judged) if f.startswith("false ")]


def fault_job(seeds: list[int]) -> list[tuple[list[tuple[str, str]], list[Example]]]:
    faults: list[Fault] = []
    for seed in seeds:
        game = simulate(seed)
        faults.extend(f for kind in FAULTS if (f := inject(game, kind, seed)) is not None)
    out: list[tuple[list[tuple[str, str]], list[Example]]] = []
    for fault, judged in zip(faults, judge_all([f.text for f in faults]), strict=True):
        examples: list[Example] = []
        if isinstance(judged, LogError):
            got = "LogError"
            examples.append((f"fault {fault.kind} LogError", fault.text))
        elif isinstance(judged, Exception):
            got = f"exception {type(judged).__name__}"
            examples.append((f"fault {fault.kind} {got}", fault.text))
        elif caught(fault, judged):
            got = "caught"
        else:
            got = "missed"
            said = sorted({f"{f['kind']}@{f['at']}" for f in judged["findings"]}
                          | {f"{p['kind']}@{p.get('at')}" for p in judged["problems"]})
            examples.append((f"fault {fault.kind} missed", fault.text + f"# engine: "
                             f"{judged['status']} {' '.join(said) or '-'}; expected "
                             f"{fault.finding} at {fault.act}\n"))
        out.append(([(fault.kind, got)], examples))
    return out


def mutation_job(args: tuple[list[int], int]) -> list[tuple[str, list[Example]]]:
    js, games = args
    texts = [mutate(write(simulate(j % games)), j)[0] for j in js]
    out: list[tuple[str, list[Example]]] = []
    for text, judged in zip(texts, judge_all(texts), strict=True):
        if not isinstance(judged, Exception):
            out.append(("ruling", []))
        elif isinstance(judged, LogError):
            out.append(("LogError", []))
        else:
            name = f"{type(judged).__name__}: {str(judged)[:70]}"
            out.append((name, [(f"mutation {type(judged).__name__}", text)]))
    return out


def _chunks(items: range, size: int) -> Iterator[list[int]]:
    for k in range(0, len(items), size):
        yield list(items[k:k + size])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="clean games")
    ap.add_argument("--faults", type=int, default=None,
                    help="games to inject each fault kind into (default: --games)")
    ap.add_argument("--mutations", type=int, default=10000)
    ap.add_argument("--mutate-games", type=int, default=None,
                    help="mutation j edits the game of seed j %% this (default: --games)")
    ap.add_argument("--first", type=int, default=0,
                    help="first seed of every phase: a long run split into pieces (e.g. "
                         "--first 2000 --faults 2000 covers the games of seeds 2000-3999)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--chunk", type=int, default=CHUNK, help="logs per clingo run (batch engine)")
    ap.add_argument("--engine", choices=("batch", "single"), default="batch")
    ap.add_argument("--narrated", action="store_true",
                    help="write the clean games with referees' narration (推倒, 亮牌, 靠張 …)")
    ap.add_argument("--findings", type=Path, default=None)
    ap.add_argument("--progress", type=int, default=0,
                    help="print running counts to stderr every N chunks (0: never)")
    ap.add_argument("--out", type=Path, default=None,
                    help="also write the figures to this file, each line as it comes "
                         "(for a run in the background)")
    a = ap.parse_args()
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text("", encoding="utf-8")

    def say(*parts: object) -> None:
        line = " ".join(str(p) for p in parts)
        print(line, flush=True)
        if a.out:
            with a.out.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
    n_faults = a.games if a.faults is None else a.faults
    shortest: dict[str, str] = {}

    def keep(examples: list[Example]) -> None:
        for cls, text in examples:
            if cls not in shortest or len(text) < len(shortest[cls]):
                shortest[cls] = text

    def rate(n: int, since: float) -> str:
        took = time.time() - since
        return f"[{took:.0f}s, {n / max(took, 1e-9):.2f} logs/s]"

    say(f"engine: {a.engine}, {a.jobs} worker processes, chunks of {a.chunk}, seeds from "
        f"{a.first}" + (", clean games narrated" if a.narrated else ""))
    with Pool(a.jobs, initializer=_init, initargs=(a.engine, a.narrated)) as pool:
        start = time.time()
        false: Counter[str] = Counter()
        classes: Counter[str] = Counter()
        bad_games = 0
        seeds = range(a.first, a.first + a.games)
        for k, chunk in enumerate(pool.imap_unordered(clean_job, _chunks(seeds, a.chunk)), 1):
            if a.progress and k % a.progress == 0:
                print(f"  … {k * a.chunk} clean games, {bad_games} judged wrong "
                      f"{rate(k * a.chunk, start)}", file=sys.stderr, flush=True)
            for failures, ex in chunk:
                bad_games += bool(failures)
                for f in failures:
                    classes[_class_of(f)] += 1
                    if f.startswith("false "):
                        false[f.split()[1].rstrip(":")] += 1
                keep(ex)
        wrong_inconsistent = sum(v for c, v in classes.items()
                                 if c.startswith("status inconsistent"))
        say(f"clean games: {a.games}, judged wrong: {bad_games} "
            f"({100 * bad_games / max(a.games, 1):.2f}%)  {rate(a.games, start)}")
        say(f"  false accusations: {sum(false.values())}",
            dict(false.most_common()) or "")
        say(f"  wrong inconsistent: {wrong_inconsistent}")
        for cls, n in classes.most_common():
            say(f"  {n:6d}  {cls}")

        start = time.time()
        per: Counter[tuple[str, str]] = Counter()
        chunk = max(1, a.chunk // len(FAULTS))  # about a.chunk logs per run
        seeds = range(a.first, a.first + n_faults)
        for k, out in enumerate(pool.imap_unordered(fault_job, _chunks(seeds, chunk)), 1):
            for kinds, ex in out:
                for kind, got in kinds:
                    per[(kind, got)] += 1
                keep(ex)
            if a.progress and k % a.progress == 0:
                missed = sum(v for (_, g), v in per.items() if g != "caught")
                print(f"  … {sum(per.values())} faults judged, {missed} not caught "
                      f"{rate(sum(per.values()), start)}", file=sys.stderr, flush=True)
        injected = sum(per.values())
        say(f"faults: {injected} injected into {n_faults} games  {rate(injected, start)}")
        for kind in FAULTS:
            n = sum(v for (k, _), v in per.items() if k == kind)
            c = per[(kind, "caught")]
            rest = {g: v for (k, g), v in per.items() if k == kind and g != "caught"}
            say(f"  {kind:24s} caught {c}/{n} ({100 * c / max(n, 1):.2f}%)  {rest or ''}")

        start = time.time()
        outcome: Counter[str] = Counter()
        base = max(1, a.games if a.mutate_games is None else a.mutate_games)
        jobs = ((js, base) for js in _chunks(range(a.first, a.first + a.mutations), a.chunk))
        for k, out in enumerate(pool.imap_unordered(mutation_job, jobs), 1):
            for got, ex in out:
                outcome[got] += 1
                keep(ex)
            if a.progress and k % a.progress == 0:
                other = sum(v for g, v in outcome.items() if g not in ("ruling", "LogError"))
                print(f"  … {sum(outcome.values())} mutated logs, {other} other exceptions "
                      f"{rate(sum(outcome.values()), start)}", file=sys.stderr, flush=True)
        other = {k: v for k, v in outcome.items() if k not in ("ruling", "LogError")}
        say(f"mutated logs: {a.mutations}, ruling {outcome['ruling']}, LogError "
            f"{outcome['LogError']}, other exceptions {sum(other.values())}  "
            f"{rate(a.mutations, start)}")
        for k, v in sorted(other.items(), key=lambda kv: -kv[1]):
            say(f"  {v:6d}  {k}")
    # Issue 12's Done-when, for the phases this run made.
    checks = []
    if a.games:
        checks += [("0 false accusations", not false),
                   ("0 wrong inconsistent", not wrong_inconsistent)]
    if n_faults:
        low = [kind for kind in FAULTS
               if (n := sum(v for (k, _), v in per.items() if k == kind))
               and per[(kind, "caught")] < 0.99 * n]
        checks.append(("each fault kind caught in >= 99%" + (f" (not: {', '.join(low)})"
                                                            if low else ""), not low))
    if a.mutations:
        checks.append(("0 exceptions but LogError on mutated logs", not other))
    for what, ok in checks:
        say(f"done-when: {what}: {'yes' if ok else 'NO'}")
    if a.findings:
        a.findings.mkdir(parents=True, exist_ok=True)
        for cls, text in sorted(shortest.items()):
            slug = "".join(c if c.isalnum() else "_" for c in cls)[:60]
            (a.findings / f"{slug}.log").write_text(f"# {cls}\n{text}", encoding="utf-8")
        say(f"shortest example per class: {a.findings}/ ({len(shortest)} files)")


if __name__ == "__main__":
    main()
