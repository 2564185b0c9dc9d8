"""What one hand state allows, form by form, each distinct hand analysed once a process.

A hand state is its concealed playing tiles and its laid-out sets, in a family whose
complete hand has ``sets`` sets and a pair.  The forms are the standard shape ("std") and
the family's special one: 嚦咕嚦咕 ("ligu", the 16-tile family) or 十三幺 ("13yao", the
13+1 families).  The same hand is asked about at every discard until its owner acts again,
and hands recur across the logs of a batch, so each answer is remembered by the hand's
tiles, its sets and its family, in a bounded table (``MEMO_SIZE`` hands each): a
long-lived worker's memory stays flat however many logs it judges.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from adjudicator.analysis import hands
from adjudicator.language.incident import Meld

MEMO_SIZE = 1 << 15
"""Hands remembered by each table (the latest used are kept)."""

Forms = tuple[str, ...]
"""The forms an answer holds in, standard first; () when it holds in none."""

Waits = Mapping[int, Forms]
"""Each tile that completes the hand, with the form it completes it in (one: a tile that
completes a standard hand is not counted to the special form)."""


def special_form(sets: int) -> str:
    """The name of the special form of the family whose hand has ``sets`` sets."""
    return "ligu" if sets == hands.FAMILY_SETS_16 else "13yao"


@dataclass(frozen=True, slots=True)
class Hand:
    """A fully known hand: its concealed playing tiles (sorted) and its laid-out sets."""

    tiles: tuple[int, ...]
    melds: tuple[Meld, ...] = ()

    def count(self, tile: int) -> int:
        return self.tiles.count(tile)

    def without(self, tile: int) -> Hand | None:
        """The hand less one ``tile``; None when it holds none."""
        if tile not in self.tiles:
            return None
        k = self.tiles.index(tile)
        return Hand(self.tiles[:k] + self.tiles[k + 1:], self.melds)

    def adding(self, *more: int) -> Hand:
        tiles = list(self.tiles)
        for t in more:
            insort(tiles, t)
        return Hand(tuple(tiles), self.melds)

    def fixed_tiles(self) -> tuple[int, ...]:
        return tuple(t for m in self.melds for t in m.tiles)


def waits(hand: Hand, sets: int) -> Waits | None:
    """The tiles completing ``hand`` in each form; None when it is not waiting-sized."""
    if len(hand.tiles) != 3 * (sets - len(hand.melds)) + 1:
        return None
    return _waits(hand.tiles, len(hand.melds), hand.fixed_tiles() if hand.melds else (), sets)


@lru_cache(maxsize=MEMO_SIZE)
def _waits(tiles: tuple[int, ...], n_melds: int, fixed: tuple[int, ...],
           sets: int) -> Waits | None:
    # Counted from the tiles by hands.special_waits itself: the concealed tiles, and with
    # the laid-out ones what the player holds (flowers and unknown tiles are not counted).
    try:
        std, special = hands.special_waits(tiles, sets - n_melds, held=tiles + fixed,
                                           family_sets=sets)
    except ValueError:  # more sets laid out than the family's hand has
        return None
    forms = {t: ("std",) for t in std}
    forms.update({t: (special_form(sets),) for t in special})
    return MappingProxyType(forms)


def completed_by(before: Hand, tile: int, after: Hand, sets: int) -> Forms | None:
    """The forms ``after`` is complete in when it is ``before`` with ``tile`` drawn, read
    from ``before``'s waits (the hand the player's last discard left, analysed then);
    None when it is not that hand, or ``before`` holds four of ``tile`` (the waits leave
    out a fifth copy; ``complete`` does not)."""
    if after.melds != before.melds or len(after.tiles) != len(before.tiles) + 1 \
            or before.count(tile) + before.fixed_tiles().count(tile) >= 4 \
            or before.adding(tile).tiles != after.tiles:
        return None
    found = waits(before, sets)
    return None if found is None else found.get(tile, ())


def complete(hand: Hand, sets: int) -> Forms | None:
    """The forms ``hand`` is complete in; None when it is not the size of a complete hand."""
    if len(hand.tiles) != 3 * (sets - len(hand.melds)) + 2:
        return None
    return _complete(hand.tiles, len(hand.melds), sets)


@lru_cache(maxsize=MEMO_SIZE)
def _complete(tiles: tuple[int, ...], n_melds: int, sets: int) -> Forms | None:
    try:
        std, special = hands.special_complete(hands.as_counts(tiles), sets - n_melds,
                                              family_sets=sets)
    except ValueError:
        return None
    return ("std",) * std + (special_form(sets),) * special


def ready(hand: Hand, sets: int) -> Forms | None:
    """聽牌, by form: a waiting-sized hand that waits, or a drawn-sized one that is complete
    or has a discard leaving it waiting; None when it is neither size."""
    found = waits(hand, sets)
    if found is not None:
        return _in_order(found.values(), sets)
    forms = complete(hand, sets)
    if forms is None:
        return None
    groups = [forms]
    for t in set(hand.tiles):
        groups += (waits(hand.without(t), sets) or {}).values()  # type: ignore[arg-type]
    return _in_order(groups, sets)


def _in_order(forms: Iterable[Forms], sets: int) -> Forms:
    """The forms named in ``forms``, each once, standard first."""
    named = {f for group in forms for f in group}
    return tuple(f for f in ("std", special_form(sets)) if f in named)


def clear() -> None:
    """Forget every hand (for benchmarks that want a cold start)."""
    _waits.cache_clear()
    _complete.cache_clear()
