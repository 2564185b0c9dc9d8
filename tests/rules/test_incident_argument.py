"""The batch engine's chapters with an incident argument (rules/incident_argument.py): what
the transform gives a rule, and that the cache folder only ever saves the work of making it.
That the batch engine rules as the single-log one does is tests/batch/test_batch.py's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.rules import incident_argument, program
from adjudicator.rules.engine import chapter_files

VAR, GUARD = incident_argument.VAR, incident_argument.GUARD


def _rule(text: str, dynamic: set[tuple[str, int]]) -> str:
    [stm] = program.parse_text(text)
    return str(incident_argument._rule(stm, frozenset(dynamic)))


def test_a_dynamic_atom_gets_the_incident_argument_and_binds_it() -> None:
    assert _rule("won(S) :- act(A, S, \"和\"), not late(A).", {("act", 3), ("won", 1)}) == \
        f'won({VAR},S) :- act({VAR},A,S,"和"); not late(A).'


def test_a_rule_with_nothing_to_bind_the_incident_gets_the_guard() -> None:
    assert _rule("quiet :- not act(_, _, \"和\").", {("act", 3), ("quiet", 0)}) == \
        f'quiet({VAR}) :- {GUARD}({VAR}); not act({VAR},_,_,"和").'


def test_a_rule_of_static_predicates_stays_as_it_is() -> None:
    assert _rule("next(S, T) :- seat(S), seat(T), T = S + 1.", {("act", 3)}) == \
        "next(S,T) :- seat(S); seat(T); T = (S+1)."


def test_a_chapters_shape_names_head_and_body_predicates() -> None:
    [stm] = program.parse_text("a(X) : b(X) :- c(X), not d(X), #count { Y : e(Y) } > 0.")
    heads: list[tuple[str, int]] = []
    bodies: list[tuple[str, int]] = []
    incident_argument._atoms(stm.head, heads)
    for lit in stm.body:
        incident_argument._atoms(lit, bodies)
    assert (heads, bodies) == ([("a", 1), ("b", 1)], [("c", 1), ("d", 1), ("e", 1)])


FILES = chapter_files("tw16")[:6]
DYNAMIC = frozenset({("act", 4), ("seat", 1)})


def _made() -> list[tuple[object, list[str], list[str]]]:
    out = []
    for path in FILES:
        done = incident_argument.transformed(path, DYNAMIC)
        out.append((incident_argument.chapter(path), sorted(map(str, done.rules.values())),
                    list(map(str, done.others))))
    return out


def test_what_is_stored_is_read_back_as_made(forget: Callable[[], None], folder: Path,
                                             not_worked_out: Callable[..., None]) -> None:
    made = _made()
    assert len(list(folder.glob("shape-*.json"))) == len(FILES)
    assert len(list(folder.glob("transformed-*.json"))) == len(FILES)
    forget()
    not_worked_out((incident_argument, "_shaped"), (incident_argument, "_rule"))
    assert _made() == made


@pytest.mark.parametrize("damage", [b"\x80 not what was stored {",
                                    b'{"rules": [[1]], "others": 3}',
                                    b'{"rules": [[0, 1, "x"]], "shown": [], "mentioned": []}'])
def test_a_damaged_entry_is_made_again(forget: Callable[[], None], folder: Path,
                                       damage: bytes) -> None:
    made = _made()
    for entry in folder.iterdir():
        entry.write_bytes(damage)
    forget()
    assert _made() == made
