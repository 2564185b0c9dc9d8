"""粵特.8–10 天和, 地和, 人和 in a record that does not say where it begins.

asp/gd/start.lp finds that nothing in the record rules the pattern out; asp/open.lp (the
mechanism the Taiwanese 天和/地和/人和 use) leaves it open and judges both ways.  A case's
期望 block can say only that neither value is decided; these check each way's 番 and money
and that the table is asked where the record begins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import to_dict

CASES = Path(__file__).resolve().parents[2] / "cases" / "gd"


@pytest.mark.parametrize(("case", "seat", "named", "ways"), [
    # from the deal: the special hand; later: what the hand is worth by itself.
    ("heavenly_fragment_open", "東", "天和",
     {6: {"東": 1920, "南": -640, "西": -640, "北": -640},
      2: {"東": 120, "南": -40, "西": -40, "北": -40}}),
    ("earthly_fragment_open", "南", "地和",
     {6: {"東": -640, "南": 1920, "西": -640, "北": -640},
      2: {"東": -40, "南": 120, "西": -40, "北": -40}}),
    ("human_fragment_open", "南", "人和",
     {6: {"東": -640, "南": 640, "西": 0, "北": 0},
      1: {"東": -20, "南": 20, "西": 0, "北": 0}}),
])
def test_a_fragment_leaves_the_start_of_hand_open(case: str, seat: str, named: str,
                                                  ways: dict[int, dict[str, int]]) -> None:
    ruling = to_dict(judge_text((CASES / f"{case}.case").read_text(encoding="utf-8")))
    assert ruling["status"] == "undetermined"
    [open_fact] = ruling["uncertain"]
    # The question is gd's own: its three patterns, not the Taiwanese 天聽 地聽 or 配牌補花.
    assert open_fact["term"] == f'gd_start_unknown("{seat}")'
    assert "起點" in open_fact["fact"] and f"無從判斷 {seat} " in open_fact["fact"]
    assert all(name in open_fact["fact"] for name in ("天和", "地和", "人和"))
    assert not any(name in open_fact["fact"] for name in ("天聽", "地聽", "補花"))
    # Each way's win is told in 番, the family's unit.
    assert "（6 番）" in open_fact["changes"] and " 台" not in open_fact["changes"]
    got = {}
    for way in open_fact["possibilities"]:
        [win] = way["wins"]
        got[win["tai"]] = way["balances"]
        assert (named in [p["name"] for p in win["patterns"]]) == (win["tai"] == 6)
    assert got == ways


@pytest.mark.parametrize("case", [
    "heavenly", "earthly", "human",  # from the deal: decided
    "earthly_fragment_after_own_discard", "earthly_broken_by_concealed_kong",
    "human_record_begins_later", "unnumbered_win_hand_laid",
])
def test_what_the_record_shows_decides(case: str) -> None:
    ruling = judge_text((CASES / f"{case}.case").read_text(encoding="utf-8"))
    assert ruling.status == "decided" and not ruling.uncertain
