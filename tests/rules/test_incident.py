"""The batch engine's program text (rules/incident.py) is what an AST transform of each
statement gives, rule by rule, and the cache folder only ever saves the work of making it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from clingo import ast

from adjudicator import cache
from adjudicator.rules import incident, multi, program
from adjudicator.rules.engine import chapter_files
from adjudicator.rules.rulesets import profile_names

Signature = tuple[str, int]


# ---------------------------------------------------------------- the reference transform
# The batch engine's transform as it was done on clingo's AST, kept here as the statement
# of what the templates must give.

class _AddIncident(ast.Transformer):
    def __init__(self, dynamic: frozenset[Signature]) -> None:
        self.dynamic = dynamic
        self.touched = False

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:  # noqa: N802 (clingo's name)
        sym = node.symbol
        if sym.ast_type == ast.ASTType.Function and \
                (sym.name, len(sym.arguments)) in self.dynamic:
            self.touched = True
            var = ast.Variable(sym.location, incident.VAR)
            return node.update(symbol=sym.update(arguments=[var, *sym.arguments]))
        return node


def _binds(lit: ast.AST, dynamic: frozenset[Signature]) -> bool:
    if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
        return False
    atom = lit.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return False
    sym = atom.symbol
    return sym.ast_type == ast.ASTType.Function and (
        sym.name == incident.GUARD or (sym.name, len(sym.arguments) - 1) in dynamic)


def _transform(stm: ast.AST, dynamic: frozenset[Signature]) -> ast.AST:
    if stm.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
        if (stm.name, stm.arity) in dynamic:
            return stm.update(arity=stm.arity + 1)
        return stm
    if stm.ast_type != ast.ASTType.Rule:
        return stm
    adder = _AddIncident(dynamic)
    out = adder(stm)
    if not adder.touched or any(_binds(lit, dynamic) for lit in out.body):
        return out if adder.touched else stm
    loc = stm.location
    guard = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
        ast.Function(loc, incident.GUARD, [ast.Variable(loc, incident.VAR)], False)))
    return out.update(body=[guard, *out.body])


def _atoms(node: ast.AST, found: list[Signature]) -> None:
    if node.ast_type == ast.ASTType.SymbolicAtom:
        if node.symbol.ast_type == ast.ASTType.Function:
            found.append((node.symbol.name, len(node.symbol.arguments)))
        return
    for key in node.child_keys:
        child = getattr(node, key)
        for item in [child] if isinstance(child, ast.AST) else child or ():
            _atoms(item, found)


def _cases() -> Iterator[tuple[Path, frozenset[Signature]]]:
    """Each chapter under each dynamic set some profile gives it (with no fact a rule
    derives, and with all of them), once."""
    seen = set()
    for profile in profile_names():
        heads = multi._head_names(profile)
        for seed in (frozenset(), heads):
            dynamic = multi._dynamic_of(profile, seed)
            for path in chapter_files(profile):
                if (path, dynamic) not in seen:
                    seen.add((path, dynamic))
                    yield path, dynamic


def test_the_templates_give_the_ast_transform_statement_by_statement() -> None:
    compared = 0
    for path, dynamic in _cases():
        made = incident.chapter(path)
        statements = program.parsed(path)
        rules = [(i, s) for i, s in enumerate(statements) if s.ast_type == ast.ASTType.Rule]
        assert [t.index for t in made.rules] == [i for i, _ in rules]
        for (_, stm), template in zip(rules, made.rules, strict=True):
            assert template.text(dynamic) == str(_transform(stm, dynamic))
            compared += 1
        others = program.others(path)
        assert [o.transformed(dynamic) for o in made.others] == \
            [str(_transform(s, dynamic)) for s in others]
    assert compared > 1000


def test_a_template_knows_its_head_and_body_atoms() -> None:
    for path in chapter_files("tw16"):
        rules = [s for s in program.parsed(path) if s.ast_type == ast.ASTType.Rule]
        for stm, template in zip(rules, incident.chapter(path).rules, strict=True):
            head: list[Signature] = []
            body: list[Signature] = []
            _atoms(stm.head, head)
            for lit in stm.body:
                _atoms(lit, body)
            assert (template.heads, template.bodies) == (tuple(head), tuple(body))


# ---------------------------------------------------------------- the cache folder





FILES = chapter_files("tw16")[:6]


def test_templates_are_stored_and_read_back_as_made(forget: Callable[[], None], folder: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    made = [incident.chapter(p) for p in FILES]
    assert len(list(folder.glob("incident-*.json"))) == len(FILES)
    forget()

    def no_making(*_: object) -> None:
        raise AssertionError("the cache folder was not read")

    monkeypatch.setattr(incident, "_made", no_making)
    assert [incident.chapter(p) for p in FILES] == made


@pytest.mark.parametrize("damage", [b"\x80 not what was stored {",
                                    b'{"rules": [[1]], "others": 3}',
                                    b'{"rules": [[0, 1, "x", []]], "others": []}'])
def test_a_damaged_entry_is_made_again(forget: Callable[[], None], folder: Path,
                                       damage: bytes) -> None:
    made = [incident.chapter(p) for p in FILES]
    for entry in folder.glob("incident-*.json"):
        entry.write_bytes(damage)
    forget()
    assert [incident.chapter(p) for p in FILES] == made == [incident._made(p) for p in FILES]


def test_without_a_cache_folder_the_templates_are_made(
        forget: Callable[[], None], monkeypatch: pytest.MonkeyPatch) -> None:
    made = [incident.chapter(p) for p in FILES]
    monkeypatch.setenv(cache.ENV, "")
    forget()
    try:
        assert [incident.chapter(p) for p in FILES] == made
    finally:
        monkeypatch.undo()
        forget()
