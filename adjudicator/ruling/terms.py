"""Clingo symbols read into Python once per judgement.

Every part of a ``clingo.Symbol`` (its name, arguments, number, text) is a foreign call
through cffi, and a judgement with open facts reads the same atoms again for every
possibility (undetermined.py): at 10,000 acts those calls alone cost more than the
solving.  ``Terms`` reads each distinct symbol once and hands back the same ``Term`` for
it every time after, so a possibility pays only a dictionary look-up per atom.

A ``Term`` answers what the ruling code asks of a symbol (``type``, ``name``,
``arguments``, ``number``, ``string``, ``str()``) with the same values, and orders as the
symbol does (clingo's order: the rulings sort premises and rows by it).  Terms come from
one ``Terms`` per judgement, one per distinct symbol, so a Term equals only itself.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    """One symbol's parts, read once (see the module's docstring)."""

    __slots__ = ("symbol", "type", "name", "arguments", "_value", "_text")

    def __init__(self, symbol: Symbol, terms: Terms) -> None:
        self.symbol = symbol
        self.type = symbol.type
        self.name = symbol.name if self.type == SymbolType.Function else ""
        self.arguments: tuple[Term, ...] = (
            tuple(map(terms, symbol.arguments)) if self.type == SymbolType.Function else ())
        self._value: int | str | None = (
            symbol.number if self.type == SymbolType.Number
            else symbol.string if self.type == SymbolType.String else None)
        self._text: str | None = None  # str(symbol), read when first asked for

    @property
    def number(self) -> int:
        if self.type != SymbolType.Number:
            raise TypeError(f"{self} is not a number")
        return self._value  # type: ignore[return-value]

    @property
    def string(self) -> str:
        if self.type != SymbolType.String:
            raise TypeError(f"{self} is not a string")
        return self._value  # type: ignore[return-value]

    def __str__(self) -> str:
        if self._text is None:
            self._text = str(self.symbol)
        return self._text

    def __repr__(self) -> str:
        return f"Term({self})"

    def __lt__(self, other: Term) -> bool:
        return self.symbol < other.symbol

    def __gt__(self, other: Term) -> bool:
        return other.symbol < self.symbol


class Terms:
    """The Terms of one judgement: one per distinct symbol (keyed by the symbol itself)."""

    def __init__(self) -> None:
        self._read: dict[Symbol, Term] = {}

    def __call__(self, symbol: Symbol) -> Term:
        term = self._read.get(symbol)
        if term is None:
            term = self._read[symbol] = Term(symbol, self)
        return term
