"""Throughput of adjudicator.hands, with the `mahjong` (riichi) package as a yardstick.

Run: ``python bench/hands.py``.  Fixed seed; about 15 s.  Figures are plain lines, e.g.
``decompositions/s (17 tiles): 215,000``.

``adjudicator.hands`` memoises its analysis per block (one suit, or the honours), so each
figure is given twice: steady (repeated passes over the same hands, the memo warm) and a
first pass over the hands from empty memo tables.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator import hands  # noqa: E402

SEED = 20240611
N_HANDS = 20_000
MIN_SECONDS = 0.4  # repeat passes over the hands until a measurement has run this long
REPEATS = 3

Counts = list[int]


def random_set(rng: random.Random) -> list[int]:
    """A random chow (suits only) or pung, as three tiles."""
    if rng.random() < 0.6:
        first = rng.randrange(3) * 9 + rng.randrange(7)
        return [first, first + 1, first + 2]
    tile = rng.randrange(34)
    return [tile, tile, tile]


def complete_hand(rng: random.Random, n_sets: int) -> Counts:
    """A random complete hand of ``n_sets`` sets + a pair, never more than 4 of a tile."""
    while True:
        counts = [0] * 34
        for tile in [t for _ in range(n_sets) for t in random_set(rng)] + [rng.randrange(34)] * 2:
            counts[tile] += 1
        if max(counts) <= 4:
            return counts


def wall_hand(rng: random.Random, size: int) -> Counts:
    """``size`` tiles dealt from a shuffled 136-tile wall (mostly far from ready)."""
    counts = [0] * 34
    for tile in rng.sample([t for t in range(34) for _ in range(4)], size):
        counts[tile] += 1
    return counts


def minus_one(rng: random.Random, counts: Counts) -> Counts:
    """A complete hand with one random tile taken out: ready by construction."""
    out = list(counts)
    out[rng.choice([t for t in range(34) if out[t]])] -= 1
    return out


def rate(fn: Callable[[Counts], object], inputs: Sequence[Counts]) -> float:
    """Calls per second of ``fn`` over ``inputs`` (passes repeated for ``MIN_SECONDS``)."""
    calls = 0
    start = time.perf_counter()
    while True:
        for item in inputs:
            fn(item)
        calls += len(inputs)
        elapsed = time.perf_counter() - start
        if elapsed >= MIN_SECONDS:
            return calls / elapsed


def first_pass(fn: Callable[[Counts], object], inputs: Sequence[Counts]) -> float:
    """Calls per second over one pass of ``inputs`` starting from empty memo tables.

    The steady figure (``rate``) mostly finds every block already analysed; this one pays
    for analysing each new block once, as a process judging fresh hands would.
    """
    hands.clear_caches()
    start = time.perf_counter()
    for item in inputs:
        fn(item)
    return len(inputs) / (time.perf_counter() - start)


def best(measure: Callable[[], float]) -> float:
    """The best of ``REPEATS`` runs: the machine is shared, and noise only ever slows."""
    return max(measure() for _ in range(REPEATS))


def show(label: str, fn: Callable[[Counts], object], inputs: Sequence[Counts]) -> None:
    cold = best(lambda: first_pass(fn, inputs))
    print(f"{label}: {best(lambda: rate(fn, inputs)):,.0f}")
    print(f"{label[:-1]}, first pass from empty memo): {cold:,.0f}")


def yardstick(complete14: Sequence[Counts]) -> None:
    """The `mahjong` package's is_agari on 14-tile complete hands, if installed."""
    try:
        from mahjong.agari import Agari
    except ImportError:
        print("mahjong is_agari/s (14 tiles): skipped (the mahjong package is not installed)")
        return
    agari = Agari()
    assert all(agari.is_agari(c) for c in complete14)
    print(f"mahjong is_agari/s (14 tiles): {best(lambda: rate(agari.is_agari, complete14)):,.0f}")


def main() -> None:
    rng = random.Random(SEED)
    complete17 = [complete_hand(rng, 5) for _ in range(N_HANDS)]
    complete14 = [complete_hand(rng, 4) for _ in range(N_HANDS)]
    dealt16 = [wall_hand(rng, 16) for _ in range(N_HANDS)]
    ready16 = [minus_one(rng, c) for c in complete17]
    print(f"hands: {N_HANDS:,} of each kind, seed {SEED}")

    counts17 = [len(hands.decompositions(c, 5)) for c in complete17]
    print(f"mean decompositions per complete 17-tile hand: {sum(counts17) / N_HANDS:.3f}")
    show("decompositions/s (17 tiles)", lambda c: hands.decompositions(c, 5), complete17)
    show("is_complete/s (17 tiles)", lambda c: hands.is_complete(c, 5), complete17)
    show("waits/s (16 tiles dealt from the wall)", lambda c: hands.waits(c, 5), dealt16)
    show("waits/s (16 tiles, ready)", lambda c: hands.waits(c, 5), ready16)
    show("is_complete/s (14 tiles)", lambda c: hands.is_complete(c, 4), complete14)
    yardstick(complete14)


if __name__ == "__main__":
    main()
