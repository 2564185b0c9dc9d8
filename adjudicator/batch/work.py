"""What a worker does with a chunk of items: judge each, return one output line per item.

Module-level functions of plain arguments, so that local worker processes and Dask
workers can both run them.  An error in one log is that log's line, never the chunk's end.

A chunk is judged in one clingo run per profile (rules/engine.py's solve_many): reading
and building the facts stay per log, the rules' fixed grounding cost is paid once for
the chunk.  Each log is made ready and ruled by ruling/judge.py's ``prepare`` and
``rule``, as ``adjudicator judge`` does.
"""

from __future__ import annotations

import gc
import time
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.language.incident import Incident
    from adjudicator.rules.rulesets import House, RuleSet
    from adjudicator.ruling.judge import Prepared
    from adjudicator.ruling.model import Ruling

Line = dict[str, Any]


def _error(name: str, err: Exception) -> Line:
    from adjudicator.language.errors import LogError
    from adjudicator.language.json_form import FormError

    if isinstance(err, LogError | FormError):
        return {"source": name, "error": str(err)}
    # A bug in one judgement must not end the run; it is reported on that log's line.
    return {"source": name, "error": f"內部錯誤（{type(err).__name__}）：{err}"}


def judge_one(name: str, text: str | None, error: str | None, profile: str | None,
              settings: dict[str, str], house: House | None = None) -> Line:
    """The output line of one log by the single-log judge (``adjudicator judge``'s path)."""
    from adjudicator.language.json_form import read_any
    from adjudicator.ruling.judge import judge
    from adjudicator.ruling.model import to_dict

    if error is not None or text is None:
        return {"source": name, "error": error or "沒有內容"}
    start = time.perf_counter()
    try:
        ruling = judge(read_any(text), profile=profile, settings=settings, house=house)
    except Exception as err:
        return _error(name, err)
    return {"source": name, **to_dict(ruling), "ms": _ms(time.perf_counter() - start)}


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


@dataclass
class _Ready:
    slot: int
    prepared: Prepared
    seconds: float  # spent on this log alone so far


def judge_incidents(incidents: list[Incident], profile: str | None = None,
                    settings: dict[str, str] | None = None, house: House | None = None
                    ) -> list[tuple[Ruling | Exception, float]]:
    """Each incident's ruling (or the error judging it raised) and the seconds it took,
    judged together: one clingo run for all those of one rule set (rules/engine.py's solve_many)."""
    from adjudicator.ruling.judge import prepare

    out: list[tuple[Ruling | Exception, float] | None] = [None] * len(incidents)
    groups: dict[RuleSet, list[_Ready]] = defaultdict(list)
    for slot, incident in enumerate(incidents):
        start = time.perf_counter()
        try:
            ready = prepare(incident, profile, settings, house)
        except Exception as err:
            out[slot] = (err, time.perf_counter() - start)
            continue
        groups[ready.rules].append(_Ready(slot, ready, time.perf_counter() - start))
    for chosen, group in groups.items():
        for ready, result in zip(group, _rule(chosen, group), strict=True):
            out[ready.slot] = result
    return [r for r in out if r is not None]


def judge_chunk(items: list[tuple[str, str | None, str | None]], profile: str | None,
                settings: dict[str, str], many: bool = True,
                house: House | None = None) -> list[Line]:
    """One line per item, in order; ``many=False`` judges each log on its own."""
    try:
        return _judge_chunk(items, profile, settings, many, house)
    finally:
        _settle()


@cache
def _settle() -> None:
    """After a process's first chunk (once: cached), what it has made so far (modules, the
    rules' program, the caches of facts and symbols) lives as long as the process: frozen,
    the cyclic collector stops walking over it at each full collection."""
    gc.freeze()


def _judge_chunk(items: list[tuple[str, str | None, str | None]], profile: str | None,
                 settings: dict[str, str], many: bool, house: House | None) -> list[Line]:
    if not many:
        return [judge_one(name, text, error, profile, settings, house)
                for name, text, error in items]
    from adjudicator.language.json_form import read_any
    from adjudicator.ruling.model import to_dict

    out: list[Line | None] = [None] * len(items)
    read: list[tuple[int, str, Incident, float]] = []
    for slot, (name, text, error) in enumerate(items):
        if error is not None or text is None:
            out[slot] = {"source": name, "error": error or "沒有內容"}
            continue
        start = time.perf_counter()
        try:
            read.append((slot, name, read_any(text), time.perf_counter() - start))
        except Exception as err:
            out[slot] = _error(name, err)
    results = judge_incidents([r[2] for r in read], profile, settings, house)
    for (slot, name, _, reading), (result, seconds) in zip(read, results, strict=True):
        if isinstance(result, Exception):
            out[slot] = _error(name, result)
        else:
            out[slot] = {"source": name, **to_dict(result), "ms": _ms(reading + seconds)}
    return [line for line in out if line is not None]


def _rule(rules: RuleSet, group: list[_Ready]) -> list[tuple[Ruling | Exception, float]]:
    from adjudicator.rules import engine
    from adjudicator.ruling.judge import rule

    start = time.perf_counter()
    try:
        answers: list[engine.Answer | None] = engine.solve_many(
            [r.prepared.facts for r in group], rules.profile)
    except Exception:  # the chunk together failed: each log alone, to find the one at fault
        answers = [None] * len(group)
    shared = (time.perf_counter() - start) / len(group)
    out: list[tuple[Ruling | Exception, float]] = []
    for ready, answer in zip(group, answers, strict=True):
        start = time.perf_counter()
        try:
            result: Ruling | Exception = rule(ready.prepared, answer)
        except Exception as err:
            result = err
        out.append((result, ready.seconds + shared + time.perf_counter() - start))
    return out
