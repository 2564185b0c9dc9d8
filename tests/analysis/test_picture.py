"""The hand picture (analysis/picture.py): what the tiles allow at each act, made once per
Incident, and the bounded memo of each hand's answers (analysis/hand_forms.py).

Each expectation is worked out from the hand as stated: which tiles complete it, which
pair it holds, whether it is ready.
"""

from __future__ import annotations

import random
from pathlib import Path

from adjudicator.analysis import hand_forms, picture, replay
from adjudicator.analysis.hand_forms import Hand
from adjudicator.language import reader
from adjudicator.language import tiles as T
from adjudicator.rules.families import FAMILIES

HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"
# 一二三萬 四五六萬 二三四筒 六七八索 五五索 and 三四筒 open at both ends: waits on 二筒 / 五筒.
READY = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三四筒"
# Eight pairs: no standard reading at all, and any of the eight makes 嚦咕嚦咕 (seven pairs
# and a triplet) when it comes a third time.
EIGHT_PAIRS = "一一萬 三三萬 五五萬 七七萬 二二筒 四四筒 六六筒 東東"


def _picture(text: str, family: str = "tw16") -> picture.HandPicture:
    incident = reader.read(text)
    return picture.picture(incident, replay.replay(incident), FAMILIES[family])


def test_a_discard_the_stated_hand_waits_on() -> None:
    got = _picture(HEAD + f"南 手牌: {READY}\n紀錄:\n1 北 打 五筒\n2 東 摸 ?\n3 東 打 三筒\n")
    first = got.offers[1]
    assert first.tile == T.parse_one("五筒")
    assert first.wins == {"東": None, "南": ("std",), "西": None}
    assert first.pairs == frozenset()
    # 三筒 completes nothing, but 南 holds two of it (二三四筒 and 三四筒): it could pung.
    third = got.offers[3]
    assert third.wins is not None and third.wins["南"] == ()
    assert third.pairs == {"南"}
    assert third.own is None  # 東's own hand is not known


def test_a_draw_that_completes_and_the_winning_tile_given_up() -> None:
    got = _picture(HEAD + f"南 手牌: {READY}\n紀錄:\n1 東 打 九萬\n2 南 摸 二筒\n3 南 打 二筒\n")
    assert got.drawn[2] == ("std",)
    # Without the 二筒 it gives up, the hand waits on 二筒 again.
    assert got.offers[3].own == ("std",)
    stated = sorted(T.parse_tiles(READY))
    assert got.known["南"][1] == Hand(tuple(stated))
    assert got.known["南"][3] == Hand(tuple(sorted([*stated, T.parse_one("二筒")])))


def test_a_draw_is_complete_in_the_forms_the_hand_before_it_waits_on_the_tile() -> None:
    sets = hand_forms.hands.FAMILY_SETS_16
    before = Hand(tuple(sorted(T.parse_tiles(READY))))
    two, nine = T.parse_one("二筒"), T.parse_one("九萬")
    assert hand_forms.completed_by(before, two, before.adding(two), sets) == ("std",)
    assert hand_forms.completed_by(before, nine, before.adding(nine), sets) == ()
    # Not that hand with that tile drawn (a hand stated in between): not read from before.
    assert hand_forms.completed_by(before, two, before.adding(nine), sets) is None
    # Four 五索 held already: a fifth is no wait, so the draw is not read from the waits.
    four = Hand(tuple(sorted(T.parse_tiles("一二三萬 四五六萬 二三四筒 六七八索 五五五五索"))))
    five = T.parse_one("五索")
    assert hand_forms.completed_by(four, five, four.adding(five), sets) is None
    ligu = Hand(tuple(sorted(T.parse_tiles(EIGHT_PAIRS))))
    east = T.parse_one("東")
    assert hand_forms.completed_by(ligu, east, ligu.adding(east), sets) == ("ligu",)
    assert hand_forms.complete(ligu.adding(east), sets) == ("ligu",)


def test_eight_pairs_wait_on_every_pair_as_ligu_only() -> None:
    got = _picture(HEAD + f"南 手牌: {EIGHT_PAIRS}\n紀錄:\n1 北 打 東\n2 東 摸 ?\n"
                   "3 東 打 九索\n4 南 眼牌\n")
    assert got.offers[1].wins is not None and got.offers[1].wins["南"] == ("ligu",)
    assert got.offers[3].wins is not None and got.offers[3].wins["南"] == ()
    assert got.ready[4] == ("ligu",)


def test_not_ready_and_unknown_hands() -> None:
    loose = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三筒 九筒"
    got = _picture(HEAD + f"南 手牌: {loose}\n紀錄:\n1 南 眼牌\n2 西 聽\n")
    assert got.ready == {1: (), 2: None}


def test_concealed_kong_waits_after_it_is_laid() -> None:
    # 南 lays 四 九索 as a concealed kong; what is left, 一二三萬 四五六萬 二三四筒 五五索 三四筒,
    # waits on 二筒 / 五筒 with the kong as one of its five sets.
    text = HEAD + ("南 手牌: 一二三萬 四五六萬 二三四筒 九九九索 五五索 三四筒\n紀錄:\n"
                   "1 南 摸 九索\n2 南 暗杠 九索\n")
    got = _picture(text)
    assert got.kong_waits[2] == (T.parse_one("二筒"), T.parse_one("五筒"))


def test_thirteen_orphans_in_a_thirteen_tile_family() -> None:
    orphans = "一九萬 一九筒 一九索 東南西北中發白"
    got = _picture("規則: gd\n莊家: 東\n底: 10\n"
                   f"南 手牌: {orphans}\n紀錄:\n1 北 打 中\n2 東 摸 ?\n3 東 打 五萬\n", "gd")
    assert got.offers[1].wins is not None and got.offers[1].wins["南"] == ("13yao",)
    assert got.offers[3].wins is not None and got.offers[3].wins["南"] == ()


def test_each_memo_is_bounded() -> None:
    # A long-lived worker meets hands without end: each table keeps at most MEMO_SIZE.
    rng = random.Random(3)
    seen: set[tuple[int, ...]] = set()
    while len(seen) < hand_forms.MEMO_SIZE + 100:
        seen.add(tuple(sorted(rng.randrange(T.N_PLAYING) for _ in range(17))))
    for tiles in seen:
        hand_forms.complete(Hand(tiles), hand_forms.hands.FAMILY_SETS_16)
    info = hand_forms._complete.cache_info()
    assert info.maxsize == hand_forms.MEMO_SIZE
    assert info.currsize == hand_forms.MEMO_SIZE
    assert hand_forms._waits.cache_info().maxsize == hand_forms.MEMO_SIZE


def test_the_facts_ask_the_picture_not_the_combinatorics() -> None:
    # facts/ states what the analysis worked out; it never calls into the hand analysis.
    facts = Path(picture.__file__).resolve().parents[1] / "facts"
    for path in facts.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "analysis import hands" not in text and "analysis.hands" not in text, path.name
