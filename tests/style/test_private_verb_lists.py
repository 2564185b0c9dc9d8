"""No chapter and no module keeps a list of verbs of its own: what a verb is (a move, a
draw, a claim …) is declared once, in the verb table (adjudicator/language/vocabulary.py),
and read as ``verb_class(Property, Verb)`` in asp/ or ``VERB_CLASSES[...]`` in Python.

A chapter may name one verb it is about (``act(I, _, S, "補花")``); what fails here is a
set: two or more facts of one predicate, each naming one verb, in asp/; a tuple, set or
list literal of two or more verbs in Python outside the vocabulary.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from clingo import SymbolType
from clingo import ast as cast

from adjudicator.language.vocabulary import VERBS
from adjudicator.rules.files import ASP

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "adjudicator"

# Sets whose words are the same as verbs but mean something else, and why.
NOT_VERBS = {
    # The contexts of a win that drop 門清 (天聽 地聽 天和 地和): scoring's words for a hand.
    ("settlement/scoring.lp", "sc_drops_menqing"),
}
NOT_VERB_MODULES = {
    # 國標's fans: 明杠 and 暗杠 there are the names of fans, not acts.
    "ruling/mcr_fans.py",
}


def _one_string_facts(path: Path) -> dict[str, set[str]]:
    """Each predicate's facts ``p("word").`` of the file, by predicate name."""
    found: dict[str, set[str]] = defaultdict(set)

    def take(stm: cast.AST) -> None:
        if stm.ast_type != cast.ASTType.Rule or stm.body:
            return
        atom = getattr(stm.head, "atom", None)
        term = getattr(atom, "symbol", None)
        if term is None:
            return
        if term.ast_type == cast.ASTType.SymbolicTerm \
                and term.symbol.type == SymbolType.Function and len(term.symbol.arguments) == 1:
            arg = term.symbol.arguments[0]
            if arg.type == SymbolType.String:
                found[term.symbol.name].add(arg.string)
        elif term.ast_type == cast.ASTType.Function and len(term.arguments) == 1:
            arg = term.arguments[0]
            if arg.ast_type == cast.ASTType.SymbolicTerm and arg.symbol.type == SymbolType.String:
                found[term.name].add(arg.symbol.string)

    cast.parse_files([str(path)], take)
    return found


def test_no_chapter_lists_verbs_of_its_own() -> None:
    verbs = set(VERBS)
    private = []
    for path in sorted(ASP.rglob("*.lp")):
        if path.name == "verb_class.lp":
            continue
        rel = path.relative_to(ASP).as_posix()
        for name, words in _one_string_facts(path).items():
            if len(words & verbs) >= 2 and (rel, name) not in NOT_VERBS:
                private.append(f"{rel}: {name} {sorted(words & verbs)}")
    assert not private, "read verb_class(Property, V) instead: " + "; ".join(private)


def _is_literal_type(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` is the argument of a ``Literal[...]`` annotation (a type, not a list)."""
    parent = parents.get(node)
    return isinstance(parent, ast.Subscript) and getattr(parent.value, "id", "") == "Literal"


def _verb_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    verbs = set(VERBS)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.Set, ast.List)) and not _is_literal_type(node, parents):
            named = [e.value for e in node.elts
                     if isinstance(e, ast.Constant) and e.value in verbs]
            if len(named) >= 2:
                out.append(f"line {node.lineno}: {named}")
    return out


def test_no_module_lists_verbs_of_its_own() -> None:
    private = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ("language/vocabulary.py", *NOT_VERB_MODULES):
            continue
        private += [f"{rel} {hit}" for hit in _verb_literals(path)]
    assert not private, "read VERB_CLASSES[...] instead: " + "; ".join(private)


def test_the_checks_would_find_a_private_list(tmp_path: Path) -> None:
    chapter = tmp_path / "x.lp"
    chapter.write_text('mine("摸"). mine("補").\nx(I) :- act(I, _, _, V), mine(V).\n',
                       encoding="utf-8")
    assert _one_string_facts(chapter)["mine"] == {"摸", "補"}
    module = tmp_path / "x.py"
    module.write_text('DRAWS = ("摸", "補")\nK = Literal["吃", "碰"]\n', encoding="utf-8")
    assert _verb_literals(module) == ["line 1: ['摸', '補']"]
