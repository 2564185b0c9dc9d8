"""Putting a reason atom into words: the context the words need, and the word files.

The words themselves are data, one TOML file per chapter family beside this module
(``general.toml`` …).  A file has ``[words]`` (a reason functor → its wording),
``[assumptions]`` (an open.lp choice atom → its wording when taken ``yes`` and ``no``) and
``[tables]`` (a closed set of values → words, e.g. a stage number).  A wording is a
template: ``{seat}`` is the player the reason is about, ``{N}`` the reason's N-th argument
as written, ``{N:SPEC}`` that argument read by SPEC — ``act`` (the act at that place in
the record), ``actor`` (who made it), ``tile``, ``relation`` (what that player is to
``{seat}``), ``others`` (the number less one) or the name of a table.  A reason with more
than one wording names them; ``CHOOSERS`` picks one by the arguments.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import TypeVar

from clingo import SymbolType

from adjudicator import cache as disk
from adjudicator.language import tiles as T
from adjudicator.language.incident import Act
from adjudicator.language.seats import SEATS, distance
from adjudicator.report.acts import act_words
from adjudicator.ruling.terms import SymbolLike

FAMILIES = ("general", "open", "order", "priority", "offences", "gd")


class Context:
    """What the words need from the log: acts by their place in the record."""

    def __init__(self, acts: list[Act]) -> None:
        self.acts = acts

    def seq(self, index: int) -> int | None:
        return self.acts[index - 1].seq if 0 < index <= len(self.acts) else None

    def act_text(self, index: int) -> str:
        if not 0 < index <= len(self.acts):
            return "（紀錄外）"
        act = self.acts[index - 1]
        return f"第 {act.seq} 手「{act_words(act)}」"

    def actor(self, index: int) -> str:
        return str(self.acts[index - 1].actor) if 0 < index <= len(self.acts) else "?"


def term_value(sym: SymbolLike) -> int | str:
    """A term as a plain value: a number, a string's text, anything else as written."""
    if sym.type == SymbolType.Number:
        return sym.number
    if sym.type == SymbolType.String:
        return sym.string
    return str(sym)


Render = Callable[[Context, str, list[SymbolLike]], str]
AssumptionWords = Callable[[Context, list[SymbolLike], bool], str]
Tables = dict[str, dict[str, str]]

# Reasons worded differently by their arguments: which wording fits.
CHOOSERS: dict[str, Callable[[list[SymbolLike]], str]] = {
    "wrong_kong": lambda a: ("act_only" if len(a) == 1
                             else "concealed" if term_value(a[1]) == "暗" else "default"),
    "passed": lambda a: "default" if a[0].number != a[1].number else "reported",
    "disturbed": lambda a: ("of_player" if term_value(a[0]) == "手牌"
                            and term_value(a[1]) != "none" else "default"),
    "pays_for": lambda a: "alone" if a[1].number == 1 else "default",
    "replacement_back": lambda a: "unknown_tile" if a[1].number < 0 else "default",
    "restore_exposed": lambda a: "default" if a[2].number > 0 else "undrawn",
    "discard_drawn": lambda a: "default" if a[2].number > 0 else "undrawn",
    "gd_count": lambda a: "short" if a[1].number < 14 else "long",
}


def _relation(c: Context, seat: str, sym: SymbolLike) -> str:
    other = str(term_value(sym))
    if seat not in SEATS or other not in SEATS:
        return "other"
    return str(distance(seat, other))  # type: ignore[arg-type]


# Readings of an argument that compute; any other SPEC names a table.
_SPECS: dict[str, Callable[[Context, str, SymbolLike], str]] = {
    "": lambda c, s, x: str(term_value(x)),
    "act": lambda c, s, x: c.act_text(x.number),
    "actor": lambda c, s, x: c.actor(x.number),
    "tile": lambda c, s, x: T.name(x.number),
    "others": lambda c, s, x: str(x.number - 1),
}
# Readings that compute a table's key rather than the words.
_KEYS: dict[str, Callable[[Context, str, SymbolLike], str]] = {"relation": _relation}


@dataclass(frozen=True)
class Template:
    """One wording, parsed once: literal text and the fields between it."""

    parts: tuple[tuple[str, str | None, str], ...]  # (text, field, spec)
    tables: Tables

    @classmethod
    def parse(cls, text: str, tables: Tables, where: str) -> Template:
        parts = []
        for literal, name, spec, conversion in string.Formatter().parse(text):
            if name is not None and (conversion or not (name == "seat" or name.isdigit())):
                raise ValueError(f"{where}: field {{{name}}} is not {{seat}} or {{N}}")
            if name is not None and spec not in _SPECS and spec not in tables:
                raise ValueError(f"{where}: no reading or table called {spec!r}")
            parts.append((literal, name, spec or ""))
        return cls(tuple(parts), tables)

    def __call__(self, c: Context, seat: str, args: list[SymbolLike]) -> str:
        out: list[str] = []
        for literal, name, spec in self.parts:
            out.append(literal)
            if name == "seat":
                out.append(seat)
            elif name is not None:
                out.append(self._field(c, seat, args[int(name)], spec))
        return "".join(out)

    def _field(self, c: Context, seat: str, sym: SymbolLike, spec: str) -> str:
        if spec in _SPECS:
            return _SPECS[spec](c, seat, sym)
        key = _KEYS[spec](c, seat, sym) if spec in _KEYS else str(term_value(sym))
        return self.tables[spec].get(key, key)


@dataclass(frozen=True)
class Wordings:
    """A reason's wordings by name; ``CHOOSERS`` picks one (or the only one)."""

    name: str
    by_variant: Mapping[str, Template]

    def __call__(self, c: Context, seat: str, args: list[SymbolLike]) -> str:
        choose = CHOOSERS.get(self.name)
        variant = choose(args) if choose is not None else "default"
        return self.by_variant[variant](c, seat, args)


@dataclass(frozen=True)
class Assumption:
    """An open choice's wording when taken and when not."""

    yes: Template
    no: Template

    def __call__(self, c: Context, args: list[SymbolLike], value: bool) -> str:
        return (self.yes if value else self.no)(c, "", args)


W = TypeVar("W")


def merge(parts: Iterable[Mapping[str, W]]) -> dict[str, W]:
    """One table from the families' tables; a name with words in two of them is an error
    (one of them would silently be lost)."""
    out: dict[str, W] = {}
    for part in parts:
        twice = sorted(out.keys() & part.keys())
        if twice:
            raise ValueError(f"reasons given words twice: {', '.join(twice)}")
        out.update(part)
    return out


def load() -> tuple[dict[str, Render], dict[str, AssumptionWords]]:
    """Every family's wordings (TOML itself refuses a key written twice in one file)."""
    data = {f: disk.read_toml((files(__package__) / f"{f}.toml").read_text(encoding="utf-8"))
            for f in FAMILIES}
    tables: Tables = merge({k: {str(n): w for n, w in t.items()}
                            for k, t in d.get("tables", {}).items()} for d in data.values())
    words: list[dict[str, Render]] = []
    assumptions: list[dict[str, AssumptionWords]] = []
    for family, d in data.items():
        where = f"{family}.toml"
        words.append({})
        for name, text in d.get("words", {}).items():
            variants = {"default": text} if isinstance(text, str) else text
            if (len(variants) > 1) != (name in CHOOSERS):
                raise ValueError(f"{where}: {name} needs one wording, or a chooser")
            words[-1][name] = Wordings(name, {
                v: Template.parse(t, tables, f"{where} {name}") for v, t in variants.items()})
        assumptions.append({
            name: Assumption(Template.parse(w["yes"], tables, f"{where} {name}"),
                             Template.parse(w["no"], tables, f"{where} {name}"))
            for name, w in d.get("assumptions", {}).items()})
    return merge(words), merge(assumptions)
