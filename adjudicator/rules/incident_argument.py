"""The chapters with an incident argument, for a chunk of logs in one clingo run
(rules/engine.py's ``solve_many``).

The engine grounds many logs in one clingo run.  The chapters stay written for one
incident: every atom of a "dynamic" predicate (one that depends on a log's facts) gets an
incident variable as its first argument, and a rule that mentions one but has no positive
body atom of one to bind it gets the guard ``multi_incident(I)``.  That is a transform on
clingo's AST (``ast.Transformer``), done here.

Walking the AST in Python is most of a fresh worker's setup, so both what the transform
needs and what it makes are kept in the user's cache folder (adjudicator/cache.py), under
a hash of the file and of this module: each chapter's shape (the predicates each rule
derives and reads, for working out the dynamic set), and the chapter transformed for the
dynamic predicates it mentions, as text.  A process parses that text once (clingo, in
C++) and hands the statements to each chunk's Control.

Here too is what a chunk's facts need of the incident argument: the dynamic set, and the
bridge rules that hand each incident's facts to clingo.
"""

from __future__ import annotations

import atexit
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import clingo
from clingo import ast

from adjudicator import cache as disk
from adjudicator.facts import record
from adjudicator.rules import program
from adjudicator.rules.signatures import defined, left_out_signatures

GUARD = "multi_incident"
VAR = "MultiIncident__"

Signature = tuple[str, int]


@dataclass(frozen=True)
class Shape:
    """A rule's predicates: those under its head (conditions too) and those in its body."""

    index: int  # its place among the file's parsed statements (program.Rule.index)
    heads: tuple[Signature, ...]
    bodies: tuple[Signature, ...]


@dataclass(frozen=True)
class Chapter:
    """What the transform needs of a rule file: each rule's shape and what it names."""

    rules: tuple[Shape, ...]  # in file order
    shown: tuple[Signature, ...]  # what the file's #show names (read, never derived)
    mentioned: frozenset[Signature]  # every predicate the transform may touch


@cache
def chapter(path: Path) -> Chapter:
    """The shape of one rule file."""
    data = path.read_bytes()
    name = f"shape-{disk.key(data, clingo.__version__, _own_source())}.json"
    stored = disk.read_json(name)
    if stored is not None:
        try:
            return _loaded(stored)
        except (KeyError, TypeError, ValueError):
            pass  # a damaged entry: work it out again, and store it whole
    made = _shaped(program.parse_bytes(data))
    disk.write_json(name, {"rules": [[r.index, r.heads, r.bodies] for r in made.rules],
                           "shown": made.shown, "mentioned": sorted(made.mentioned)})
    return made


@cache
def _own_source() -> bytes:
    """This module's code: a change to how chapters are transformed misses the cache."""
    return Path(__file__).read_bytes()


def _shaped(statements: tuple[ast.AST, ...]) -> Chapter:
    rules: list[Shape] = []
    shown: list[Signature] = []
    mentioned: set[Signature] = set()
    for index, stm in enumerate(statements):
        kind = stm.ast_type
        if kind == ast.ASTType.Rule:
            heads: list[Signature] = []
            bodies: list[Signature] = []
            _atoms(stm.head, heads)
            for lit in stm.body:
                _atoms(lit, bodies)
            rules.append(Shape(index, tuple(heads), tuple(bodies)))
            mentioned.update(heads, bodies)
        elif kind in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            mentioned.add((stm.name, stm.arity))
            if kind == ast.ASTType.ShowSignature:
                shown.append((stm.name, stm.arity))
    return Chapter(tuple(rules), tuple(shown), frozenset(mentioned))


def _atoms(node: ast.AST, found: list[Signature]) -> None:
    """The predicates of the plain atoms under ``node``, in order."""
    if node.ast_type == ast.ASTType.SymbolicAtom:
        if node.symbol.ast_type == ast.ASTType.Function:
            found.append((node.symbol.name, len(node.symbol.arguments)))
        return
    for key in node.child_keys:
        child = getattr(node, key)
        for item in [child] if isinstance(child, ast.AST) else child or ():
            _atoms(item, found)


def _signature(item: object) -> Signature:
    name, arity = item  # type: ignore[misc]
    if not isinstance(name, str):
        raise TypeError(name)
    return name, int(arity)


def _loaded(stored: dict) -> Chapter:
    rules = tuple(Shape(int(index), tuple(map(_signature, heads)), tuple(map(_signature, bodies)))
                  for index, heads, bodies in stored["rules"])
    return Chapter(rules, tuple(map(_signature, stored["shown"])),
                   frozenset(map(_signature, stored["mentioned"])))


# ------------------------------------------------------------------ the transform


@dataclass(frozen=True)
class Transformed:
    """A file's statements with the incident argument: its rules by their index, and the
    others (#show, #defined …) in file order."""

    rules: dict[int, ast.AST]
    others: tuple[ast.AST, ...]


def transformed(path: Path, dynamic: frozenset[Signature]) -> Transformed:
    """The file's statements for this dynamic set (of which only the predicates the file
    mentions matter: a process parses each file once per such subset)."""
    return _transformed(path, dynamic & chapter(path).mentioned)


@cache
def _transformed(path: Path, mine: frozenset[Signature]) -> Transformed:
    rules, others = _texts(path, mine)
    statements = program.parse_text("\n".join([*(text for _, text in rules), *others]))
    if len(statements) != len(rules) + len(others):
        raise RuntimeError(f"{path}: a transformed statement did not parse as one")
    count = len(rules)
    # The parser hands comments over as statements too: each chunk would add them for nothing.
    others = tuple(s for s in statements[count:] if s.ast_type != ast.ASTType.Comment)
    return Transformed(dict(zip([index for index, _ in rules], statements[:count], strict=True)),
                       others)


# Let the statements go while clingo's library is still there (see program.parsed).
atexit.register(_transformed.cache_clear)


def _texts(path: Path, mine: frozenset[Signature]) -> tuple[list[tuple[int, str]], list[str]]:
    """The transformed rules (index, text) and other statements of a file, from the cache
    folder or made."""
    data = path.read_bytes()
    made_from = [data, clingo.__version__, _own_source(),
                 *(f"{n}/{a}" for n, a in sorted(mine))]
    name = f"transformed-{disk.key(*made_from)}.json"
    stored = disk.read_json(name)
    if isinstance(stored, dict):
        try:
            rules = [(int(index), _text(text)) for index, text in stored["rules"]]
            return rules, [_text(text) for text in stored["others"]]
        except (KeyError, TypeError, ValueError):
            pass  # a damaged entry: work it out again, and store it whole
    rules, others = [], []
    for index, stm in enumerate(program.parse_bytes(data)):
        kind = stm.ast_type
        if kind == ast.ASTType.Rule:
            rules.append((index, str(_rule(stm, mine))))
        elif kind in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            shown = (stm.name, stm.arity) in mine
            others.append(str(stm.update(arity=stm.arity + 1) if shown else stm))
        elif kind != ast.ASTType.Program:
            others.append(str(stm))
    disk.write_json(name, {"rules": rules, "others": others})
    return rules, others


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


class _AddIncident(ast.Transformer):
    """Puts the incident variable first among the arguments of every dynamic atom."""

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


def _rule(stm: ast.AST, dynamic: frozenset[Signature]) -> ast.AST:
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
    """A positive body literal of a dynamic atom (its incident argument added): it binds
    the incident variable, so the rule needs no guard."""
    if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
        return False
    atom = lit.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return False
    sym = atom.symbol
    return sym.ast_type == ast.ASTType.Function and \
        (sym.name, len(sym.arguments) - 1) in dynamic


# ------------------------------------------------------------------ the dynamic set


def _shapes(every: tuple[Path, ...]) -> list[Shape]:
    return [r for path in every for r in chapter(path).rules]


def _dynamic(rules: Sequence[Shape], shown: set[Signature],
             seed: frozenset[Signature]) -> frozenset[Signature]:
    """Predicates that depend on a log's facts: the seed, what rules read (or #show shows)
    but never derive, and what any rule derives from those."""
    heads: set[Signature] = set()
    read: set[Signature] = set(shown)  # shown but never derived: a fact of the log
    shapes = [(rule.heads, rule.bodies) for rule in rules]
    for head, body in shapes:
        heads.update(head)
        read.update(body)
    dynamic = set(seed) | (read - heads)
    changed = True
    while changed:
        changed = False
        for head, body in shapes:
            if any(b in dynamic for b in body) and not all(h in dynamic for h in head):
                dynamic.update(head)
                changed = True
    return frozenset(dynamic)


@cache
def dynamic_of(every: tuple[Path, ...], seed: frozenset[str]) -> frozenset[Signature]:
    """The dynamic predicates of the chapters ``every``, given the fact names ``seed`` that
    rules also derive."""
    rules = _shapes(every)
    shown = {sig for path in every for sig in chapter(path).shown}
    heads = {h for rule in rules for h in rule.heads}
    return _dynamic(rules, shown, frozenset(h for h in heads if h[0] in seed))


@cache
def head_names(every: tuple[Path, ...]) -> frozenset[str]:
    return frozenset(n for rule in _shapes(every) for n, _ in rule.heads)


class Seed:
    """Names of facts seen in this process that rules also derive (most fact predicates
    no rule derives, and are dynamic anyway).  It only grows, so the program changes only
    when a log brings such a fact no earlier log had."""

    names: frozenset[str] = frozenset()


def seeded(every: tuple[Path, ...], taken: Sequence[Sequence[record.Plain]]
           ) -> frozenset[Signature]:
    """The dynamic set for a chunk of these facts (growing the process's ``Seed``)."""
    heads = head_names(every)
    present = {name for group in taken for name, _ in group if name in heads}
    if not present <= Seed.names:
        Seed.names = Seed.names | present
    return dynamic_of(every, Seed.names)


@cache
def declared(every: tuple[Path, ...], dynamic: frozenset[Signature]) -> tuple[ast.AST, ...]:
    """``#defined`` for everything the chapters derive or declare, with the incident
    argument: a rule left out leaves its head read but never made."""
    missing = left_out_signatures([], every)
    return program.parse_text(defined([(n, a + 1) if (n, a) in dynamic else (n, a)
                                       for n, a in missing]))


# ------------------------------------------------------------------ the chunk's facts


# A chunk's facts reach clingo as the Symbols the logs' facts already are (facts/record.py
# makes each once per process), handed over by a context function while grounding, one
# list per incident and predicate; a rule per predicate gives each its incident argument:
#   act(I, A, B, C, D) :- multi_incident(I), act(A, B, C, D) = @facts(I, "act", 4).
# Giving every fact its incident argument in Python would make each a new Symbol, a
# call into clingo per fact.
FACTS = "facts"


@cache
def _bridge(name: str, arity: int) -> tuple[ast.AST, ...]:
    args = [f"{VAR}{k}" for k in range(arity)]
    guard = f"{GUARD}({VAR})"
    if arity:
        body = f'{name}({", ".join(args)}) = @{FACTS}({VAR}, "{name}", {arity})'
        head = f'{name}({VAR}, {", ".join(args)})'
    else:
        body = f'1 = @{FACTS}({VAR}, "{name}", 0)'
        head = f"{name}({VAR})"
    return program.parse_text(f"{head} :- {guard}, {body}.")


def bridges(taken: Sequence[Sequence[record.Plain]]) -> list[ast.AST]:
    """The bridge rules for every predicate among these facts."""
    signatures = {(name, len(args)) for group in taken for name, args in group}
    return [stm for name, arity in sorted(signatures) for stm in _bridge(name, arity)]


class Facts:
    """The context clingo grounds a chunk in: each incident's facts of one predicate."""

    def __init__(self, facts: Sequence[Sequence[clingo.Symbol]],
                 taken: Sequence[Sequence[record.Plain]]) -> None:
        self.by: dict[tuple[int, str, int], list[clingo.Symbol]] = defaultdict(list)
        for i, (symbols, plain) in enumerate(zip(facts, taken, strict=True)):
            for sym, (name, args) in zip(symbols, plain, strict=True):
                self.by[(i, name, len(args))].append(sym)

    def facts(self, incident: clingo.Symbol, name: clingo.Symbol,
              arity: clingo.Symbol) -> list[clingo.Symbol]:
        found = self.by.get((incident.number, name.string, arity.number), [])
        return [_ONE] if found and not arity.number else found


_ONE = clingo.Number(1)


def guard(i: int) -> clingo.Symbol:
    """The fact that incident ``i`` is one of the chunk's."""
    return clingo.Function(GUARD, [clingo.Number(i)])


def _clear() -> None:
    """Let the statements go while clingo's library is still there (program.parsed)."""
    declared.cache_clear()
    _bridge.cache_clear()


atexit.register(_clear)
