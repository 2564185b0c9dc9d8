"""What each rule costs to ground: CPU ms per rule for the batch engine and long logs.

Run: ``.venv/bin/python bench/ground_profile.py [--reps N] [--top N] [--quick]``.

For each workload the program is built as its engine builds it (rules/engine.py's
transformed statements for a chunk of 16 bench-corpus logs; rules/engine.py's program for
one long log of 2,000 and 10,000 acts) and grounded once: that time (CPU, median of
``--reps``) is the whole.  Then every atom of that grounding becomes a fact of a fresh
Control, and each rule is grounded alone as its own program part, its head replaced by a
fresh predicate over the body's global variables, so that its body is instantiated over
the domains the whole grounding had.  Each rule is grounded ``--reps`` times (a fresh
head each time) and its median is taken, less the median cost of a part whose
rule grounds nothing (the floor each ground call pays over the domains).  This is an
estimate: negative literals over facts simplify, heads cost nothing, and a rule
that reads its own head recursively is instantiated once over the final domain (not
semi-naively), but the ordering of rules by cost is what it is for.

Prints the top rules by CPU ms (file:line, the rule, ms, ms per act or per log) and, for
the long logs, the rules whose cost grows faster than the record (2,000 → 10,000 acts).

Asserts nothing: the machine is shared and noisy (CPU time, medians).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import clingo
from clingo import ast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.analysis.replay import replay  # noqa: E402
from adjudicator.facts import record  # noqa: E402
from adjudicator.language.reader import read  # noqa: E402
from adjudicator.rules import engine, incident_argument, program  # noqa: E402
from adjudicator.ruling.judge import facts_of  # noqa: E402
from bench.judge import make_log, make_pung_log  # noqa: E402

CORPUS = [ROOT / "bench" / ".corpus" / "300", Path("/work/main/bench/.corpus/300")]
PROFILE = "tw16"


@dataclass
class Built:
    """A workload's program: its statements other than rules, its rules (with where each
    comes from), and its facts."""

    name: str
    per: int  # acts (single log) or logs (chunk): what "per" figures divide by
    per_what: str
    others: list[ast.AST]
    rules: list[tuple[program.Rule, ast.AST]]
    facts: list[clingo.Symbol]


def _quiet(_code: clingo.MessageCode, _message: str) -> None:
    pass


def _facts(text: str) -> list[clingo.Symbol]:
    incident = read(text)
    return facts_of(incident, replay(incident), None)


def single(name: str, text: str, acts: int) -> Built:
    """The single-log engine's program for one log (rules/engine.py's _grounded)."""
    facts = _facts(text)
    chosen = engine.select(PROFILE, [[record.plain(sym) for sym in facts]])
    kept = chosen.rules
    others = [s for path in chosen.files for s in program.others(path)]
    others += list(program.parse_text(engine.declared(chosen.every)))
    return Built(name, acts, "act", others, [(r, r.statement) for r in kept], facts)


def chunk(paths: Sequence[Path]) -> Built:
    """The batch engine's transformed program for a chunk of logs (rules/engine.py's
    solve_many, rebuilt from its own helpers).  The facts are given as atoms with their
    incident first: solve_many reads them through bridge rules and an @facts context,
    which costs its own share of the grounding, left out here (the rules' is measured)."""
    groups = [_facts(p.read_text(encoding="utf-8")) for p in paths]
    taken = [[record.plain(sym) for sym in group] for group in groups]
    chosen = engine.select(PROFILE, taken)
    dynamic = incident_argument.seeded(chosen.every, taken)
    kept = chosen.rules
    others = [s for path in chosen.files
              for s in incident_argument.transformed(path, dynamic).others]
    others += list(incident_argument.declared(chosen.every, dynamic))
    rules = [(r, incident_argument.transformed(r.path, dynamic).rules[r.index]) for r in kept]
    facts: list[clingo.Symbol] = []
    for i, group in enumerate(taken):
        number = record.term(i)
        facts.append(clingo.Function(incident_argument.GUARD, [number]))
        facts += [clingo.Function(name, [number, *map(record.term, args)]) for name, args in group]
    return Built(f"chunk of {len(paths)} corpus logs", len(paths), "log", others, rules, facts)


def _add_facts(ctl: clingo.Control, facts: Sequence[clingo.Symbol]) -> None:
    with ctl.backend() as backend:
        for sym in facts:
            backend.add_rule([backend.add_atom(sym)])


def ground_whole(built: Built) -> tuple[float, list[clingo.Symbol]]:
    """CPU seconds to ground the whole program, and every atom of its grounding."""
    ctl = clingo.Control(logger=_quiet)
    with ast.ProgramBuilder(ctl) as builder:
        for stm in built.others:
            builder.add(stm)
        for _, stm in built.rules:
            builder.add(stm)
    _add_facts(ctl, built.facts)
    start = time.process_time()
    ctl.ground([("base", [])])
    spent = time.process_time() - start
    return spent, [a.symbol for a in ctl.symbolic_atoms]


class _Vars(ast.Transformer):
    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_Variable(self, node: ast.AST) -> ast.AST:  # noqa: N802 (clingo's name)
        if node.name != "_" and node.name not in self.names:
            self.names.append(node.name)
        return node


def _global_vars(body: Sequence[ast.AST]) -> list[str]:
    """The variables of a body outside aggregate elements and conditions."""
    found = _Vars()
    for lit in body:
        if lit.ast_type != ast.ASTType.Literal:
            continue  # a conditional literal: its variables are local or bound elsewhere
        atom = lit.atom
        if atom.ast_type in (ast.ASTType.SymbolicAtom, ast.ASTType.Comparison,
                             ast.ASTType.BooleanConstant):
            found(atom)
        elif atom.ast_type == ast.ASTType.BodyAggregate:
            for guard in (atom.left_guard, atom.right_guard):
                if guard is not None:
                    found(guard.term)
    return found.names


def probe(stm: ast.AST, k: int) -> ast.AST:
    """The rule with its head replaced by ``probe_head(k, V1, …)`` over its body's global
    variables.  One name for all (a new name is a new domain, and clingo goes over every
    domain on each ground call: the calls would grow dearer one by one)."""
    loc = stm.location
    args = [ast.SymbolicTerm(loc, clingo.Number(k))]
    args += [ast.Variable(loc, v) for v in _global_vars(stm.body)]
    atom = ast.SymbolicAtom(ast.Function(loc, "probe_head", args, False))
    return stm.update(head=ast.Literal(loc, ast.Sign.NoSign, atom))


# Two floors: a part whose rule grounds nothing, and one whose rule derives one atom (a
# ground call that derives anything at all pays for going over clingo's domains).
_NULL = program.parse_text("probe_none_head(X) :- probe_none(X).")[0]
_FACT = program.parse_text("probe_fact.")[0]


BLOCK = 48  # probes per Control: clingo goes over every part added so far on each ground


def per_rule(built: Built, atoms: Sequence[clingo.Symbol], reps: int) -> list[float]:
    """Each rule's estimated CPU seconds of grounding (median of ``reps``, less the floor
    of a part that derives nothing or something, as it did)."""
    loc = _NULL.location
    clock = time.process_time
    serial = iter(range(1 << 30))
    ctl = clingo.Control()

    # Each probe is added just before it is grounded (clingo rewrites every statement added
    # and not yet grounded on each ground call), and a Control takes at most BLOCK probes.
    def timed(stm: ast.AST) -> tuple[float, bool]:
        k = next(serial)
        with ast.ProgramBuilder(ctl) as builder:
            builder.add(ast.Program(loc, f"probe_{k}", []))
            builder.add(probe(stm, k))
        before = len(ctl.symbolic_atoms)
        start = clock()
        ctl.ground([(f"probe_{k}", [])])
        spent = clock() - start
        return spent, len(ctl.symbolic_atoms) > before

    samples: list[list[float]] = [[] for _ in built.rules]
    for _ in range(reps):
        for first in range(0, len(built.rules), BLOCK):
            ctl = clingo.Control(logger=_quiet)
            _add_facts(ctl, atoms)
            ctl.ground([("base", [])])
            floor = {False: statistics.median(timed(_NULL)[0] for _ in range(3)),
                     True: statistics.median(timed(_FACT)[0] for _ in range(3))}
            for k in range(first, min(first + BLOCK, len(built.rules))):
                spent, made = timed(built.rules[k][1])
                samples[k].append(spent - floor[made])
    return [max(0.0, statistics.median(got)) for got in samples]


def where(rule: program.Rule) -> str:
    stm = rule.statement
    try:
        rel = rule.path.relative_to(ROOT / "asp")
    except ValueError:
        rel = Path(*rule.path.parts[-2:])
    return f"{rel}:{stm.location.begin.line}"


def _short(text: str, width: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _median(f: Callable[[], float], reps: int) -> float:
    return statistics.median(f() for _ in range(reps))


def report(built: Built, reps: int, top: int) -> dict[str, float]:
    whole = _median(lambda: ground_whole(built)[0], reps)
    _, atoms = ground_whole(built)
    costs = per_rule(built, atoms, reps)
    print(f"\n== {built.name}: {len(built.rules)} rules, {len(built.facts)} facts, "
          f"{len(atoms)} atoms ({len(atoms) / built.per:.1f} per {built.per_what})")
    print(f"   whole ground: {whole * 1e3:.1f} ms CPU ({whole * 1e3 / built.per:.3f} ms per "
          f"{built.per_what}); sum of the rules alone: {sum(costs) * 1e3:.1f} ms")
    order = sorted(range(len(costs)), key=lambda k: -costs[k])
    print(f"   {'ms':>8} {'ms/' + built.per_what:>9}  where  rule")
    for k in order[:top]:
        rule = built.rules[k][0]
        print(f"   {costs[k] * 1e3:8.2f} {costs[k] * 1e3 / built.per:9.4f}  {where(rule)}  "
              f"{_short(rule.text)}")
    return {f"{where(built.rules[k][0])}  {_short(built.rules[k][0].text, 90)}": costs[k]
            for k in range(len(costs))}


def whole_figures(folder: Path | None, reps: int) -> None:
    """Only the whole grounding (CPU, median of ``reps``): ms a log over the corpus in chunks
    of 16, and s for single logs of 2,000 and 10,000 acts (make_log and make_pung_log)."""
    if folder is not None:
        paths = sorted(folder.glob("*.log"))
        chunks = [chunk(paths[i:i + 16]) for i in range(0, len(paths), 16)]
        runs = [sum(ground_whole(c)[0] for c in chunks) for _ in range(reps)]
        print(f"chunks of 16 ({len(paths)} corpus logs): ground "
              f"{statistics.median(runs) * 1e3 / len(paths):.2f} ms CPU a log "
              f"(runs: {', '.join(f'{r * 1e3 / len(paths):.2f}' for r in runs)})")
    for maker in (make_log, make_pung_log):
        for n in (2000, 10000):
            built = single(f"{maker.__name__}({n})", maker(n), n)
            runs = [ground_whole(built)[0] for _ in range(reps)]
            print(f"{built.name}: ground {statistics.median(runs):.3f} s CPU "
                  f"(runs: {', '.join(f'{r:.3f}' for r in runs)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--quick", action="store_true", help="the chunk and 2,000 acts only")
    parser.add_argument("--only", choices=["chunk", "long"], help="one kind of workload")
    parser.add_argument("--pung", action="store_true", help="make_pung_log, not make_log")
    parser.add_argument("--whole", action="store_true",
                        help="only the whole grounding of every workload, no rule by rule")
    args = parser.parse_args()
    folder = next((f for f in CORPUS if f.is_dir()), None)
    if args.whole:
        whole_figures(folder, args.reps)
        return
    if args.only == "long":
        pass
    elif folder is None:
        print("no bench corpus: run bench/corpus.py first")
    else:
        report(chunk(sorted(folder.glob("*.log"))[:16]), args.reps, args.top)
    maker = make_pung_log if args.pung else make_log
    long: dict[int, dict[str, float]] = {}
    for n in () if args.only == "chunk" else (2000,) if args.quick else (2000, 10000):
        long[n] = report(single(f"{maker.__name__}({n})", maker(n), n), args.reps, args.top)
    if len(long) == 2:
        small, big = long[2000], long[10000]
        print("\n== grows faster than the record (2,000 → 10,000 acts is 5×): "
              "ratio of ms, rules above 6× and 1 ms at 10,000")
        grow = [(big[k] / small[k] if small.get(k) else float("inf"), k)
                for k in big if big[k] > 1e-3]
        for ratio, k in sorted(grow, reverse=True):
            if ratio > 6:
                print(f"   {ratio:7.1f}×  {big[k] * 1e3:8.2f} ms  {k}")


if __name__ == "__main__":
    main()
