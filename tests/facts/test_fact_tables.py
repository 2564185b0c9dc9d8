"""facts/record.py's tables: each fact's Symbol made once, and what it was made of known by
the Symbol (what the batch engine reads), in tables of a bounded size."""

from __future__ import annotations

import pytest
from clingo import Function, Number, String

from adjudicator.facts import record


def test_a_fact_is_made_once_and_read_back_as_made() -> None:
    first = record.fact("act_tile", 3, 1, 7)
    assert record.fact("act_tile", 3, 1, 7) is first
    assert str(first) == "act_tile(3,1,7)"
    assert record.plain(first) == ("act_tile", (3, 1, 7))


def test_a_symbol_made_elsewhere_is_read_from_clingo_once() -> None:
    sym = Function("param", [Function("open_limit"), Number(12)])
    found = record.plain(sym)
    assert found == ("param", (Function("open_limit"), 12))
    assert record.plain(sym) is found  # remembered, not read again
    named = Function("reading", [String("解釋.海底花牌"), String("可")])
    assert record.plain(named) == ("reading", ("解釋.海底花牌", "可"))


def test_the_tables_are_bounded_and_emptied_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "LIMIT", 50)
    for i in range(500):
        sym = record.fact("wall_stated", i, 10_000 + i)
        assert record.plain(sym) == ("wall_stated", (i, 10_000 + i))
        assert len(record._PLAIN) <= 50 and len(record._MADE) <= 50
    # Forgotten, a fact is made again, the same term.
    assert str(record.fact("wall_stated", 0, 10_000)) == "wall_stated(0,10000)"
