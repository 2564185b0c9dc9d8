"""Many incidents in one clingo run: the chapters, written for one incident, are given an
incident argument at load time.

Grounding the chapters has a fixed cost whatever the log (most of a short log's
judgement); paid once for a chunk of logs it is shared.  The chapters stay written for one
incident: an incident variable is added as the first argument of every predicate that
depends on a log's facts ("dynamic"), and a guard ``multi_incident(I)`` to every rule that
mentions one and has no positive body atom to bind it (rules/incident_argument.py, which
keeps what it makes in the cache folder).  Predicates that depend on nothing a log brings
(tile tables, the profile's readings) stay as they are and are grounded once for all.

The answer set of the whole chunk is split back by that argument.  A log whose record
leaves facts open (asp/open.lp's choices) is answered as engine.solve_open answers it, on
the chunk's grounding (``_open``).  Every log of a chunk that has no answer set together
goes the single-log path, so that one broken log cannot take the others with it.
tests/batch/test_batch.py checks over the case corpus that the rulings are the single
path's, ruling for ruling.
"""

from __future__ import annotations

import atexit
from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import clingo
from clingo import ast

from adjudicator.facts import record
from adjudicator.rules import engine, incident_argument, program
from adjudicator.rules.engine import SIGNAL_ARGS, Answer, Warnings, chapter_files, reachable
from adjudicator.rules.signatures import defined, left_out_signatures

GUARD, VAR = incident_argument.GUARD, incident_argument.VAR

Signature = tuple[str, int]


def _shapes(profile: str) -> list[incident_argument.Shape]:
    return [r for path in chapter_files(profile) for r in incident_argument.chapter(path).rules]


def _dynamic(rules: Sequence[incident_argument.Shape], shown: set[Signature],
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
def _dynamic_of(profile: str, seed: frozenset[str]) -> frozenset[Signature]:
    rules = _shapes(profile)
    shown = {sig for path in chapter_files(profile)
             for sig in incident_argument.chapter(path).shown}
    heads = {h for rule in rules for h in rule.heads}
    return _dynamic(rules, shown, frozenset(h for h in heads if h[0] in seed))


@cache
def _head_names(profile: str) -> frozenset[str]:
    return frozenset(n for rule in _shapes(profile) for n, _ in rule.heads)


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
    missing = left_out_signatures([], tuple(chapter_files(profile)))
    return program.parse_text(defined([(n, a + 1) if (n, a) in dynamic else (n, a)
                                       for n, a in missing]))


def _clear() -> None:
    """Let the statements go while clingo's library is still there (program.parsed)."""
    _declared.cache_clear()
    _SPLIT.clear()
    _bridge.cache_clear()


atexit.register(_clear)


# A shown atom's incident and its own form, by the atom: incident numbers run 0, 1, … in
# every chunk, so most atoms recur from chunk to chunk, and a look-up (one call into
# clingo, to hash) saves reading its name and arguments and making the atom again (five).
_SPLIT: dict[tuple[clingo.Symbol, frozenset[Signature]], tuple[int, clingo.Symbol]] = {}


def _split(atom: clingo.Symbol, dynamic: frozenset[Signature]) -> tuple[int, clingo.Symbol]:
    """The atom's incident and the atom without it; -1 and the atom for a static one."""
    key = (atom, dynamic)
    found = _SPLIT.get(key)
    if found is None:
        args = atom.arguments
        if (atom.name, len(args) - 1) in dynamic:
            found = (args[0].number, clingo.Function(atom.name, args[1:]))
        else:
            found = (-1, atom)
        if len(_SPLIT) >= 1 << 16:
            _SPLIT.clear()
        _SPLIT[key] = found
    return found


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


def _bridges(signatures: frozenset[Signature]) -> list[ast.AST]:
    return [stm for name, arity in sorted(signatures) for stm in _bridge(name, arity)]


class _Facts:
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
            for stm in incident_argument.transformed(path, dynamic).others:
                add(stm)
        for rule in kept:
            add(incident_argument.transformed(rule.path, dynamic).rules[rule.index])
        for stm in _declared(profile, dynamic):
            add(stm)
    signatures = {(name, len(args)) for group in taken for name, args in group}
    with ast.ProgramBuilder(ctl) as builder:
        for stm in _bridges(frozenset(signatures)):
            builder.add(stm)
    with ctl.backend() as backend:
        for i in range(len(facts)):
            backend.add_rule([backend.add_atom(clingo.Function(GUARD, [clingo.Number(i)]))])
    ctl.ground([("base", [])], context=_Facts(facts, taken))
    warnings.check()
    choices: dict[int, list[tuple[int, clingo.Symbol, clingo.Symbol]]] = defaultdict(list)
    for a in ctl.symbolic_atoms.by_signature("open_choice", 4):
        i, at, fact, choice = a.symbol.arguments
        choices[i.number].append((at.number, fact, choice))
    first = _consequences(ctl, None, dynamic)
    if first is None:
        return [None] * len(facts)
    if choices:
        return _open(ctl, first, choices, dynamic, len(facts))
    return [Answer(atoms, atoms) for atoms in _per_incident(first, len(facts))]


# The chunk's shown atoms split by incident: each incident's own atoms, and those no
# incident owns (a static predicate's), which every incident holds.
Split = tuple[dict[int, list[clingo.Symbol]], list[clingo.Symbol]]


def _consequences(ctl: clingo.Control, mode: str | None, dynamic: frozenset[Signature],
                  assumptions: engine.Assumptions = ()) -> Split | None:
    """What the last model holds (one answer set without ``mode``; else clingo's brave or
    cautious consequences), by incident; ``None`` if there is no answer set."""
    if mode is None:
        atoms = engine.last_model(ctl, assumptions)
    else:
        atoms = engine.consequences(ctl, mode, assumptions)
    if atoms is None:
        return None
    shared: list[clingo.Symbol] = []
    mine: dict[int, list[clingo.Symbol]] = defaultdict(list)
    for atom in atoms:
        at, own = _split(atom, dynamic)
        if at < 0:
            shared.append(own)
        else:
            mine[at].append(own)
    return mine, shared


def _of(split: Split, i: int) -> list[clingo.Symbol]:
    """Incident ``i``'s atoms: its own and the shared ones."""
    mine, shared = split
    return mine.get(i, []) + shared


def _per_incident(split: Split, count: int) -> list[list[clingo.Symbol]]:
    return [_of(split, i) for i in range(count)]


def _open(ctl: clingo.Control, first: Split, choices: dict[int, list[tuple]],
          dynamic: frozenset[Signature], count: int) -> list[Answer | None]:
    """Answers when some incidents leave facts open: ``engine.solve_open`` for each of
    those, on the chunk's grounding.

    The incidents share nothing but what no log changes, so an answer set of the chunk is
    one of each incident's put together: what holds in every one (or some) of them, for an
    incident, is what holds in every one (or some) of its own, and an assumption about one
    incident's choice leaves the others' answer sets as they were.
    """
    brave = _consequences(ctl, "brave", dynamic)
    cautious = _consequences(ctl, "cautious", dynamic)
    if brave is None or cautious is None:
        return [None] * count
    out: list[Answer | None] = []
    for i, (decided, some, one) in enumerate(zip(_per_incident(cautious, count),
                                                 _per_incident(brave, count),
                                                 _per_incident(first, count), strict=True)):
        if i not in choices:
            out.append(Answer(one, one))
            continue

        def under(choice: clingo.Symbol, value: bool, i: int = i) -> list[clingo.Symbol] | None:
            # The choice atom as grounded here carries the incident argument too.
            atom = clingo.Function(choice.name, [clingo.Number(i), *choice.arguments])
            held = _consequences(ctl, "cautious", dynamic, [(atom, value)])
            return None if held is None else _of(held, i)

        out.append(engine.open_answer(decided, some, sorted(choices[i]), under))
    return out
