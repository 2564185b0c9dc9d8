"""``.match`` files in a batch: each match judged whole, in order, one output line per hand.

A match cannot be split across workers (each hand starts from the previous one's ruling),
so a match is one unit of work.  Its output is a line per hand, shaped as a log's line
(ruling-json plus ``source``) so that a platform files hands from matches and single logs in
one table and the summary counts them alike; the line adds where the hand sits in its
match and the running ledger by name:

    {"source": "club/fri.match#3", "match": "club/fri.match", "hand": 3, "label": "",
     "deal": {"jiang", "round_wind", "dealer", "dealer_name", "streak"},
     "by_name": {name: money in this hand}, "totals": {name: total after it}, …ruling-json}

The match's last line has ``"end": true``: its ``totals`` are the match's, and ``next`` is
the deal the next hand would start from (absent when the carry stopped).  A hand that stops
the carry (unreadable, ``inconsistent``, an open dealer not stated) ends the match with
``"stop": {"kind", "message"}``; a file that cannot be read at all is one error line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from adjudicator.batch.sources import Item

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House

Line = dict[str, Any]
SUFFIX = ".match"


def is_match(item: Item) -> bool:
    return item.name.endswith(SUFFIX)


def match_lines(name: str, text: str | None, error: str | None, profile: str | None,
                settings: dict[str, str], house: House | None = None) -> list[Line]:
    """The output lines of one match file (picklable in and out, for any worker)."""
    from adjudicator.language.errors import LogError
    from adjudicator.match import report
    from adjudicator.match.format import read_match
    from adjudicator.match.run import judge_match

    if error is not None or text is None:
        return [{"source": name, "match": name, "error": error or "沒有內容", "end": True}]
    try:
        result = judge_match(read_match(text), profile=profile, settings=settings, house=house)
    except LogError as err:
        return [{"source": name, "match": name, "error": str(err), "end": True}]
    except Exception as err:  # a bug in one match must not end the run
        return [{"source": name, "match": name, "end": True,
                 "error": f"內部錯誤（{type(err).__name__}）：{err}"}]
    d = report.to_dict(result)
    lines: list[Line] = []
    for x, judged in zip(d["hands"], result.hands, strict=True):
        lines.append({
            "source": f"{name}#{x['hand']}", "match": name, "hand": x["hand"],
            "label": x["label"],
            "deal": {k: x[k] for k in ("jiang", "round_wind", "dealer", "dealer_name",
                                       "streak")},
            **x["ruling"], "by_name": x["balances"], "totals": x["totals"],
            "ms": round(judged.seconds * 1000, 1)})
    stop = d["stop"]
    if stop is not None and (not lines or lines[-1]["hand"] != stop["hand"]):
        lines.append({"source": f"{name}#{stop['hand']}", "match": name, "hand": stop["hand"],
                      "error": stop["message"]})
    last = lines[-1]
    last.update(end=True, totals=d["totals"])
    if stop is not None:
        last["stop"] = {"kind": stop["kind"], "message": stop["message"]}
    else:
        last["next"] = d["next"]
    return lines


def run_matches(items: Sequence[Item], on_line: Callable[[Line], None], *,
                profile: str | None = None, settings: dict[str, str] | None = None,
                workers: int | None = None, scheduler: str | None = None,
                house: House | None = None) -> None:
    """Judge each match whole (in parallel across matches), its lines handed on in order."""
    settings = settings or {}
    jobs = [(i.name, i.text, i.error, profile, settings, house) for i in items]
    if not jobs:
        return
    for lines in _results(jobs, workers, scheduler):
        for line in lines:
            on_line(line)


def _results(jobs: list[tuple[Any, ...]], workers: int | None,
             scheduler: str | None) -> Iterator[list[Line]]:
    if scheduler is not None:
        from distributed import Client, as_completed

        with Client(scheduler) as client:
            futures = [client.submit(match_lines, *job, pure=False) for job in jobs]
            for future in as_completed(futures):
                yield future.result()
        return
    count = min(workers or os.cpu_count() or 1, len(jobs))
    if count == 1:
        for job in jobs:
            yield match_lines(*job)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=count) as pool:
        pending = [pool.submit(match_lines, *job) for job in jobs]
        for future in as_completed(pending):
            yield future.result()
