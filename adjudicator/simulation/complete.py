"""The simulator's own test of a complete hand (和牌型態), independent of the engine.

A 16-tile hand wins with 17 tiles counting each exposed set (and kong) as three: the
concealed tiles must make (5 − exposed sets) sets plus one pair.  tw16 also takes 嚦咕嚦咕
(seven pairs and a triplet, fully concealed: no exposed set and no concealed kong); four of
a kind counts as two pairs there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

N_SETS = 5


def _sets(c: tuple[int, ...], need: int) -> bool:
    """Whether counts ``c`` (34 entries) split into exactly ``need`` sets and nothing else."""
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return need == 0
    if need == 0:
        return False
    lst = list(c)
    if lst[i] >= 3:
        lst[i] -= 3
        if _sets_cached(tuple(lst), need - 1):
            return True
        lst[i] += 3
    if i < 27 and i % 9 <= 6 and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        return _sets_cached(tuple(lst), need - 1)
    return False


@lru_cache(maxsize=200_000)
def _sets_cached(c: tuple[int, ...], need: int) -> bool:
    return _sets(c, need)


def _as_counts(tiles: Iterable[int]) -> list[int] | None:
    c = [0] * 34
    for t in tiles:
        if t >= 34:
            return None
        c[t] += 1
    return c


def is_complete(concealed: Iterable[int], n_exposed: int, *, ligu: bool = True) -> bool:
    """Whether ``concealed`` with ``n_exposed`` exposed sets (kongs included) is a win."""
    c = _as_counts(concealed)
    if c is None:
        return False
    need = N_SETS - n_exposed
    if sum(c) != 3 * need + 2:
        return False
    if ligu and n_exposed == 0 and _ligu(c):
        return True
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_cached(tuple(c), need)
            c[p] += 2
            if ok:
                return True
    return False


def _ligu(c: list[int]) -> bool:
    odd = [t for t in range(34) if c[t] % 2]
    return len(odd) == 1 and c[odd[0]] == 3


def winning_tiles(concealed: Iterable[int], n_exposed: int) -> set[int]:
    """The kinds that complete the hand (the hand's waits)."""
    held = list(concealed)
    have = Counter(held)
    return {t for t in range(34) if have[t] < 4 and is_complete(held + [t], n_exposed)}
