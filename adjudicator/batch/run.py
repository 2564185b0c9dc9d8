"""Run a batch: send chunks of items to workers, hand each finished line back at once.

Locally the workers are processes of this machine (all cores by default; ``workers=1``
judges in this process), forked once this process has judged the first chunk, so that
none pays the warm-up again (batch/workers.py).  With a scheduler address the same chunks
go to a Dask distributed cluster; dask is imported only then, so ``judge`` and local
batches never pay for it.  Few chunks are in flight at a time, so memory stays flat on any
corpus size and the progress bar moves evenly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING

from adjudicator.batch import CHUNK
from adjudicator.batch.sources import Item
from adjudicator.batch.work import Line, judge_chunk
from adjudicator.batch.workers import Chunk, judge_locally
from adjudicator.desk import RECYCLE

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House


def chunks(items: Iterable[Item], size: int) -> Iterator[Chunk]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield [(i.name, i.text, i.error) for i in batch]


def run(items: Sequence[Item], on_line: Callable[[Line], None], *, profile: str | None = None,
        settings: dict[str, str] | None = None, workers: int | None = None,
        scheduler: str | None = None, chunk_size: int = CHUNK, recycle: int = RECYCLE,
        house: House | None = None) -> None:
    """Judge ``items`` (by ``house`` rules when given), calling ``on_line`` with each output
    line as soon as it is ready; a local worker process is replaced after judging some
    ``recycle`` logs (0: never)."""
    settings = settings or {}
    parts = chunks(items, chunk_size)
    if scheduler is not None:
        _dask(parts, on_line, profile, settings, scheduler, house)
    elif (workers or os.cpu_count() or 1) == 1:
        for part in parts:
            for line in judge_chunk(part, profile, settings, True, house):
                on_line(line)
    else:
        judge_locally(parts, on_line, profile, settings, workers or os.cpu_count() or 1,
                      recycle, house)


def _dask(parts: Iterator[Chunk], on_line: Callable[[Line], None], profile: str | None,
          settings: dict[str, str], address: str, house: House | None) -> None:
    from distributed import Client, as_completed

    with Client(address) as client:
        width = 2 * max(1, sum(client.nthreads().values()))
        queue = as_completed()
        for part in islice(parts, width):
            queue.add(client.submit(judge_chunk, part, profile, settings, True, house,
                                    pure=False))
        for future in queue:
            for line in future.result():
                on_line(line)
            future.release()
            for part in islice(parts, 1):
                queue.add(client.submit(judge_chunk, part, profile, settings, True, house,
                                    pure=False))
