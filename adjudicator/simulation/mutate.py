"""Random edits of a log's text, for the property "judging gives a ruling or a LogError".

Each mutation is one edit, drawn from a seeded rng: delete, duplicate or swap lines, change
a tile or a seat, insert odd Unicode (line and paragraph separators, NEL, VT, FF, a lone CR,
NUL, BOM, combining marks, full-width forms), a number of 5,000 digits, or truncate.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .tiles import FLOWER_NAMES, HONOURS, NUMERALS, SEATS

ODD = ["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\r", "\x00", "\ufeff", "\u0301",
       "\u200b", "：", "（", "）", "\t", "\ud7ff", "𠀀", "\U0010ffff", "#", "＃", "?", "？",
       "期望:", "紀錄:", "牌牆:", "-", "0", "十萬", "用", "補"]
TILE_CHARS = NUMERALS + "萬筒索" + HONOURS + FLOWER_NAMES


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _replace_char(text: str, rng: random.Random, pool: str, into: str) -> str:
    spots = [i for i, c in enumerate(text) if c in pool]
    if not spots:
        return text
    i = rng.choice(spots)
    return text[:i] + rng.choice(into) + text[i + 1:]


def change_tile(text: str, rng: random.Random) -> str:
    return _replace_char(text, rng, TILE_CHARS, TILE_CHARS)


def change_seat(text: str, rng: random.Random) -> str:
    return _replace_char(text, rng, "".join(SEATS), "".join(SEATS))


def insert_odd(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(ODD) + text[i:]


def huge_number(text: str, rng: random.Random) -> str:
    digits = str(rng.randrange(1, 10)) + "".join(rng.choice("0123456789") for _ in range(4999))
    spots = [i for i, c in enumerate(text) if c.isdigit()] or [0]
    i = rng.choice(spots)
    return text[:i] + digits + text[i:]


def truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


MUTATIONS: dict[str, Callable[[str, random.Random], str]] = {
    "delete_line": delete_line,
    "duplicate_line": duplicate_line,
    "swap_lines": swap_lines,
    "change_tile": change_tile,
    "change_seat": change_seat,
    "insert_odd": insert_odd,
    "huge_number": huge_number,
    "truncate": truncate,
}


def mutate(text: str, seed: int, kinds: tuple[str, ...] | None = None) -> tuple[str, list[str]]:
    """``text`` after one to three random edits drawn from ``kinds`` (default: all), and
    the names of the edits made."""
    rng = random.Random(seed)
    pool = sorted(kinds or MUTATIONS)
    made = [rng.choice(pool) for _ in range(rng.randint(1, 3))]
    for kind in made:
        text = MUTATIONS[kind](text, rng)
    return text, made
