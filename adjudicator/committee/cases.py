"""Judged cases: a log with its 期望 block, and whether the ruling meets every expectation.

Also what the case tools share: finding the files of a corpus, naming a case, selecting
cases with ``-k``, and rewriting a 期望 block from a ruling (``check --update``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path

from adjudicator.committee.outcome import (
    UNJUDGED,
    CaseResult,
    case_settings,
    unjudged_why,
)
from adjudicator.committee.refusals import is_refusal, run_refusal
from adjudicator.language import reader
from adjudicator.language.incident import (
    BalanceExpectation,
    Expectation,
    FindingExpectation,
    HandEndExpectation,
    Incident,
    NextHandExpectation,
    WinExpectation,
)
from adjudicator.language.seats import SEATS
from adjudicator.rules.rulesets import House
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import Ruling, money_json, signed_money

# check also runs whole matches (match_cases.py) and logs that must be refused (refusals.py)
CASE_GLOBS = ("*.case", "*.match", "*.refusal")
CORPUS_GLOBS = ("*.case", "*.log")  # diff and coverage also judge plain logs


def find_cases(paths: Iterable[Path], globs: Iterable[str] = CASE_GLOBS) -> Iterator[Path]:
    """The case files under each path (a folder is searched recursively, sorted)."""
    globs = tuple(globs)
    for path in paths:
        if path.is_dir():
            yield from sorted({f for g in globs for f in path.rglob(g)})
        else:
            yield path


def missing(paths: Iterable[Path]) -> list[Path]:
    """The paths that name neither a file nor a folder."""
    return [p for p in paths if not p.exists()]


def case_name(path: Path) -> str:
    """How a case is shown and selected: its path from the working folder, with ``/``."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def read_case(path: Path) -> Incident:
    """The log of a case file; ``LogError`` if it does not parse, ``OSError`` if unreadable."""
    return reader.read(reader.decode(path.read_bytes()))


def read_corpus(paths: Iterable[Path]) -> Iterator[tuple[Path, Incident | str]]:
    """Each file of a corpus (cases and plain logs) with its log read, or why it could not
    be read: what diff and coverage judge."""
    for path in find_cases(paths, CORPUS_GLOBS):
        try:
            yield path, read_case(path)
        except UNJUDGED as err:
            yield path, unjudged_why(err)


def run_case(path: Path, settings: dict[str, str] | None = None,
             house: House | None = None) -> CaseResult:
    """Judge one case file (with ``settings`` over its own ``#! set:`` and its profile, or
    over ``house`` rules) and check its 期望 (or, a ``*.refusal``, that it is refused as it
    says)."""
    if is_refusal(path):
        return run_refusal(path, settings)
    result = CaseResult(path)
    start = time.perf_counter()
    try:
        result.incident = read_case(path)
        own = case_settings(result.incident.source)
        result.ruling = judge(result.incident, settings={**own, **(settings or {})} or None,
                              house=house)
    except UNJUDGED as err:
        result.error = unjudged_why(err)
        return result
    finally:
        result.seconds = time.perf_counter() - start
    _check(result)
    return result


def run_cases(paths: Sequence[Path], settings: dict[str, str] | None = None,
              chunk: int = 40, house: House | None = None) -> Iterator[CaseResult]:
    """``run_case`` for many files, in order, judged a chunk at a time on the batch engine
    (one clingo run a chunk; the same rulings, tests/batch/test_batch.py)."""
    from adjudicator.ruling.pipeline import Pipeline

    pipeline = Pipeline(settings=settings, house=house)

    for first in range(0, len(paths), chunk):
        results = [CaseResult(path) for path in paths[first:first + chunk]]
        ready: list[CaseResult] = []
        for k, result in enumerate(results):
            if is_refusal(result.path):
                results[k] = run_refusal(result.path, settings)
                continue
            start = time.perf_counter()
            try:
                result.incident = read_case(result.path)
            except UNJUDGED as err:
                result.error = unjudged_why(err)
            result.seconds = time.perf_counter() - start
            if result.incident is None:
                continue
            if case_settings(result.incident.source):
                # A case that sets its own reading is judged alone, with it (the batch
                # engine takes one set of settings for all).
                results[k] = run_case(result.path, settings, house)
            else:
                ready.append(result)
        judged = pipeline.judge_many([r.incident for r in ready])  # type: ignore[misc]
        for result, (ruling, seconds) in zip(ready, judged, strict=True):
            result.seconds += seconds
            if isinstance(ruling, Exception):
                result.error = unjudged_why(ruling)
                continue
            result.ruling = ruling
            _check(result)
        yield from results


def _check(result: CaseResult) -> None:
    assert result.incident is not None and result.ruling is not None
    if not result.incident.expectations:
        result.error = "此案沒有 期望: 段落，無從檢查"
        return
    result.checked = len(result.incident.expectations)
    result.failures = check_expectations(result.incident.expectations, result.ruling)


def check_expectations(expectations: Iterable[Expectation], ruling: Ruling) -> list[str]:
    """One line per expectation the ruling does not meet."""
    failures = []
    for exp in expectations:
        if not meets(exp, ruling):
            prefix = "不應有" if exp.negated else "應有"
            failures.append(f"第 {exp.line} 行：{prefix} {_holds(exp, ruling)[1]}")
    return failures


def meets(exp: Expectation, ruling: Ruling) -> bool:
    holds, _ = _holds(exp, ruling)
    return holds != exp.negated


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


_signed = signed_money


# ---------------------------------------------------------------------- -k selection


class KeywordError(ValueError):
    """A -k expression that does not parse; ``str()`` says where, in Chinese."""


_K_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def keyword_matcher(expr: str) -> Callable[[str], bool]:
    """pytest's ``-k``: substrings of the case name with ``and``, ``or``, ``not``, brackets.

    Matching ignores case.  ``KeywordError`` if the expression is malformed.
    """
    tokens = _K_TOKEN.findall(expr)
    if not tokens:
        return lambda _name: True
    pos, test = _k_or(tokens, 0)
    if pos != len(tokens):
        raise KeywordError(f"-k「{expr}」：第 {pos + 1} 個詞「{tokens[pos]}」前應已結束")
    return test


_Test = Callable[[str], bool]


def _k_or(tokens: list[str], pos: int) -> tuple[int, _Test]:
    return _k_chain(tokens, pos, "or", _k_and, any)


def _k_and(tokens: list[str], pos: int) -> tuple[int, _Test]:
    return _k_chain(tokens, pos, "and", _k_not, all)


def _k_chain(tokens: list[str], pos: int, op: str,
             operand: Callable[[list[str], int], tuple[int, _Test]],
             combine: Callable[[Iterator[bool]], bool]) -> tuple[int, _Test]:
    """``operand (op operand)*``, the operands' results joined by ``combine``."""
    pos, first = operand(tokens, pos)
    tests = [first]
    while pos < len(tokens) and tokens[pos] == op:
        pos, test = operand(tokens, pos + 1)
        tests.append(test)
    return pos, first if len(tests) == 1 else (lambda n: combine(t(n) for t in tests))


def _k_not(tokens: list[str], pos: int) -> tuple[int, _Test]:
    if pos >= len(tokens):
        raise KeywordError("-k 運算式不完整：結尾少了一個詞")
    word = tokens[pos]
    if word == "not":
        pos, inner = _k_not(tokens, pos + 1)
        return pos, lambda n: not inner(n)
    if word == "(":
        pos, inner = _k_or(tokens, pos + 1)
        if pos >= len(tokens) or tokens[pos] != ")":
            raise KeywordError("-k 運算式少了右括號「)」")
        return pos + 1, inner
    if word in ("and", "or", ")"):
        raise KeywordError(f"-k 運算式第 {pos + 1} 個詞「{word}」前應有一個名稱")
    needle = word.lower()
    return pos + 1, lambda n: needle in n.lower()


# ------------------------------------------------------------- rewriting the 期望 block

_EXPECT_HEAD = re.compile(r"^[ \t\u3000]*期望[ \t\u3000]*[:：]?[ \t\u3000]*(?:[#＃].*)?$")
_COMMENT = re.compile(r"[#＃]")
_Key = tuple[str, ...]


def expectation_lines(r: Ruling) -> list[tuple[_Key, str]]:
    """The 期望 lines that state the ruling: findings, wins, hand end, money, next hand."""
    out: list[tuple[_Key, str]] = []
    for seat, kind in dict.fromkeys((f.seat, f.kind) for f in r.findings):
        out.append((("finding", seat, kind), f"{seat} {kind}"))
    for w in r.wins:
        text = f"{w.seat} 和 {'有效' if w.valid else '無效'}"
        out.append((("win", w.seat), text + ("" if w.tai is None else f" {w.tai}台")))
    out.append((("end",), "本盤終止" if r.hand_ends else "繼續"))
    money = " ".join(f"{s} {_signed(money_json(r.balances.get(s, 0)))}" for s in SEATS)
    out.append((("balance",), f"收支: {money}"))
    if r.next_hand is not None:
        n = r.next_hand
        out.append((("next",), f"下盤: 莊家 {n.dealer} 連莊 {n.streak}"
                    + ("" if n.counts_streak else " 不計連莊序")))
    return out


def _key(exp: Expectation) -> _Key:
    if isinstance(exp, FindingExpectation):
        return ("finding", exp.seat, exp.kind)
    if isinstance(exp, WinExpectation):
        return ("win", exp.seat)
    if isinstance(exp, HandEndExpectation):
        return ("end",)
    if isinstance(exp, BalanceExpectation):
        return ("balance",)
    return ("next",)


def updated_text(text: str, incident: Incident, ruling: Ruling) -> str:
    """``text`` with its 期望 block brought in line with ``ruling``.

    Only expectation lines the ruling does not meet change: each is replaced by the line
    that states the ruling (its trailing comment kept) or, when the ruling has nothing of
    the kind, removed (its comment kept on a line of its own).  What the ruling has and no
    line states is added after the last expectation.  Everything before ``期望:``, comment
    lines and blank lines are kept byte for byte.  ``incident`` is ``text`` as read.
    """
    lines = re.findall(r"[^\n]*\n|[^\n]+$", text)
    eol = "\r\n" if "\r\n" in text else "\n"
    head = next((i for i, line in enumerate(lines) if _EXPECT_HEAD.match(line.rstrip("\r\n"))),
                None)
    if head is None:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += eol
        lines += [eol, f"期望:{eol}"]
        head = len(lines) - 1
    pending: dict[_Key, list[str]] = {}
    for key, line in expectation_lines(ruling):
        pending.setdefault(key, []).append(line)
    by_line = {exp.line: exp for exp in incident.expectations}
    out, last = lines[: head + 1], head + 1
    for number, line in enumerate(lines[head + 1:], start=head + 2):
        exp = by_line.get(number)
        if exp is None:
            out.append(line)
            continue
        out.extend(_rewrite(line, exp, ruling, pending))
        last = len(out)
    added = [f"{text}{eol}" for texts in pending.values() for text in texts]
    if added and last == len(out) and out and not out[-1].endswith("\n"):
        out[-1] += eol
    return "".join(out[:last] + added + out[last:])


def _rewrite(line: str, exp: Expectation, ruling: Ruling,
             pending: dict[_Key, list[str]]) -> list[str]:
    """What becomes of one expectation line (zero or one lines)."""
    key = _key(exp)
    ok = meets(exp, ruling)
    if ok and not exp.negated and pending.get(key):
        pending[key].pop(0)
    if ok:
        return [line]
    body = line.rstrip("\r\n")
    eol = line[len(body):]
    cut = _COMMENT.search(body)
    comment = body[cut.start():] if cut else ""
    content = body[: cut.start()] if cut else body
    if exp.negated or not pending.get(key):
        return [comment + eol] if comment else []
    indent = content[: len(content) - len(content.lstrip())]
    gap = content[len(content.rstrip()):]
    return [indent + pending[key].pop(0) + (gap + comment if comment else "") + eol]
