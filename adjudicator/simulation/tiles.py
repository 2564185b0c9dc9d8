"""The 144-tile set: 34 kinds × 4 (ids 0–33) and 8 flowers (ids 34–41), with their names.

Ids: 0–8 萬, 9–17 筒, 18–26 索, 27–30 東南西北, 31–33 白發中, 34–41 春夏秋冬梅蘭竹菊.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

N_KINDS = 34
FLOWERS = tuple(range(34, 42))
NUMERALS = "一二三四五六七八九"
SUITS = "萬筒索"
HONOURS = "東南西北白發中"
FLOWER_NAMES = "春夏秋冬梅蘭竹菊"
SEATS = ("東", "南", "西", "北")


def full_set() -> list[int]:
    """All 144 tiles, in id order."""
    return [k for k in range(N_KINDS) for _ in range(4)] + list(FLOWERS)


def is_flower(t: int) -> bool:
    return t >= 34


def suit_of(t: int) -> int | None:
    """0/1/2 for 萬/筒/索, None for honours and flowers."""
    return t // 9 if t < 27 else None


def name(t: int) -> str:
    if t < 27:
        return NUMERALS[t % 9] + SUITS[t // 9]
    if t < 34:
        return HONOURS[t - 27]
    return FLOWER_NAMES[t - 34]


def names(tiles: Iterable[int]) -> str:
    """Tiles as a referee writes them: suited tiles grouped per suit (一二三萬), honours and
    flowers one by one, in id order."""
    ordered = sorted(tiles)
    words: list[str] = []
    for s in range(3):
        run = [t for t in ordered if suit_of(t) == s]
        if run:
            words.append("".join(NUMERALS[t % 9] for t in run) + SUITS[s])
    words += [name(t) for t in ordered if t >= 27]
    return " ".join(words)


def seat_after(seat: int, k: int = 1) -> int:
    return (seat + k) % 4


def counts(tiles: Iterable[int]) -> Counter[int]:
    return Counter(tiles)
