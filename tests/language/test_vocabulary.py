"""The vocabulary (adjudicator/language/vocabulary.py) and its other spellings agree: the
grammar's terminals, the error messages' examples, asp/verb_class.lp and the JSON schema
(the last three made from the verb table: python -m adjudicator.language.verb_files)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from adjudicator.language import errors, reader, verb_files
from adjudicator.language.vocabulary import (
    ACT_TERMINALS,
    FINDING_KINDS,
    OFFENCES,
    PROPERTIES,
    VERB_CLASSES,
    VERBS,
    canonical,
    terminal_of,
)

_PIECE = re.compile(r"\[([^\]]+)\]|([^\[\]()|?*+\\.])")


def _spellings(pattern: str) -> set[str]:
    """Every word a terminal's pattern (alternatives of literals and [..] classes) takes."""
    if pattern.startswith("(?:") and pattern.endswith(")"):
        pattern = pattern[3:-1]
    words: set[str] = set()
    for branch in pattern.split("|"):
        pieces = _PIECE.findall(branch)
        assert "".join(f"[{c}]" if c else ch for c, ch in pieces) == branch, branch
        words |= {"".join(p) for p in itertools.product(*[c or ch for c, ch in pieces])}
    return words


def _terminal_words(*names: str) -> set[str]:
    terminals = {t.name: t.pattern.value for t in reader.parser().terminals}
    return {canonical(w) for n in names for w in _spellings(terminals[n])}


def test_the_grammars_acts_are_the_verbs() -> None:
    assert _terminal_words(*ACT_TERMINALS) == set(VERBS)
    for terminal in ACT_TERMINALS:
        assert _terminal_words(terminal) == {v for v in VERBS if terminal_of(v) == terminal}


def test_the_grammars_act_terminals_are_the_generated_ones() -> None:
    grammar = verb_files.grammar_path().read_text(encoding="utf-8")
    assert verb_files.act_terminals() in grammar
    assert verb_files.with_act_terminals(grammar) == grammar


def test_the_schema_lists_the_tables_verbs() -> None:
    schema = verb_files.schema_path().read_text(encoding="utf-8")
    assert verb_files.with_schema_verbs(schema) == schema


def test_the_grammars_offences_are_the_offences() -> None:
    assert _terminal_words("OFFENCE") == set(OFFENCES)


def test_the_grammars_finding_kinds_are_the_kinds() -> None:
    assert _terminal_words("KIND") == set(FINDING_KINDS)


def test_every_property_holds_known_verbs() -> None:
    assert set(VERB_CLASSES) == set(PROPERTIES)
    for name, verbs in VERB_CLASSES.items():
        assert verbs <= set(VERBS), name


def test_asp_verb_class_lp_is_the_generated_one() -> None:
    # Regenerate with: python -m adjudicator.language.verb_files
    path = verb_files.verb_class_path()
    assert path.read_text(encoding="utf-8") == verb_files.verb_class_lp()


def test_every_property_is_asked() -> None:
    # A property no chapter and no module reads is a column nobody consults.
    root = Path(__file__).resolve().parents[2]
    text = "\n".join(p.read_text(encoding="utf-8") for d in ("asp", "adjudicator")
                     for p in (root / d).rglob("*") if p.suffix in (".lp", ".py")
                     and p.name not in ("verb_class.lp", "vocabulary.py"))
    asked = (r"verb_class\({},", r'VERB_CLASSES\["{}"\]', r"class:{}(?!\w)")
    unread = [name for name in PROPERTIES
              if not any(re.search(a.format(name), text) for a in asked)]
    assert not unread, unread


@pytest.mark.parametrize(("trigger", "vocabulary"), [
    ("V_PLAIN", VERBS), ("OFFENCE", OFFENCES), ("KIND", FINDING_KINDS)])
def test_error_messages_name_only_vocabulary_words(trigger: str,
                                                   vocabulary: tuple[str, ...]) -> None:
    kind = next(k for k in errors._KINDS if trigger in k.trigger)
    examples = kind.long.split("例如", 1)[1].split()
    assert examples and set(examples) <= set(vocabulary), examples


def test_error_words_name_every_terminal_of_the_grammar() -> None:
    # expected.toml is data: a terminal renamed in the grammar, or one added without words,
    # would leave a message saying 別的寫法 where it could say what belonged there.
    terminals = {t.name for t in reader.parser().terminals} | {"$END"}
    named = set().union(*(kind.trigger | kind.covers for kind in errors._KINDS))
    assert named <= terminals, named - terminals
    assert terminals - named == {"COMMENT", "WS"}  # ignored by the parser, never expected
