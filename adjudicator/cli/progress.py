"""One progress bar for the commands that judge many logs (batch, diff, check, sweep):
count, rate and time left on a terminal's stderr; nothing at all when stderr is piped."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Advance = Callable[[int], None]


def _quiet(_: int = 1) -> None:
    return None


@contextmanager
def bar(total: int, label: str = "裁決") -> Iterator[Advance]:
    if not sys.stderr.isatty() or total <= 0:
        yield _quiet
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                        TextColumn("剩"), TimeRemainingColumn(), console=Console(stderr=True),
                        transient=True)
    task = progress.add_task(label, total=total, rate="")
    started = time.perf_counter()
    done = 0

    def advance(n: int = 1) -> None:
        nonlocal done
        done += n
        rate = done / max(time.perf_counter() - started, 1e-9)
        progress.update(task, advance=n, rate=f"{rate:6.1f} 份/秒")

    with progress:
        yield advance
