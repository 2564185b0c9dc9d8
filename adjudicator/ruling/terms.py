"""Clingo symbols read into Python once (per judgement, or per process: ``shared``).

Every part of a ``clingo.Symbol`` (its name, arguments, number, text) is a foreign call
through cffi, and a judgement with open facts reads the same atoms again for every
possibility (undetermined.py): at 10,000 acts those calls alone cost more than the
solving.  ``Terms`` hands back the same ``Term`` for a symbol every time, and a Term reads
each part of its symbol at most once, when first asked for: a possibility pays a dictionary
look-up per atom, and a part nobody reads (a nested reason's arguments until it is worded)
is never read.

A ``Term`` answers what the ruling code asks of a symbol (``type``, ``name``,
``arguments``, ``number``, ``string``, ``str()``) with the same values, and orders as the
symbol does (clingo's order: the rulings sort premises and rows by it).  Terms come from
one ``Terms`` (a judgement's own, or the process's, ``shared``), one per distinct symbol, so
a Term equals only itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from operator import attrgetter
from typing import Protocol

from clingo import Symbol, SymbolType


class SymbolLike(Protocol):
    """What the ruling code reads of a symbol: a ``clingo.Symbol`` or a ``Term``."""

    @property
    def type(self) -> SymbolType: ...
    @property
    def name(self) -> str: ...
    @property
    def arguments(self) -> Sequence[SymbolLike]: ...
    @property
    def number(self) -> int: ...
    @property
    def string(self) -> str: ...


class Term:
    """One symbol's parts, each read from clingo once, when first asked for (see the
    module's docstring).  Each reads as the symbol does, and so raises as clingo does when
    the symbol has no such part (a number's name)."""

    def __init__(self, symbol: Symbol, terms: Terms) -> None:
        self.symbol = symbol
        self._terms = terms

    # Each part is its symbol's, read from clingo on first use and kept (cached_property).
    type: cached_property[SymbolType] = cached_property(attrgetter("symbol.type"))
    name: cached_property[str] = cached_property(attrgetter("symbol.name"))
    number: cached_property[int] = cached_property(attrgetter("symbol.number"))
    string: cached_property[str] = cached_property(attrgetter("symbol.string"))
    _text: cached_property[str] = cached_property(lambda self: str(self.symbol))

    @cached_property
    def arguments(self) -> tuple[Term, ...]:
        return tuple(map(self._terms, self.symbol.arguments))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Term({self})"

    def __lt__(self, other: Term) -> bool:
        return self.symbol < other.symbol

    def __gt__(self, other: Term) -> bool:
        return other.symbol < self.symbol


class Terms:
    """One Term per distinct symbol (keyed by the symbol itself), for one judgement or for
    the judgements a process makes in turn (``shared``)."""

    def __init__(self) -> None:
        self._read: dict[Symbol, Term] = {}

    def __call__(self, symbol: Symbol) -> Term:
        term = self._read.get(symbol)
        if term is None:  # setdefault: a Term made at once elsewhere is the one kept
            term = self._read.setdefault(symbol, Term(symbol, self))
        return term

    def __len__(self) -> int:
        return len(self._read)


# Symbols remembered across judgements, at most (the table is begun again when full).
LIMIT = 1 << 15
_SHARED = [Terms()]


def shared() -> Terms:
    """The process's Terms, for a judgement to read its atoms with: the atoms of a rule
    set's values, clauses and common reasons recur in every ruling, and are read from clingo
    once.  Begun again when full, between judgements (a judgement keeps the table it was
    given), so memory stays flat and a Term still equals only itself within a judgement."""
    if len(_SHARED[0]) >= LIMIT:
        _SHARED[0] = Terms()
    return _SHARED[0]
