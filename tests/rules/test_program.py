"""rules/program.py keeps exactly the rules a log's facts can fire (on signatures and
body constants); tests/rules/test_engine.py checks over every case that this changes no
ruling."""

from __future__ import annotations

from pathlib import Path

from clingo import Function, Number, String

from adjudicator.rules import program


def _kept(tmp_path: Path, rules: str, facts: list) -> set[str]:
    path = tmp_path / "r.lp"
    path.write_text(rules, encoding="utf-8")
    files = (path,)
    return {r.text for r in program.select(files, program.present(files, facts))}


def test_a_rule_needing_an_absent_constant_or_predicate_is_left_out(tmp_path: Path) -> None:
    rules = ('drew(I) :- act(I, "摸").\n'
             'punged(I) :- act(I, "碰").\n'
             'after(I) :- punged(I).\n'
             'later(I) :- drew(I), not punged(I).\n'
             'odd(I) :- nothing(I).\n')
    kept = _kept(tmp_path, rules, [Function("act", [Number(1), String("摸")])])
    assert kept == {'drew(I) :- act(I,"摸").', "later(I) :- drew(I); not punged(I)."}


def test_a_head_with_a_variable_may_make_any_constant(tmp_path: Path) -> None:
    rules = ('verb(I, V) :- act(I, V).\n'
             'kong(I) :- verb(I, "暗杠").\n')
    kept = _kept(tmp_path, rules, [Function("act", [Number(1), String("摸")])])
    assert len(kept) == 2
