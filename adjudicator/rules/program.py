"""Only the rules a log can fire: each rule file parsed once per process, and of its rules
the ones whose positive body the log's facts can satisfy.

clingo spends time grounding every rule whatever the facts, so the fixed cost of a
judgement grows with the number of rules it hands over.  A rule one of whose positive body atoms
no fact and no other kept rule can ever make grounds to nothing: leaving it out changes
no answer set.  "Can make" is decided on predicate signatures and on the constants a body
atom asks for (``act(I, _, S, "摸")`` needs a 摸 in the facts, or a kept rule whose head
may put one there); anything less plain (a variable, an arithmetic term, a pool) counts
as "may be anything", so the choice only ever keeps too much, never too little.  The
chapters' heads are all declared (``#defined``), so a left-out rule leaves no warning
behind; a rule reading what nothing at all derives still warns in the full program
(tests/rules/test_inputs.py) and in every log that keeps it.

Working a chapter out means walking clingo's AST of it in Python, a call into clingo for
every node: it would be most of a cold ``adjudicator judge``.  What it finds depends only on
the file and on this module, so it is kept in the user's cache folder (adjudicator/cache.py)
under a hash of both, and a cold start reads a small JSON file instead of parsing.
"""

from __future__ import annotations

import atexit
import pickle
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from adjudicator import cache as disk

# clingo.ast is imported where a file is parsed: from a warm cache a judgement needs none
# of it.
if TYPE_CHECKING:
    from clingo import ast

Signature = tuple[str, int]
# An atom as the choice sees it: its signature and the constants it names by position.
Pattern = tuple[Signature, tuple[tuple[int, str], ...]]
ANY = None  # a position that may hold anything


def _quiet(_code: clingo.MessageCode, _message: str) -> None:
    """Parsing alone: the warnings that count are the grounder's, on the Control."""


@cache
def parsed(path: Path) -> tuple[ast.AST, ...]:
    """One rule file, parsed once per process."""
    return parse_bytes(path.read_bytes())


def parse_bytes(data: bytes) -> tuple[ast.AST, ...]:
    """A rule file's statements from its bytes as read.  A cache entry keyed on a file's
    bytes is worked out from these same bytes, never from ``parsed``'s copy, which a file
    edited while the process runs has left behind."""
    from clingo import ast
    out: list[ast.AST] = []
    ast.parse_string(data.decode("utf-8"), out.append, logger=_quiet)
    return tuple(out)


@cache
def others(path: Path) -> tuple[ast.AST, ...]:
    """The statements of a file that are not rules (#show, #defined …): Chapter.other's."""
    from clingo import ast
    return tuple(s for s in parsed(path)
                 if s.ast_type not in (ast.ASTType.Rule, ast.ASTType.Program))


def parse_text(text: str) -> tuple[ast.AST, ...]:
    """Program text as AST statements, without its ``#program base.``."""
    from clingo import ast
    out: list[ast.AST] = []
    ast.parse_string(text, out.append, logger=_quiet)
    return tuple(s for s in out if s.ast_type != ast.ASTType.Program)


# An AST node frees itself through clingo's library, which the interpreter may have torn
# down by the time it frees what caches still hold at exit (a flood of "Exception ignored
# in AST.__del__"): let the nodes go while the library is still there.
atexit.register(parsed.cache_clear)
atexit.register(others.cache_clear)


@dataclass(frozen=True)
class Rule:
    """One rule of a chapter: its text, what it may derive and what its body needs."""

    path: Path
    index: int  # its place among the file's parsed statements
    text: str
    heads: tuple[Pattern, ...]  # what it may derive (a position None: anything)
    needs: tuple[Pattern, ...]  # its positive body atoms

    @property
    def statement(self) -> ast.AST:
        """The rule's AST (parsing the file on first use: the cached analysis has none)."""
        return parsed(self.path)[self.index]


def _pattern(sym: ast.AST, consts: bool = True) -> Pattern:
    from clingo import ast
    found = tuple((k, str(a.symbol)) for k, a in enumerate(sym.arguments)
                  if consts and a.ast_type == ast.ASTType.SymbolicTerm)
    return (sym.name, len(sym.arguments)), found


def _children(node: object) -> list[ast.AST]:
    """The AST nodes directly under ``node`` (through its sequences)."""
    from clingo import ast
    if isinstance(node, ast.AST):
        items = [getattr(node, key) for key in node.child_keys]
    else:
        items = list(node)  # type: ignore[call-overload]
    out: list[ast.AST] = []
    for item in items:
        if isinstance(item, ast.AST):
            out.append(item)
        elif item is not None:
            out += _children(item)
    return out


def _head_patterns(node: ast.AST, out: list[Pattern]) -> None:
    """Every atom a head may derive; under a pool or a classical negation, as "anything"."""
    from clingo import ast
    if node.ast_type == ast.ASTType.SymbolicAtom:
        if node.symbol.ast_type == ast.ASTType.Function:
            out.append(_pattern(node.symbol))
        else:
            _any_functions(node.symbol, out)
        return
    for child in _children(node):
        _head_patterns(child, out)


def _any_functions(node: ast.AST, out: list[Pattern]) -> None:
    from clingo import ast
    if node.ast_type == ast.ASTType.Function:
        out.append(_pattern(node, consts=False))
        return
    for child in _children(node):
        _any_functions(child, out)


def _needs(body: Sequence[ast.AST]) -> tuple[Pattern, ...]:
    """The plain positive atoms of a body (aggregates, conditions and negations need
    nothing: they may hold with nothing derived)."""
    from clingo import ast
    out = []
    for lit in body:
        if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
            continue
        atom = lit.atom
        if atom.ast_type == ast.ASTType.SymbolicAtom and \
                atom.symbol.ast_type == ast.ASTType.Function:
            out.append(_pattern(atom.symbol))
    return tuple(out)


@dataclass(frozen=True)
class Chapter:
    """A rule file worked out: its rules, and its other statements as text."""

    rules: tuple[Rule, ...]
    other: str  # every statement that is not a rule (#show, #defined …), as text


@cache
def chapter(path: Path) -> Chapter:
    data = path.read_bytes()
    name = f"chapter-{disk.key(data, clingo.__version__, _own_source())}.pickle"
    stored = _read(name)
    if stored is not None:
        try:
            return _loaded(path, stored)
        except (TypeError, ValueError):
            pass  # a damaged entry: work it out again, and store it whole
    made = _analysed(path, parse_bytes(data))
    disk.write_bytes(name, pickle.dumps(_stored(made), protocol=pickle.HIGHEST_PROTOCOL))
    return made


def _analysed(path: Path, statements: tuple[ast.AST, ...]) -> Chapter:
    from clingo import ast
    rules, other = [], []
    for index, stm in enumerate(statements):
        if stm.ast_type == ast.ASTType.Rule:
            heads: list[Pattern] = []
            _head_patterns(stm.head, heads)
            rules.append(Rule(path, index, str(stm), tuple(heads), _needs(stm.body)))
        elif stm.ast_type != ast.ASTType.Program:
            other.append(str(stm))
    return Chapter(tuple(rules), "\n".join(other))


@cache
def _own_source() -> bytes:
    """This module's code: a change to how chapters are worked out misses the cache."""
    return Path(__file__).read_bytes()


# A chapter's analysis is kept as a pickle of plain tuples, not as JSON: unpickling makes
# the patterns' tuples in C, where JSON makes lists that Python turns into tuples one by
# one (and a cold judgement reads most chapters).  The entry's
# name holds this module's code, so its shape is the one _loaded expects.
def _stored(made: Chapter) -> tuple:
    return made.other, tuple((r.index, r.text, r.heads, r.needs) for r in made.rules)


def _read(name: str) -> object:
    where = disk.path(name)
    if where is None:
        return None
    try:
        return pickle.loads(where.read_bytes())
    except Exception:  # noqa: BLE001 - missing, cut short or not a pickle at all
        return None


def _loaded(path: Path, stored: object) -> Chapter:
    other, rules = stored  # type: ignore[misc]
    if not isinstance(other, str):
        raise TypeError(other)
    return Chapter(tuple(Rule(path, *rule) for rule in rules), other)


class Present:
    """What the facts bring: the signatures, and the constants at the positions that some
    rule's body asks about."""

    def __init__(self) -> None:
        self.values: dict[Signature, dict[int, set[str] | None]] = defaultdict(dict)

    def add(self, sig: Signature, args: Sequence[clingo.Symbol], asked: Iterable[int]) -> None:
        slots = self.values[sig]
        for k in asked:
            seen = slots.setdefault(k, set())
            if seen is not ANY:
                seen.add(str(args[k]))

    def key(self) -> frozenset:
        return frozenset((sig, frozenset((k, None if v is None else frozenset(v))
                                         for k, v in slots.items()))
                         for sig, slots in self.values.items())


@cache
def _asked(files: tuple[Path, ...]) -> dict[Signature, tuple[int, ...]]:
    """For each signature, the positions some body of ``files`` names a constant at."""
    out: dict[Signature, set[int]] = defaultdict(set)
    for path in files:
        for rule in chapter(path).rules:
            for sig, consts in rule.needs:
                out[sig].update(k for k, _ in consts)
    return {sig: tuple(sorted(ks)) for sig, ks in out.items()}


def present(files: tuple[Path, ...], facts: Iterable[clingo.Symbol],
            into: Present | None = None) -> Present:
    asked = _asked(files)
    out = into or Present()
    for sym in facts:
        args = sym.arguments
        sig = (sym.name, len(args))
        out.add(sig, args, asked.get(sig, ()))
    return out


def _holds(need: Pattern, possible: dict[Signature, dict[int, set[str] | None]]) -> bool:
    sig, consts = need
    slots = possible.get(sig)
    if slots is None:
        return False
    for k, c in consts:
        seen = slots.get(k, ANY)
        if seen is not ANY and c not in seen:
            return False
    return True


def _derive(head: Pattern, possible: dict[Signature, dict[int, set[str] | None]],
            asked: dict[Signature, tuple[int, ...]]) -> bool:
    """Record that ``head`` may hold; whether that is news."""
    sig, consts = head
    named = dict(consts)
    news = sig not in possible
    slots = possible.setdefault(sig, {})
    for k in asked.get(sig, ()):
        seen = slots.get(k, set())
        if seen is ANY:
            continue
        if k in named:
            if named[k] not in seen:
                seen.add(named[k])
                slots[k] = seen
                news = True
        else:
            slots[k] = ANY
            news = True
    return news


def select(files: Sequence[Path], facts: Present) -> list[Rule]:
    """The rules of ``files`` that these facts can fire (in file order)."""
    return _select(tuple(files), facts.key(), facts)


_CACHE: dict[tuple[tuple[Path, ...], frozenset], list[Rule]] = {}


def _select(files: tuple[Path, ...], key: frozenset, facts: Present) -> list[Rule]:
    found = _CACHE.get((files, key))
    if found is not None:
        return found
    rules = [r for path in files for r in chapter(path).rules]
    asked = _asked(files)
    waiting: dict[Signature, list[int]] = defaultdict(list)
    for i, rule in enumerate(rules):
        for sig, _ in rule.needs:
            waiting[sig].append(i)
    possible: dict[Signature, dict[int, set[str] | None]] = {
        sig: {k: (None if v is None else set(v)) for k, v in slots.items()}
        for sig, slots in facts.values.items()}
    kept = [False] * len(rules)
    todo = [i for i, rule in enumerate(rules) if not rule.needs]
    todo += [i for sig in possible for i in waiting.get(sig, ())]
    while todo:
        i = todo.pop()
        rule = rules[i]
        if kept[i] or not all(_holds(n, possible) for n in rule.needs):
            continue
        kept[i] = True
        for head in rule.heads:
            if _derive(head, possible, asked):
                todo.extend(waiting.get(head[0], ()))
    out = [r for r, k in zip(rules, kept, strict=True) if k]
    if len(_CACHE) > 512:
        _CACHE.clear()
    _CACHE[(files, key)] = out
    return out


def text(files: Sequence[Path], rules: Sequence[Rule]) -> str:
    """The program of ``files`` with only ``rules`` among their rules."""
    return "\n".join([*(chapter(p).other for p in files), *(r.text for r in rules)])
