"""Judge a corpus twice — under two profiles, house rules or settings — and say what changed.

A side is a profile (or the case's own ``規則:``) or a club's house rules, plus ``--set``
overrides.  Each case is
read once and judged once per side in this process; the two rulings are compared as their
JSON (ruling-json.md) aspect by aspect: status, findings, wins, payments, balances, the
hand's end and next hand, open facts.  Reasons (``why``, ``reasons``) are wording, not
outcome, and are left out of the comparison.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.committee.cases import (
    CORPUS_GLOBS,
    UNJUDGED,
    case_name,
    find_cases,
    read_case,
    read_corpus,
    unjudged_why,
)
from adjudicator.language.incident import Incident
from adjudicator.language.reader import read
from adjudicator.rules.rulesets import House, named_family, profile_family, rule_set
from adjudicator.ruling.interpretations import POINTS
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import STATUS_SHORT, Ruling, signed_money, to_dict

ASPECTS = {"status": "狀態", "findings": "認定", "wins": "和牌", "payments": "賠付",
           "balances": "收支", "next_hand": "本盤／下盤", "uncertain": "待查"}


@dataclass(frozen=True)
class Side:
    """One way of judging: a profile (None: each case's own) or house rules, and overrides."""

    profile: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    house: House | None = None

    @property
    def base(self) -> str | None:
        """The shipped profile this side judges by (None: each case's own)."""
        return self.house.profile if self.house is not None else self.profile

    def label(self) -> str:
        if self.house is not None:
            version = f" {self.house.version}" if self.house.version else ""
            parts = [f"{self.house.name}{version}（依據 {self.house.extends}）"]
        else:
            parts = [self.profile or "案例自身規則"]
        parts += [f"{k}={v}" for k, v in self.settings.items()]
        return " ".join(parts)

    def values(self, own_profile: str) -> dict[str, str]:
        """Every reading and parameter value this side judges a case of ``own_profile`` by."""
        return rule_set(self.base or own_profile, self.house, self.settings).by_id

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.base, "settings": dict(self.settings),
                "house": None if self.house is None else self.house.to_json()}


@dataclass
class Change:
    aspect: str  # a key of ASPECTS
    a: list[Any]  # what only side A's ruling has (JSON values)
    b: list[Any]  # what only side B's ruling has


@dataclass
class CaseDiff:
    path: Path
    changes: list[Change] = field(default_factory=list)
    depends_a: list[str] = field(default_factory=list)  # 解釋 points the ruling names
    depends_b: list[str] = field(default_factory=list)
    flipped: list[str] = field(default_factory=list)  # points and parameters the sides set apart
    error: str | None = None
    verdict_changed: bool = False  # money or a verdict changed, not only a citation

    @property
    def name(self) -> str:
        return case_name(self.path)

    @property
    def undeclared(self) -> bool:
        """The ruling changed, only 解釋 points were flipped, and neither ruling names one."""
        if not self.changes or not self.flipped:
            return False
        if not all(k in POINTS for k in self.flipped):
            return False
        return not set(self.flipped) & set(self.depends_a + self.depends_b)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"case": self.name, "changed": bool(self.changes)}
        if self.error is not None:
            out["error"] = self.error
            return out
        out["changes"] = {c.aspect: {"a": c.a, "b": c.b} for c in self.changes}
        out["verdict_changed"] = self.verdict_changed
        out["depends_on"] = {"a": self.depends_a, "b": self.depends_b}
        out["flipped"] = self.flipped
        out["undeclared"] = self.undeclared
        return out


@dataclass
class DiffReport:
    a: Side
    b: Side
    cases: list[CaseDiff]
    seconds: float
    verdicts_only: bool = False  # list only cases whose money or verdict changed
    # Cases written for another family than the one compared (a gd log in a tw16 corpus):
    # a different game, so not compared, and not an error either.
    other_family: list[Path] = field(default_factory=list)

    @property
    def shown(self) -> list[CaseDiff]:
        """The changed cases a report lists (all, or those beyond a citation)."""
        return self.verdicts_changed if self.verdicts_only else self.changed

    @property
    def changed(self) -> list[CaseDiff]:
        return [c for c in self.cases if c.changes]

    @property
    def verdicts_changed(self) -> list[CaseDiff]:
        return [c for c in self.cases if c.verdict_changed]

    @property
    def errors(self) -> list[CaseDiff]:
        return [c for c in self.cases if c.error is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(), "b": self.b.to_json(),
            "summary": {"cases": len(self.cases), "changed": len(self.changed),
                        "verdicts_changed": len(self.verdicts_changed),
                        "citations_only": len(self.changed) - len(self.verdicts_changed),
                        "errors": len(self.errors), "other_family": len(self.other_family),
                        "seconds": round(self.seconds, 3)},
            "cases": [c.to_json() for c in self.cases if c in self.shown or c.error],
        }


Progress = Callable[[int], None]  # told how many more judgements are done


def _nothing(_: int) -> None:
    return None


def _read_all(paths: Iterable[Path], failed: list[CaseDiff]) -> Iterator[tuple[Path, Incident]]:
    """Each case read, as it is read (judging starts on the first chunk while the rest are
    read); those that cannot be are added to ``failed``."""
    for path, incident in read_corpus(paths):
        if isinstance(incident, str):
            failed.append(CaseDiff(path, error=incident))
        else:
            yield path, incident


def _rule_part(part: list[Incident], side: Side) -> list[Ruling | str]:
    """One chunk judged by one side in one clingo run (the pipeline's ``judge_many``); an
    error is turned into its text where its traceback still is (a worker's)."""
    from adjudicator.ruling.pipeline import Pipeline

    pipeline = Pipeline(side.profile, side.settings or None, side.house)
    return [unjudged_why(r) if isinstance(r, Exception) else r
            for r, _ in pipeline.judge_many(part)]


def _judge_sides(cases: Iterable[tuple[Path, Incident]], sides: list[Side],
                 progress: Progress, workers: int | None = None
                 ) -> tuple[list[tuple[Path, Incident]], list[list[Ruling | str]]]:
    """Every case judged by every side, chunk by chunk, in worker processes (all cores by
    default); the cases in the order judged, and each side's rulings in that order.

    Each worker process judges for the same side(s) throughout: a process pays once for
    each profile and setting it judges by (the batch engine's transformed program), so a
    side kept to its own workers is paid for once, not once in every worker."""
    read: list[tuple[Path, Incident]] = []
    out: list[list[Ruling | str]] = [[] for _ in sides]

    def chunks() -> Iterator[tuple[int, list[Incident]]]:
        for path, incident in cases:
            read.append((path, incident))
            if len(read) % CHUNK == 0:
                yield len(read) - CHUNK, [i for _, i in read[-CHUNK:]]
        if len(read) % CHUNK:
            at = len(read) - len(read) % CHUNK
            yield at, [i for _, i in read[at:]]

    def place(k: int, at: int, results: list[Ruling | str]) -> None:
        side = out[k]
        side.extend([""] * (at + len(results) - len(side)))
        side[at:at + len(results)] = results
        progress(len(results))

    def rule(k: int, part: list[Incident]) -> list[Ruling | str]:
        return _rule_part(part, sides[k])

    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for at, part in chunks():
            for k in range(len(sides)):
                place(k, at, rule(k, part))
        return read, out
    # The workers of side k: every len(sides)-th one from k (all sides, when fewer workers).
    pools = [ProcessPoolExecutor(max_workers=1) for _ in range(workers)]
    mine = [pools[k % workers::len(sides)] if len(sides) < workers else [pools[k % workers]]
            for k in range(len(sides))]
    try:
        futures: dict[Future[list[Ruling | str]], tuple[int, int]] = {}
        for n, (at, part) in enumerate(chunks()):
            for k, side in enumerate(sides):
                pool = mine[k][n % len(mine[k])]
                futures[pool.submit(_rule_part, part, side)] = (k, at)
        for future in as_completed(futures):
            place(*futures[future], future.result())
    finally:
        for pool in pools:
            pool.shutdown(cancel_futures=True)
    return read, out


CHUNK = 40


def count_cases(paths: Iterable[Path]) -> int:
    return sum(1 for _ in find_cases(paths, CORPUS_GLOBS))


def diff_corpus(paths: Iterable[Path], a: Side, b: Side,
                progress: Progress = _nothing, workers: int | None = None) -> DiffReport:
    start = time.perf_counter()
    cases: list[CaseDiff] = []
    others: list[Path] = []
    family = a.base or b.base
    read, (ras, rbs) = _judge_sides(_of_family(_read_all(paths, cases), family, others),
                                    [a, b], progress, workers)
    cases += [_judged_diff(path, incident, (a, ra), (b, rb))
              for (path, incident), ra, rb in zip(read, ras, rbs, strict=True)]
    cases.sort(key=lambda c: str(c.path))
    return DiffReport(a, b, cases, time.perf_counter() - start, other_family=others)


def _of_family(read: Iterable[tuple[Path, Incident]], profile: str | None,
               others: list[Path]) -> Iterator[tuple[Path, Incident]]:
    """The cases of ``profile``'s family (all are of it when each case is judged by its own
    profile); the paths of the others are added to ``others``."""
    family = None if profile is None else profile_family(profile)
    for path, incident in read:
        if family is None or named_family(incident.header.profile) is family:
            yield path, incident
        else:
            others.append(path)


def diff_case(path: Path, a: Side, b: Side) -> CaseDiff:
    try:
        incident = read_case(path)
    except UNJUDGED as err:
        return CaseDiff(path, error=unjudged_why(err))
    return diff_incident(path, incident, a, b)


def diff_incident(path: Path, incident: Incident, a: Side, b: Side) -> CaseDiff:
    """One incident judged under both sides; ``path`` only names it."""
    try:
        ra, rb = _judge(incident, a), _judge(incident, b)
    except UNJUDGED as err:
        return CaseDiff(path, error=unjudged_why(err))
    return _case_diff(path, incident, (a, ra), (b, rb))


def _judge(incident: Incident, side: Side) -> Ruling:
    return judge(incident, profile=side.profile, settings=side.settings or None,
                 house=side.house)


def diff_logs(logs: Iterable[tuple[str, str]], a: Side, b: Side) -> DiffReport:
    """A corpus that is not files (the desk's archive): (name, log text) pairs."""
    start = time.perf_counter()
    cases = []
    for name, text in logs:
        try:
            incident = read(text)
        except UNJUDGED as err:
            cases.append(CaseDiff(Path(name), error=unjudged_why(err)))
            continue
        cases.append(diff_incident(Path(name), incident, a, b))
    return DiffReport(a, b, cases, time.perf_counter() - start)


def sweep(paths: Iterable[Path], flips: list[dict[str, str]],
          progress: Progress = _nothing, workers: int | None = None) -> list[DiffReport]:
    """Each case's own profile against each of ``flips``: one report per flip.

    The cases are read and judged under their own profile once, then once per flip.
    """
    base = Side()
    failed: list[CaseDiff] = []
    start = time.perf_counter()
    sides = [Side(None, flip) for flip in flips]
    read, (ras, *judged) = _judge_sides(_read_all(paths, failed), [base, *sides], progress,
                                        workers)
    each = (time.perf_counter() - start) / max(1, len(sides))
    reports = []
    for side, rbs in zip(sides, judged, strict=True):
        report = DiffReport(base, side, list(failed), each)
        report.cases += [_judged_diff(path, incident, (base, ra), (side, rb))
                         for (path, incident), ra, rb in zip(read, ras, rbs, strict=True)]
        report.cases.sort(key=lambda c: str(c.path))
        reports.append(report)
    return reports


def _judged_diff(path: Path, incident: Incident, a: tuple[Side, Ruling | str],
                 b: tuple[Side, Ruling | str]) -> CaseDiff:
    """One case as two sides judged it, or the error (its text) that kept a side from it."""
    for _, judged in (a, b):
        if isinstance(judged, str):
            return CaseDiff(path, error=judged)
    return _case_diff(path, incident, a, b)  # type: ignore[arg-type]


def _case_diff(path: Path, incident: Incident, a: tuple[Side, Ruling],
               b: tuple[Side, Ruling]) -> CaseDiff:
    (side_a, ra), (side_b, rb) = a, b
    own = incident.header.profile
    va, vb = side_a.values(own), side_b.values(own)
    changes = compare(ra, rb)
    return CaseDiff(
        path, changes=changes,
        verdict_changed=bool(changes) and bool(compare(ra, rb, citations=False)),
        depends_a=listed_points(ra), depends_b=listed_points(rb),
        flipped=sorted(k for k in va.keys() | vb.keys() if va.get(k) != vb.get(k)))


def listed_points(r: Ruling) -> list[str]:
    """The 解釋 points a ruling lists: its own and those of each way an open fact may go
    (a possibility's findings and payments are the ruling's too, read one way)."""
    ids = [i.id for i in r.interpretations]
    ids += [i.id for u in r.uncertain for p in u.possibilities for i in p.interpretations]
    return sorted(set(ids))


def compare(ra: Ruling, rb: Ruling, citations: bool = True) -> list[Change]:
    """What differs between two rulings, aspect by aspect (empty: the same outcome);
    ``citations=False`` compares them without the clause ids they cite."""
    da, db = _outcome(ra, WORDING if citations else WORDING | CITATIONS), \
        _outcome(rb, WORDING if citations else WORDING | CITATIONS)
    changes = []
    for aspect in ASPECTS:
        only_a, only_b = _multiset_diff(da[aspect], db[aspect])
        if only_a or only_b:
            changes.append(Change(aspect, only_a, only_b))
    return changes


# How a ruling explains itself, not what it rules: the readings an open fact's possibility
# took are listed, like the ruling's own, not compared (ruling-json.md: interpretations).
WORDING = frozenset({"why", "reasons", "interpretations"})
# What a ruling cites: a change only here changes no money and no verdict.
CITATIONS = frozenset({"clauses", "clause"})


def _outcome(r: Ruling, leave_out: frozenset[str] = WORDING) -> dict[str, list[Any]]:
    """The ruling's JSON as lists of comparable items per aspect, without the wording."""
    d = _plain(to_dict(r), leave_out)
    return {
        "status": [d["status"]],
        "findings": d["findings"],
        "wins": d["wins"],
        "payments": d["payments"],
        "balances": [{"seat": s, "amount": v} for s, v in d["balances"].items()],
        "next_hand": [{"hand_ends": d["hand_ends"], "next_hand": d["next_hand"]}],
        "uncertain": d["uncertain"],
    }


def _plain(value: Any, leave_out: frozenset[str] = WORDING) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v, leave_out) for k, v in value.items() if k not in leave_out}
    if isinstance(value, list):
        return [_plain(v, leave_out) for v in value]
    return value


def _multiset_diff(a: list[Any], b: list[Any]) -> tuple[list[Any], list[Any]]:
    ka, kb = Counter(map(_key, a)), Counter(map(_key, b))
    only_a, only_b = ka - kb, kb - ka
    return _pick(a, only_a), _pick(b, only_b)


def _pick(items: list[Any], wanted: Counter[str]) -> list[Any]:
    left, out = Counter(wanted), []
    for item in items:
        if left[_key(item)] > 0:
            left[_key(item)] -= 1
            out.append(item)
    return out


def _key(item: Any) -> str:
    return json.dumps(item, ensure_ascii=False, sort_keys=True)


# ---------------------------------------------------------------- items in words


def item_text(aspect: str, item: Any) -> str:
    """One changed item as a referee reads it (text and Markdown output)."""
    return _WORDS[aspect](item)


def _finding(f: dict[str, Any]) -> str:
    text = f"{f['at'] or ''} {f['seat']} {f['kind']}".strip()
    if f.get("over"):
        text += f"（優於 {f['over']}）"
    if f.get("window"):
        text += f"（其後 {f['window']['draws']} 張）"
    return text + f"〔{'、'.join(f['clauses'])}〕"


def _win(w: dict[str, Any]) -> str:
    how = "自摸" if w["self_drawn"] else f"和 {w['from']} 之銃"
    text = f"{w['at'] or ''} {w['seat']} {how} {'有效' if w['valid'] else '無效'}".strip()
    if w["tai"] is not None:
        text += f" {w['tai']}台"
    patterns = "、".join(f"{p['name']}{p['tai']}" for p in w["patterns"])
    return text + (f"［{patterns}］" if patterns else "")


def _payment(p: dict[str, Any]) -> str:
    basis = p["basis"] + (f"，代 {p['instead_of']} 付" if p.get("instead_of") else "")
    return (f"{p['from']}→{p['to']} {p['amount']}（{p['tai']}台，{basis}）"
            f"〔{'、'.join(p['clauses'])}〕")


def _balance(b: dict[str, Any]) -> str:
    return f"{b['seat']} {signed_money(b['amount'])}"


def _next(n: dict[str, Any]) -> str:
    if not n["hand_ends"]:
        return "本盤繼續"
    nh = n["next_hand"]
    if nh is None:
        return "本盤終止"
    return (f"本盤終止，下盤 莊家 {nh['dealer']} 連莊 {nh['streak']}"
            + ("" if nh["counts_streak"] else "（不計連莊序）")
            + (f"〔{'、'.join(nh['clauses'])}〕" if nh.get("clauses") else ""))


_STATUS = STATUS_SHORT

_WORDS = {
    "status": lambda s: _STATUS.get(s, s),
    "findings": _finding,
    "wins": _win,
    "payments": _payment,
    "balances": _balance,
    "next_hand": _next,
    "uncertain": lambda u: (f"{u['at'] or ''} {u['fact']}".strip()
                            + (f"：{u['changes']}" if u.get("changes") else "")),
}
