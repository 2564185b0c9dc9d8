"""ruling/terms.py: a symbol's parts read once, into one Term per symbol, within a judgement
and (``shared``) across the judgements a process makes, the table bounded."""

from __future__ import annotations

import pytest
from clingo import Function, Number, String

from adjudicator.ruling import terms


def test_one_term_per_symbol_with_the_symbols_parts() -> None:
    table = terms.Terms()
    sym = Function("reading_value", [String("解釋.過水"), String("同巡")])
    term = table(sym)
    assert table(Function("reading_value", [String("解釋.過水"), String("同巡")])) is term
    assert term.name == "reading_value"
    assert [a.string for a in term.arguments] == ["解釋.過水", "同巡"]
    assert term.arguments[0] is table(String("解釋.過水"))
    assert str(term) == str(sym)


def test_shared_is_one_table_until_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terms, "LIMIT", 10)
    monkeypatch.setattr(terms, "_SHARED", [terms.Terms()])
    table = terms.shared()
    kept = table(Number(1))
    assert terms.shared() is table and terms.shared()(Number(1)) is kept
    for n in range(2, 11):
        table(Number(n))
    # Full: the next judgement begins a new table; the one a judgement holds stays whole.
    fresh = terms.shared()
    assert fresh is not table and len(fresh) == 0
    assert table(Number(1)) is kept
