"""What each rule file derives and reads: predicate signatures from clingo's parser.

The engine declares (``#defined``) what the chapters it leaves out would have derived, so
that clingo's warnings stay on and speak only of real gaps; tests/rules/test_inputs.py
checks the rules' inputs against the facts Python makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import clingo
from clingo import SymbolType

from adjudicator import cache as disk

# clingo.ast is imported where a file is parsed: from a warm cache a judgement needs none
# of it.
if TYPE_CHECKING:
    from clingo import ast

Signature = tuple[str, int]


@dataclass(frozen=True)
class Signatures:
    """The predicates a rule file derives, reads and declares."""

    heads: frozenset[Signature]  # derived (heads of rules, facts)
    bodies: frozenset[Signature]  # read (bodies, aggregate and head conditions)
    shown: frozenset[Signature]  # #show name/arity
    defined: frozenset[Signature]  # #defined name/arity


def _atoms(node: object, found: set[Signature]) -> None:
    from clingo import ast
    if isinstance(node, ast.AST):
        if node.ast_type == ast.ASTType.SymbolicAtom:
            term = node.symbol
            if term.ast_type == ast.ASTType.Function:
                found.add((term.name, len(term.arguments)))
            elif (term.ast_type == ast.ASTType.SymbolicTerm
                  and term.symbol.type == SymbolType.Function):
                found.add((term.symbol.name, len(term.symbol.arguments)))
            return
        for key in node.child_keys:
            _atoms(getattr(node, key), found)
    elif isinstance(node, (list, tuple)) or type(node).__name__ == "ASTSequence":
        for item in node:  # type: ignore[attr-defined]
            _atoms(item, found)


def _head_atoms(head: ast.AST, heads: set[Signature], bodies: set[Signature]) -> None:
    """A head's atoms are derived; the conditions of its elements are read."""
    from clingo import ast
    if head.ast_type in (ast.ASTType.Aggregate, ast.ASTType.HeadAggregate,
                         ast.ASTType.Disjunction):
        elements = head.elements
        for element in elements:
            literal = getattr(element, "literal", None) or element.condition.literal
            _atoms(literal, heads)
            _atoms(element.condition.condition
                   if hasattr(element.condition, "condition") else element.condition, bodies)
        return
    _atoms(head, heads)


@cache
def of_file(path: Path) -> Signatures:
    """The file's signatures, remembered in the user's cache folder by its content:
    walking clingo's AST of every chapter would be the largest part of a cold
    ``adjudicator judge``."""
    name = f"signatures-{disk.key(path.read_bytes(), clingo.__version__, _VERSION)}.json"
    found = disk.read_json(name)
    try:
        return Signatures(*(frozenset((str(n), int(a)) for n, a in found[k])
                            for k in _FIELDS))
    except (KeyError, TypeError, ValueError):
        pass  # missing or damaged: parse again, and store it whole
    made = _parsed(path)
    disk.write_json(name, {k: sorted(getattr(made, k)) for k in _FIELDS})
    return made


_FIELDS = ("heads", "bodies", "shown", "defined")
# Raise when what _parsed finds changes: entries of the old meaning then miss.
_VERSION = "2"


def _parsed(path: Path) -> Signatures:
    from clingo import ast
    heads: set[Signature] = set()
    bodies: set[Signature] = set()
    shown: set[Signature] = set()
    defined: set[Signature] = set()

    def take(statement: ast.AST) -> None:
        kind = statement.ast_type
        if kind == ast.ASTType.Rule:
            _head_atoms(statement.head, heads, bodies)
            _atoms(statement.body, bodies)
        elif kind == ast.ASTType.ShowSignature:
            shown.add((statement.name, statement.arity))
        elif kind == ast.ASTType.Defined:
            defined.add((statement.name, statement.arity))

    ast.parse_files([str(path)], take)
    return Signatures(frozenset(heads), frozenset(bodies), frozenset(shown), frozenset(defined))


def derived(paths: tuple[Path, ...] | list[Path]) -> set[Signature]:
    return {s for p in paths for s in of_file(p).heads}


def left_out(loaded: list[Path], every: tuple[Path, ...]) -> str:
    """``#defined`` lines for what the files not loaded would derive or declare (a loaded
    chapter may read a form of it, liable(_, _, kong_tile, _), that only a left-out one
    makes)."""
    return defined(left_out_signatures(loaded, every))


def left_out_signatures(loaded: list[Path], every: tuple[Path, ...]) -> list[Signature]:
    """What the files of ``every`` not loaded derive or declare, sorted."""
    rest = sorted(set(every) - set(loaded))
    return sorted(derived(rest) | {s for p in rest for s in of_file(p).defined})


def defined(signatures: list[Signature]) -> str:
    return "".join(f"#defined {name}/{arity}.\n" for name, arity in signatures)
