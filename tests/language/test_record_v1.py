"""The record v1 importer (taiwan-mahjong-coach's published RECORD_FORMAT.md), on records
written here to that format."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from adjudicator.language.importers.record_v1 import to_form
from adjudicator.language.json_form import FormError, read_any, to_text
from adjudicator.ruling.judge import judge

# The recorder is player 0; player 2 deals, so 2 is 東, 3 南, 0 西, 1 北.
# Hand of 0: 一二三四五六萬 一二三筒 一二三索 東東 中中 (31 is 中 in record v1).
SEAT_RECORD: dict[str, Any] = {
    "format": "taiwan-mahjong-coach.record", "version": 1, "perspective": "seat", "seat": 0,
    "options": {"dealer": 2, "roundWind": 0, "streak": 1, "reserve": 16, "passWater": False,
                "rules": {}},
    "start": {"hand": [0, 1, 2, 3, 4, 5, 9, 10, 11, 18, 19, 20, 27, 27, 31, 31],
              "flowers": [34], "otherFlowers": {"2": [38]}},
    "events": [
        {"p": 2, "a": "draw"}, {"p": 2, "a": "discard", "tile": 30},
        {"p": 3, "a": "draw"}, {"p": 3, "a": "flower", "tile": 36}, {"p": 3, "a": "draw"},
        {"p": 3, "a": "discard", "tile": 6},
        {"p": 0, "a": "chi", "tiles": [4, 5]}, {"p": 0, "a": "discard", "tile": 0},
        {"p": 1, "a": "draw"}, {"p": 1, "a": "discard", "tile": 31},
        {"p": 0, "a": "pon", "tiles": [31, 31]}, {"p": 0, "a": "discard", "tile": 1},
    ],
    "result": "", "source": "manual",
}


def _text(record: dict[str, Any]) -> list[str]:
    return to_text(to_form(record))[0].splitlines()


def test_a_seat_record_becomes_the_log_it_describes() -> None:
    lines = _text(SEAT_RECORD)
    assert "莊家: 東" in lines and "連莊: 1" in lines
    # 144 tiles − 16 kept − 4 × 16 dealt − 2 flowers replaced at the deal.
    assert "牌牆: 62" in lines
    assert ("西 手牌: 一萬 二萬 三萬 四萬 五萬 六萬 一筒 二筒 三筒 一索 二索 三索 東 東 中 中"
            in lines)
    assert "西 花: 春" in lines and "東 花: 梅" in lines
    assert lines[lines.index("紀錄:") + 1:] == [
        "1 東 摸", "2 東 打 北", "3 南 摸", "4 南 補花 秋", "5 南 補", "6 南 打 七萬",
        "7 西 吃 七萬 用 五萬 六萬", "8 西 打 一萬", "9 北 摸", "10 北 打 中",
        "11 西 碰 中", "12 西 打 二萬"]


def test_a_seat_record_is_judged() -> None:
    ruling = judge(read_any(json.dumps(SEAT_RECORD)))
    assert ruling.status == "decided"
    # 西 held 中中 and 東東 with the rest complete: 北's 中 would have won; 西 pungs
    # it instead: 過水 (a later win before its own discard would be 詐和).
    assert [(f.kind, f.seat) for f in ruling.findings] == [("過水", "西")]


def test_ron_and_tsumo_and_kongs() -> None:
    record = copy.deepcopy(SEAT_RECORD)
    record["events"] = [
        {"p": 2, "a": "draw"}, {"p": 2, "a": "concealed", "tile": 33}, {"p": 2, "a": "draw"},
        {"p": 2, "a": "discard", "tile": 27}, {"p": 3, "a": "ron"},
    ]
    lines = _text(record)
    assert lines[-4:] == ["2 東 暗杠 白", "3 東 補", "4 東 打 東", "5 南 和 東"]
    record["events"] = [{"p": 2, "a": "draw"}, {"p": 2, "a": "tsumo"}]
    assert _text(record)[-1] == "2 東 自摸"


@pytest.mark.parametrize(("events", "where", "what"), [
    ([{"p": 2, "a": "draw"}, {"p": 2, "a": "discard", "tile": 6},
      {"p": 0, "a": "chi", "tiles": [4, 5]}], r"events\[2\]", "上家"),
    ([{"p": 2, "a": "draw"}, {"p": 2, "a": "discard", "tile": 6},
      {"p": 3, "a": "draw"}, {"p": 3, "a": "discard", "tile": 8},
      {"p": 0, "a": "draw", "tile": 7}, {"p": 0, "a": "discard", "tile": 8}], r"events\[5\]",
     "紀錄者手中沒有「九萬」"),
    ([{"p": 2, "a": "draw"}, {"p": 2, "a": "discard", "tile": 27},
      {"p": 3, "a": "draw"}, {"p": 3, "a": "discard", "tile": 27},
      {"p": 0, "a": "draw"}, {"p": 0, "a": "discard", "tile": 0},
      {"p": 1, "a": "draw"}, {"p": 1, "a": "discard", "tile": 27}], r"events\[7\]", "第五張「東」"),
    ([{"p": 2, "a": "draw"}, {"p": 2, "a": "fly"}], r"events\[1\]\.a", "不認得"),
    ([{"p": 2, "a": "draw"}, {"p": 3, "a": "pon", "tiles": [27, 27]}], r"events\[1\]", "打出牌"),
])
def test_unreasonable_events_are_refused_by_index(events: list, where: str, what: str) -> None:
    record = copy.deepcopy(SEAT_RECORD)
    record["events"] = events
    with pytest.raises(FormError, match=f"^{where}：.*{what}"):
        read_any(json.dumps(record))


def test_a_full_record_is_refused_with_the_reason() -> None:
    full = {"format": "taiwan-mahjong-coach.record", "version": 1, "perspective": "full",
            "seed": 12345, "commands": []}
    with pytest.raises(FormError, match="^perspective：.*洗牌種子.*seat"):
        read_any(json.dumps(full))
