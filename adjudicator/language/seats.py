"""The four chairs and their order: the one definition of seat order.

Play goes 東 → 南 → 西 → 北 → 東.  A seat is its Traditional character everywhere in the
program (the ruling JSON uses the same characters).
"""

from __future__ import annotations

from typing import Literal

Seat = Literal["東", "南", "西", "北"]
SEATS: tuple[Seat, ...] = ("東", "南", "西", "北")

# Forms the incident language accepts for a chair.
SEAT_ALIASES: dict[str, Seat] = {
    "東": "東", "东": "東", "東家": "東", "东家": "東",
    "南": "南", "南家": "南",
    "西": "西", "西家": "西",
    "北": "北", "北家": "北",
}


def index(seat: Seat) -> int:
    return SEATS.index(seat)


def offset(seat: Seat, steps: int) -> Seat:
    """The chair ``steps`` places on in turn order (1 = 下家, 3 = 上家, 2 = 對家)."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def next_seat(seat: Seat) -> Seat:
    """下家: the player who plays after ``seat``."""
    return offset(seat, 1)


def prev_seat(seat: Seat) -> Seat:
    """上家: the player who plays before ``seat``."""
    return offset(seat, 3)


def distance(frm: Seat, to: Seat) -> int:
    """How many places after ``frm`` the chair ``to`` sits in turn order (0–3)."""
    return (SEATS.index(to) - SEATS.index(frm)) % 4


def seat_wind(seat: Seat, open_seat: Seat) -> int:
    """The seat wind of ``seat`` (0 東 … 3 北) when ``open_seat`` is 東位 (開門序)."""
    return distance(open_seat, seat)
