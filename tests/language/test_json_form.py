"""The JSON form of an incident: text → JSON → text reads and judges the same."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from adjudicator.language import reader
from adjudicator.language.incident import VERBS
from adjudicator.language.json_form import FormError, read_any, to_json_form, to_text
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import to_dict

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "cases").rglob("*.case"))


def _lineless(items: list) -> list:
    return [dataclasses.replace(x, line=0) for x in items]


def _through_json(text: str) -> tuple:
    first = reader.read(text)
    again = read_any(json.dumps(to_json_form(first), ensure_ascii=False))
    return first, again


def test_every_case_reads_the_same_through_json() -> None:
    for path in CASES:
        first, again = _through_json(path.read_text(encoding="utf-8"))
        assert _lineless(again.record) == _lineless(first.record), path
        assert [a.numbered for a in again.acts] == [a.numbered for a in first.acts], path
        assert _lineless(again.positions) == _lineless(first.positions), path
        a, b = dataclasses.asdict(first.header), dataclasses.asdict(again.header)
        for header in (a, b):
            header.pop("lines")
            for bet in header["side_bets"]:
                bet.pop("line")
        assert a == b, path


@pytest.mark.parametrize("name", [
    "golden/false_win_xianggong.log", "golden/contradiction.log",
    "offences/side_bets/side_bets_on_win.case", "wrong_kong/pung_kong_stage_2.case",
    "calls/called_simplified.case", "offences/side_bets/side_bet_table_stake_self_draw.case",
    "offences/side_bets/side_bet_outsider_sways_win_void.case",
])
def test_text_json_text_judges_the_same(name: str) -> None:
    first, again = _through_json((ROOT / "cases" / name).read_text(encoding="utf-8"))
    assert _outcome(judge(again)) == _outcome(judge(first))


def _outcome(ruling) -> dict:  # type: ignore[no-untyped-def]
    """The ruling as JSON; a problem's or warning's line numbers count lines of the text
    the JSON was turned into (no comments, no blank lines, tiles spelt one by one), so what
    a problem is and how many lines it points at are compared, not how those lines read."""
    out = to_dict(ruling)
    for warning in out.get("warnings", []):
        warning.pop("line")
    for problem in out["problems"]:
        problem.pop("line")
        problem["conflicts"] = len(problem["conflicts"])
    return out


def _form(*events: dict) -> dict:
    return {"format": "adjudicator.incident", "version": 1,
            "header": {"profile": "tw16", "dealer": "東", "base": 300, "per_tai": 100},
            "positions": [{"seat": "南", "kind": "手牌", "tiles": ["一萬", "二萬"]}],
            "events": list(events)}


def test_a_json_log_is_judged_like_its_text() -> None:
    data = _form({"seq": 11, "actor": "北", "verb": "打", "tiles": ["七筒"]},
                 {"seq": 12, "actor": "南", "verb": "喊碰", "tiles": ["七筒"]},
                 {"seq": 13, "actor": "西", "verb": "摸"})
    text, origins = to_text(data)
    assert "12 南 喊碰 七筒" in text.splitlines()
    assert origins[text.splitlines().index("12 南 喊碰 七筒")] == "events[1]"
    ruling = judge(read_any(json.dumps(data, ensure_ascii=False)))
    assert [(f.kind, f.seat) for f in ruling.findings] == [("喊碰未碰", "南")]


def test_an_error_names_the_event_not_a_generated_line() -> None:
    data = _form({"seq": 1, "actor": "東", "verb": "摸"},
                 {"seq": 2, "actor": "東", "verb": "打", "tiles": ["十萬"]})
    with pytest.raises(FormError, match=r"^events\[1\]：.*牌名"):
        read_any(json.dumps(data, ensure_ascii=False))
    data = _form({"seq": 1, "actor": "東", "verb": "打", "tiles": ["三 萬"]})
    with pytest.raises(FormError, match=r"^events\[0\]\.tiles"):
        read_any(json.dumps(data, ensure_ascii=False))
    with pytest.raises(FormError, match="format"):
        read_any('{"format": "something else"}')
    with pytest.raises(FormError, match="JSON"):
        read_any('{"format": ')


def test_the_schema_lists_the_languages_verbs() -> None:
    schema = json.loads((ROOT / "docs" / "incident.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["event"]["properties"]["verb"]["enum"] == list(VERBS)
    assert schema["properties"]["format"]["const"] == "adjudicator.incident"
