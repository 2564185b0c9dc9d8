"""國標 (mcr): every cases/mcr/*.fan through ``adjudicator score --profile mcr``, and the
refusals around it (no judging, bad input, options 國標 does not have).

A ``.fan`` case is a hand and the fans worked out for it by hand from 002's fan list and
the official definitions it cites; the case passes when the command prints exactly those
fans, that total, and whether the hand reaches 起和.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli.commands import app
from adjudicator.committee.fan_cases import expected, fields_of, run_fan_case
from adjudicator.language.errors import LogError
from adjudicator.rules.families import FAMILIES
from adjudicator.rules.files import not_judged
from adjudicator.rules.rulesets import profile_family, profile_names, score_profiles
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.mcr_fans import BY_LIBRARY_NAME, FANS

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "cases" / "mcr").glob("*.fan"))
# 情境 words of a case → the options of the score command.
CONTEXT = {"自摸": "--self-drawn", "絕張": "--fourth-tile", "搶杠": "--robbed-kong",
           "杠上開花": "--kong-replacement", "海底": "--last-tile"}


def _fields(path: Path) -> tuple[dict[str, str], list[str]]:
    return fields_of(path.read_text("utf-8"))


def _args(fields: dict[str, str]) -> list[str]:
    args = ["score", "--profile", "mcr", "--format", "json", *fields["手牌"].split(),
            "--win", fields["和牌"], "--exposed", fields.get("門前", ""),
            "--flowers", fields.get("花牌", ""), "--seat", fields.get("門風", "東"),
            "--round", fields.get("圈風", "東")]
    return args + [CONTEXT[w] for w in fields.get("情境", "").split()]


def _expected(lines: list[str]) -> tuple[list[tuple[str, int, int]], int, bool]:
    want = expected(lines)
    return want.fans, want.total, want.complete


def test_there_is_a_case_for_every_fan_002_lists() -> None:
    named = {w for c in CASES for w in c.read_text("utf-8").split("期望:")[1].split()}
    listed = {f.name for f in FANS if f.number >= 57}  # 002 lists 57–81
    assert listed <= named, sorted(listed - named)


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_case(path: Path) -> None:
    fields, lines = _fields(path)
    fans, total, complete = _expected(lines)
    out = CliRunner().invoke(app, _args(fields))
    assert out.exit_code == (0 if complete else 1), out.output
    data = json.loads(out.stdout)
    got = sorted((p["name"], p["count"], p["fan"]) for p in data["patterns"])
    assert got == fans
    assert data["fan"] == total and data["complete"] is complete
    assert run_fan_case(path).passed  # as coverage runs it


def test_every_fan_the_library_can_name_is_in_the_table() -> None:
    assert len(FANS) == 81 and [f.number for f in FANS] == list(range(1, 82))
    assert len(BY_LIBRARY_NAME) == 82  # the 81 and the library's 明暗杠
    names = {f.name for f in FANS}
    assert all(n in names for f in FANS for n in f.not_counted)


def _score(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(app, ["score", "--profile", "mcr", *args])
    return out.exit_code, out.output


def test_text_table_shows_fans_not_counted_and_total() -> None:
    code, text = _score("123m", "456p", "789s", "22s", "67m", "--win", "5m")
    assert code == 0
    assert "花龍" in text and "國標.39" in text and "無字" in text and "12" in text


@pytest.mark.parametrize(("args", "word"), [
    (["123m", "456p", "789s", "22s", "6m", "--win", "5m"], "應為 13 張"),
    (["123m", "456p", "789s", "22s", "67m", "--win", "5m", "--tian-hu"], "天和"),
    (["123m", "456p", "789s", "22s", "67m", "--win", "5m", "--flower-win", "七搶一"], "花和"),
    (["123m", "456p", "789s", "22s", "67m", "--win", "5m", "--robbed-kong", "--self-drawn"],
     "搶杠"),
    (["1m", "--win", "1m", "--exposed", "碰 二萬 / 碰 三萬 / 碰 四萬 / 碰 五萬 / 碰 六萬"],
     "四副"),
    (["123m", "456p", "789s", "22s", "67m", "--win", "5m", "--seat", "中"], "東、南、西、北"),
])
def test_bad_input_exits_2(args: list[str], word: str) -> None:
    code, text = _score(*args)
    assert code == 2 and word in text and "Traceback" not in text


def test_no_win_exits_1() -> None:
    code, text = _score("123m", "456p", "789s", "22s", "68m", "--win", "1p")
    assert code == 1 and "不成和" in text


def test_fourth_tile_is_refused_for_the_taiwanese_profiles() -> None:
    out = CliRunner().invoke(app, ["score", "南南南", "一二三萬", "四五六筒", "七八九索",
                                   "二二索", "七八萬", "--win", "九萬", "--fourth-tile"])
    assert out.exit_code == 2 and "和絕張" in out.output


def test_an_mcr_log_is_not_judged() -> None:
    log = "規則: mcr\n東 手牌: 一二三萬\n\n紀錄:\n1 東 打 一萬\n"
    with pytest.raises(LogError) as err:
        judge_text(log)
    assert "只計番" in str(err.value) and "score --profile mcr" in str(err.value)


def test_judge_command_refuses_mcr(tmp_path: Path) -> None:
    log = tmp_path / "t.log"
    log.write_text("規則: tw16\n東 手牌: 一二三萬\n\n紀錄:\n1 東 打 一萬\n", "utf-8")
    out = CliRunner().invoke(app, ["judge", str(log), "--profile", "mcr"])
    assert out.exit_code == 2 and "只計番" in out.output


def test_mcr_scores_only_and_is_no_rule_family() -> None:
    assert set(score_profiles()) == set(profile_names()) | {"mcr"}
    assert "mcr" not in profile_names() and "mcr" not in FAMILIES
    assert {profile_family(p).name for p in profile_names()} <= set(FAMILIES)
    assert "只計番" in (not_judged("mcr") or "")
    assert all(not_judged(p) is None for p in profile_names())


def test_one_melded_and_one_concealed_kong_is_the_librarys_ming_an_gang() -> None:
    # 002's list would count 暗杠 2 + 明杠 1 here; PyMahjongGB counts one 明暗杠 of 5
    # (docs/mcr.md, 明暗杠).  Pinned so that a library upgrade that changes it is seen.
    out = CliRunner().invoke(app, ["score", "--profile", "mcr", "--format", "json", "456p",
                                   "5s", "--win", "5s", "--exposed",
                                   "明杠 五萬 / 暗杠 七索 / 吃 一二三筒"])
    data = json.loads(out.stdout)
    names = {p["name"]: p["fan"] for p in data["patterns"]}
    assert names.get("明暗杠") == 5 and "暗杠" not in names and "明杠" not in names
    assert {"name": "明暗杠", "fan": 5, "count": 1, "clause": "國標.明暗杠",
            "not_counted": ["明杠", "暗杠"]} in data["patterns"]
