"""The declared interface (rules/interface.py): every input of asp/inputs.lp and every
shown predicate of asp/show.lp is declared once with its arguments named and typed, and
over the corpus every fact Python makes and every atom the rules show is of its declared
shape."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import clingo
import pytest

from adjudicator.committee.cases import case_settings, find_cases, read_case
from adjudicator.rules import engine, interface
from adjudicator.rules.files import INPUTS_LP
from adjudicator.ruling.judge import prepare

ROOT = Path(__file__).resolve().parents[2]


def _stated(path: Path, what: str) -> set[tuple[str, int]]:
    code = "\n".join(line.split("%", 1)[0] for line in path.read_text("utf-8").splitlines())
    return {(n, int(a)) for n, a in re.findall(rf"#{what}\s+([a-z_]\w*)/(\d+)\s*\.", code)}


def test_every_shown_and_every_input_predicate_is_declared_with_its_arguments() -> None:
    every = [p for p in (ROOT / "asp").rglob("*.lp") if "#show" in p.read_text("utf-8")]
    assert sorted(every) == sorted(interface.SHOWN_FILES)
    shown = {(p.name, p.arity) for p in interface.shown().values()}
    inputs = {(p.name, p.arity) for p in interface.inputs().values()}
    assert shown == {s for path in interface.SHOWN_FILES for s in _stated(path, "show")}
    assert inputs == _stated(INPUTS_LP, "defined")


def test_a_declaration_names_each_argument_and_gives_a_known_type(tmp_path: Path) -> None:
    lp = tmp_path / "x.lp"
    lp.write_text("%! args: paid(frm: str, to: str, tai: int)\n#show paid/3.\n", "utf-8")
    [paid] = interface.declared(lp).values()
    row = paid.read([clingo.String("東"), clingo.String("南"), clingo.Number(2)])
    assert (row.frm.string, row.to.string, row.tai.number) == ("東", "南", 2)
    assert paid.fits(clingo.Function("paid", [clingo.String("東"), clingo.String("南"),
                                              clingo.Number(2)]))
    assert not paid.fits(clingo.Function("paid", [clingo.Number(1), clingo.String("南"),
                                                  clingo.Number(2)]))
    for bad in ("paid(frm: seat, to: str, tai: int)", "paid(from: str, to: str, tai: int)",
                "paid frm: str"):
        lp.write_text(f"%! args: {bad}\n#show paid/3.\n", "utf-8")
        with pytest.raises(ValueError, match="x.lp:1"):
            interface.declared(lp)
    lp.write_text("%! args: paid(frm: str, to: str)\n#show paid/3.\n", "utf-8")
    with pytest.raises(ValueError, match="paid/2 is declared but neither"):
        interface.declared(lp)


@cache
def _corpus() -> tuple[list[clingo.Symbol], list[clingo.Symbol]]:
    """Every fact Python makes for the corpus's logs, and every atom the rules show in
    some answer set of each."""
    facts: list[clingo.Symbol] = []
    shown: list[clingo.Symbol] = []
    for path in find_cases([ROOT / "cases", ROOT / "examples"], ("*.case", "*.log")):
        incident = read_case(path)
        try:
            ready = prepare(incident, settings=case_settings(incident.source) or None)
        except Exception:  # noqa: BLE001 - a refused log makes no facts
            continue
        facts += ready.facts
        shown += engine.solve_open(ready.facts, ready.rules.profile).brave
    return facts, shown


@pytest.mark.parametrize("side", ["inputs", "shown"])
def test_the_corpus_facts_and_atoms_are_of_their_declared_shape(side: str) -> None:
    facts, shown = _corpus()
    table = interface.inputs() if side == "inputs" else interface.shown()
    symbols = facts if side == "inputs" else shown
    assert symbols
    off = sorted({str(s) for s in symbols if s.name not in table or not table[s.name].fits(s)})
    assert off == []
