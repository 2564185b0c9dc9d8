"""The batch's forked workers: a worker killed mid-chunk costs that chunk's lines, not the run."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

from adjudicator.batch.workers import Chunk, Pool

LOG = (Path(__file__).resolve().parents[2] / "examples" / "wrong-pung-priority.log").read_text(
    encoding="utf-8")


def test_a_worker_killed_mid_chunk_leaves_error_lines_and_a_fresh_worker_goes_on() -> None:
    pool = Pool(2, 0, None, {}, None)
    chunks = [[(f"c{c}/l{n}", LOG, None) for n in range(8)] for c in range(4)]
    killed: list[str] = []

    def parts() -> Iterator[Chunk]:
        for number, part in enumerate(chunks):
            if number == 2:  # both workers hold a chunk in flight: kill them where they stand
                for worker in pool.busy.values():
                    killed.extend(name for name, _, _ in worker.part or [])
                    os.kill(worker.process.pid, signal.SIGKILL)
            yield part

    lines: list[dict] = []
    pool.run(parts(), lines.append)
    by_source = {line["source"]: line for line in lines}
    assert len(lines) == len(by_source) == 32  # every log once, none lost, none twice
    died = [s for s, line in by_source.items() if "工作行程意外結束" in line.get("error", "")]
    assert died and set(died) <= set(killed)
    # The chunks sent after the kill are judged by fresh workers.
    assert all("error" not in by_source[f"c{c}/l{n}"] for c in (2, 3) for n in range(8))
