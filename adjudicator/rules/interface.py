"""The declared interface between Python and the rules: each input predicate
(asp/inputs.lp) and each shown one (asp/show.lp) with its arguments named and typed.

Each is declared once, on a ``%! args:`` line of its file (inputs.lp, show.lp, open.lp),
next to its ``#defined`` or ``#show``: ``%! args: payment(id: term, frm: term, …)``.  A
type is ``int`` (a number), ``str`` (a string) or ``term`` (any term: a reason, an id).  The table
read here is what ruling/atoms.py reads atoms by (``Predicate.read``: a row whose fields
are named), and what tests/rules/test_interface.py checks the facts Python makes and the
atoms the rules show against, over the corpus.
"""

from __future__ import annotations

import keyword
import re
from collections import namedtuple
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from clingo import Symbol, SymbolType

from adjudicator.rules.files import ASP, INPUTS_LP

SHOW_LP = ASP / "show.lp"
# Every file with a #show: show.lp what a ruling is read from, open.lp the open choices
# the engine asks about.
SHOWN_FILES = (SHOW_LP, ASP / "open.lp")
ARGS_LINE = "%! args:"
TYPES: dict[str, SymbolType | None] = {"int": SymbolType.Number, "str": SymbolType.String,
                                       "term": None}
_DECLARATION = re.compile(r"([a-z_][A-Za-z0-9_]*)\((.*)\)")
_STATED = re.compile(r"#(show|defined)\s+([a-z_][A-Za-z0-9_]*)/(\d+)\s*\.")


@dataclass(frozen=True)
class Predicate:
    """One declared predicate: its name, its arguments' names and their types."""

    name: str
    fields: tuple[str, ...]
    types: tuple[str, ...]

    @property
    def arity(self) -> int:
        return len(self.fields)

    @cached_property
    def row(self) -> type:
        """The row an atom of it is read into: a named tuple of its arguments."""
        return namedtuple(self.name, self.fields)  # type: ignore[misc]  # noqa: PYI024

    def read(self, arguments: Sequence[Any]) -> Any:
        """An atom's arguments (Symbols or ruling/terms.py's Terms) as a row of this
        predicate, each under its declared name."""
        return self.row._make(arguments)

    def fits(self, symbol: Symbol) -> bool:
        """Whether a symbol is an atom of this predicate with arguments of the declared
        types."""
        args = symbol.arguments
        return symbol.name == self.name and len(args) == self.arity and all(
            TYPES[t] is None or a.type == TYPES[t] for a, t in zip(args, self.types,
                                                                  strict=True))


def _predicate(text: str, where: str) -> Predicate:
    found = _DECLARATION.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"{where}: expected name(field: type, …) after {ARGS_LINE}")
    name, inner = found.groups()
    fields, types = [], []
    for part in filter(None, (p.strip() for p in inner.split(","))):
        field, _, kind = (s.strip() for s in part.partition(":"))
        if not field.isidentifier() or keyword.iskeyword(field) or field.startswith("_") \
                or kind not in TYPES:
            raise ValueError(f"{where}: {part!r} is not a field name and one of {tuple(TYPES)}")
        fields.append(field)
        types.append(kind)
    return Predicate(name, tuple(fields), tuple(types))


def declared(path: Path) -> dict[str, Predicate]:
    """The predicates a file declares on its ``%! args:`` lines, by name; ValueError for a
    declaration twice, or one without its ``#show``/``#defined`` of the same arity."""
    out: dict[str, Predicate] = {}
    stated: set[tuple[str, int]] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(ARGS_LINE):
            pred = _predicate(line[len(ARGS_LINE):], f"{path.name}:{n}")
            if pred.name in out:
                raise ValueError(f"{path.name}:{n}: {pred.name} declared twice")
            out[pred.name] = pred
        stated.update((name, int(arity)) for _, name, arity
                      in _STATED.findall(line.split("%", 1)[0]))
    for pred in out.values():
        if (pred.name, pred.arity) not in stated:
            raise ValueError(f"{path.name}: {pred.name}/{pred.arity} is declared but neither "
                             "shown nor defined")
    return out


@cache
def shown() -> dict[str, Predicate]:
    """What the rules show: what a ruling is read from (asp/show.lp) and the open choices
    (asp/open.lp)."""
    return {name: pred for path in SHOWN_FILES for name, pred in declared(path).items()}


@cache
def inputs() -> dict[str, Predicate]:
    """What Python states (asp/inputs.lp)."""
    return declared(INPUTS_LP)
