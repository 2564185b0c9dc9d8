"""The one place a family's program is assembled and solved: the chapters the facts can
reach (their ``%! when:`` lines) and of those the rules the facts can fire (rules/program.py),
grounded with the facts and solved, open facts and all.

It is given one incident's facts (``solve_open``: the chapters as text, clingo's warnings
on) or a chunk's (``solve_many``: one clingo run for many logs, each predicate given an
incident argument, rules/incident_argument.py), or a fixed set of files (``solve`` with
``files``: a test's full program, the scoring of a single hand).  Both paths choose the
program by one step, ``select``, once per chunk, from the facts' plain values.

When the record leaves a fact open, asp/open.lp turns it into a choice and the rules have
several answer sets.  The engine then asks clingo for what holds in every answer set
(cautious consequences), in some (brave), and in every answer set where one possibility
of one open fact holds (cautious under an assumption); without an open choice it solves
once.

The chunk is answered incident by incident from its split answer set; a log whose record
leaves facts open is answered as ``solve_open`` answers it, on the chunk's grounding.  A
chunk without an answer set gives ``None`` for each log, for the caller to judge each
alone, so that one broken log cannot take the others with it.  tests/batch/test_batch.py
checks over the case corpus that the two paths give the same rulings, ruling for ruling.
"""

from __future__ import annotations

import atexit
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import clingo

from adjudicator import cache as disk
from adjudicator.facts import record
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.rules import interface, program, signatures
from adjudicator.rules.files import chapters
from adjudicator.rules.rulesets import profile_family
from adjudicator.rules.signatures import Signature, left_out

# clingo.ast is imported where statements are built: one log's judgement needs none of it.
if TYPE_CHECKING:
    from clingo import ast


class EngineError(RuntimeError):
    """The rules themselves failed (a bug in asp/, not in the log)."""


class Warnings:
    """clingo's warnings, collected: every input is declared (asp/inputs.lp) and what a
    left-out chapter would derive is declared by the engine, so any warning is a fault in
    the rules (a predicate read that nothing makes, an operation on the wrong kind of
    term), and the judgement fails on it instead of quietly ruling without it."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, _code: clingo.MessageCode, message: str) -> None:
        self.messages.append(message.strip())

    def check(self) -> None:
        if self.messages:
            raise EngineError("clingo warned: " + " | ".join(self.messages))


def chapter_files(profile: str) -> list[Path]:
    """The rule chapters of ``profile``'s family (its values come as facts: rulesets.py)."""
    return list(chapters(profile_family(profile)))


# A chapter may begin with a line "%! when: SIGNAL …" naming what must be in the facts for
# any of its rules to fire (verb:摸, what:錯碰, note:門前, fact:win_declared; class:kong
# stands for every verb of that property in the verb table, so a new verb reaches the
# chapters that read its properties).  Grounding costs clingo time for every rule whatever
# the facts, so a judgement grounds only the
# chapters its log can reach; tests/test_engine.py checks over every case that this
# changes no ruling.
WHEN = "%! when:"


@cache
def _triggers(path: Path) -> frozenset[str] | None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(WHEN):
            return frozenset(s for word in line[len(WHEN):].split() for s in _signal(word))
    return None


def _signal(word: str) -> Iterable[str]:
    """The signals one word of a "%! when:" line stands for."""
    if not word.startswith("class:"):
        return (word,)
    return (f"verb:{v}" for v in VERB_CLASSES[word[len("class:"):]])


# The facts that carry a signal besides their name: the argument it is in, and its kind.
SIGNAL_ARGS: dict[str, tuple[int, str]] = {"act": (3, "verb"), "act_what": (1, "what"),
                                           "act_note": (1, "note")}


def _signals(name: str, args: tuple[record.Value, ...]) -> tuple[str, ...]:
    """The signals of one fact, read from the values it was made of (record.plain: each
    read of a Symbol's name or argument would be a call into clingo)."""
    if name in SIGNAL_ARGS:
        at, kind = SIGNAL_ARGS[name]
        return (f"fact:{name}", f"{kind}:{args[at]}")
    return (f"fact:{name}",)


def signals(facts: Iterable[clingo.Symbol]) -> set[str]:
    """What a log brings to the rules: its verbs, offences, notes and fact names."""
    return {s for sym in facts for s in _signals(*record.plain(sym))}


def reachable(files: Sequence[Path], present: set[str]) -> list[Path]:
    """The chapters among ``files`` that the signals can reach (all without a directive)."""
    return [f for f in files if (t := _triggers(f)) is None or t & present]


@cache
def declared(every: tuple[Path, ...]) -> str:
    """``#defined`` for everything the chapters derive or declare: a rule left out (by its
    chapter's signals or by rules/program.py) leaves its head read but never made.

    Kept whole in the cache folder, under every chapter's text and the code that works it
    out: a cold judgement then reads one entry instead of one a chapter."""
    key = disk.key(*(p.read_bytes() for p in every), clingo.__version__, _signatures_source())
    name = f"declared-{key}.json"
    stored = disk.read_json(name)
    if isinstance(stored, dict) and isinstance(stored.get("text"), str):
        return stored["text"]
    text = left_out([], every)
    disk.write_json(name, {"text": text})
    return text


@cache
def _signatures_source() -> bytes:
    return Path(signatures.__file__).read_bytes()


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


@dataclass(frozen=True)
class Selection:
    """The program a chunk of logs (or one) is given: of the family's chapters, those
    its facts can reach, and of their rules, those its facts can fire."""

    every: tuple[Path, ...]  # the family's chapters
    files: tuple[Path, ...]  # the chapters reached
    rules: list[program.Rule]  # their rules the facts can fire, in file order


def select(profile: str, taken: Sequence[Sequence[record.Plain]]) -> Selection:
    """The program for these logs' facts (each log's as ``record.plain`` values), chosen
    once for all of them, from the chunk's distinct facts (the rule set's values and most
    header facts are the same in every log)."""
    every = tuple(chapter_files(profile))
    distinct = {plain for group in taken for plain in group}
    reach: set[str] = set()
    for name, args in distinct:
        reach.update(_signals(name, args))
    chosen = tuple(reachable(every, reach))
    seen = program.present(chosen, [_Seen(name, tuple(map(_text, args)))  # type: ignore[misc]
                                    for name, args in distinct])
    return Selection(every, chosen, program.select(chosen, seen))


def _file_statements(path: Path) -> tuple[ast.AST, ...]:
    """A fixed file's statements, parsed once while the file stays as it is: one hand's
    scoring runs the same three files again and again, and a statement added is cheaper
    than its text parsed."""
    stat = path.stat()
    return _statements(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _statements(path: Path, _mtime: int, _size: int) -> tuple[ast.AST, ...]:
    from clingo import ast

    # The parser hands comments over as statements too: they would be added for nothing.
    return tuple(s for s in program.parse_text(path.read_text(encoding="utf-8"))
                 if s.ast_type != ast.ASTType.Comment)


@cache
def _left_out_statements(files: tuple[Path, ...], every: tuple[Path, ...]
                         ) -> tuple[ast.AST, ...]:
    return program.parse_text(left_out(list(files), every))


# Let the statements go while clingo's library is still there (program.parsed).
atexit.register(_statements.cache_clear)
atexit.register(_left_out_statements.cache_clear)


def _control(program_text: str | Sequence[ast.AST], facts: Iterable[clingo.Symbol],
             warnings: Warnings) -> clingo.Control:
    """A Control grounded on one log's program (as text, or as parsed statements) and its
    facts."""
    ctl = clingo.Control(logger=warnings)
    if isinstance(program_text, str):
        # As text: clingo parses it in C++, where handing over AST statements would first
        # need every chapter parsed into Python objects.
        ctl.add("base", [], program_text)
    else:
        from clingo import ast

        with ast.ProgramBuilder(ctl) as builder:
            for stm in program_text:
                builder.add(stm)
    with ctl.backend() as backend:
        for sym in facts:
            backend.add_rule([backend.add_atom(sym)])
    ctl.ground([("base", [])])
    warnings.check()
    return ctl


def _grounded(facts: Iterable[clingo.Symbol], profile: str,
              files: Sequence[Path] | None,
              every: tuple[Path, ...] | None = None) -> clingo.Control:
    """One log's program grounded: the selected one, or exactly ``files`` (with what the
    rest of ``every``, by default the family's chapters, would derive declared)."""
    facts = list(facts)
    if files is None:
        chosen = select(profile, [list(map(record.plain, facts))])
        return _control("\n".join([program.text(chosen.files, chosen.rules),
                                   declared(chosen.every)]), facts, Warnings())
    whole = every if every is not None else tuple(chapter_files(profile))
    statements = [stm for p in files for stm in _file_statements(p)]
    return _control([*statements, *_left_out_statements(tuple(files), whole)], facts,
                    Warnings())


Assumptions = Sequence[tuple[clingo.Symbol, bool]]


def last_model(ctl: clingo.Control, assumptions: Assumptions = ()) -> list[clingo.Symbol] | None:
    models: list[list[clingo.Symbol]] = []
    ctl.solve(assumptions=list(assumptions),
              on_model=lambda m: models.append(m.symbols(shown=True)))
    return models[-1] if models else None


def solve(facts: Iterable[clingo.Symbol], profile: str,
          files: Sequence[Path] | None = None,
          every: tuple[Path, ...] | None = None) -> list[clingo.Symbol]:
    """The shown atoms of the (first) answer set the rules give for these facts (of
    ``files`` alone when given: see ``_grounded``)."""
    atoms = last_model(_grounded(facts, profile, files, every))
    if atoms is None:
        raise EngineError("the rules have no answer set for this log")
    return atoms


# ------------------------------------------------------------------ open facts


@dataclass(frozen=True)
class Possibility:
    """One way an open fact may be: its choice atom taken true or false."""

    open_at: int  # the act index of the open fact
    fact: clingo.Symbol  # the open fact's term (as in open_fact/2)
    choice: clingo.Symbol  # the choice atom of asp/open.lp
    value: bool
    atoms: list[clingo.Symbol]  # what holds in every answer set with this choice


@dataclass
class Answer:
    """What the rules hold for a log: in every answer set, in some, and per possibility."""

    atoms: list[clingo.Symbol]  # in every answer set (cautious); the one answer set if no choice
    brave: list[clingo.Symbol]  # in some answer set
    possibilities: list[Possibility] = field(default_factory=list)
    solves: int = 1  # how many clingo solve calls it took


def consequences(ctl: clingo.Control, mode: str,
                  assumptions: Assumptions = ()) -> list[clingo.Symbol] | None:
    ctl.configuration.solve.enum_mode = mode  # type: ignore[union-attr]
    ctl.configuration.solve.models = "0"  # type: ignore[union-attr]
    return last_model(ctl, assumptions)


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


class Split(NamedTuple):
    """A chunk's shown atoms split by incident: each incident's own atoms, and those no
    incident owns (a static predicate's), which every incident holds."""

    mine: dict[int, list[clingo.Symbol]]
    shared: list[clingo.Symbol]

    def of(self, i: int) -> list[clingo.Symbol]:
        """Incident ``i``'s atoms: its own and the shared ones (one log's, as clingo gave
        them)."""
        own = self.mine.get(i, [])
        return [*own, *self.shared] if self.shared else own

    def each(self, count: int) -> list[list[clingo.Symbol]]:
        return [self.of(i) for i in range(count)]


def split(atoms: Sequence[clingo.Symbol], dynamic: frozenset[Signature]) -> Split:
    """A chunk's atoms by incident (``dynamic``: the predicates that carry it)."""
    shared: list[clingo.Symbol] = []
    mine: dict[int, list[clingo.Symbol]] = defaultdict(list)
    for atom in atoms:
        at, own = _split(atom, dynamic)
        if at < 0:
            shared.append(own)
        else:
            mine[at].append(own)
    return Split(mine, shared)


# The open choices of a grounding by incident: (act index, open fact, choice atom).
Choices = dict[int, list[tuple[int, clingo.Symbol, clingo.Symbol]]]


def _choices(ctl: clingo.Control, chunk: bool) -> Choices:
    """``open_choice(I, Fact, Atom)`` atoms of the grounding (asp/open.lp), by incident
    (a chunk's carry the incident first)."""
    out: Choices = defaultdict(list)
    shape = interface.shown()["open_choice"]
    for atom in ctl.symbolic_atoms.by_signature(shape.name, shape.arity + chunk):
        args = atom.symbol.arguments
        i, row = (args[0].number, shape.read(args[1:])) if chunk else (0, shape.read(args))
        out[i].append((row.at.number, row.fact, row.choice))
    return {i: sorted(found) for i, found in out.items()}


@dataclass(frozen=True)
class _Run:
    """A grounded program and how its answers part by incident (one log: one part)."""

    ctl: clingo.Control
    count: int
    dynamic: frozenset[Signature] | None = None  # a chunk's: what carries the incident

    def held(self, mode: str | None, assumptions: Assumptions = ()
             ) -> Split | None:
        """What the last model holds (one answer set without ``mode``; else clingo's brave
        or cautious consequences), by incident; ``None`` if there is no answer set."""
        if mode is None:
            atoms = last_model(self.ctl, assumptions)
        else:
            atoms = consequences(self.ctl, mode, assumptions)
        if atoms is None:
            return None
        if self.dynamic is None:
            return Split({0: atoms}, [])
        return split(atoms, self.dynamic)

    def own(self, i: int, choice: clingo.Symbol) -> clingo.Symbol:
        """Incident ``i``'s choice atom as grounded here (a chunk's carries the incident)."""
        if self.dynamic is None:
            return choice
        return clingo.Function(choice.name, [clingo.Number(i), *choice.arguments])

    def answers(self) -> list[Answer] | None:
        """Each incident's answer; ``None`` if the whole has no answer set.

        The incidents share nothing but what no log changes, so an answer set of a chunk
        is one of each incident's put together: what holds in every one (or some) of them,
        for an incident, is what holds in every one (or some) of its own, and an
        assumption about one incident's choice leaves the others' answer sets as they were.
        """
        choices = _choices(self.ctl, self.dynamic is not None)
        first = None
        if len(choices) < self.count:  # some incident leaves nothing open: one answer set
            first = self.held(None)
            if first is None:
                return None
            if not choices:
                return [Answer(atoms, atoms) for atoms in first.each(self.count)]
        brave, cautious = self.held("brave"), self.held("cautious")
        if brave is None or cautious is None:
            return None
        out: list[Answer] = []
        for i in range(self.count):
            if i not in choices:
                one = first.of(i)  # type: ignore[union-attr]
                out.append(Answer(one, one))
                continue

            def under(choice: clingo.Symbol, value: bool, i: int = i
                      ) -> list[clingo.Symbol] | None:
                held = self.held("cautious", [(self.own(i, choice), value)])
                return None if held is None else held.of(i)

            out.append(open_answer(cautious.of(i), brave.of(i), choices[i], under))
        return out


def solve_open(facts: Iterable[clingo.Symbol], profile: str,
               files: Sequence[Path] | None = None) -> Answer:
    """One log's answer, with the possibilities of what its record leaves open
    (asp/open.lp)."""
    found = _Run(_grounded(facts, profile, files), 1).answers()
    if found is None:
        raise EngineError("the rules have no answer set for this log")
    return found[0]


def open_answer(cautious: list[clingo.Symbol], brave: list[clingo.Symbol],
                choices: Iterable[tuple[int, clingo.Symbol, clingo.Symbol]],
                under: Callable[[clingo.Symbol, bool], list[clingo.Symbol] | None]) -> Answer:
    """A log's answer from what holds in every answer set and in some, with a possibility
    for each way of each choice some answer set reaches: ``under(choice, value)`` is what
    holds in every answer set where it is so (None: in none)."""
    answer = Answer(cautious, brave, solves=2)
    # Only the choices some answer set reaches are open for this log.
    reached = {a for a in brave if a.name == "open_choice"}
    for at, fact, choice in choices:
        if clingo.Function("open_choice", [clingo.Number(at), fact, choice]) not in reached:
            continue
        for value in (True, False):
            held = under(choice, value)
            answer.solves += 1
            if held is not None:
                answer.possibilities.append(Possibility(at, fact, choice, value, held))
    return answer


# ------------------------------------------------------------------ a chunk of logs


def solve_many(facts: Sequence[Sequence[clingo.Symbol]], profile: str) -> list[Answer | None]:
    """Each incident's answer, or ``None`` where it must be judged alone (``solve_open``):
    one clingo run for all, the program chosen once for the chunk (``select``).

    ``EngineError`` if clingo warns (as ``solve_open`` does): the caller then judges each
    log alone, where the warning is that log's error.
    """
    if not facts:
        return []
    taken = record.plain_facts(facts)
    chosen = select(profile, taken)
    # Imported here: one log's judgement needs neither (a cold start would pay for both).
    from clingo import ast

    from adjudicator.rules import incident_argument

    dynamic = incident_argument.seeded(chosen.every, taken)
    warnings = Warnings()
    ctl = clingo.Control(logger=warnings)

    # Each chapter's statements looked up once a chunk, not once a rule.
    chapters_of = {path: incident_argument.transformed(path, dynamic) for path in chosen.files}
    with ast.ProgramBuilder(ctl) as builder:
        add = builder.add
        for made in chapters_of.values():
            for stm in made.others:
                add(stm)
        for rule in chosen.rules:
            add(chapters_of[rule.path].rules[rule.index])
        for stm in incident_argument.declared(chosen.every, dynamic):
            add(stm)
    with ast.ProgramBuilder(ctl) as builder:
        for stm in incident_argument.bridges(taken):
            builder.add(stm)
    with ctl.backend() as backend:
        for i in range(len(facts)):
            backend.add_rule([backend.add_atom(incident_argument.guard(i))])
    ctl.ground([("base", [])], context=incident_argument.Facts(facts, taken))
    warnings.check()
    found = _Run(ctl, len(facts), dynamic).answers()
    return [None] * len(facts) if found is None else list(found)
