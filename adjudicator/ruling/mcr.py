"""國標 (Chinese Official, profile ``mcr``) scoring of one winning hand, through PyMahjongGB.

The texts give 國標 a fan list (002: fans 57–81, citing 《中國麻將競賽規則試行》) and no rules
of play, so ``mcr`` scores hands and judges nothing.  PyMahjongGB, a C++ fan calculator,
finds the fans and applies 不計; this module checks the hand, hands it over in the
library's notation and names what comes back as ``國標.N`` (``mcr_fans.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from adjudicator.language import seats, tiles
from adjudicator.language.tiles import Tile
from adjudicator.ruling.mcr_fans import BY_LIBRARY_NAME, FanDef, clause_of
from adjudicator.ruling.scoring import WinHand, meld_problem, tile_problems

PROFILE = "mcr"
# 起和: a win needs 8 番 under the rules 002 cites; 002 (#81) keeps flowers out of them.
MIN_FAN = 8
_HAND_TILES = 13  # before the winning tile: four sets and a pair with it
_MAX_MELDS = 4
_SUIT_LETTERS = "WBT"  # 萬 筒 索, as PyMahjongGB writes them
_DRAGON_CODES = {31: "J3", 32: "J2", 33: "J1"}  # 白 發 中
_NOT_IN_MCR = {"tian_hu": "天和", "di_hu": "地和", "ren_hu": "人和", "tian_ting": "天聽",
               "di_ting": "地聽", "dealt_flower_win": "配牌花和"}


@dataclass(frozen=True)
class FanRow:
    """One fan the hand scores ``count`` times (幺九刻 ×2) and the 番 the library gives it."""

    kind: FanDef
    count: int
    fan: int

    @property
    def clause(self) -> str:
        return clause_of(self.kind)


@dataclass(frozen=True)
class FanScore:
    """``complete``: a winning shape reaching 起和.  ``fan`` counts flowers too."""

    complete: bool
    fan: int
    rows: list[FanRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def without_flowers(self) -> int:
        return self.fan - sum(r.fan for r in self.rows if r.kind.name == "花牌")


def _code(tile: Tile) -> str:
    if tiles.is_suited(tile):
        return f"{_SUIT_LETTERS[tile // 9]}{tile % 9 + 1}"
    if tile in tiles.WIND_TILES:
        return f"F{tile - tiles.WIND_TILES[0] + 1}"
    return _DRAGON_CODES[tile]


def _context_problems(hand: WinHand) -> list[str]:
    out = [f"國標沒有{word}" for key, word in _NOT_IN_MCR.items() if getattr(hand, key)]
    if hand.flower_win is not None or hand.robbed_flower is not None:
        out.append("國標沒有花和：花牌只逐張計 1 番")
    if hand.robbed_kong and (hand.self_drawn or hand.kong_replacement):
        out.append("搶杠和是和別人加杠的那張牌，不能同時是自摸或杠上開花")
    return out


def problems(hand: WinHand) -> list[str]:
    """Everything that makes ``hand`` malformed for 國標 (13 tiles before the winning one)."""
    out = [p for k, t in hand.melds if (p := meld_problem(k, t))]
    if len(hand.melds) > _MAX_MELDS:
        out.append("門前超過四副（國標和牌為四副加一對將）")
    out += tile_problems(hand)
    chairs = [hand.seat, hand.dealer, hand.round_wind, hand.open_seat or hand.dealer]
    if not all(c in seats.SEATS for c in chairs):
        out.append("座位、莊家、圈風與開門只能是東、南、西、北")
    out += _context_problems(hand)
    if hand.winning_tile is None:
        out.append("未指定和牌（最後進的那張牌）")
    want = _HAND_TILES - 3 * len(hand.melds)
    if not out and len(hand.concealed) != want:
        out.append(f"暗牌（不含和牌）應為 {want} 張，實為 {len(hand.concealed)} 張"
                   f"（{'缺張' if len(hand.concealed) < want else '逾張'}）")
    return out


def _packs(hand: WinHand) -> tuple[tuple[str, str, int], ...]:
    """The laid-out sets as PyMahjongGB packs.  The third item is whom the tile came from;
    no fan depends on which opponent, so any of 1–3 serves, and 0 marks a 暗杠."""
    out = []
    for kind, meld_tiles in hand.melds:
        if kind == "吃":
            out.append(("CHI", _code(sorted(meld_tiles)[1]), 1))
        elif kind == "碰":
            out.append(("PENG", _code(meld_tiles[0]), 1))
        else:
            out.append(("GANG", _code(meld_tiles[0]), 0 if kind == "暗杠" else 1))
    return tuple(out)


def _calculate(hand: WinHand, winning: Tile) -> Sequence[tuple[int, int, str, str]]:
    from MahjongGB import MahjongFanCalculator  # a C++ extension: loaded only for mcr

    return MahjongFanCalculator(
        _packs(hand), tuple(_code(t) for t in hand.concealed), _code(winning),
        len(hand.flowers), hand.self_drawn or hand.kong_replacement, hand.fourth_tile,
        hand.robbed_kong or hand.kong_replacement, hand.last_tile,
        seats.seat_wind(hand.seat, hand.open_seat or hand.dealer),
        seats.index(hand.round_wind), verbose=True)


def _row(value: int, count: int, library_name: str) -> FanRow:
    return FanRow(BY_LIBRARY_NAME[library_name], count, value * count)


def score(hand: WinHand) -> FanScore:
    """The 國標 fans of ``hand``.  Never raises for the hand's content: a malformed hand, no
    win, or a win short of 起和 comes back with ``complete=False`` and ``problems``."""
    found = problems(hand)
    if found or hand.winning_tile is None:
        return FanScore(False, 0, problems=found)
    try:
        fans = _calculate(hand, hand.winning_tile)
    except TypeError as err:
        if str(err) == "ERROR_NOT_WIN":
            return FanScore(False, 0, problems=["手牌加和牌不能組成和牌型態"])
        raise
    rows = [_row(value, count, name) for value, count, name, _ in fans]
    result = FanScore(True, sum(r.fan for r in rows), rows)
    if result.without_flowers < MIN_FAN:
        short = f"只有 {result.without_flowers} 番（花牌不計），未達起和 {MIN_FAN} 番"
        return FanScore(False, result.fan, rows, [short])
    return result
