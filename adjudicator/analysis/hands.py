"""Hand analysis: decompositions, completeness, waits and wait shapes.

The shape of a win (和牌型態): a complete hand is ``n_sets`` sets plus one pair, where a set
is a chow 順子 (three consecutive tiles of one suit) or a pung 刻子 (three identical tiles).
In the Taiwan 16-tile family ``n_sets`` is 5 (17 tiles); the 13+1 families use 4.  Fixed
sets (吃 碰 明杠 暗杠 laid out) are never re-split, so callers pass only the concealed tiles
and ``n_sets = family_sets - fixed_sets``.  Flowers and each kong's fourth tile are not part
of the shape; ``tiles.counts`` already drops flowers.

嚦咕嚦咕 (台.36, 八對半: seven pairs and one triplet, all concealed) is a 選用 (optional)
pattern, so it is only considered where a caller passes ``ligu=True``.

Everything works on the 34-long count array of ``tiles.counts``.  The array is split into
four independent blocks (萬, 筒, 索, honours): a set never crosses a block, so each block
is analysed on its own and the per-block answers are memoised by the block's counts; a
hand is then a combination of per-block answers in which exactly one block holds the pair.

Counts above 4 are accepted: they only arise when asking whether a fifth copy would
"complete" a hand, which the structural wait (``waits``) deliberately allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Generic, Literal, TypeVar

from adjudicator.language import tiles
from adjudicator.language.tiles import N_PLAYING, Tile

SetKind = Literal["chow", "pung"]
TilesOrCounts = Sequence[int] | Iterable[Tile]
"""A 34-long count array (``tiles.counts``) or a list of tiles; see ``as_counts``."""
WaitShape = Literal["兩面", "中洞", "邊張", "單釣", "雙碰"]

FAMILY_SETS_16 = 5
"""Sets in a complete Taiwan 16-tile hand (17 tiles = 5 sets + 1 pair)."""
FAMILY_SETS_13 = 4
"""Sets in a complete 13+1 hand (14 tiles = 4 sets + 1 pair; Guangdong)."""

# 十三幺 (粵番.十三幺): the thirteen terminals and honours, one of them twice.
ORPHANS: tuple[Tile, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# (first tile, length, chows allowed) of each block of the count array.
_BLOCKS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 9, True), (18, 9, True),
                                               (27, 7, False))
# A block's status when readable: as sets only, or as sets plus the pair (0: unreadable).
_SETS_ONLY = 1
_WITH_PAIR = 2


@dataclass(frozen=True, slots=True)
class TileSet:
    """One set of a decomposition: a chow from ``first`` upwards, or a pung of ``first``."""

    kind: SetKind
    first: Tile

    @property
    def tiles(self) -> tuple[Tile, Tile, Tile]:
        if self.kind == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first, self.first, self.first)

    def __str__(self) -> str:
        return tiles.names(self.tiles)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """A reading of the concealed tiles as sets plus one pair (將眼).

    ``sets`` is in canonical order (by first tile; a pung before a chow of the same first
    tile), so two decompositions are equal exactly when their pairs and multisets of sets
    are.
    """

    sets: tuple[TileSet, ...]
    pair: Tile

    @property
    def chows(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.kind == "chow")

    @property
    def pungs(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.kind == "pung")

    def __str__(self) -> str:
        return " | ".join([*(str(s) for s in self.sets), tiles.names((self.pair, self.pair))])


@dataclass(frozen=True, slots=True)
class Ligu:
    """嚦咕嚦咕 (八對半): seven pairs and one triplet.

    ``pairs`` is sorted and may name a tile twice: four identical tiles are read as two
    pairs (a rule reading, see ``special_seven_pairs_one_triplet``).
    """

    pairs: tuple[Tile, ...]
    triplet: Tile


@dataclass(frozen=True, slots=True)
class WaitReading:
    """How the winning tile completed one decomposition of the finished hand.

    ``completed`` is the set the winning tile went into, or ``None`` when it made the pair.
    """

    decomposition: Decomposition
    shape: WaitShape
    completed: TileSet | None


# ---------------------------------------------------------------------------------------
# Input handling


def as_counts(hand: TilesOrCounts) -> list[int]:
    """A fresh 34-long count array from either a count array or a list of tiles.

    A sequence of exactly 34 ints is taken to be a count array (no hand has 34 tiles);
    anything else is a list of tiles, read through ``tiles.counts`` (flowers dropped).
    """
    # The exact-type test first: it is the hot path and far cheaper than the ABC check.
    if (type(hand) in (list, tuple) or isinstance(hand, Sequence)) and len(hand) == N_PLAYING:
        arr = list(hand)
        if min(arr) < 0:
            raise ValueError(f"negative tile count in {arr}")
        return arr
    return tiles.counts(hand)


def _checked(hand: TilesOrCounts, n_sets: int, extra: int) -> list[int]:
    """Counts of ``hand``, which must hold exactly ``3 * n_sets + extra`` tiles."""
    if n_sets < 0:
        raise ValueError(f"n_sets must be >= 0, got {n_sets}")
    arr = as_counts(hand)
    want = 3 * n_sets + extra
    if sum(arr) != want:
        raise ValueError(f"expected {want} concealed tiles for {n_sets} sets, got {sum(arr)}")
    return arr


def _check_tile(tile: Tile) -> None:
    if not 0 <= tile < N_PLAYING:
        raise ValueError(f"not a playing tile: {tile}")


# ---------------------------------------------------------------------------------------
# One block: every way to read it as sets (and at most one pair)

_Part = tuple[tuple[TileSet, ...], Tile | None]

# Sets are immutable, so one object per set serves every reading (and saves building them).
_PUNGS = tuple(TileSet("pung", t) for t in range(N_PLAYING))
_CHOWS = tuple(TileSet("chow", t) for t in range(N_PLAYING))  # only suits 1–7 are used


def _split(c: list[int], i: int, base: int, chows: bool, pair_free: bool,
           sets: list[TileSet], pair: Tile | None, out: list[_Part]) -> None:
    """Collect every reading of ``c[i:]`` into ``out``.

    The lowest remaining tile must start every group it is in, so at tile ``i`` we choose
    how many of its copies are the pair and how many pungs it makes; every other copy must
    start a chow.  Choosing counts rather than one group at a time is what makes each
    multiset of sets come out exactly once.
    """
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        out.append((tuple(sets), pair))
        return
    here = c[i]
    for in_pair in ((0, 2) if pair_free else (0,)):
        rest = here - in_pair
        for pungs in range(rest // 3 + 1):
            k = rest - 3 * pungs  # chows starting at tile i
            if k and (not chows or i + 2 >= n or c[i + 1] < k or c[i + 2] < k):
                continue
            tile = base + i
            added = [_PUNGS[tile]] * pungs + [_CHOWS[tile]] * k
            c[i] = 0
            if k:
                c[i + 1] -= k
                c[i + 2] -= k
            sets.extend(added)
            _split(c, i + 1, base, chows, pair_free and not in_pair, sets,
                   tile if in_pair else pair, out)
            del sets[len(sets) - len(added):]
            c[i] = here
            if k:
                c[i + 1] += k
                c[i + 2] += k


def _block_parts(index: int, key: tuple[int, ...]) -> tuple[tuple[_Part, ...],
                                                           tuple[_Part, ...]]:
    """All readings of one block: (those without the pair, those with it)."""
    base, _, chows = _BLOCKS[index]
    out: list[_Part] = []
    if sum(key) % 3 != 1:  # a block of 3k+1 tiles can never be sets plus at most one pair
        _split(list(key), 0, base, chows, True, [], None, out)
    return (tuple(p for p in out if p[1] is None), tuple(p for p in out if p[1] is not None))


def _block_status(index: int, key: tuple[int, ...]) -> int:
    """``_SETS_ONLY``, ``_WITH_PAIR`` or 0 (unreadable): how this block can be read.

    At most one reading kind exists (the block's size mod 3 decides which), so the status
    also says whether this block is the one that must carry the pair.
    """
    free, paired = _PARTS[index][key]
    return _SETS_ONLY if free else _WITH_PAIR if paired else 0


def _block_waits(index: int, key: tuple[int, ...]) -> tuple[tuple[Tile, ...],
                                                            tuple[Tile, ...]]:
    """Tiles that, added to this block, leave it (sets only, sets plus the pair).

    A winning tile joins a pair, pung or chow with a tile already held, so only tiles held
    or (in a suit) within two of a held tile are tried.
    """
    base, n, chows = _BLOCKS[index]
    reach = 2 if chows else 0
    found: dict[int, list[Tile]] = {_SETS_ONLY: [], _WITH_PAIR: []}
    c = list(key)
    for j in range(n):
        if not any(key[max(0, j - reach):j + reach + 1]):
            continue
        c[j] += 1
        status = _STATUS[index][tuple(c)]
        if status:
            found[status].append(base + j)
        c[j] -= 1
    return tuple(found[_SETS_ONLY]), tuple(found[_WITH_PAIR])


_V = TypeVar("_V")

# Per-block memo tables stop growing here and start again (a referee never gets near it;
# random hands in bulk might).
_CACHE_LIMIT = 200_000


class _BlockMemo(dict[tuple[int, ...], _V], Generic[_V]):
    """Memo of one block's analysis keyed by the block's counts.

    A dict with ``__missing__`` keeps the hit path a bare C-level lookup, which is most of
    the cost of analysing a hand once the tables are warm.
    """

    def __init__(self, compute: Callable[[int, tuple[int, ...]], _V], index: int) -> None:
        super().__init__()
        self.compute, self.index = compute, index

    def __missing__(self, key: tuple[int, ...]) -> _V:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        value = self[key] = self.compute(self.index, key)
        return value


_PARTS = tuple(_BlockMemo(_block_parts, index) for index in range(len(_BLOCKS)))
_STATUS = tuple(_BlockMemo(_block_status, index) for index in range(len(_BLOCKS)))
_WAITS = tuple(_BlockMemo(_block_waits, index) for index in range(len(_BLOCKS)))


def clear_caches() -> None:
    """Empty the per-block memo tables (for benchmarks that want a cold start)."""
    for memo in (*_PARTS, *_STATUS, *_WAITS):
        memo.clear()


def _keys(c: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The four blocks' counts, as memo keys."""
    return (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))


def _statuses(c: Sequence[int]) -> list[int]:
    return [_STATUS[index][key] for index, key in enumerate(_keys(c))]


def _whole(statuses: Iterable[int]) -> bool:
    """Whole hand complete: every block readable, exactly one of them holding the pair."""
    pairs = 0
    for s in statuses:
        if not s:
            return False
        pairs += s == _WITH_PAIR
    return pairs == 1


# ---------------------------------------------------------------------------------------
# Complete hands


def decompositions(concealed: TilesOrCounts, n_sets: int) -> list[Decomposition]:
    """Every distinct reading of the concealed tiles as ``n_sets`` sets plus one pair.

    ``concealed`` is a count array or a tile list of exactly ``3 * n_sets + 2`` tiles
    (``ValueError`` otherwise).  Honours never form chows.  Distinct means a different
    multiset of sets or a different pair.
    """
    c = _checked(concealed, n_sets, 2)
    blocks = [_PARTS[index][key] for index, key in enumerate(_keys(c))]
    result: list[Decomposition] = []
    for holder in range(len(blocks)):  # the block that holds the pair
        choices = [paired if j == holder else free for j, (free, paired) in enumerate(blocks)]
        if not all(choices):
            continue
        for parts in product(*choices):  # one (sets, pair) reading per block
            man, pin, sou, honours = parts
            pair = parts[holder][1]
            assert pair is not None
            result.append(Decomposition(man[0] + pin[0] + sou[0] + honours[0], pair))
    return result


def is_complete(concealed: TilesOrCounts, n_sets: int, *,
                ligu: bool = False) -> bool:
    """Whether the concealed tiles are ``n_sets`` sets plus a pair (no listing; fast).

    With ``ligu=True`` a 17-tile all-concealed 嚦咕嚦咕 also counts (only when
    ``n_sets == 5``, i.e. no fixed sets in the 16-tile family).
    """
    c = _checked(concealed, n_sets, 2)
    if _whole(_statuses(c)):
        return True
    return ligu and n_sets == FAMILY_SETS_16 and _ligu_of(c) is not None


# Seven pairs and a triplet are at most eight kinds of tile (a four read as two pairs is
# fewer): a hand of more kinds is no 嚦咕嚦咕, nor one tile away from it, which a count of
# the empty places tells without reading the hand.
_LIGU_KINDS = 8


def _ligu_of(c: Sequence[int]) -> Ligu | None:
    if N_PLAYING - list(c).count(0) > _LIGU_KINDS:
        return None
    # 17 tiles is odd and a pair is even, so the triplet is the one tile with an odd count:
    # the reading is unique when it exists.
    odd = [t for t in range(N_PLAYING) if c[t] % 2]
    if len(odd) != 1 or c[odd[0]] < 3:
        return None
    triplet = odd[0]
    pairs: list[Tile] = []
    for t in range(N_PLAYING):
        pairs += [t] * ((c[t] - (3 if t == triplet else 0)) // 2)
    return Ligu(tuple(pairs), triplet)


def special_seven_pairs_one_triplet(concealed: TilesOrCounts) -> Ligu | None:
    """The 嚦咕嚦咕 reading of 17 concealed tiles (seven pairs + one triplet), if any.

    At most one reading exists (see ``_ligu_of``), hence ``None`` rather than a list.
    Four identical tiles are read as two pairs; that is a rule reading, not rule text.
    """
    return _ligu_of(_checked(concealed, FAMILY_SETS_16, 2))


def thirteen_orphans(concealed: TilesOrCounts) -> Tile | None:
    """The doubled tile of a 十三幺 hand of 14 concealed tiles, or None if it is not one."""
    c = as_counts(concealed)
    if sum(c) != 14 or any(c[t] == 0 for t in ORPHANS):
        return None
    if any(n for t, n in enumerate(c) if t not in ORPHANS):
        return None
    return next(t for t in ORPHANS if c[t] == 2)


def thirteen_orphans_waits(concealed: TilesOrCounts) -> set[Tile]:
    """The tiles that make 13 concealed tiles a 十三幺 (empty when none does)."""
    c = as_counts(concealed)
    if sum(c) != 13:
        return set()
    found: set[Tile] = set()
    for t in ORPHANS:
        c[t] += 1
        if thirteen_orphans(c) is not None:
            found.add(t)
        c[t] -= 1
    return found


# ---------------------------------------------------------------------------------------
# Ready hands (聽牌)


def _structural_waits(c: list[int]) -> set[Tile]:
    """Tiles whose addition makes ``c`` sets plus a pair (a fifth copy allowed).

    Adding a tile changes one block only, so the other three blocks' statuses decide what
    the changed block must become, and the block's own memo lists the tiles that do it.
    """
    keys = _keys(c)
    statuses = [_STATUS[index][key] for index, key in enumerate(keys)]
    found: set[Tile] = set()
    for index, key in enumerate(keys):
        others = statuses[:index] + statuses[index + 1:]
        paired = sum(s == _WITH_PAIR for s in others)
        if not all(others) or paired > 1:
            continue
        sets_only, with_pair = _WAITS[index][key]
        found.update(sets_only if paired else with_pair)
    return found


def _ligu_waits(c: Sequence[int]) -> set[Tile]:
    """Tiles that make 16 concealed tiles a 嚦咕嚦咕."""
    # The tile that comes must be one held (a new kind would stand alone).
    if N_PLAYING - list(c).count(0) > _LIGU_KINDS:
        return set()
    odd = [t for t in range(N_PLAYING) if c[t] % 2]
    if not odd:  # eight pairs: any of them may become the triplet
        return {t for t in range(N_PLAYING) if c[t] >= 2}
    if len(odd) == 2:  # pair up one odd tile; the other must then be the triplet
        a, b = odd
        return {x for x, y in ((a, b), (b, a)) if c[y] >= 3}
    return set()


def waits(concealed: TilesOrCounts, n_sets: int, *,
          held: TilesOrCounts | None = None, ligu: bool = False) -> set[Tile]:
    """The tiles that would complete the hand (聽牌 iff the set is non-empty).

    ``concealed`` must hold ``3 * n_sets + 1`` tiles.  The answer is structural: a tile the
    player already holds four of still waits, unless ``held`` (a count array or tile list
    of the player's own tiles, concealed and laid out) shows all four copies, in which case
    the fifth copy that would be needed does not exist and the tile is dropped.  With
    ``ligu=True`` and ``n_sets == 5`` (16 concealed tiles) the 嚦咕嚦咕 waits are added.
    """
    c = _checked(concealed, n_sets, 1)
    found = _structural_waits(c)
    if ligu and n_sets == FAMILY_SETS_16:
        found |= _ligu_waits(c)
    if held is not None:
        own = as_counts(held)
        found = {t for t in found if own[t] < 4}
    return found


def is_single_wait(concealed: TilesOrCounts, n_sets: int, *,
                   held: TilesOrCounts | None = None,
                   ligu: bool = False) -> bool:
    """獨聽 (台.11, 只聽一洞): exactly one tile completes the hand.

    The count is of tiles, not of shapes: 1112 waits on 2 (單釣 in one reading) and on 3,
    so it is not 獨聽 even though one of its readings is a 單釣.
    """
    return len(waits(concealed, n_sets, held=held, ligu=ligu)) == 1


# ---------------------------------------------------------------------------------------
# Wait shapes


def _chow_shape(chow: TileSet, tile: Tile) -> WaitShape:
    """The shape of the two-tile partial chow that ``tile`` completed."""
    offset = tile - chow.first
    if offset == 1:
        return "中洞"
    low_number = chow.first % 9 + 1  # 1-9 within the suit
    # 12 waiting 3 and 89 waiting 7 have only one way out: 邊張.
    if (offset == 2 and low_number == 1) or (offset == 0 and low_number == 7):
        return "邊張"
    return "兩面"


def _readings_of(d: Decomposition, tile: Tile) -> list[WaitReading]:
    readings: list[WaitReading] = []
    if d.pair == tile:
        readings.append(WaitReading(d, "單釣", None))
    for s in dict.fromkeys(d.sets):  # identical sets give identical readings
        if tile not in s.tiles:
            continue
        shape: WaitShape = "雙碰" if s.kind == "pung" else _chow_shape(s, tile)
        readings.append(WaitReading(d, shape, s))
    return readings


def wait_shapes(concealed: TilesOrCounts, winning_tile: Tile,
                n_sets: int) -> list[WaitReading]:
    """For each decomposition of the completed hand, how ``winning_tile`` completed it.

    ``concealed`` is the hand before the win (``3 * n_sets + 1`` tiles).  One decomposition
    may give several readings when the winning tile could sit in more than one of its
    groups (with 123 and 333, a 3 completes 12 as 邊張 or 33 as 雙碰).  Empty when the
    tile does not complete the hand.  嚦咕嚦咕 is not read here.
    """
    c = _checked(concealed, n_sets, 1)
    _check_tile(winning_tile)
    c[winning_tile] += 1
    return [r for d in decompositions(c, n_sets) for r in _readings_of(d, winning_tile)]


# ---------------------------------------------------------------------------------------
# A player's hand state: concealed tiles plus fixed sets


def _state(concealed: Iterable[Tile], fixed_sets: int, fixed_tiles: Iterable[Tile],
           family_sets: int) -> tuple[list[int], int, list[int]]:
    """(concealed counts, sets still to make, counts of everything the player holds)."""
    if not 0 <= fixed_sets <= family_sets:
        raise ValueError(f"{fixed_sets} fixed sets in a {family_sets}-set family")
    own = tiles.counts(concealed)
    held = list(own)
    for t in fixed_tiles:
        if 0 <= t < N_PLAYING:
            held[t] += 1
    return own, family_sets - fixed_sets, held


def winning_tiles(concealed: Iterable[Tile], fixed_sets: int = 0, *,
                  fixed_tiles: Iterable[Tile] = (), family_sets: int = FAMILY_SETS_16,
                  ligu: bool = False) -> set[Tile]:
    """The tiles a player could win on, given their concealed tiles and fixed sets.

    ``concealed`` is the tile list in hand (flowers ignored); ``fixed_sets`` the number of
    sets laid out (吃/碰/明杠/暗杠, each kong one set); ``fixed_tiles`` those sets' tiles,
    used only to drop a wait whose four copies are all the player's own.  嚦咕嚦咕 needs
    ``ligu=True`` and no fixed sets.
    """
    own, n_sets, held = _state(concealed, fixed_sets, fixed_tiles, family_sets)
    return waits(own, n_sets, held=held, ligu=ligu and fixed_sets == 0)


def ready(concealed: Iterable[Tile], fixed_sets: int = 0, *,
          fixed_tiles: Iterable[Tile] = (), family_sets: int = FAMILY_SETS_16,
          ligu: bool = False) -> bool:
    """聽牌 for a hand state (see ``winning_tiles``)."""
    return bool(winning_tiles(concealed, fixed_sets, fixed_tiles=fixed_tiles,
                              family_sets=family_sets, ligu=ligu))


def complete(concealed: Iterable[Tile], fixed_sets: int = 0, *,
             family_sets: int = FAMILY_SETS_16, ligu: bool = False) -> bool:
    """Whether a hand state is a winning shape (concealed tiles include the winning one)."""
    own, n_sets, _ = _state(concealed, fixed_sets, (), family_sets)
    return is_complete(own, n_sets, ligu=ligu and fixed_sets == 0)


# ---------------------------------------------------------------------------------------
# Both shapes of a family at once: the standard one and its special one (嚦咕嚦咕 in the
# 16-tile family, 十三幺 in the 13+1 families), each hand's tiles counted once


def special_waits(concealed: TilesOrCounts, n_sets: int, *,
                  held: TilesOrCounts | None = None,
                  family_sets: int = FAMILY_SETS_16) -> tuple[set[Tile], set[Tile]]:
    """(tiles completing a standard hand, tiles completing only the family's special shape).

    As ``waits`` (``held`` drops a wait whose four copies are the player's own); the
    special shape needs nothing laid out (``n_sets == family_sets``).
    """
    c = _checked(concealed, n_sets, 1)
    std = _structural_waits(c)
    special: set[Tile] = set()
    if n_sets == family_sets:
        special = (_ligu_waits(c) if family_sets == FAMILY_SETS_16
                   else thirteen_orphans_waits(c)) - std
    if held is not None:
        own = as_counts(held)
        std = {t for t in std if own[t] < 4}
        special = {t for t in special if own[t] < 4}
    return std, special


def special_complete(concealed: TilesOrCounts, n_sets: int, *,
                     family_sets: int = FAMILY_SETS_16) -> tuple[bool, bool]:
    """(a complete standard hand, complete in the family's special shape only)."""
    c = _checked(concealed, n_sets, 2)
    std = _whole(_statuses(c))
    if std or n_sets != family_sets:
        return std, False
    if family_sets == FAMILY_SETS_16:
        return False, _ligu_of(c) is not None
    return False, thirteen_orphans(c) is not None
