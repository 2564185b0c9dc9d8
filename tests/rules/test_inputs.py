"""The rules' inputs are declared and match what Python makes (asp/inputs.lp).

Over every case of the corpus: the predicates Python emits (judge.symbols_of, and a caller
scoring one hand) and the predicates the chapters read without deriving them are one set,
the one asp/inputs.lp declares; each is of a declared kind (record, combinatorics, rule
set) and no fact of a judgement names what a chapter concludes; ``#show`` names only what
a chapter derives; clingo's warnings are on.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import clingo
import pytest

from adjudicator.committee.cases import case_settings, find_cases, read_case
from adjudicator.language import tiles
from adjudicator.language.vocabulary import VERBS
from adjudicator.rules import engine
from adjudicator.rules.files import INPUTS_LP, all_chapters
from adjudicator.rules.inputs import KINDS, input_kinds
from adjudicator.rules.rulesets import profile_names, profile_values, rule_set
from adjudicator.rules.signatures import Signature, of_file
from adjudicator.ruling.judge import symbols_of
from adjudicator.ruling.scoring import HAND_FLAGS, WinHand, win_symbols

ROOT = Path(__file__).resolve().parents[2]


@cache
def emitted_strings() -> dict[Signature, frozenset[str]]:
    """Every predicate Python emits over the corpus, with the strings its facts carry."""
    out: dict[Signature, set[str]] = defaultdict(set)

    def take(syms: list[clingo.Symbol]) -> None:
        for s in syms:
            out[(s.name, len(s.arguments))].update(_strings(s))
            if s.name == "win_reading":  # a reading's own facts, wrapped
                inner = s.arguments[2]
                out[(inner.name, len(inner.arguments))].update(_strings(inner))

    for path in find_cases([ROOT / "cases", ROOT / "examples"], ("*.case", "*.log")):
        incident = read_case(path)
        take(symbols_of(incident, case_settings(incident.source) or None))
    # A run's --set: one value for every interpretation point and parameter.
    incident = read_case(ROOT / "cases" / "calls" / "called_and_punged.case")
    take(symbols_of(incident, profile_values("tw16")))
    return {k: frozenset(v) for k, v in out.items()}


def _strings(sym: clingo.Symbol) -> list[str]:
    if sym.type == clingo.SymbolType.String:
        return [sym.string]
    if sym.type == clingo.SymbolType.Function:
        return [t for a in sym.arguments for t in _strings(a)]
    return []


def one_hand() -> frozenset[Signature]:
    """What a caller scoring one hand states (adjudicator score, the desk), every condition
    on: it names them itself (a flower win's kind, 天和 …), where a judgement states the
    record and the chapters name them."""
    flowers = tiles.parse_tiles("春 夏 秋 冬 梅 蘭 竹 菊")
    hand = WinHand(concealed=[], winning_tile=None, flowers=flowers, flower_win="七搶一",
                   robbed_flower=flowers[-1], **dict.fromkeys(HAND_FLAGS, True))
    return frozenset((s.name, len(s.arguments)) for s in win_symbols(1, hand))


def emitted() -> frozenset[Signature]:
    """Every predicate Python emits: over the corpus, and scoring one hand."""
    return frozenset(emitted_strings()) | one_hand()


def _union(attr: str, paths: list[Path]) -> set[Signature]:
    return {s for p in paths for s in getattr(of_file(p), attr)}


def rule_files() -> list[Path]:
    return [p for p in all_chapters() if p != INPUTS_LP]


# A rule that makes a fact of the reading a win rests on from its wrapped copy
# (play/flowers.lp): what it makes is still an input, one Python states.
_UNWRAPS = re.compile(r"^([a-z_]+)\(([^()]*)\) :- win_reading\(W, R, \1\(\2\)\)", re.M)


def unwrapped() -> set[Signature]:
    """The inputs a chapter makes from win_reading/3, by name and arity."""
    return {(name, len(args.split(","))) for p in rule_files()
            for name, args in _UNWRAPS.findall(p.read_text("utf-8"))}


def read_not_derived() -> set[Signature]:
    """What the chapters read and Python states: read and not derived, or unwrapped."""
    return (_union("bodies", rule_files()) - _union("heads", rule_files())) | unwrapped()


def test_python_makes_exactly_what_the_rules_read() -> None:
    read = read_not_derived()
    assert sorted(read - emitted()) == [], "read, but nothing makes it"
    assert sorted(emitted() - read) == [], "made, but no rule reads it"


def test_every_fact_a_reading_wraps_is_unwrapped() -> None:
    # A win with readings on eight flowers states its facts inside win_reading/3 only: a
    # kind no chapter unwraps would never reach the rules.
    wrapped = _wrapped()
    assert ("win_declared", 3) in wrapped and ("score_decomp", 3) in wrapped
    assert sorted(wrapped - unwrapped()) == []
    assert unwrapped() <= of_file(INPUTS_LP).defined  # each one a declared input


@cache
def _wrapped() -> frozenset[Signature]:
    out = set()
    for path in find_cases([ROOT / "cases"], ("*.case",)):
        incident = read_case(path)
        for s in symbols_of(incident, case_settings(incident.source) or None):
            if s.name == "win_reading":
                out.add((s.arguments[2].name, len(s.arguments[2].arguments)))
    return frozenset(out)


def test_inputs_lp_declares_exactly_the_inputs() -> None:
    assert of_file(INPUTS_LP).defined == frozenset(read_not_derived())


def test_every_emitted_fact_is_of_a_declared_kind() -> None:
    kinds = input_kinds()
    assert set(kinds.values()) <= set(KINDS)
    assert sorted(emitted() - set(kinds)) == [], "emitted, but of no declared kind"
    assert {s for s, k in kinds.items() if k == "rule_set"} == {("param", 2), ("reading", 2)}


# What the chapters conclude by name: the rows of a 台 or 番 count and the start shapes.
_CONCLUDES = re.compile(r'^(?:pattern|gd_base|gd_addition|gd_special|gd_min_context|'
                        r'start_shape|start_candidate)\(W, (?:D, )?"([^"]+)"', re.M)

def concluded_names() -> frozenset[str]:
    """The names a chapter concludes, less the record's own words (自摸 is a verb too)."""
    found = {m for p in all_chapters() for m in _CONCLUDES.findall(p.read_text("utf-8"))}
    return frozenset(found - set(VERBS))


def test_no_emitted_fact_names_a_ruling_concept() -> None:
    concepts = concluded_names()
    assert {"天和", "人和首張", "配牌花和", "三暗刻", "平和"} <= concepts
    assert {"搶杠", "八仙過海", "七搶一"} <= concepts
    named = {sig: set(strings & concepts) for sig, strings in emitted_strings().items()}
    assert {sig: found for sig, found in named.items() if found} == {}


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

