"""The failure classes the simulator found (bench/findings/), pinned at their acts.

A case's 期望 names a finding but not the act it is about; these tests check the act on the
hand-worked cases in cases/record/ (the rulings there are worked out from the rule texts).
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.analysis.warnings import log_warnings
from adjudicator.language import reader
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import Ruling

CASES = Path(__file__).resolve().parents[2] / "cases" / "record"


def _ruling(name: str) -> Ruling:
    return judge_text((CASES / name).read_text(encoding="utf-8"))


def _at(r: Ruling) -> set[tuple[str, str, int | None]]:
    return {(f.kind, f.seat, f.at) for f in r.findings}


def test_flower_replacement_that_is_a_flower_waits_for_the_next_round() -> None:
    r = _ruling("deal_flower_replacement_is_flower.case")
    assert r.status == "decided"
    assert _at(r) == set()


def test_flower_replacement_never_laid_out_is_one_xianggong_when_play_begins() -> None:
    r = _ruling("deal_flower_replacement_never_laid_out.case")
    # 南's draw at 4 is its first act after the replacement rounds, 冬 still in its hand.
    assert _at(r) == {("相公", "南", 4)}


def test_discard_out_of_turn_counted_from_a_dealt_hand_stated_with_its_flower() -> None:
    r = _ruling("out_of_turn_discard_dealt_flower_stated.case")
    assert _at(r) == {("相公", "南", 5)}


def test_dealt_hand_stated_with_its_flowers_is_a_whole_hand() -> None:
    """16 tiles as dealt, two of them flowers: no warning about the hand's size."""
    text = (CASES / "deal_flower_replacement_is_flower.case").read_text(encoding="utf-8")
    assert not [w for w in log_warnings(reader.read(text)) if "手牌記了" in w.message]


def test_wrong_pung_stated_by_show_after_it_is_found_at_the_pung() -> None:
    r = _ruling("wrong_pung_shown_record_ends.case")
    assert _at(r) == {("錯碰", "北", 13), ("相公", "北", 13), ("強制復原", "北", 13)}


def _possibilities(r: Ruling, term: str) -> dict[str, list[tuple[bool, int | None]]]:
    (u,) = [u for u in r.uncertain if u.term == term]
    return {p.assumption: [(w.valid, w.tai) for w in p.wins] for p in u.possibilities}


def test_dealt_flower_win_from_the_deal_is_decided() -> None:
    r = _ruling("dealt_flower_win_start_header.case")
    assert r.status == "decided" and r.uncertain == []
    (win,) = r.wins
    assert win.valid and win.tai == 8
    assert {p.name for p in win.patterns} == {"配牌花和", "八仙過海"}


def test_dealt_flower_win_in_a_fragment_asks_where_the_record_starts() -> None:
    """台.28 at the first draw after the deal: asp/open.lp asks it, both ways."""
    r = _ruling("dealt_flower_win_fragment_open.case")
    assert r.status == "undetermined"
    assert {u.term for u in r.uncertain} == {'record_start_unknown("南")',
                                             'hand_not_recorded("南")'}
    from_deal = _possibilities(r, 'record_start_unknown("南")')
    assert list(from_deal.values()) == [[(True, 8)]]
    assert not [w for w in r.wins if w.valid]


def test_dealt_flower_win_in_a_late_record_is_an_ordinary_win() -> None:
    """Numbered from 40: not the deal's flower win (台.27: it passed); only the hand is open."""
    r = _ruling("dealt_flower_win_numbered_late.case")
    assert [u.term for u in r.uncertain] == ['hand_not_recorded("南")']
    ways = sorted(_possibilities(r, 'hand_not_recorded("南")').values(), key=str)
    assert ways == [[(False, 9)], [(True, None)]]
    assert all(p.name != "八仙過海" for w in r.wins for p in w.patterns)
