"""The shuffled wall: draws from the front, replacements (補) from the kong end.

Taiwanese rule (000 台.25 殘牌固定保留8墩, 001 荒局): 16 tiles are always kept back and never
drawn; a replacement from the kong end takes one drawable tile like any draw, so the kept
tail stays 16 (the incident language's `牌牆: N` counts drawable tiles only).
"""

from __future__ import annotations

import random

from .tiles import full_set

KEPT = 16


class WallExhausted(Exception):
    """A replacement was owed with no drawable tile left (the game is dropped and redone)."""


class Wall:
    def __init__(self, rng: random.Random) -> None:
        self.tiles = full_set()
        rng.shuffle(self.tiles)

    @property
    def drawable(self) -> int:
        return len(self.tiles) - KEPT

    def deal(self, n: int) -> list[int]:
        taken, self.tiles = self.tiles[:n], self.tiles[n:]
        return taken

    def peek(self) -> int:
        return self.tiles[0]

    def draw(self) -> int:
        if self.drawable <= 0:
            raise WallExhausted
        return self.tiles.pop(0)

    def replace(self) -> int:
        if self.drawable <= 0:
            raise WallExhausted
        return self.tiles.pop()
