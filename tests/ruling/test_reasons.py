"""Every reason term a rule can emit has words (adjudicator/ruling/reasons/)."""

from __future__ import annotations

import pytest
from clingo import ast

from adjudicator.rules.files import all_chapters
from adjudicator.ruling.reasons import ASSUMPTIONS, TEMPLATES
from adjudicator.ruling.reasons.words import CHOOSERS, Template, merge

# Head predicate → the argument places that hold a reason judge.py or undetermined.py
# renders (finding_why's Why, a premise and its conclusion, a void or false win's Why,
# an open fact's term).
REASON_PLACES = {("finding_why", 4): (3,), ("why_premise", 2): (0, 1), ("win_void", 2): (1,),
                 ("false_win", 3): (2,), ("open_fact", 2): (1,), ("why_clause", 2): (0,),
                 ("win_invalid", 3): (2,)}
# Functors that are plain constants rendered as themselves nowhere: none may be missing.
WRAPPERS = {"as"}  # as(Seat, Why): Why about another player (reasons.render)


def _functors(term: ast.AST, out: set[str]) -> None:
    if term.ast_type == ast.ASTType.Function and term.name and term.name not in WRAPPERS:
        out.add(term.name)
    elif term.ast_type == ast.ASTType.Function and term.name in WRAPPERS:
        _functors(term.arguments[1], out)
    elif term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type.name == "Function" \
            and term.symbol.name:
        out.add(term.symbol.name)


def emitted_reasons() -> dict[str, str]:
    """Each reason functor found in a rule head, with a file that emits it."""
    found: dict[str, str] = {}

    def take(path: str, statement: ast.AST) -> None:
        if statement.ast_type != ast.ASTType.Rule:
            return
        head = statement.head
        if head.ast_type != ast.ASTType.Literal or \
                head.atom.ast_type != ast.ASTType.SymbolicAtom:
            return
        term = head.atom.symbol
        if term.ast_type != ast.ASTType.Function:
            return
        for place in REASON_PLACES.get((term.name, len(term.arguments)), ()):
            names: set[str] = set()
            _functors(term.arguments[place], names)
            for name in names:
                found.setdefault(name, path)

    for path in all_chapters():
        ast.parse_files([str(path)], lambda s, p=path.name: take(p, s))
    return found


def test_the_corpus_of_reasons_is_found() -> None:
    found = emitted_reasons()
    assert {"called_not_punged", "incomplete", "passed", "hand_not_recorded"} <= set(found)


@pytest.mark.parametrize("name", sorted(emitted_reasons()))
def test_every_reason_a_rule_emits_has_words(name: str) -> None:
    assert name in TEMPLATES, f"{name} ({emitted_reasons()[name]}) has no words"


def test_every_choice_of_open_facts_has_words() -> None:
    choices: set[str] = set()

    def take(statement: ast.AST) -> None:
        if statement.ast_type == ast.ASTType.Rule and \
                statement.head.ast_type == ast.ASTType.Literal:
            term = statement.head.atom.symbol
            if term.ast_type == ast.ASTType.Function and term.name == "open_choice":
                _functors(term.arguments[2], choices)

    for path in all_chapters():
        ast.parse_files([str(path)], take)
    assert choices and sorted(choices - set(ASSUMPTIONS)) == []


def test_a_reason_given_words_twice_is_an_error() -> None:
    words = {"incomplete": TEMPLATES["incomplete"]}
    with pytest.raises(ValueError, match="incomplete"):
        merge([TEMPLATES, words])


def test_a_wording_with_an_unknown_reading_is_an_error() -> None:
    with pytest.raises(ValueError, match="no reading or table"):
        Template.parse("{0:colour}", {}, "test")
    with pytest.raises(ValueError, match="not {seat} or {N}"):
        Template.parse("{who}", {}, "test")


def test_every_chooser_picks_among_wordings_of_a_reason_the_words_have() -> None:
    assert sorted(n for n in CHOOSERS if len(TEMPLATES[n].by_variant) < 2) == []
