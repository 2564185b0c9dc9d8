"""Property: over random matches, the ledger sums to zero after every hand, and each hand is
dealt as the ruling before it said (the carry adds nothing of its own to who deals)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.language.seats import SEATS
from adjudicator.match.format import read_match
from adjudicator.match.run import judge_match

NAMES = ("阿明", "小華", "阿德", "小美")
WIN = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三四筒"
FALSE = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三五筒"  # not complete on 九索

seat = st.sampled_from(SEATS)
two_seats = st.permutations(SEATS).map(lambda p: (p[0], p[1]))

hand = st.one_of(
    st.just("紀錄:\n90 北 打 一萬\n91 荒局\n"),
    two_seats.map(lambda w: f"{w[0]} 手牌: {WIN}\n紀錄:\n20 {w[1]} 打 五筒\n21 {w[0]} 和 五筒\n"),
    seat.map(lambda s: f"{s} 手牌: {WIN}\n紀錄:\n30 {s} 摸 五筒\n31 {s} 自摸\n"),
    two_seats.map(lambda w: f"{w[0]} 手牌: {FALSE}\n紀錄:\n40 {w[1]} 打 九索\n41 {w[0]} 和 九索\n"),
    seat.map(lambda s: f"紀錄:\n13 {s} 弄亂 牌牆\n"),
)
seating = st.permutations(NAMES).map(
    lambda p: "玩家: " + " ".join(f"{s}={n}" for s, n in zip(SEATS, p, strict=True)) + "\n")
side_bet = st.one_of(
    st.tuples(st.sampled_from(NAMES), st.integers(1, 200)).map(
        lambda b: f"插花: 外插 老王 {b[0]} {b[1]}\n"),
    st.tuples(st.sampled_from(NAMES), st.integers(1, 3)).map(
        lambda b: f"插花: 內插 {b[0]} {b[1]}\n"),
)


@st.composite
def matches(draw: st.DrawFn) -> str:
    profile = draw(st.sampled_from(("tw16", "tw16-alt", "tw16-online")))
    head = (f"規則: {profile}\n底: {draw(st.integers(0, 500))}\n台: {draw(st.integers(1, 200))}\n"
            f"{draw(seating)}莊家: {draw(seat)}\n連莊: {draw(st.integers(0, 3))}\n"
            f"搬風: {draw(st.sampled_from(('每將', '每圈')))}\n"
            + "".join(draw(st.lists(side_bet, max_size=2, unique_by=lambda b: b[:7]))))
    bodies = draw(st.lists(hand, min_size=1, max_size=5))
    moves = [draw(st.one_of(st.just(""), seating)) if i else "" for i in range(len(bodies))]
    return head + "".join(f"\n第{i}盤:\n{move}{body}"
                          for i, (move, body) in enumerate(zip(moves, bodies, strict=True), 1))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_ledger_sums_to_zero_and_the_deal_follows_the_rulings(text: str) -> None:
    result = judge_match(read_match(text))
    assert result.stop is None, result.stop
    for before, after in zip(result.hands, result.hands[1:], strict=False):
        assert before.ruling.next_hand is not None
        assert after.deal.dealer == before.ruling.next_hand.dealer
        assert after.deal.streak == before.ruling.next_hand.streak
        turned = after.deal.round_wind != before.deal.round_wind
        passed_to_start = (after.deal.dealer != before.deal.dealer
                           and after.deal.dealer == before.deal.start_dealer)
        assert turned == passed_to_start
    for h in result.hands:
        assert sum(h.amounts.values(), Fraction(0)) == 0
        assert sum(h.totals.values(), Fraction(0)) == 0
        assert set(NAMES) <= set(h.totals)
    assert result.ledger.total() == 0
