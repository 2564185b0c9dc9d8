"""A verb with no properties changes no ruling.

A copy of the verb table gains 報數 (a made-up announcement: terminal V_PLAIN, no
properties) and the grammar is made again from it (adjudicator/language/verb_files.py).
Then a sample of the cases is judged twice: as written, and with a 報數 by the seat that
acted last slipped in before every act after the first.  Whatever a chapter asks of a verb
it asks through verb_class/2, so the inserted acts must change no finding, win, payment or
balance.  (The acts after an insertion are numbered on by one, so that every gap the
referee left in the numbering stays where it was.)
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from adjudicator.committee.cases import case_settings
from adjudicator.language import reader, validate, verb_files, vocabulary
from adjudicator.language.errors import LogError
from adjudicator.language.incident import Act, Incident
from adjudicator.language.seats import SEATS
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import to_dict

ROOT = Path(__file__).resolve().parents[2]
INERT = "報數"
# Every fourth case (the whole corpus is judged by bench/rulings.py).
SAMPLE = sorted((ROOT / "cases").rglob("*.case"))[::4]
# And every case whose rules link one act to the next (a win and the hand laid down after it).
SAMPLE += [p for p in (ROOT / "cases" / "record" / "robbed_kong_bare_win_pushed.case",
                       ROOT / "cases" / "calls" / "win_pushed_hand_shown_pair_not_pung.case")
           if p not in SAMPLE]
# What names an act by its place or quotes it: it moves with the inserted lines.
_PLACE = {"at", "why", "reasons", "acts", "act", "line", "text", "warnings", "problems",
          "uncertain", "premises"}


@pytest.fixture(scope="module")
def inert_grammar(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    table = {**vocabulary.VERB_TABLE, INERT: ("V_PLAIN", "announcement", "")}
    grammar = tmp_path_factory.mktemp("grammar") / "incident.lark"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(vocabulary, "VERB_TABLE", table)
        mp.setattr(verb_files, "VERB_TABLE", table)
        mp.setattr(validate, "VERBS", (*vocabulary.VERBS, INERT))
        text = verb_files.with_act_terminals(reader.GRAMMAR.read_text(encoding="utf-8"))
        grammar.write_text(text, encoding="utf-8")
        mp.setattr(reader, "GRAMMAR", grammar)
        reader.parser.cache_clear()
        yield
    reader.parser.cache_clear()


def _with_inert_acts(incident: Incident) -> Incident:
    record, shift, last = [], 0, None
    for item in incident.record:
        if isinstance(item, Act):
            if last is not None and last.actor in SEATS:
                shift += 1
                record.append(Act(seq=last.seq + 1, line=item.line, actor=last.actor,
                                  verb=INERT, numbered=False))
            item = dataclasses.replace(item, seq=item.seq + shift)
            last = item
        record.append(item)
    return dataclasses.replace(incident, record=record)


def _outcome(data: object) -> object:
    """A ruling without what names acts by their place."""
    if isinstance(data, dict):
        return {k: _outcome(v) for k, v in data.items() if k not in _PLACE}
    if isinstance(data, list):
        return sorted((_outcome(v) for v in data), key=lambda v: json.dumps(v, sort_keys=True))
    return data


def test_the_inert_verb_is_read(inert_grammar: None) -> None:
    acts = reader.read(f"規則: tw16\n紀錄:\n東 摸 三萬\n東 {INERT}\n東 打 三萬\n").acts
    assert [a.verb for a in acts] == ["摸", INERT, "打"]


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: str(p.relative_to(ROOT / "cases")))
def test_an_act_without_properties_changes_no_ruling(path: Path, inert_grammar: None) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        incident = reader.read(text)
    except LogError:
        pytest.skip("a case about a log that is refused")
    settings = case_settings(text)
    try:
        before = to_dict(judge(incident, settings=settings))
    except LogError:
        pytest.skip("a case about a log that is refused")
    after = to_dict(judge(_with_inert_acts(incident), settings=settings))
    assert _outcome(after) == _outcome(before)
