"""Judged cases: a log with its 期望 block, and whether the ruling meets every expectation."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import reader
from .errors import LogError
from .incident import (
    BalanceExpectation,
    Expectation,
    FindingExpectation,
    HandEndExpectation,
    NextHandExpectation,
    WinExpectation,
)
from .judge import judge
from .ruling import Ruling


@dataclass
class CaseResult:
    path: Path
    failures: list[str] = field(default_factory=list)
    error: str | None = None  # the log itself could not be judged
    ruling: Ruling | None = None
    checked: int = 0

    @property
    def passed(self) -> bool:
        return self.error is None and not self.failures


def find_cases(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(path.rglob("*.case"))
        else:
            yield path


def run_case(path: Path) -> CaseResult:
    result = CaseResult(path)
    try:
        incident = reader.read(path.read_text(encoding="utf-8"))
        result.ruling = judge(incident)
    except LogError as err:
        result.error = str(err)
        return result
    if not incident.expectations:
        result.error = "此案沒有 期望: 段落，無從檢查"
        return result
    for exp in incident.expectations:
        result.checked += 1
        holds, said = _holds(exp, result.ruling)
        if holds == exp.negated:
            prefix = "不應有" if exp.negated else "應有"
            result.failures.append(f"第 {exp.line} 行：{prefix} {said}")
    return result


def _holds(exp: Expectation, r: Ruling) -> tuple[bool, str]:
    """Whether the positive statement of ``exp`` holds, and that statement in words."""
    if isinstance(exp, FindingExpectation):
        found = [f for f in r.findings if f.kind == exp.kind and f.seat == exp.seat]
        return bool(found), f"{exp.seat} {exp.kind}；裁決有：{_findings_text(r)}"
    if isinstance(exp, WinExpectation):
        return _win_holds(exp, r)
    if isinstance(exp, HandEndExpectation):
        want = "本盤終止" if exp.ends else "繼續"
        got = "本盤終止" if r.hand_ends else "繼續"
        return r.hand_ends == exp.ends, f"{want}；裁決為 {got}"
    if isinstance(exp, BalanceExpectation):
        ok = all(Fraction(r.balances.get(s, 0)) == Fraction(v) for s, v in exp.balances.items())
        got = " ".join(f"{s} {_signed(v)}" for s, v in r.balances.items())
        want = " ".join(f"{s} {_signed(v)}" for s, v in exp.balances.items())
        return ok, f"收支 {want}；裁決為 {got}"
    if isinstance(exp, NextHandExpectation):
        return _next_holds(exp, r)
    raise TypeError(exp)


def _win_holds(exp: WinExpectation, r: Ruling) -> tuple[bool, str]:
    wins = [w for w in r.wins if w.seat == exp.seat]
    ok = any((exp.valid is None or w.valid == exp.valid) and
             (exp.tai is None or w.tai == exp.tai) for w in wins)
    want = f"{exp.seat} 和"
    if exp.valid is not None:
        want += " 有效" if exp.valid else " 無效"
    if exp.tai is not None:
        want += f" {exp.tai}台"
    got = "、".join(f"{w.seat} 和 {'有效' if w.valid else '無效'} {w.tai}台" for w in r.wins)
    return ok, f"{want}；裁決為 {got or '無和牌'}"


def _next_holds(exp: NextHandExpectation, r: Ruling) -> tuple[bool, str]:
    n = r.next_hand
    want = f"下盤 莊家 {exp.dealer}" + (f" 連莊 {exp.streak}" if exp.streak is not None else "")
    if not exp.counts_streak:
        want += " 不計連莊序"
    if n is None:
        return False, f"{want}；裁決未定下盤（本盤未終止）"
    ok = (n.dealer == exp.dealer and (exp.streak is None or n.streak == exp.streak)
          and n.counts_streak == exp.counts_streak)
    got = f"莊家 {n.dealer} 連莊 {n.streak}" + ("" if n.counts_streak else " 不計連莊序")
    return ok, f"{want}；裁決為 {got}"


def _findings_text(r: Ruling) -> str:
    return "、".join(f"{f.seat} {f.kind}" for f in r.findings) or "（無）"


def _signed(v: object) -> str:
    return f"+{v}" if Fraction(str(v)) > 0 else str(v)
