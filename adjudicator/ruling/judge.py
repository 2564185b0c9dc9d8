"""The judgement of one log, as every command asks for it: a thin call of the pipeline
(ruling/pipeline.py), which the batch, the desk and the committee use for chunks."""

from __future__ import annotations

from adjudicator.language import reader
from adjudicator.language.incident import Incident
from adjudicator.rules import engine
from adjudicator.rules.rulesets import House
from adjudicator.ruling.model import Ruling
from adjudicator.ruling.pipeline import (
    Pipeline,
    Prepared,
    facts_of,
    profile_of,
    rules_of,
    symbols_of,
)

__all__ = ["Prepared", "facts_of", "judge", "judge_text", "prepare", "profile_of", "rule",
           "rules_of", "symbols_of"]


def judge_text(text: str, *, profile: str | None = None,
               settings: dict[str, str] | None = None, house: House | None = None) -> Ruling:
    """Judge a log; ``LogError`` if it does not parse or names an unknown profile."""
    return judge(reader.read(text), profile=profile, settings=settings, house=house)


def judge(incident: Incident, *, profile: str | None = None,
          settings: dict[str, str] | None = None, house: House | None = None) -> Ruling:
    """The ruling of ``incident`` by ``profile`` (else its own 規則: line), or by the
    ``house`` rules (which name the profile they rest on), with ``settings`` over them."""
    return Pipeline(profile, settings, house).judge(incident)


def prepare(incident: Incident, profile: str | None = None,
            settings: dict[str, str] | None = None, house: House | None = None) -> Prepared:
    """``incident`` made ready for the rules (``Pipeline.prepare``)."""
    return Pipeline(profile, settings, house).prepare(incident)


def rule(ready: Prepared, answer: engine.Answer | None = None) -> Ruling:
    """The ruling of a prepared incident (``Pipeline.rule``)."""
    return Pipeline.rule(ready, answer)
