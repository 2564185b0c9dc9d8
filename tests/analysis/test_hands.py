"""Hand analysis (adjudicator.hands): expectations worked out by hand, plus a property check
of the 14-tile (n_sets=4) case against the `mahjong` package."""

from __future__ import annotations

import random

import pytest

from adjudicator.analysis import hands
from adjudicator.analysis.hands import Decomposition, Ligu, TileSet, WaitReading
from adjudicator.language import tiles
from adjudicator.language.tiles import Tile


def h(text: str) -> list[Tile]:
    """Compact notation: ``"123m 55p 7z"`` → the tiles 一萬 二萬 三萬 五筒 五筒 中."""
    out: list[Tile] = []
    for group in text.split():
        out += [tiles.from_ascii(digit + group[-1]) for digit in group[:-1]]
    return out


def t(code: str) -> Tile:
    return tiles.from_ascii(code)


def chow(code: str) -> TileSet:
    return TileSet("chow", t(code))


def pung(code: str) -> TileSet:
    return TileSet("pung", t(code))


def readings(before: str, winning: str, n_sets: int) -> set[tuple[str, TileSet | None]]:
    return {(r.shape, r.completed) for r in hands.wait_shapes(h(before), t(winning), n_sets)}


# --- decompositions -----------------------------------------------------------------------


def test_three_pungs_or_three_chows() -> None:
    found = hands.decompositions(h("111222333m 456p 789s 11z"), 5)
    rest = (chow("4p"), chow("7s"))
    assert set(found) == {
        Decomposition((pung("1m"), pung("2m"), pung("3m"), *rest), t("1z")),
        Decomposition((chow("1m"), chow("1m"), chow("1m"), *rest), t("1z")),
    }
    assert len(found) == 2


def test_pair_can_sit_at_either_end() -> None:
    # 22334455: eye 22 leaves 345 345; eye 55 leaves 234 234; eyes 33 / 44 leave nothing.
    found = hands.decompositions(h("22334455m"), 2)
    assert set(found) == {
        Decomposition((chow("3m"), chow("3m")), t("2m")),
        Decomposition((chow("2m"), chow("2m")), t("5m")),
    }


def test_four_of_each_gives_exactly_two_readings() -> None:
    # 1111 2222 3333 as four sets: k chows of 123 leave 4-k of each, so k = 4 or k = 1.
    found = hands.decompositions(h("111122223333m 55z"), 4)
    assert set(found) == {
        Decomposition((chow("1m"),) * 4, t("5z")),
        Decomposition((pung("1m"), chow("1m"), pung("2m"), pung("3m")), t("5z")),
    }
    assert len(found) == 2


def test_decomposition_parts() -> None:
    (d,) = hands.decompositions(h("123m 555p 77z"), 2)
    assert d.chows == (chow("1m"),)
    assert d.pungs == (pung("5p"),)
    assert chow("7s").tiles == (t("7s"), t("8s"), t("9s"))
    assert str(d) == "一萬 二萬 三萬 | 五筒 五筒 五筒 | 中 中"


def test_honours_never_make_chows() -> None:
    assert hands.decompositions(h("123z 55m"), 1) == []
    assert not hands.is_complete(h("567z 55m"), 1)


def test_no_chow_across_suits() -> None:
    # 8m 9m 1p would be consecutive ints but not one suit.
    assert not hands.is_complete(h("89m 1p 55s"), 1)


def test_incomplete_hand() -> None:
    hand = h("123m 456m 789m 123p 456p 12s")  # 17 tiles, no pair
    assert hands.decompositions(hand, 5) == []
    assert not hands.is_complete(hand, 5)


def test_counts_and_tile_lists_agree_and_flowers_are_ignored() -> None:
    hand = h("123m 456m 789m 123p 456p 99s")
    counts = tiles.counts(hand)
    with_flowers = [*hand, t("1f"), t("8f")]
    assert hands.decompositions(counts, 5) == hands.decompositions(with_flowers, 5)
    assert hands.is_complete(tuple(counts), 5)


# --- is_complete, waits -------------------------------------------------------------------


def test_nine_gates_waits_on_all_nine() -> None:
    assert hands.waits(h("1112345678999m"), 4) == set(h("123456789m"))
    # The 16-tile family: the same shape beside a finished set still waits on all nine.
    assert hands.waits(h("1112345678999m 789s"), 5) == set(h("123456789m"))


def test_1112_waits_on_2_and_3() -> None:
    # +2: 111 22.  +3: 11 123.  +1: 1111 2 fails, +4: 11124 fails.
    assert hands.waits(h("1112m"), 1) == {t("2m"), t("3m")}


def test_wait_across_two_blocks() -> None:
    # 雙碰 across suits: 55m and 77p each may become the pung.
    assert hands.waits(h("55m 77p"), 1) == {t("5m"), t("7p")}


def test_not_ready() -> None:
    assert hands.waits(h("159m 159p 159s 1234z"), 4) == set()
    assert not hands.ready(h("159m 159p 159s 1234z"), 0, family_sets=4)


def test_fifth_copy_is_structural_unless_held_shows_four() -> None:
    # 碰 五萬 laid out, and a lone 五萬 in hand: structurally 單釣 五萬, but the player
    # holds all four 五萬, so no tile can win.
    concealed = h("123p 5m")
    assert hands.waits(concealed, 1) == {t("5m")}
    assert hands.waits(concealed, 1, held=concealed + h("555m")) == set()
    fixed = h("555m 123s 456s 789s")
    assert hands.winning_tiles(concealed, 4, fixed_tiles=fixed) == set()
    assert not hands.ready(concealed, 4, fixed_tiles=fixed)
    # Without the laid-out tiles the hand state still waits, as the structure says.
    assert hands.winning_tiles(concealed, 4) == {t("5m")}


def test_four_in_hand_waiting_on_the_fifth() -> None:
    # 1111 undeclared: 111 + 1 is a 單釣 on a tile that no longer exists.
    assert hands.waits(h("1111m"), 1) == {t("1m")}
    assert hands.waits(h("1111m"), 1, held=h("1111m")) == set()


def test_hand_state_with_fixed_sets() -> None:
    # 全求: everything laid out, one tile left.
    assert hands.winning_tiles(h("7z"), 5) == {t("7z")}
    assert hands.complete(h("77z"), 5)
    assert hands.ready(h("12m 55p 789s"), 3)
    assert hands.winning_tiles(h("12m 55p 789s"), 3) == {t("3m")}
    with pytest.raises(ValueError):
        hands.ready(h("12m"), 6)


# --- wait shapes --------------------------------------------------------------------------


def test_two_sided() -> None:
    assert readings("23m 55p", "1m", 1) == {("兩面", chow("1m"))}
    assert readings("23m 55p", "4m", 1) == {("兩面", chow("2m"))}
    assert readings("78m 55p", "6m", 1) == {("兩面", chow("6m"))}


def test_closed() -> None:
    assert readings("13m 55p", "2m", 1) == {("中洞", chow("1m"))}


def test_edge() -> None:
    assert readings("12m 55p", "3m", 1) == {("邊張", chow("1m"))}
    assert readings("89s 55p", "7s", 1) == {("邊張", chow("7s"))}


def test_single() -> None:
    assert readings("123m 5p", "5p", 1) == {("單釣", None)}


def test_shanpon() -> None:
    assert readings("55m 77p", "5m", 1) == {("雙碰", pung("5m"))}
    assert readings("55m 77p", "7p", 1) == {("雙碰", pung("7p"))}


def test_one_decomposition_two_readings() -> None:
    # 12333 55: the 3 finishes 123 (邊張, with 333 whole) or 333 (雙碰 with 55) — same sets.
    found = hands.wait_shapes(h("12333m 55p"), t("3m"), 2)
    decomposition = Decomposition((chow("1m"), pung("3m")), t("5p"))
    assert set(found) == {
        WaitReading(decomposition, "邊張", chow("1m")),
        WaitReading(decomposition, "雙碰", pung("3m")),
    }


def test_readings_across_decompositions() -> None:
    # 1112 + 2: 111 22 (單釣 on 2).  1112 + 3: 11 123 (邊張, 3 completes 12).
    assert readings("1112m", "2m", 1) == {("單釣", None)}
    assert readings("1112m", "3m", 1) == {("邊張", chow("1m"))}


def test_wait_shapes_of_a_non_winning_tile() -> None:
    assert hands.wait_shapes(h("1112m"), t("5m"), 1) == []


# --- 獨聽 -----------------------------------------------------------------------------------


def test_single_wait_yes() -> None:
    assert hands.is_single_wait(h("13m 55p"), 1)  # 中洞
    assert hands.is_single_wait(h("12m 55p"), 1)  # 邊張
    assert hands.is_single_wait(h("89s 55p"), 1)  # 邊張
    assert hands.is_single_wait(h("123m 5p"), 1)  # 單釣
    assert hands.is_single_wait(h("7z"), 0)  # 全求


def test_single_wait_no() -> None:
    assert not hands.is_single_wait(h("23m 55p"), 1)  # 兩面 1/4
    assert not hands.is_single_wait(h("1112m"), 1)  # 2 and 3, though 2 reads as 單釣
    assert not hands.is_single_wait(h("55m 77p"), 1)  # 雙碰
    assert not hands.is_single_wait(h("159m 159p 159s 1234z"), 4)  # not even ready


def test_single_wait_with_two_shapes_on_one_tile() -> None:
    # 2334: only a 3 wins (234 + 33), as 單釣 or as 中洞: one tile, so 獨聽.
    assert hands.waits(h("2334m"), 1) == {t("3m")}
    assert hands.is_single_wait(h("2334m"), 1)
    assert readings("2334m", "3m", 1) == {("單釣", None), ("中洞", chow("2m"))}


def test_single_wait_when_the_other_side_is_all_held() -> None:
    # 23 55 waits 1/4; with a 四萬 kong laid out the player holds all four 四萬 already,
    # so only 一萬 can come.
    concealed = h("23m 55p")
    fixed = h("4444m 111z 222z 333z")
    assert hands.waits(concealed, 1) == {t("1m"), t("4m")}
    assert not hands.is_single_wait(concealed, 1)
    assert hands.is_single_wait(concealed, 1, held=concealed + fixed)
    assert hands.winning_tiles(concealed, 4, fixed_tiles=fixed) == {t("1m")}


# --- 嚦咕嚦咕 -------------------------------------------------------------------------------

LIGU = "11m 55m 99m 22p 66p 33s 77s 111z"  # seven pairs and a 東 triplet; no chow anywhere


def test_ligu_reading() -> None:
    assert hands.special_seven_pairs_one_triplet(h(LIGU)) == Ligu(
        tuple(h("1m 5m 9m 2p 6p 3s 7s")), t("1z"))
    assert not hands.is_complete(h(LIGU), 5)
    assert hands.is_complete(h(LIGU), 5, ligu=True)
    assert hands.complete(h(LIGU), 0, ligu=True)


def test_ligu_four_of_a_kind_reads_as_two_pairs() -> None:
    found = hands.special_seven_pairs_one_triplet(h("1111m 55m 99m 22p 66p 33s 111z"))
    assert found == Ligu(tuple(h("1m 1m 5m 9m 2p 6p 3s")), t("1z"))


def test_not_ligu() -> None:
    assert hands.special_seven_pairs_one_triplet(h("11m 55m 99m 22p 66p 33s 7s 1111z")) is None
    assert hands.special_seven_pairs_one_triplet(h("123m 456m 789m 123p 456p 99s")) is None


def test_ligu_waits() -> None:
    eight_pairs = h("11m 55m 99m 22p 66p 33s 77s 11z")
    assert hands.waits(eight_pairs, 5) == set()
    assert hands.waits(eight_pairs, 5, ligu=True) == set(h("1m 5m 9m 2p 6p 3s 7s 1z"))
    lone = h("11m 55m 99m 22p 66p 33s 7s 111z")  # six pairs, a triplet and a lone 七索
    assert hands.waits(lone, 5, ligu=True) == {t("7s")}
    assert hands.is_single_wait(lone, 5, ligu=True)


def test_ligu_needs_everything_concealed() -> None:
    # Seven concealed pairs beside a laid-out 東 pung are not a 嚦咕嚦咕.
    assert not hands.complete(h("11m 55m 99m 22p 66p 33s 77s"), 1, ligu=True)
    assert hands.winning_tiles(h("11m 55m 99m 22p 66p 33s 7s"), 1, ligu=True) == set()


# --- input sizes --------------------------------------------------------------------------


def test_wrong_sizes_raise() -> None:
    with pytest.raises(ValueError):
        hands.decompositions(h("123m 456m 789m 123p 456p 9s"), 5)  # 16 tiles
    with pytest.raises(ValueError):
        hands.is_complete(h("123m 456m"), 5)
    with pytest.raises(ValueError):
        hands.waits(h("123m 456m 789m 123p 456p 99s"), 5)  # 17 tiles
    with pytest.raises(ValueError):
        hands.wait_shapes(h("123m 55p"), t("1m"), 1)  # 5 tiles
    with pytest.raises(ValueError):
        hands.special_seven_pairs_one_triplet(h("11m 55m 99m 22p 66p 33s 77s 11z"))
    with pytest.raises(ValueError):
        hands.decompositions([], -1)


def test_bad_values_raise() -> None:
    with pytest.raises(ValueError):
        hands.wait_shapes(h("1112m"), t("1f"), 1)  # a flower never wins
    bad = [0] * 34
    bad[0], bad[1] = -1, 3
    with pytest.raises(ValueError):
        hands.decompositions(bad, 0)


# --- n_sets = 4 against the `mahjong` package ---------------------------------------------


def _random_complete(rng: random.Random, n_sets: int) -> list[int]:
    while True:
        counts = [0] * 34
        for _ in range(n_sets):
            if rng.random() < 0.6:
                first = rng.randrange(3) * 9 + rng.randrange(7)
                members = [first, first + 1, first + 2]
            else:
                members = [rng.randrange(34)] * 3
            for tile in members:
                counts[tile] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def _random_fourteen(rng: random.Random) -> list[int]:
    """Complete hands, and complete hands with one tile swapped (often still complete)."""
    counts = _random_complete(rng, 4)
    if rng.random() < 0.5:
        counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
        counts[rng.choice([i for i in range(34) if counts[i] < 4])] += 1
    return counts


def _riichi_special(counts: list[int]) -> bool:
    """Seven pairs / thirteen orphans: shapes `mahjong` accepts and 4-sets-plus-pair does not."""
    return sorted(counts, reverse=True)[:8] == [2] * 7 + [0] or all(
        counts[i] for i in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


def test_fourteen_tiles_agree_with_mahjong() -> None:
    pytest.importorskip("mahjong")
    from mahjong.agari import Agari
    from mahjong.hand_calculating.divider import HandDivider

    rng = random.Random(14)
    agari = Agari()
    complete_seen = 0
    for _ in range(400):
        counts = _random_fourteen(rng)
        if _riichi_special(counts):
            continue
        ours = hands.is_complete(counts, 4)
        assert ours == agari.is_agari(counts), tiles.names(
            [i for i in range(34) for _ in range(counts[i])])
        theirs = {
            tuple(sorted(tuple(block) for block in division))
            for division in HandDivider.divide_hand(counts)
            if any(len(block) == 3 for block in division)  # drop the seven-pairs division
        }
        found = hands.decompositions(counts, 4)
        assert len(found) == len(set(found))
        assert {_as_blocks(d) for d in found} == theirs
        complete_seen += ours
    assert complete_seen > 100  # the property was exercised on complete hands


def _as_blocks(d: Decomposition) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted([s.tiles for s in d.sets] + [(d.pair, d.pair)]))
