"""Scoring a win: the 牌面台數 of a hand, computed by ``asp/settlement/scoring.lp``.

Python does the hand combinatorics (``hands.py``: every reading of the hand, the wait
shape of each, the tiles it waited on) and states them as interface facts; the rules
in ``asp/settlement/scoring.lp`` name the patterns (台.1–台.36), apply 計臺準則 and pick
the reading worth the most.  The facts are ``clingo.Symbol`` values added through the
backend: nothing a user typed is ever pasted into program text.

The total leaves out 作莊 (台.9) and 連N拉N (台.10): those are owed only between the dealer
and each other player, so the payments add them (spec/ruling-json.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clingo import Symbol

from adjudicator.analysis import hands
from adjudicator.facts import record
from adjudicator.language import seats, tiles
from adjudicator.language.incident import Meld
from adjudicator.language.seats import Seat
from adjudicator.language.tiles import Tile
from adjudicator.rules import engine, interface
from adjudicator.rules.files import INPUTS_LP, PARAMS_LP, SCORING_LP, chapters
from adjudicator.rules.rulesets import rule_set
from adjudicator.ruling.clauses import order_key

MeldKind = Literal["吃", "碰", "明杠", "加杠", "暗杠"]
FlowerWin = Literal["八仙過海", "七搶一"]
MeldSpec = tuple[str, Sequence[Tile]] | Meld

# The yes/no conditions of a win a caller states (WinningHand's flags, the CLI's and the
# desk's options); ren_hu_first is the reader's own refinement, not asked of a user.
HAND_FLAGS: tuple[str, ...] = (
    "self_drawn", "robbed_kong", "kong_replacement", "last_tile", "tian_hu", "di_hu",
    "ren_hu", "tian_ting", "di_ting", "dealt_flower_win")

MELD_KINDS: tuple[str, ...] = tuple(tiles.MELD_SIZE)
FLOWER_WINS: tuple[str, ...] = ("八仙過海", "七搶一")
_SET_KIND = {"吃": "chow", "碰": "pung", "明杠": "kong", "加杠": "kong", "暗杠": "kong"}



@dataclass
class WinHand:
    """A hand at the moment of winning, and what the play around it established.

    ``concealed`` is the concealed tiles WITHOUT the winning tile (16 minus 3 per meld);
    ``exposed`` the laid-out sets as ``(kind, tiles)`` with kind 吃 碰 明杠 加杠 暗杠 and the
    whole set's tiles (an ``incident.Meld`` is accepted too).  A flower win whose hand is
    not shown (台.29/台.30, 手牌未和毋須翻開) may leave ``concealed`` empty and
    ``winning_tile`` None.

    Context flags, each established by the caller from the record (a judgement leaves
    ``robbed_kong`` and ``flower_win`` unset: the chapters name how its win wins):

    * ``self_drawn``: the winning tile came from the wall (自摸).
    * ``robbed_kong``: won on another player's 加杠 tile (搶杠, 台.12).
    * ``kong_replacement``: won on a replacement from the kong end, after a kong or a
      flower (杠上開花, 台.24; counts as 自摸 too).
    * ``last_tile``: won on the 海底 tile, drawn (海底撈月, 台.25; counts as 自摸 too).
    * ``tian_hu`` / ``di_hu`` / ``ren_hu``: the conditions of 台.33 / 台.34 / 台.35 hold.
    * ``tian_ting`` / ``di_ting``: a 天聽 / 地聽 was declared and still stands.
    * ``flower_win``: 八仙過海 or 七搶一 (花和); ``dealt_flower_win``: that flower win is the
      one 台.28 (配牌花和) allows at the first draw; ``robbed_flower``: in 台.30 →2 the flower
      taken from another player, which the 牌面 does not count (leave None in case →1).
    * ``fourth_tile``: 和絕張, for 國標 only (``mcr.py``); a Taiwanese score refuses it.

    Seats are chairs 東南西北; ``round_wind`` is the round's wind as a character;
    ``open_seat`` is the 開門 chair (東位 and flower number 1), the dealer's by default.
    """

    concealed: Sequence[Tile]
    winning_tile: Tile | None
    exposed: Sequence[MeldSpec] = ()
    flowers: Sequence[Tile] = ()
    self_drawn: bool = False
    seat: Seat = "東"
    dealer: Seat = "東"
    round_wind: Seat = "東"
    open_seat: Seat | None = None
    robbed_kong: bool = False
    kong_replacement: bool = False
    last_tile: bool = False
    tian_hu: bool = False
    di_hu: bool = False
    ren_hu: bool = False
    ren_hu_first: bool = False  # 人和 on the very first discard after the 地聽 (解釋.人和)
    tian_ting: bool = False
    di_ting: bool = False
    flower_win: FlowerWin | None = None
    dealt_flower_win: bool = False
    robbed_flower: Tile | None = None
    sets: int = hands.FAMILY_SETS_16  # sets in a complete hand of the family (粵: 4)
    fourth_tile: bool = False  # 和絕張: a 國標 fan (國標.58); the Taiwanese list has none

    @property
    def melds(self) -> list[tuple[str, tuple[Tile, ...]]]:
        """The laid-out sets as plain ``(kind, tiles)`` pairs."""
        return [_meld_parts(m) for m in self.exposed]

    @property
    def shown(self) -> bool:
        """Whether a hand is given at all (a flower win may come without one)."""
        return self.winning_tile is not None or bool(self.concealed)


@dataclass(frozen=True)
class WinScore:
    """What ``score`` finds.

    ``patterns`` are ``(name, tai, clause)`` of the reading chosen, in clause order;
    ``reading`` shows that reading (sets | pair), ``wait_shape`` how the winning tile
    completed it.  ``complete`` is False when the hand is no win; ``problems`` then says
    why, in Chinese, for a referee.
    """

    complete: bool
    tai: int
    patterns: list[tuple[str, int, str]] = field(default_factory=list)
    reading: str | None = None
    wait_shape: str | None = None
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Reading:
    """One option of the complete hand, as the facts will state it."""

    form: Literal["std", "ligu", "13yao"]
    # (chow|pung|kong, lowest tile, origin): a laid set's kind, "winning" for the set the
    # winning tile went into, "hand" for the rest; scoring.lp says which are concealed.
    sets: tuple[tuple[str, Tile, str], ...]
    pairs: tuple[Tile, ...]
    shape: str
    text: str


# ---------------------------------------------------------------------------------------
# Checking the hand


def _meld_parts(meld: MeldSpec) -> tuple[str, tuple[Tile, ...]]:
    if isinstance(meld, Meld):
        return meld.kind, tuple(meld.tiles)
    kind, meld_tiles = meld
    return kind, tuple(meld_tiles)


def meld_problem(kind: str, meld_tiles: tuple[Tile, ...]) -> str | None:
    """Why a laid-out set is not one (None when it is)."""
    if kind not in tiles.MELD_SIZE:
        return f"門前「{kind}」不是吃、碰、明杠、加杠或暗杠"
    shown = tiles.names(meld_tiles)
    if len(meld_tiles) != tiles.MELD_SIZE[kind] or not all(0 <= t < tiles.N_PLAYING
                                                        for t in meld_tiles):
        return f"門前 {kind} {shown}：應為 {tiles.MELD_SIZE[kind]} 張牌"
    if kind == "吃":
        low = min(meld_tiles)
        if not (tiles.is_suited(low) and sorted(meld_tiles) == [low, low + 1, low + 2]
                and tiles.suit_of(low) == tiles.suit_of(low + 2)):
            return f"門前 吃 {shown}：不是同一花色的順子"
    elif len(set(meld_tiles)) != 1:
        return f"門前 {kind} {shown}：應為相同的牌"
    return None


def tile_problems(hand: WinHand) -> list[str]:
    out: list[str] = []
    playing = [*hand.concealed, *([hand.winning_tile] if hand.winning_tile is not None else [])]
    if any(not 0 <= t < tiles.N_PLAYING for t in playing):
        out.append("手牌與和牌只能是萬、筒、索、字牌（花牌另列，不可有未知牌）")
    if any(not tiles.is_flower(f) for f in hand.flowers):
        out.append("花牌欄只能是春夏秋冬梅蘭竹菊")
    elif len(set(hand.flowers)) != len(hand.flowers):
        out.append("同一張花牌出現兩次")
    everything = Counter(playing)
    for _, meld_tiles in hand.melds:
        everything.update(meld_tiles)
    over = [tiles.name(t) for t, n in sorted(everything.items()) if n > 4]
    if over:
        out.append(f"同一種牌超過四張：{'、'.join(over)}")
    return out


def _seats_ok(hand: WinHand) -> bool:
    chairs = [hand.seat, hand.dealer, hand.round_wind, hand.open_seat or hand.dealer]
    return all(c in seats.SEATS for c in chairs)


def _content_problems(hand: WinHand) -> list[str]:
    """What is wrong with the tiles, sets, flowers and chairs themselves."""
    out = [p for k, t in hand.melds if (p := meld_problem(k, t))]
    if len(hand.melds) > hand.sets:
        out.append(f"門前超過{'五' if hand.sets == 5 else '四'}副")
    out += tile_problems(hand)
    if not _seats_ok(hand):
        out.append("座位、莊家、圈風與開門只能是東、南、西、北")
    if hand.flower_win is not None and hand.flower_win not in FLOWER_WINS:
        out.append(f"花和只能是{'或'.join(FLOWER_WINS)}")
    if hand.robbed_flower is not None and hand.robbed_flower not in hand.flowers:
        out.append("被搶的花牌不在花牌欄中")
    if hand.fourth_tile:
        out.append("和絕張只在國標（mcr）計番，台灣十六張沒有這個台")
    return out


def _shape_problems(hand: WinHand) -> list[str]:
    """Whether the hand has the tile count of a win (和牌型態: 17 with the winning tile)."""
    if hand.winning_tile is None:
        return ["未指定和牌（最後進的那張牌）"]
    want = 3 * hand.sets + 1 - 3 * len(hand.melds)
    if len(hand.concealed) != want:
        return [f"暗牌（不含和牌）應為 {want} 張，實為 {len(hand.concealed)} 張"
                f"（{'缺張' if len(hand.concealed) < want else '逾張'}）"]
    return []


def hand_problems(hand: WinHand) -> list[str]:
    """Everything that makes ``hand`` malformed (empty when it is well formed).

    Well formed is not complete: a well-formed hand may still fail to be a win.  A flower
    win needs no hand (台.29/台.30: 手牌未和毋須翻開), so its tile count is not checked.
    """
    out = _content_problems(hand)
    if hand.flower_win is None:
        out += _shape_problems(hand)
    return out


def _analysable(hand: WinHand) -> bool:
    return not _content_problems(hand) and not _shape_problems(hand)


# ---------------------------------------------------------------------------------------
# Reading the hand (hands.py)


def _meld_sets(hand: WinHand) -> list[tuple[str, Tile, str]]:
    return [(_SET_KIND[k], min(t), k) for k, t in hand.melds]


def _standard_readings(hand: WinHand, winning: Tile) -> list[_Reading]:
    """One reading per decomposition and per set the winning tile may have completed
    (whether that set is concealed, scoring.lp decides: 台.16)."""
    fixed = _meld_sets(hand)
    out: list[_Reading] = []
    for r in hands.wait_shapes(list(hand.concealed), winning, hand.sets - len(fixed)):
        own = [(s.kind, s.first, "winning" if s == r.completed else "hand")
               for s in r.decomposition.sets]
        text = " | ".join([*(f"{k} {tiles.names(t)}" for k, t in hand.melds),
                           str(r.decomposition)])
        out.append(_Reading("std", tuple(fixed + own), (r.decomposition.pair,), r.shape, text))
    return out


def _ligu_reading(hand: WinHand, winning: Tile) -> list[_Reading]:
    """The 嚦咕嚦咕 reading (7 pairs + 1 triplet), only for a hand with nothing laid out."""
    if hand.melds or hand.sets != hands.FAMILY_SETS_16:
        return []
    found = hands.special_seven_pairs_one_triplet([*hand.concealed, winning])
    if found is None:
        return []
    into_triplet = winning == found.triplet
    shape = "雙碰" if into_triplet else "單釣"
    text = " | ".join([tiles.names([found.triplet] * 3),
                       *(tiles.names((p, p)) for p in found.pairs)])
    return [_Reading("ligu", (("pung", found.triplet, "winning" if into_triplet else "hand"),),
                     tuple(dict.fromkeys(found.pairs)), shape, text)]


def _orphans_reading(hand: WinHand, winning: Tile) -> list[_Reading]:
    """The 十三幺 reading (粵番.十三幺) of a 13+1 hand with nothing laid out."""
    if hand.melds or hand.sets == hands.FAMILY_SETS_16:
        return []
    pair = hands.thirteen_orphans([*hand.concealed, winning])
    if pair is None:
        return []
    shape = "單釣" if winning == pair else "十三面"
    return [_Reading("13yao", (), (pair,), shape, tiles.names(sorted([*hand.concealed, winning])))]


def _readings(hand: WinHand, winning: Tile) -> list[_Reading]:
    """Every reading of a well-formed complete hand, in a fixed order (ids 1, 2, …)."""
    return (_standard_readings(hand, winning) + _ligu_reading(hand, winning)
            + _orphans_reading(hand, winning))


def _waits(hand: WinHand) -> tuple[set[Tile], set[Tile]]:
    """(tiles that complete a standard hand, tiles that complete only a 嚦咕嚦咕)."""
    fixed_tiles = [t for _, ts in hand.melds for t in ts]
    std = hands.winning_tiles(list(hand.concealed), len(hand.melds), fixed_tiles=fixed_tiles,
                              family_sets=hand.sets)
    if hand.sets != hands.FAMILY_SETS_16:
        orphans = hands.thirteen_orphans_waits(hand.concealed) if not hand.melds else set()
        return std, orphans - std
    every = hands.winning_tiles(list(hand.concealed), len(hand.melds), fixed_tiles=fixed_tiles,
                                ligu=True)
    return std, every - std


# ---------------------------------------------------------------------------------------
# The interface facts of asp/settlement/scoring.lp


def _f(name: str, *args: int | str) -> Symbol:
    # Through record.fact's cache: the batch engine then reads the fact's name and
    # arguments from a dict, not from clingo.
    return record.fact(name, *args)


def _seat_facts(w: int, hand: WinHand) -> Iterator[Symbol]:
    if not _seats_ok(hand):
        return
    wind = seats.seat_wind(hand.seat, hand.open_seat or hand.dealer)
    yield _f("score_seat_wind", w, tiles.wind_tile(wind))
    yield _f("score_seat_number", w, wind + 1)
    yield _f("score_round_wind", w, tiles.wind_tile(seats.index(hand.round_wind)))


def _context_facts(w: int, hand: WinHand) -> Iterator[Symbol]:
    if hand.self_drawn:
        yield _f("score_self_drawn", w)
    flags = {"搶杠": hand.robbed_kong, "kong_end": hand.kong_replacement, "海底": hand.last_tile,
             "天和": hand.tian_hu, "地和": hand.di_hu, "人和": hand.ren_hu,
             "人和首張": hand.ren_hu_first,
             "天聽": hand.tian_ting, "地聽": hand.di_ting, "配牌花和": hand.dealt_flower_win}
    for name, on in flags.items():
        if on:
            yield _f("score_context", w, name)
    if hand.flower_win in FLOWER_WINS:
        yield _f("score_flower_win", w, hand.flower_win)
    for f in dict.fromkeys(hand.flowers):
        if tiles.is_flower(f):
            yield _f("score_flower", w, f)
    if hand.robbed_flower is not None and tiles.is_flower(hand.robbed_flower):
        yield _f("score_robbed_flower", w, hand.robbed_flower)


def _meld_facts(w: int, hand: WinHand) -> Iterator[Symbol]:
    """The laid-out sets that are sets (others are left out; they make the hand no win)."""
    for m, (kind, meld_tiles) in enumerate(hand.melds, 1):
        if meld_problem(kind, meld_tiles) is None:
            yield _f("score_meld", w, m, kind, min(meld_tiles))


def _hand_facts(w: int, hand: WinHand) -> Iterator[Symbol]:
    present = {*hand.concealed, hand.winning_tile} | {t for _, ts in hand.melds for t in ts}
    for t in sorted(x for x in present if x is not None):
        yield _f("score_tile", w, t)
    yield _f("score_concealed_left", w, len(hand.concealed))
    std, special = _waits(hand)
    for t in sorted(std):
        yield _f("score_wait", w, t, "std")
    for t in sorted(special):
        yield _f("score_wait", w, t, "ligu" if hand.sets == hands.FAMILY_SETS_16 else "13yao")


def _reading_facts(w: int, d: int, r: _Reading) -> Iterator[Symbol]:
    yield _f("score_decomp", w, d, r.form)
    for k, (kind, first, origin) in enumerate(r.sets, 1):
        yield _f("score_set", w, d, k, kind, first, origin)
    for p in r.pairs:
        yield _f("score_pair", w, d, p)
    yield _f("score_wait_shape", w, d, r.shape)


def _symbols(w: int, hand: WinHand) -> tuple[list[Symbol], list[_Reading]]:
    out = [_f("scored_win", w)]
    out += _seat_facts(w, hand)
    out += _context_facts(w, hand)
    out += _meld_facts(w, hand)
    if not _analysable(hand) or hand.winning_tile is None:
        return out, []  # no reading: the rules find it incomplete (or a bare flower win)
    out += _hand_facts(w, hand)
    found = _readings(hand, hand.winning_tile)
    for d, r in enumerate(found, 1):
        out += _reading_facts(w, d, r)
    return out, found


def win_symbols(w: int, hand: WinHand) -> list[Symbol]:
    """The interface facts of ``asp/settlement/scoring.lp`` for win ``w`` (documented there).

    Seats, context, flowers and well-formed melds are always stated (a false win's 牌面
    may need them); the hand's readings and waits only for a hand of the right shape, so
    a malformed hand comes out as ``score_incomplete(w)`` instead of failing a judgement.
    """
    return _symbols(w, hand)[0]


# ---------------------------------------------------------------------------------------
# Running clingo


def _param_facts(profile: str, overrides: Mapping[str, int]) -> list[Symbol]:
    """The profile's values as facts (rules/rulesets.py), with this run's own parameters."""
    return rule_set(profile, settings={k: str(v) for k, v in overrides.items()}).facts()


# The scoring of one hand: the profile's values, the inputs and the scoring chapter, with
# what the family's other chapters derive declared (as the engine declares it for a log).
SCORING_FILES = (PARAMS_LP, INPUTS_LP, SCORING_LP)


def _solve(symbols: list[Symbol], profile: str = "tw16") -> list[Symbol]:
    return engine.solve(symbols, profile, SCORING_FILES, chapters())


def _clause_key(row: tuple[str, int, str]) -> tuple[tuple[int, str], str]:
    return (order_key(row[2]), row[0])


def _rows(atoms: list[Symbol], name: str) -> list[Any]:
    """The atoms of a shown predicate, each read through its declaration (asp/show.lp)."""
    pred = interface.shown()[name]
    return [pred.read(a.arguments) for a in atoms if a.name == name]


def score(hand: WinHand, profile: str = "tw16",
          overrides: Mapping[str, int] | None = None) -> WinScore:
    """The 台 of ``hand`` under ``profile`` (a fresh clingo Control per call).

    ``overrides`` sets profile parameters for this run (e.g. ``{"ligu_enabled": 0}``).
    Never raises for the hand's content: a malformed or incomplete hand comes back with
    ``complete=False`` and ``problems``.  ``KeyError`` for an unknown profile.
    """
    problems = hand_problems(hand)
    if problems:
        return WinScore(False, 0, problems=problems)
    symbols, found = _symbols(1, hand)
    atoms = _solve(symbols + _param_facts(profile, overrides or {}), profile)
    rows = sorted(((r.name.string, r.tai.number, r.clause.string)
                   for r in _rows(atoms, "win_pattern")), key=_clause_key)
    total = [r.tai.number for r in _rows(atoms, "win_tai")]
    chosen = [r.option.number for r in _rows(atoms, "score_chosen")]
    if not total:
        short = [r.n.number for r in _rows(atoms, "score_flowers_short")]
        return WinScore(False, 0, problems=[_why_incomplete(hand, short)])
    reading = found[chosen[0] - 1] if chosen and chosen[0] >= 1 else None
    return WinScore(True, total[0], rows, reading.text if reading else None,
                    reading.shape if reading else None)


def _why_incomplete(hand: WinHand, flowers_short: list[int]) -> str:
    if flowers_short:
        return f"{hand.flower_win}須持全部八張花牌，實有 {flowers_short[0]} 張"
    if not hand.shown:
        return "未指定手牌與和牌"
    return "手牌加和牌不能組成五副順刻加一對將眼（和牌型態）"
