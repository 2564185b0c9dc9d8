"""Refusal cases: a log that must not be judged, and the refusal it must get.

Some rules are kept by refusing the log, not by a finding (a Guangdong log that writes a
flower: 粵.牌數 says the game has none, so there is nothing to rule on).  A ``*.refusal``
file is such a log; a frame line (like ``#! set:``, not part of the log language) states
what the referee expects, the line refused and the clause the refusal cites:

    #! refused: line 8 粵.牌數

The case passes when reading or judging the log raises a ``LogError`` on that line citing
those clauses.  ``check`` and pytest run them beside the ``*.case`` files; ``coverage``
counts the clauses of a refusal that comes as expected (committee/coverage.py).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from adjudicator.committee.outcome import UNJUDGED, CaseResult, case_settings, unjudged_why
from adjudicator.language import reader
from adjudicator.language.errors import LogError
from adjudicator.ruling.judge import judge

SUFFIX = ".refusal"
GLOB = f"*{SUFFIX}"
FRAME = "#! refused:"
_LINE = re.compile(r"\bline\s+(\d+)\b")


@dataclass(frozen=True)
class Refusal:
    line: int | None  # the line the refusal must name (None: any)
    clauses: tuple[str, ...]  # the clause ids it must cite


def is_refusal(path: Path) -> bool:
    return path.suffix == SUFFIX


def expected_refusal(text: str) -> Refusal | None:
    """What the file's ``#! refused:`` line expects, or None if it has none."""
    for raw in text.splitlines():
        if raw.startswith(FRAME):
            rest = raw[len(FRAME):]
            found = _LINE.search(rest)
            words = _LINE.sub(" ", rest).split()
            return Refusal(int(found.group(1)) if found else None, tuple(words))
    return None


def cited(err: LogError) -> tuple[str, ...]:
    """The clause ids a refusal cites (a family's refusal names one; a parse error none)."""
    clause = getattr(err, "clause", "")
    return (clause,) if clause else ()


def run_refusal(path: Path, settings: dict[str, str] | None = None) -> CaseResult:
    """Read and judge the log of ``path`` and check it is refused as its frame line says."""
    result = CaseResult(path)
    start = time.perf_counter()
    try:
        text = reader.decode(path.read_bytes())
    except UNJUDGED as err:
        result.error = unjudged_why(err)
        return result
    want = expected_refusal(text)
    if want is None:
        result.error = f"此拒收案沒有「{FRAME}」行，無從檢查"
        return result
    result.checked = 1
    try:
        incident = reader.read(text)
        result.incident = incident
        ruling = judge(incident, settings={**case_settings(text), **(settings or {})} or None)
    except LogError as err:
        result.failures = _mismatch(want, err)
        return result
    except UNJUDGED as err:
        result.error = unjudged_why(err)
        return result
    finally:
        result.seconds = time.perf_counter() - start
    # Judged: the ruling is not attached, so that check --update leaves the file alone.
    result.failures = [f"應被拒收（{_words(want)}），卻裁決為 {ruling.status}"]
    return result


def _mismatch(want: Refusal, err: LogError) -> list[str]:
    out = []
    if want.line is not None and err.line != want.line:
        out.append(f"應拒收第 {want.line} 行，拒收的是第 {err.line} 行：{err.message}")
    missing = [c for c in want.clauses if c not in cited(err)]
    if missing:
        out.append(f"拒收應引 {'、'.join(missing)}，所引為 "
                   f"{'、'.join(cited(err)) or '（無）'}：{err.message}")
    return out


def _words(want: Refusal) -> str:
    where = f"第 {want.line} 行" if want.line is not None else "某行"
    return where + (f"，引 {'、'.join(want.clauses)}" if want.clauses else "")
