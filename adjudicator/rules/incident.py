"""The chapters with an incident argument, as text (for rules/multi.py's batch engine).

The batch engine gives every atom of a "dynamic" predicate (one that depends on a log's
facts) an incident variable as its first argument, and a guard ``multi_incident(I)`` to a
rule that mentions one but has no positive body atom to bind it.  Doing that with clingo's
AST Transformer costs thousands of calls into clingo a file, in every process, again each
time the dynamic set grows; it was most of a fresh worker's setup.

Instead each rule is transformed once, with a marker variable as the first argument of
*every* atom, and kept as text: a template.  The rule for a given dynamic set is then
plain string work — each marker becomes the incident variable where its atom is dynamic
and goes away where it is not — and clingo parses the result in C++.  A template depends
only on the file and on this module, so it is kept in the user's cache folder
(adjudicator/cache.py) under a hash of both, as rules/program.py keeps its analysis: a
new worker process reads a JSON file and never builds an AST in Python.

tests/rules/test_incident.py checks, rule by rule over every profile, that the text made
here is what the AST transform makes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import clingo
from clingo import ast

from adjudicator import cache as disk
from adjudicator.rules import program

GUARD = "multi_incident"
VAR = "MultiIncident__"
MARK = "MultiMark__"
_MARKED = re.compile(rf"\({MARK}(\d+)([,)])")

Signature = tuple[str, int]

# Where a marked atom stands: in the head (any atom under it, conditions too, as the
# dynamic analysis has always counted them), in the body, or as a plain positive body
# atom (which binds the incident variable, so the rule needs no guard).
HEAD, BODY, BINDS = 0, 1, 2


@dataclass(frozen=True)
class Template:
    """A rule with a marker as first argument of each atom, and the atoms marked."""

    index: int  # its place among the file's parsed statements (program.Rule.index)
    marked: str  # the rule's text, markers in place
    guarded: str  # the same with the guard first in the body
    atoms: tuple[tuple[Signature, int], ...]  # marker k's signature and place (HEAD …)

    @cached_property
    def heads(self) -> tuple[Signature, ...]:
        return tuple(s for s, p in self.atoms if p == HEAD)

    @cached_property
    def bodies(self) -> tuple[Signature, ...]:
        return tuple(s for s, p in self.atoms if p != HEAD)

    def text(self, dynamic: frozenset[Signature]) -> str:
        """The rule for this dynamic set."""
        incident = [sig in dynamic for sig, _ in self.atoms]
        binds = any(d and p == BINDS for d, (_, p) in zip(incident, self.atoms, strict=True))
        source = self.guarded if any(incident) and not binds else self.marked

        def put(found: re.Match[str]) -> str:
            end = found.group(2)
            if incident[int(found.group(1))]:
                return f"({VAR}{end}"
            return "(" if end == "," else ""  # no arguments left: no parentheses

        return _MARKED.sub(put, source)


@dataclass(frozen=True)
class Other:
    """A statement that is not a rule; ``shown`` names a #show or #defined signature
    (which takes the incident argument when dynamic)."""

    text: str
    shown: Signature | None
    show: bool  # a #show (read, never derived), not a #defined

    def transformed(self, dynamic: frozenset[Signature]) -> str:
        if self.shown is None or self.shown not in dynamic:
            return self.text
        name, arity = self.shown
        suffix = f"/{arity}."
        if not self.text.endswith(suffix):
            raise ValueError(self.text)
        return f"{self.text[:-len(suffix)]}/{arity + 1}."


@dataclass(frozen=True)
class Chapter:
    rules: tuple[Template, ...]  # in file order
    others: tuple[Other, ...]  # in the order of program.others(path)

    @property
    def by_index(self) -> dict[int, Template]:
        return {t.index: t for t in self.rules}


def rule(path: Path, index: int) -> Template:
    """The template of the statement ``index`` of file ``path`` (a program.Rule's)."""
    return _by_index(path)[index]


@cache
def _by_index(path: Path) -> dict[int, Template]:
    return chapter(path).by_index


@cache
def chapter(path: Path) -> Chapter:
    name = f"incident-{disk.key(path.read_bytes(), clingo.__version__, _own_source())}.json"
    stored = disk.read_json(name)
    if stored is not None:
        try:
            return _loaded(stored)
        except (KeyError, TypeError, ValueError):
            pass  # a damaged entry: work it out again, and store it whole
    made = _made(path)
    disk.write_json(name, _stored(made))
    return made


@cache
def _own_source() -> bytes:
    """This module's code: a change to how templates are made misses the cache."""
    return Path(__file__).read_bytes()


def _made(path: Path) -> Chapter:
    rules: list[Template] = []
    others: list[Other] = []
    for index, stm in enumerate(program.parsed(path)):
        kind = stm.ast_type
        if kind == ast.ASTType.Rule:
            rules.append(_template(index, stm))
        elif kind in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            others.append(Other(str(stm), (stm.name, stm.arity),
                                kind == ast.ASTType.ShowSignature))
        elif kind != ast.ASTType.Program:
            others.append(Other(str(stm), None, False))
    return Chapter(tuple(rules), tuple(others))


def _template(index: int, stm: ast.AST) -> Template:
    marker = _Marker()
    head = marker.mark(stm.head, HEAD)
    body = [marker.mark(lit, BINDS if _plain(lit) else BODY) for lit in stm.body]
    marked = stm.update(head=head, body=body)
    loc = stm.location
    guard = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(
        ast.Function(loc, GUARD, [ast.Variable(loc, VAR)], False)))
    guarded = marked.update(body=[guard, *body])
    return Template(index, str(marked), str(guarded), tuple(marker.atoms))


def _plain(lit: ast.AST) -> bool:
    """A positive body literal of a plain atom: were it dynamic, it would bind the
    incident variable."""
    return (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
            and lit.atom.ast_type == ast.ASTType.SymbolicAtom
            and lit.atom.symbol.ast_type == ast.ASTType.Function)


class _Marker(ast.Transformer):
    """Puts marker k first among the arguments of the k-th atom it meets."""

    def __init__(self) -> None:
        self.atoms: list[tuple[Signature, int]] = []
        self.place = HEAD

    def mark(self, node: ast.AST, place: int) -> ast.AST:
        self.place = place
        return self(node)

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:  # noqa: N802 (clingo's name)
        sym = node.symbol
        if sym.ast_type != ast.ASTType.Function:
            return node
        var = ast.Variable(sym.location, f"{MARK}{len(self.atoms)}")
        self.atoms.append(((sym.name, len(sym.arguments)), self.place))
        return node.update(symbol=sym.update(arguments=[var, *sym.arguments]))


def _stored(made: Chapter) -> dict:
    return {"rules": [[t.index, t.marked, t.guarded, [[n, a, p] for (n, a), p in t.atoms]]
                      for t in made.rules],
            "others": [[o.text, None if o.shown is None else list(o.shown), o.show]
                       for o in made.others]}


def _loaded(stored: dict) -> Chapter:
    rules = tuple(Template(int(index), _str(marked), _str(guarded),
                           tuple(((_str(n), int(a)), int(p)) for n, a, p in atoms))
                  for index, marked, guarded, atoms in stored["rules"])
    others = tuple(Other(_str(text), None if shown is None else (_str(shown[0]), int(shown[1])),
                         bool(show))
                   for text, shown, show in stored["others"])
    return Chapter(rules, others)


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value
