"""The kinds of the rules' inputs, as asp/inputs.lp declares them.

Each ``#defined`` input of asp/inputs.lp stands under a ``%! kind:`` line saying what sort
of statement Python makes with it: ``record`` (what the record states), ``combinatorics``
(what the tiles allow) or ``rule_set`` (the profile's values).  tests/rules/test_inputs.py
checks the facts of the corpus against this table.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from adjudicator.rules.files import INPUTS_LP
from adjudicator.rules.signatures import Signature

KINDS = ("record", "combinatorics", "rule_set")
KIND_LINE = "%! kind:"
_DEFINED = re.compile(r"#defined\s+([a-z_][A-Za-z0-9_]*)/(\d+)\s*\.")


@cache
def input_kinds(path: Path = INPUTS_LP) -> dict[Signature, str]:
    """Every declared input with its kind; ValueError for an unknown or missing kind."""
    out: dict[Signature, str] = {}
    kind: str | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(KIND_LINE):
            kind = line[len(KIND_LINE):].strip()
            if kind not in KINDS:
                raise ValueError(f"{path.name}:{n}: kind {kind!r} is not one of {KINDS}")
            continue
        code = line.split("%", 1)[0]
        for name, arity in _DEFINED.findall(code):
            if kind is None:
                raise ValueError(f"{path.name}:{n}: {name}/{arity} before any {KIND_LINE} line")
            out[(name, int(arity))] = kind
    return out
