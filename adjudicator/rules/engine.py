"""Run the rules: load asp/, add the facts through clingo's backend, solve, return atoms.

When the record leaves a fact open, asp/open.lp turns it into a choice and the rules have
several answer sets.  ``solve_open`` then asks clingo for what holds in every answer set
(cautious consequences), in some (brave), and in every answer set where one possibility
of one open fact holds (cautious under an assumption); without an open choice it solves
once, as fast as ``solve``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import clingo

from adjudicator import cache as disk
from adjudicator.language.vocabulary import VERB_CLASSES
from adjudicator.rules import program, signatures
from adjudicator.rules.files import chapters
from adjudicator.rules.rulesets import profile_family
from adjudicator.rules.signatures import left_out


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


def signals(facts: Iterable[clingo.Symbol]) -> set[str]:
    """What a log brings to the rules: its verbs, offences, notes and fact names."""
    # Each .name / .arguments is a call into clingo's C API: read the name once and the
    # arguments only of the three facts that carry a signal (the rest are most facts).
    out: set[str] = set()
    for sym in facts:
        name = sym.name
        out.add(f"fact:{name}")
        if name in SIGNAL_ARGS:
            at, kind = SIGNAL_ARGS[name]
            out.add(f"{kind}:{sym.arguments[at].string}")
    return out


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


def _grounded(facts: Iterable[clingo.Symbol], profile: str,
              files: Sequence[Path] | None) -> clingo.Control:
    warnings = Warnings()
    ctl = clingo.Control(logger=warnings)
    facts = list(facts)
    every = chapter_files(profile)
    if files is None:
        # The chapters the log can reach, and of them the rules its facts can fire.
        files = reachable(every, signals(facts))
        kept = program.select(files, program.present(tuple(files), facts))
        # As text: clingo parses it in C++, where handing over AST statements would
        # first need every chapter parsed into Python objects.
        ctl.add("base", [], program.text(files, kept))
        ctl.add("base", [], declared(tuple(every)))
    else:
        for path in files:
            ctl.load(str(path))
        ctl.add("base", [], left_out(list(files), tuple(every)))
    with ctl.backend() as backend:
        for sym in facts:
            backend.add_rule([backend.add_atom(sym)])
    ctl.ground([("base", [])])
    warnings.check()
    return ctl


Assumptions = Sequence[tuple[clingo.Symbol, bool]]


def last_model(ctl: clingo.Control, assumptions: Assumptions = ()) -> list[clingo.Symbol] | None:
    models: list[list[clingo.Symbol]] = []
    ctl.solve(assumptions=list(assumptions),
              on_model=lambda m: models.append(m.symbols(shown=True)))
    return models[-1] if models else None


def solve(facts: Iterable[clingo.Symbol], profile: str,
          files: Sequence[Path] | None = None) -> list[clingo.Symbol]:
    """The shown atoms of the (first) answer set the rules give for these facts."""
    atoms = last_model(_grounded(facts, profile, files))
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


def _choices(ctl: clingo.Control) -> list[tuple[int, clingo.Symbol, clingo.Symbol]]:
    """``open_choice(I, Fact, Atom)`` atoms of the grounding (asp/open.lp)."""
    out = []
    for atom in ctl.symbolic_atoms.by_signature("open_choice", 3):
        at, fact, choice = atom.symbol.arguments
        out.append((at.number, fact, choice))
    return sorted(out)


def solve_open(facts: Iterable[clingo.Symbol], profile: str,
               files: Sequence[Path] | None = None) -> Answer:
    """Solve, enumerating the possibilities of what the record leaves open (asp/open.lp)."""
    ctl = _grounded(facts, profile, files)
    choices = _choices(ctl)
    if not choices:
        atoms = last_model(ctl)
        if atoms is None:
            raise EngineError("the rules have no answer set for this log")
        return Answer(atoms, atoms)
    brave = consequences(ctl, "brave")
    cautious = consequences(ctl, "cautious")
    if brave is None or cautious is None:
        raise EngineError("the rules have no answer set for this log")
    return open_answer(cautious, brave, choices,
                       lambda choice, value: consequences(ctl, "cautious", [(choice, value)]))


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
