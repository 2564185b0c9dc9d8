"""Judged match cases (``cases/**/*.match``): a match file whose ``將期望:`` block states the
deal of each hand, the running totals and the warnings, worked out by hand; each hand's own
``期望:`` lines are checked against that hand's ruling as a ``.case`` would be."""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from adjudicator.committee.cases import check_expectations
from adjudicator.committee.outcome import UNJUDGED, Outcome, unjudged_why
from adjudicator.language import reader
from adjudicator.match.carry import Carried
from adjudicator.match.format import (
    DealExpectation,
    LedgerExpectation,
    MatchExpectation,
    StopExpectation,
    WarningExpectation,
    read_match,
)
from adjudicator.match.run import MatchResult, judge_match
from adjudicator.rules.rulesets import House
from adjudicator.ruling.model import signed_money


@dataclass
class MatchCaseResult(Outcome):
    result: MatchResult | None = None


def run_match_case(path: Path, settings: dict[str, str] | None = None,
                   house: House | None = None) -> MatchCaseResult:
    out = MatchCaseResult(path)
    begun = time.perf_counter()
    try:
        match = read_match(reader.decode(path.read_bytes()))
        out.result = judge_match(match, settings=settings, house=house)
    except UNJUDGED as err:
        out.error = unjudged_why(err)
        return out
    finally:
        out.seconds = time.perf_counter() - begun
    result = out.result
    if not match.expectations:
        out.error = "此將沒有 將期望: 段落，無從檢查"
        return out
    judged = {h.number: h for h in result.hands}
    for hand in match.hands:
        exps = reader.read(hand.text).expectations if hand.number not in judged else \
            judged[hand.number].incident.expectations
        if hand.number in judged:
            out.failures += [f"第{hand.number}盤 {f}"
                             for f in check_expectations(exps, judged[hand.number].ruling)]
        elif exps:
            out.failures.append(f"第{hand.number}盤有期望，但此盤未裁決")
        out.checked += len(exps)
    for h in result.hands:
        if h.booked and sum(h.totals.values(), Fraction(0)) != 0:
            out.failures.append(f"第{h.number}盤後帳目合計不為零")
    stops = [e for e in match.expectations if isinstance(e, StopExpectation)]
    if result.stop is not None and not stops:
        out.failures.append(f"接續停止：{result.stop.message}")
    for exp in match.expectations:
        out.checked += 1
        failure = _check(exp, result)
        if failure:
            out.failures.append(f"第 {exp.line} 行：{failure}")
    return out


def _check(exp: MatchExpectation, result: MatchResult) -> str | None:
    hands = {h.number: h for h in result.hands}
    if isinstance(exp, StopExpectation):
        got = "未停止" if result.stop is None else f"停於第{result.stop.hand}盤"
        return None if result.stop and result.stop.hand == exp.hand else \
            f"應停於第{exp.hand}盤；結果{got}"
    if isinstance(exp, WarningExpectation):
        found = [w for w in result.warnings if w.hand == exp.hand and w.key == exp.key]
        got = "；".join(f"第{w.hand}盤 {w.key}" for w in result.warnings) or "無警告"
        return None if found else f"第{exp.hand}盤應有關於 {exp.key} 的警告；結果為 {got}"
    if isinstance(exp, LedgerExpectation):
        if exp.hand is None:
            totals = result.ledger.totals
            where = "終局"
        else:
            hand = hands.get(exp.hand)
            if hand is None or not hand.booked:
                return f"第{exp.hand}盤未入帳"
            totals, where = hand.totals, f"第{exp.hand}盤後"
        want = {n: Fraction(v) for n, v in exp.totals.items()}
        wrong = [n for n in set(want) | set(totals)
                 if want.get(n, Fraction(0)) != totals.get(n, Fraction(0))]
        got = " ".join(f"{n} {signed_money(v)}" for n, v in totals.items())
        return f"{where}帳目應為 " + " ".join(f"{n} {signed_money(v)}" for n, v in want.items()) + \
            f"；結果為 {got}" if wrong else None
    return _check_deal(exp, result)


def _check_deal(exp: DealExpectation, result: MatchResult) -> str | None:
    if exp.hand is None:
        c: Carried | None = result.next if result.stop is None else None
        if c is None:
            return "下一盤應可接續；結果未定"
        wind, dealer, streak = c.round_wind, c.dealer, c.streak
        name = None if dealer is None else c.seating[dealer]
        where = "下一盤"
    else:
        hand = next((h for h in result.hands if h.number == exp.hand), None)
        if hand is None:
            return f"第{exp.hand}盤未裁決"
        d = hand.deal
        wind, dealer, streak, name = d.round_wind, d.dealer, d.streak, d.dealer_name
        where = f"第{exp.hand}盤"
    ok = ((exp.round_wind is None or exp.round_wind == wind)
          and (exp.dealer is None or exp.dealer in (dealer, name))
          and (exp.streak is None or exp.streak == streak))
    return None if ok else (
        f"{where}應為 圈風 {exp.round_wind or '—'} 莊家 {exp.dealer or '—'} 連莊 "
        f"{'—' if exp.streak is None else exp.streak}；結果為 圈風 {wind} 莊家 {dealer}（{name}）"
        f" 連莊 {streak}")
