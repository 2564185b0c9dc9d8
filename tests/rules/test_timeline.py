"""The core chapter's timeline: turn order, the wall, eight-draw windows, the last tiles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clingo import Symbol

from adjudicator.analysis import replay
from adjudicator.facts import record as facts
from adjudicator.language import reader
from adjudicator.rules import engine
from adjudicator.rules.rulesets import rule_set


def atoms(text: str, show: str, extra: list[Symbol] | None = None,
          profile: str = "tw16", tmp: Path | None = None,
          settings: dict[str, str] | None = None) -> set[str]:
    """Solve ``text`` with every chapter plus ``show`` as the only #show lines."""
    incident = reader.read(text)
    rules = rule_set(profile, settings=settings)
    symbols = facts.all_facts(incident, replay.replay(incident), rules) + (extra or [])
    assert tmp is not None
    shown = tmp / "show_only.lp"
    # What it shows may be empty for this log (warnings are on).
    shown.write_text(re.sub(r"#show (\w+/\d+)\.", r"#show \1. #defined \1.", show),
                     encoding="utf-8")
    files = [f for f in engine.chapter_files(profile) if f.name != "show.lp"] + [shown]
    return {str(a) for a in engine.solve(symbols, profile, files)}


def test_seat_order(tmp_path: Path) -> None:
    got = atoms("紀錄:\n1 東 摸\n", "#show next_seat/2. #show prev_seat/2.", tmp=tmp_path)
    assert 'next_seat("東","南")' in got and 'next_seat("北","東")' in got
    assert 'prev_seat("南","東")' in got and 'prev_seat("東","北")' in got
    assert len(got) == 8


def test_wall_counts_down_from_the_header_and_restarts_at_a_stated_count(tmp_path: Path) -> None:
    text = ("牌牆: 10\n紀錄:\n1 東 摸\n2 東 打 一萬\n3 南 摸\n4 南 暗杠 白\n5 南 補\n"
            "牌牆: 3\n6 南 打 二萬\n7 西 摸\n")
    got = atoms(text, "#show wall_before/2.", tmp=tmp_path)
    # 1 draws (10→9); 3 draws (9→8); 5 is a replacement from the kong end (8→7); the
    # stated count 3 then holds before act 6; 7 draws.
    assert got == {"wall_before(1,10)", "wall_before(2,9)", "wall_before(3,9)",
                   "wall_before(4,8)", "wall_before(5,8)", "wall_before(6,3)",
                   "wall_before(7,3)"}


def test_no_wall_count_means_no_wall_facts(tmp_path: Path) -> None:
    assert atoms("紀錄:\n1 東 摸\n", "#show wall_before/2.", tmp=tmp_path) == set()


@pytest.mark.parametrize(("reading", "expected"), [
    # wall draws only: acts 3, 6, 8 count towards a 代位 window (5 is a 補)
    ("wall", {"counted_draw(3)", "counted_draw(6)", "counted_draw(8)"}),
    # every draw counts, the replacement 補 included
    ("all", {"counted_draw(3)", "counted_draw(5)", "counted_draw(6)", "counted_draw(8)"}),
])
def test_eight_draw_window_counts_follow_the_reading(tmp_path: Path, reading: str,
                                                     expected: set[str]) -> None:
    text = ("紀錄:\n1 東 打 一萬\n2 南 碰 一萬\n3 西 摸\n4 西 暗杠 白\n5 西 補\n6 北 摸\n"
            "7 北 打 二萬\n8 東 摸\n")
    assert atoms(text, "#show counted_draw/1.", tmp=tmp_path,
                 settings={"解釋.八張窗": reading}) == expected


@pytest.mark.parametrize(("reading", "expected"), [
    # 解釋.末八張 default: at most eight drawable tiles remain when the act is made.
    ("remaining", {2, 3, 4, 5}),
    # the other reading: the actor's last drawn tile was among the last eight — 南 drew at
    # 3 with eight left; 東 last drew at 1 with nine left, so its pung at 5 is not within.
    ("drawn", {3, 4}),
])
def test_within_the_last_eight(tmp_path: Path, reading: str, expected: set[int]) -> None:
    text = "牌牆: 9\n紀錄:\n1 東 摸\n2 東 打 一萬\n3 南 摸\n4 南 打 二萬\n5 東 碰 二萬\n"
    got = atoms(text, "#show within_last/2.", tmp=tmp_path, settings={"解釋.末八張": reading})
    assert {int(a[len("within_last("):].split(",")[0]) for a in got if a.endswith(",8)")} \
        == expected


def test_turn_follows_the_last_player_act(tmp_path: Path) -> None:
    # A call (喊碰) and the referee's report are no act of a turn: 東's discard holds the
    # turn at act 2, 南's draw at act 4.
    text = "紀錄:\n1 東 打 一萬\n2 北 喊碰 一萬\n3 南 摸\n4 裁判 發現 南 偷牌\n"
    got = atoms(text, "#show last_turn_act/2.", tmp=tmp_path)
    assert got == {"last_turn_act(1,1)", "last_turn_act(2,1)", "last_turn_act(3,3)",
                   "last_turn_act(4,3)"}
