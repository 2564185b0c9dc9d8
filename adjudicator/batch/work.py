"""What a worker does with a chunk of items: judge each, return one output line per item.

Module-level functions of plain arguments, so that local worker processes and Dask
workers can both run them.  An error in one log is that log's line, never the chunk's end.

A chunk is judged by the pipeline's ``judge_many`` (ruling/pipeline.py): one clingo run
per rule set, reading and building the facts per log, the rules' fixed grounding cost
paid once for the chunk.  ``many=False`` judges each log by ``judge``, as ``adjudicator
judge`` does.
"""

from __future__ import annotations

import gc
import time
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.language.incident import Incident
    from adjudicator.rules.rulesets import House

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
    from adjudicator.ruling.pipeline import Pipeline

    results = Pipeline(profile, settings, house).judge_many([r[2] for r in read])
    for (slot, name, _, reading), (result, seconds) in zip(read, results, strict=True):
        if isinstance(result, Exception):
            out[slot] = _error(name, result)
        else:
            out[slot] = {"source": name, **to_dict(result), "ms": _ms(reading + seconds)}
    return [line for line in out if line is not None]
