"""Tiles: the one place where tile identities and their names are defined.

A tile is an ``int``:

* 0–8 萬 (characters), 9–17 筒 (circles), 18–26 索 (bamboo), each 一 to 九;
* 27–30 the winds 東 南 西 北, 31–33 the dragons 白 發 中 (so ``5z 6z 7z`` map in order);
* 34–41 the flowers 春 夏 秋 冬 梅 蘭 竹 菊 (``1f``–``8f``).

``UNKNOWN`` (-1) stands for a tile written as ``?``.  Hand analysis works on the 34 playing
tiles as a count array indexed by these ints.
"""

from __future__ import annotations

from collections.abc import Iterable

Tile = int

UNKNOWN: Tile = -1
N_PLAYING = 34
N_TILES = 42

SUITS = ("萬", "筒", "索")
SUIT_ASCII = ("m", "p", "s")
NUMERALS = "一二三四五六七八九"
WINDS = ("東", "南", "西", "北")
DRAGONS = ("白", "發", "中")
FLOWERS = ("春", "夏", "秋", "冬", "梅", "蘭", "竹", "菊")

WIND_TILES: tuple[Tile, ...] = (27, 28, 29, 30)
DRAGON_TILES: tuple[Tile, ...] = (31, 32, 33)
FLOWER_TILES: tuple[Tile, ...] = tuple(range(34, 42))


def _build_names() -> tuple[str, ...]:
    names = [f"{NUMERALS[n]}{suit}" for suit in SUITS for n in range(9)]
    names += list(WINDS) + list(DRAGONS) + list(FLOWERS)
    return tuple(names)


NAMES: tuple[str, ...] = _build_names()
"""Canonical Traditional name of each tile, as rulings print it."""

ASCII: tuple[str, ...] = tuple(
    [f"{n + 1}{SUIT_ASCII[s]}" for s in range(3) for n in range(9)]
    + [f"{z}z" for z in range(1, 8)]
    + [f"{f}f" for f in range(1, 9)]
)


def name(tile: Tile) -> str:
    return "?" if tile == UNKNOWN else NAMES[tile]


def names(tiles: Iterable[Tile]) -> str:
    return " ".join(name(t) for t in tiles)


def suit_of(tile: Tile) -> int | None:
    """0 萬, 1 筒, 2 索; ``None`` for honours and flowers."""
    return tile // 9 if 0 <= tile < 27 else None


def is_suited(tile: Tile) -> bool:
    return 0 <= tile < 27


def is_flower(tile: Tile) -> bool:
    return 34 <= tile < 42


def wind_tile(seat_index: int) -> Tile:
    """The wind tile of seat wind ``seat_index`` (0 東 … 3 北)."""
    return WIND_TILES[seat_index]


def suited(suit: int, number: int) -> Tile:
    return suit * 9 + number - 1


# Aliases the incident language accepts for honour and flower tiles (beyond the canonical
# single characters).  Simplified forms are listed with the Traditional ones.
HONOUR_ALIASES: dict[str, Tile] = {
    "東": 27, "东": 27, "東風": 27, "东风": 27,
    "南": 28, "南風": 28, "南风": 28,
    "西": 29, "西風": 29, "西风": 29,
    "北": 30, "北風": 30, "北风": 30,
    "白": 31, "白板": 31,
    "發": 32, "发": 32, "發財": 32, "发财": 32, "青發": 32, "青发": 32,
    "中": 33, "紅中": 33, "红中": 33,
    "春": 34, "夏": 35, "秋": 36, "冬": 37,
    "梅": 38, "蘭": 39, "兰": 39, "竹": 40, "菊": 41,
}

SUIT_ALIASES: dict[str, int] = {
    "萬": 0, "万": 0, "m": 0,
    "筒": 1, "餅": 1, "饼": 1, "p": 1,
    "索": 2, "條": 2, "条": 2, "s": 2,
}

NUMERAL_VALUES: dict[str, int] = {
    **{c: i + 1 for i, c in enumerate(NUMERALS)},
    **{str(i): i for i in range(1, 10)},
}


def from_ascii(code: str) -> Tile:
    """``3m`` → 三萬; ``5z`` → 白; ``1f`` → 春.  Raises ``ValueError`` on anything else."""
    if len(code) != 2 or not code[0].isdigit():
        raise ValueError(code)
    n, kind = int(code[0]), code[1]
    if kind in "mps" and 1 <= n <= 9:
        return suited("mps".index(kind), n)
    if kind == "z" and 1 <= n <= 7:
        return 26 + n
    if kind == "f" and 1 <= n <= 8:
        return 33 + n
    raise ValueError(code)


def parse_one(text: str) -> Tile:
    """One tile in any accepted form: ``三萬``, ``3萬``, ``3m``, ``紅中``, ``7z``, ``?``."""
    text = text.strip()
    if text in ("?", "？"):
        return UNKNOWN
    if text in HONOUR_ALIASES:
        return HONOUR_ALIASES[text]
    if len(text) == 2 and text[0] in NUMERAL_VALUES and text[1] in SUIT_ALIASES:
        if text[1] in "mps" and not text[0].isdigit():
            raise ValueError(text)
        return suited(SUIT_ALIASES[text[1]], NUMERAL_VALUES[text[0]])
    return from_ascii(text)


def counts(tiles: Iterable[Tile]) -> list[int]:
    """A 34-long count array of the playing tiles (flowers and unknowns are skipped)."""
    arr = [0] * N_PLAYING
    for t in tiles:
        if 0 <= t < N_PLAYING:
            arr[t] += 1
    return arr


# ---------------------------------------------------------------------------------------
# Tiles and sets as a hand is written outside a log (``adjudicator score``, the desk's hand
# form): runs without spaces (123m456p), honours repeated (東東東).

# Suit letters and characters that close a run of numerals.
_SUIT_CLOSERS = {**SUIT_ALIASES, "z": 3, "f": 4}
_LONG_HONOURS = sorted((k for k in HONOUR_ALIASES if len(k) > 1), key=len, reverse=True)
# The words of a laid set (the log's meld kinds; 碰杠 is a 明杠), Traditional or not.
_KIND_ALIASES = {"吃": "吃", "碰": "碰", "明杠": "明杠", "明槓": "明杠", "碰杠": "明杠",
                 "碰槓": "明杠", "加杠": "加杠", "加槓": "加杠", "暗杠": "暗杠", "暗槓": "暗杠"}
# How many tiles each kind of laid set holds.
MELD_SIZE = {"吃": 3, "碰": 3, "明杠": 4, "加杠": 4, "暗杠": 4}
_MELD_WORD = "門前應寫成「碰 三萬 / 吃 四五六索 / 明杠 北 / 加杠 五筒 / 暗杠 白」"


class TileError(ValueError):
    """Input that names no tile; the message is for the referee, in Chinese."""


def _closed_run(numerals: list[str], closer: str) -> list[Tile]:
    """The tiles of a run such as 一二三 + 萬, 123 + m, 555 + z, 18 + f."""
    if not numerals:
        raise TileError(f"「{closer}」前面少了數字，例如 三{closer} 或 3{closer}")
    if closer in ("z", "f"):
        top = 7 if closer == "z" else 8
        if any(not n.isdigit() or not 1 <= int(n) <= top for n in numerals):
            raise TileError(f"{closer} 前只能是 1 到 {top} 的數字")
        base = 26 if closer == "z" else 33
        return [base + int(n) for n in numerals]
    if closer in "mps" and not all(n.isdigit() for n in numerals):
        raise TileError(f"「{closer}」前要用阿拉伯數字，例如 3{closer}")
    suit = SUIT_ALIASES[closer]
    return [suited(suit, NUMERAL_VALUES[n]) for n in numerals]


def parse_tiles(text: str) -> list[Tile]:
    """Every tile named in ``text``: words and runs, spaces optional.

    ``一二三萬 四五六筒`` · ``123m456p`` · ``東東東`` · ``紅中 中`` · ``555z`` · ``春 1f``.
    ``TileError`` (Chinese message) on anything else, e.g. ``406p`` or a run without suit.
    """
    out: list[Tile] = []
    numerals: list[str] = []
    i = 0
    text = text.replace("，", " ").replace(",", " ")
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            if numerals:
                raise TileError(f"「{''.join(numerals)}」後面少了花色（萬、筒、索 或 m p s z f）")
            i += 1
        elif ch in NUMERAL_VALUES:
            numerals.append(ch)
            i += 1
        elif ch == "0":
            raise TileError("沒有「0」這張牌")
        elif ch in _SUIT_CLOSERS:
            out += _closed_run(numerals, ch)
            numerals = []
            i += 1
        elif numerals:
            raise TileError(f"「{''.join(numerals)}」後面少了花色（萬、筒、索 或 m p s z f）")
        else:
            word = next((w for w in _LONG_HONOURS if text.startswith(w, i)), ch)
            if word not in HONOUR_ALIASES:
                raise TileError(f"「{word}」不是牌名；例如 三萬、3m、東、紅中、春")
            out.append(HONOUR_ALIASES[word])
            i += len(word)
    if numerals:
        raise TileError(f"「{''.join(numerals)}」後面少了花色（萬、筒、索 或 m p s z f）")
    return out


def _meld(part: str) -> tuple[str, tuple[Tile, ...]]:
    """One laid-out set: ``碰 三萬`` (the tile once or three times), ``吃 四五六索``,
    ``明杠 北`` / ``暗杠 白`` (once or four times)."""
    words = part.split(maxsplit=1)
    if len(words) != 2 or words[0] not in _KIND_ALIASES:
        raise TileError(f"看不懂「{part.strip()}」：{_MELD_WORD}")
    kind = _KIND_ALIASES[words[0]]
    found = parse_tiles(words[1])
    size = MELD_SIZE[kind]
    if kind != "吃" and len(found) == 1:
        found = found * size
    if len(found) != size:
        raise TileError(f"「{part.strip()}」：{kind} 應寫 {'三張牌' if kind == '吃' else '一張牌'}")
    return kind, tuple(found)


def parse_melds(text: str) -> list[tuple[str, tuple[Tile, ...]]]:
    """``碰 三萬 / 吃 四五六索`` → the sets; ``/`` or ``／`` between them."""
    parts = [p for p in text.replace("／", "/").split("/") if p.strip()]
    return [_meld(p) for p in parts]
