"""The pipeline: Incidents in, Rulings out, for every command, the desk and the batch.

One object, ``Pipeline``, judges by one rule set choice (profile, house rules, settings):
each incident is made ready once (``prepare``: its rule set, its replay, its facts), the
rules are run by rules/engine.py (one incident alone, or a chunk in one clingo run per
rule set), and the atoms are read into a Ruling (ruling/atoms.py).  ``judge`` of
ruling/judge.py is this object's ``judge``; the batch, the desk's batches, the committee's
case runs and diffs are its ``judge_many``.  The two give the same rulings, ruling for
ruling (tests/batch/test_batch.py).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from clingo import Symbol

from adjudicator.analysis import picture, replay
from adjudicator.facts import hand_facts, win_facts
from adjudicator.facts import record as facts
from adjudicator.language import family_check
from adjudicator.language.errors import LogError
from adjudicator.language.incident import Incident
from adjudicator.rules import engine
from adjudicator.rules.families import FAMILIES
from adjudicator.rules.files import not_judged
from adjudicator.rules.rulesets import (
    House,
    RuleSet,
    own_rules,
    profile_family,
    profile_names,
    rule_set,
)
from adjudicator.ruling.atoms import ruling_of
from adjudicator.ruling.model import Ruling


@dataclass(frozen=True)
class Prepared:
    """One incident made ready for the rules, each step once: the rule set it is judged
    by, its replay and the facts built from both.  The single path (``Pipeline.judge``)
    and the chunk (``Pipeline.judge_many``) take it alike."""

    incident: Incident
    rules: RuleSet
    timeline: replay.Timeline
    facts: list[Symbol]


class Judged(NamedTuple):
    """One incident's outcome in a chunk: its ruling, or the error judging it raised, and
    the seconds it took (its own steps and its share of the chunk's clingo run)."""

    ruling: Ruling | Exception
    seconds: float


class Pipeline:
    """Judges incidents by one choice of rules: ``profile`` (else each log's own 規則:
    line), or the ``house`` rules (which name the profile they rest on), with
    ``settings`` over them."""

    def __init__(self, profile: str | None = None, settings: dict[str, str] | None = None,
                 house: House | None = None) -> None:
        self.profile, self.settings, self.house = profile, settings, house

    def prepare(self, incident: Incident) -> Prepared:
        """``incident`` made ready (``LogError`` as ``rules_of``)."""
        rules = rules_of(incident, self.profile, self.settings, self.house)
        timeline = replay.replay(incident)
        return Prepared(incident, rules, timeline, facts_of(incident, timeline, rules))

    @staticmethod
    def rule(ready: Prepared, answer: engine.Answer | None = None) -> Ruling:
        """The ruling of a prepared incident; ``answer`` when the rules were run already
        (a chunk's clingo run), else they are run for this incident alone."""
        if answer is None:
            answer = engine.solve_open(ready.facts, ready.rules.profile)
        return ruling_of(ready.incident, ready.rules, answer, ready.timeline)

    def judge(self, incident: Incident) -> Ruling:
        """One incident's ruling, its rules run for it alone."""
        return self.rule(self.prepare(incident))

    def judge_many(self, incidents: Sequence[Incident]) -> list[Judged]:
        """Each incident's outcome, in order, judged together: one clingo run for all
        those of one rule set.  An error in one is that incident's, never the chunk's."""
        out: list[Judged | None] = [None] * len(incidents)
        groups: dict[RuleSet, list[_Ready]] = defaultdict(list)
        for slot, incident in enumerate(incidents):
            start = time.perf_counter()
            try:
                ready = self.prepare(incident)
            except Exception as err:  # noqa: BLE001 - that incident's outcome
                out[slot] = Judged(err, time.perf_counter() - start)
                continue
            groups[ready.rules].append(_Ready(slot, ready, time.perf_counter() - start))
        for chosen, group in groups.items():
            for ready, result in zip(group, self._rule_chunk(chosen, group), strict=True):
                out[ready.slot] = result
        return [r for r in out if r is not None]

    def _rule_chunk(self, rules: RuleSet, group: list[_Ready]) -> list[Judged]:
        start = time.perf_counter()
        try:
            answers: list[engine.Answer | None] = engine.solve_many(
                [r.prepared.facts for r in group], rules.profile)
        except Exception:  # noqa: BLE001 - the chunk together failed: each log alone
            answers = [None] * len(group)
        shared = (time.perf_counter() - start) / len(group)
        out: list[Judged] = []
        for ready, answer in zip(group, answers, strict=True):
            start = time.perf_counter()
            try:
                result: Ruling | Exception = self.rule(ready.prepared, answer)
            except Exception as err:  # noqa: BLE001 - that incident's outcome
                result = err
            out.append(Judged(result, ready.seconds + shared + time.perf_counter() - start))
        return out


@dataclass
class _Ready:
    slot: int
    prepared: Prepared
    seconds: float  # spent on this log alone so far


def rules_of(incident: Incident, profile: str | None = None,
             settings: dict[str, str] | None = None, house: House | None = None) -> RuleSet:
    """The rule set a log is judged by; ``LogError`` (on its 規則: line) if there is none
    or it is of another family than the log."""
    name = profile_of(incident, house.profile if house is not None else profile)
    return rule_set(name, house, settings)


def profile_of(incident: Incident, profile: str | None = None) -> str:
    """The profile a log is judged by; ``LogError`` (on its 規則: line) if there is none."""
    name = profile or incident.header.profile
    if name not in profile_names():
        line = incident.header.lines.get("規則", 1)
        lines = incident.source.splitlines()
        raise LogError(line, 1, f"規則名稱（{'、'.join(profile_names())}）",
                       source_line=lines[line - 1] if 0 < line <= len(lines) else "",
                       detail=not_judged(name) or f"沒有「{name}」這個規則")
    _same_family(incident, name)
    family_check.check(incident, profile_family(name))
    return name


def _same_family(incident: Incident, name: str) -> None:
    """A log that names its profile is judged only by a profile of the same family (a
    Taiwanese log is no Guangdong log); ``LogError`` on its 規則: line otherwise."""
    own = incident.header.profile
    line = incident.header.lines.get("規則")
    if line is None or own == name or own not in profile_names():
        return
    mine, asked = profile_family(own), profile_family(name)
    if mine != asked:
        lines = incident.source.splitlines()
        raise LogError(line, 1, f"{asked.name} 一族的規則名稱",
                       source_line=lines[line - 1] if 0 < line <= len(lines) else "",
                       detail=f"此紀錄依 {own}（{mine.name} 一族）記錄，"
                              f"不能改依 {name}（{asked.name} 一族）裁決")



def symbols_of(incident: Incident, settings: dict[str, str] | None = None) -> list[Symbol]:
    """Every fact the rules read for this incident: the log, its wins, its hands, and
    the values of its own profile with ``settings`` over them."""
    rules = rule_set(own_rules(incident.header.profile).profile, settings=settings)
    return facts_of(incident, replay.replay(incident), rules)


def facts_of(incident: Incident, timeline: replay.Timeline,
             rules: RuleSet | None = None) -> list[Symbol]:
    """The facts of the log and its replay, and the values of ``rules`` (by default the
    log's own profile's)."""
    rules = rules or own_rules(incident.header.profile)
    family = FAMILIES[rules.family]
    symbols = facts.all_facts(incident, timeline, rules)
    # The declared wins, worked out once: their facts, and the hands they show.
    wins = win_facts.declared_wins(incident, timeline, family)
    symbols += win_facts.win_facts(incident, timeline, family, wins)
    # What the tiles allow at each act, analysed once and stated whole.
    hands = picture.picture(incident, timeline, family, hand_facts.win_anchors(wins))
    symbols += hand_facts.hand_facts(incident, timeline, hands)
    return symbols
