"""The running ledger of a match: money per person (by name), hand after hand.

A hand's balances are per chair (and per outside bettor, by name); the seating of that hand
says whose chair it was.  Money stays exact (Fractions); every hand's balances sum to zero,
so the totals do too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from adjudicator.language.incident import Money
from adjudicator.language.seats import SEATS, Seat


def by_name(balances: Mapping[str, Money], seating: Mapping[Seat, str]) -> dict[str, Fraction]:
    """A hand's balances with each chair replaced by the player who sat in it."""
    out: dict[str, Fraction] = {}
    for who, amount in balances.items():
        name = seating.get(who, who)  # type: ignore[call-overload]
        out[name] = out.get(name, Fraction(0)) + Fraction(amount)
    return out


@dataclass
class Ledger:
    """Totals per person; players first (in their starting chairs), then outside bettors."""

    names: list[str] = field(default_factory=list)
    totals: dict[str, Fraction] = field(default_factory=dict)

    @classmethod
    def of_players(cls, seating: Mapping[Seat, str], others: Iterable[str] = ()) -> Ledger:
        ledger = cls()
        for name in [seating[s] for s in SEATS] + list(others):
            ledger.enter(name)
        return ledger

    def enter(self, name: str) -> None:
        if name not in self.totals:
            self.names.append(name)
            self.totals[name] = Fraction(0)

    def add(self, amounts: Mapping[str, Fraction]) -> dict[str, Fraction]:
        """Book one hand; the totals after it."""
        for name, amount in amounts.items():
            self.enter(name)
            self.totals[name] += amount
        return dict(self.totals)

    def total(self) -> Fraction:
        return sum(self.totals.values(), Fraction(0))
