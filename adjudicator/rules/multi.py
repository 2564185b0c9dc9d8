"""Many incidents in one clingo run: the chapters, written for one incident, are given an
incident argument at load time.

Grounding the chapters costs a fixed ~100 ms whatever the log (most of a judgement); paid
once for a chunk of logs it almost vanishes.  The chapters stay written for one incident:
an AST transform adds an incident variable as the first argument of every predicate that
depends on a log's facts ("dynamic"), and a guard ``multi_incident(I)`` to every rule that
mentions one.  Predicates that depend on nothing a log brings (tile tables, the profile's
readings) stay as they are and are grounded once for all.

The answer set of the whole chunk is split back by that argument.  A log whose record
leaves facts open (asp/open.lp's choices) needs several solver calls of its own and goes
the single-log path (engine.solve_open); so does every log of a chunk that has no answer
set together, so that one broken log cannot take the others with it.
tests/batch/test_batch.py checks over the case corpus that the rulings are the single
path's, ruling for ruling.
"""

from __future__ import annotations

import atexit
from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

import clingo
from clingo import ast

from adjudicator.facts import record
from adjudicator.rules import program
from adjudicator.rules.engine import (
    SIGNAL_ARGS,
    Answer,
    Warnings,
    chapter_files,
    declared,
    reachable,
)

GUARD = "multi_incident"
VAR = "MultiIncident__"

Signature = tuple[str, int]


_parsed = program.parsed  # one parse per process, shared with the single-log engine


def _statements(profile: str) -> list[ast.AST]:
    return [stm for path in chapter_files(profile) for stm in _parsed(path)]


def _atoms(node: ast.AST, found: list[Signature]) -> None:
    """The signatures of the symbolic atoms under ``node``."""
    if node.ast_type == ast.ASTType.SymbolicAtom:
        sym = node.symbol
        if sym.ast_type == ast.ASTType.Function:
            found.append((sym.name, len(sym.arguments)))
        return
    for key in node.child_keys:
        child = getattr(node, key)
        if child is None:
            continue
        if isinstance(child, ast.AST):
            _atoms(child, found)
        else:
            for item in child:
                _atoms(item, found)


Shape = tuple[tuple[Signature, ...], tuple[Signature, ...]]
_SHAPES: dict[int, Shape] = {}


def _shape(stm: ast.AST) -> Shape:
    """The signatures of a rule's head atoms and body atoms, read once per process (each
    read of a clingo AST node is a call into clingo); the statements stay alive in
    program.parsed's cache, so their id is theirs."""
    found = _SHAPES.get(id(stm))
    if found is None:
        head: list[Signature] = []
        body: list[Signature] = []
        _atoms(stm.head, head)
        for lit in stm.body:
            _atoms(lit, body)
        found = _SHAPES[id(stm)] = (tuple(head), tuple(body))
    return found


def _dynamic(statements: Sequence[ast.AST], seed: frozenset[Signature]) -> frozenset[Signature]:
    """Predicates that depend on a log's facts: the seed, what rules read (or #show shows)
    but never derive, and what any rule derives from those."""
    rules: list[Shape] = []
    heads: set[Signature] = set()
    read: set[Signature] = set()
    for stm in statements:
        if stm.ast_type == ast.ASTType.ShowSignature:
            read.add((stm.name, stm.arity))  # shown but never derived: a fact of the log
        if stm.ast_type != ast.ASTType.Rule:
            continue
        head, body = _shape(stm)
        rules.append((head, body))
        heads.update(head)
        read.update(body)
    dynamic = set(seed) | (read - heads)
    changed = True
    while changed:
        changed = False
        for head, body in rules:
            if any(b in dynamic for b in body) and not all(h in dynamic for h in head):
                dynamic.update(head)
                changed = True
    return frozenset(dynamic)


class _AddIncident(ast.Transformer):
    def __init__(self, dynamic: frozenset[Signature]) -> None:
        self.dynamic = dynamic
        self.touched = False

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:  # noqa: N802 (clingo's name)
        sym = node.symbol
        if sym.ast_type == ast.ASTType.Function and \
                (sym.name, len(sym.arguments)) in self.dynamic:
            self.touched = True
            var = ast.Variable(sym.location, VAR)
            return node.update(symbol=sym.update(arguments=[var, *sym.arguments]))
        return node


def _transform(stm: ast.AST, dynamic: frozenset[Signature]) -> ast.AST:
    if stm.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
        if (stm.name, stm.arity) in dynamic:
            return stm.update(arity=stm.arity + 1)
        return stm
    if stm.ast_type != ast.ASTType.Rule:
        return stm
    adder = _AddIncident(dynamic)
    out = adder(stm)
    if not adder.touched:
        return stm
    if any(_binds(lit, dynamic) for lit in out.body):
        return out
    loc = stm.location
    guard = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
        ast.Function(loc, GUARD, [ast.Variable(loc, VAR)], False)))
    return out.update(body=[guard, *out.body])


def _binds(lit: ast.AST, dynamic: frozenset[Signature]) -> bool:
    """A positive body atom of a dynamic predicate: it binds the incident variable, so
    the rule needs no guard (a guard first in the body would make clingo join each
    incident against static tables before it looks at the incident's own facts)."""
    if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
        return False
    atom = lit.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return False
    sym = atom.symbol
    return sym.ast_type == ast.ASTType.Function and sym.name == GUARD or \
        sym.ast_type == ast.ASTType.Function and (sym.name, len(sym.arguments) - 1) in dynamic


@cache
def _dynamic_of(profile: str, seed: frozenset[str]) -> frozenset[Signature]:
    statements = _statements(profile)
    heads = {h for stm in statements if stm.ast_type == ast.ASTType.Rule
             for h in _shape(stm)[0]}
    return _dynamic(statements, frozenset(h for h in heads if h[0] in seed))


# The transformed statements are handed to clingo as ASTs, made once per process: for a
# chunk of 16 logs that costs clingo some 4 times fewer instructions than parsing their text.
@cache
def _file_statements(path: Path, dynamic: frozenset[Signature]) -> tuple[ast.AST, ...]:
    """A file's transformed statements other than rules."""
    return tuple(_transform(s, dynamic) for s in program.others(path))


_RULES: dict[tuple[int, frozenset[Signature]], ast.AST] = {}


def _rule_statement(rule: program.Rule, dynamic: frozenset[Signature]) -> ast.AST:
    """The rule transformed.  It depends only on which of its own atoms are dynamic, so
    when the dynamic set grows (Seed) only the rules it touches are transformed again."""
    head, body = _shape(rule.statement)
    key = (id(rule.statement), dynamic.intersection(head, body))
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = _transform(rule.statement, dynamic)
    return found


@cache
def _head_names(profile: str) -> frozenset[str]:
    names: set[str] = set()
    for stm in _statements(profile):
        if stm.ast_type == ast.ASTType.Rule:
            names.update(n for n, _ in _shape(stm)[0])
    return frozenset(names)


class Seed:
    """Names of facts seen in this process that rules also derive (most fact predicates
    no rule derives, and are dynamic anyway).  It only grows, so the program changes only
    when a log brings such a fact no earlier log had."""

    names: frozenset[str] = frozenset()


class _Seen(NamedTuple):
    """A fact as rules/program.py's ``present`` reads it: its name and its arguments'
    clingo text (all it compares), made without a call into clingo."""

    name: str
    arguments: tuple[str, ...]


@cache
def _text(value: record.Value) -> str:
    """A fact argument as clingo writes it (for comparing with a rule's constants only:
    facts reach clingo as Symbols)."""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
        return f'"{escaped}"'
    return str(value)


def _signals(name: str, args: tuple[record.Value, ...]) -> tuple[str, ...]:
    """engine.signals of one fact, read from the values it was made of (the engine reads
    them from clingo, a call per name and argument)."""
    if name in SIGNAL_ARGS:
        at, kind = SIGNAL_ARGS[name]
        return (f"fact:{name}", f"{kind}:{args[at]}")
    return (f"fact:{name}",)


@cache
def _declared(profile: str, dynamic: frozenset[Signature]) -> tuple[ast.AST, ...]:
    """The engine's ``#defined`` for everything the chapters derive or declare, with the
    incident argument: a rule left out leaves its head read but never made."""
    return tuple(_transform(s, dynamic)
                 for s in program.parse_text(declared(tuple(chapter_files(profile)))))


def _clear() -> None:
    """Let the statements go while clingo's library is still there (program.parsed)."""
    _file_statements.cache_clear()
    _declared.cache_clear()
    _RULES.clear()


atexit.register(_clear)


def solve_many(facts: Sequence[Sequence[clingo.Symbol]], profile: str) -> list[Answer | None]:
    """Each incident's answer, or ``None`` where it must go the single-log path.

    ``EngineError`` if clingo warns (as the single-log engine does): the caller then
    judges each log alone, where the warning is that log's error.
    """
    if not facts:
        return []
    heads = _head_names(profile)
    taken = [[record.plain(sym) for sym in group] for group in facts]
    present: set[str] = set()
    reach: set[str] = set()
    for group in taken:
        for name, args in group:
            reach.update(_signals(name, args))
            if name in heads:
                present.add(name)
    if not present <= Seed.names:
        Seed.names = Seed.names | present
    dynamic = _dynamic_of(profile, Seed.names)
    every = chapter_files(profile)
    # Of the chapters the chunk can reach, only the rules its facts can fire (program.py).
    chosen = tuple(reachable(every, reach))
    seen = program.Present()
    for group in taken:
        program.present(chosen, [_Seen(name, tuple(map(_text, args)))  # type: ignore[misc]
                                 for name, args in group], seen)
    kept = program.select(chosen, seen)
    warnings = Warnings()
    ctl = clingo.Control(logger=warnings)
    with ast.ProgramBuilder(ctl) as builder:
        add = builder.add
        for path in chosen:
            for stm in _file_statements(path, dynamic):
                add(stm)
        for rule in kept:
            add(_rule_statement(rule, dynamic))
        for stm in _declared(profile, dynamic):
            add(stm)
    term, make = record.term, clingo.Function
    with ctl.backend() as backend:
        atom, rule = backend.add_atom, backend.add_rule
        for i, group in enumerate(taken):
            number = term(i)
            rule([atom(make(GUARD, [number]))])
            for name, args in group:
                # Made afresh, not through record.fact's cache: with the incident first,
                # most facts of a chunk are new to the process.
                rule([atom(make(name, [number, *map(term, args)]))])
    ctl.ground([("base", [])])
    warnings.check()
    open_ones = {a.symbol.arguments[0].number
                 for a in ctl.symbolic_atoms.by_signature("open_choice", 4)}
    models: list[list[clingo.Symbol]] = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    if not models:
        return [None] * len(facts)
    shared: list[clingo.Symbol] = []
    mine: dict[int, list[clingo.Symbol]] = defaultdict(list)
    for atom_ in models[-1]:
        if (atom_.name, len(atom_.arguments) - 1) in dynamic:
            args = atom_.arguments
            mine[args[0].number].append(clingo.Function(atom_.name, args[1:]))
        else:
            shared.append(atom_)
    out: list[Answer | None] = []
    for i in range(len(facts)):
        if i in open_ones:
            out.append(None)
        else:
            atoms = mine.get(i, []) + shared
            out.append(Answer(atoms, atoms))
    return out
