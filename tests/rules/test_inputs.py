"""The rules' inputs are declared and match what Python makes (asp/inputs.lp).

Over every case of the corpus: the predicates Python emits (judge.symbols_of) and the
predicates the chapters read without deriving them are one set, the one asp/inputs.lp
declares; ``#show`` names only what a chapter derives; clingo's warnings are on.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from adjudicator.committee.cases import case_settings, find_cases, read_case
from adjudicator.rules import engine
from adjudicator.rules.files import INPUTS_LP, all_chapters
from adjudicator.rules.rulesets import profile_names, profile_values, rule_set
from adjudicator.rules.signatures import Signature, of_file
from adjudicator.ruling.judge import symbols_of

ROOT = Path(__file__).resolve().parents[2]


@cache
def emitted() -> frozenset[Signature]:
    out: set[Signature] = set()
    for path in find_cases([ROOT / "cases", ROOT / "examples"], ("*.case", "*.log")):
        incident = read_case(path)
        syms = symbols_of(incident, case_settings(incident.source) or None)
        out |= {(s.name, len(s.arguments)) for s in syms}
    # A run's --set: one value for every interpretation point and parameter.
    incident = read_case(ROOT / "cases" / "calls" / "called_and_punged.case")
    out |= {(s.name, len(s.arguments)) for s in symbols_of(incident, profile_values("tw16"))}
    return frozenset(out)


def _union(attr: str, paths: list[Path]) -> set[Signature]:
    return {s for p in paths for s in getattr(of_file(p), attr)}


def rule_files() -> list[Path]:
    return [p for p in all_chapters() if p != INPUTS_LP]


def read_not_derived() -> set[Signature]:
    return _union("bodies", rule_files()) - _union("heads", rule_files())


def test_python_makes_exactly_what_the_rules_read() -> None:
    read = read_not_derived()
    assert sorted(read - emitted()) == [], "read, but nothing makes it"
    assert sorted(emitted() - read) == [], "made, but no rule reads it"


def test_inputs_lp_declares_exactly_the_inputs() -> None:
    assert of_file(INPUTS_LP).defined == frozenset(read_not_derived())


def test_a_rule_set_makes_one_param_or_reading_per_value() -> None:
    for profile in profile_names():
        rules = rule_set(profile)
        facts = rules.facts()
        assert {(s.name, len(s.arguments)) for s in facts} == {("param", 2), ("reading", 2)}
        assert len(facts) == len(profile_values(profile)) == len(rules.values)


def test_show_names_only_derived_predicates() -> None:
    shown = _union("shown", rule_files())
    assert shown, "the rules show nothing"
    assert sorted(shown - _union("heads", rule_files())) == []
    assert not shown & _union("defined", [INPUTS_LP])


def test_a_rule_reading_what_nothing_makes_fails_the_judgement(tmp_path: Path) -> None:
    # Warnings are on: a chapter that reads an undeclared, underived predicate is an error.
    stray = tmp_path / "stray.lp"
    stray.write_text("stray_conclusion :- nothing_makes_this(1).\n", encoding="utf-8")
    files = [*engine.chapter_files("tw16"), stray]
    with pytest.raises(engine.EngineError, match="nothing_makes_this"):
        engine.solve([], "tw16", files)

