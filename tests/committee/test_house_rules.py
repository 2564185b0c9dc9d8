"""A club's house rules in one file: read, checked, resolved, judged, diffed and printed
(rules/rulesets.py, docs/house-rules.md); and the one definition of each point and
parameter that the profiles, the rules, `points` and docs/points.md agree with."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli.commands import app
from adjudicator.cli.points import markdown, points_data
from adjudicator.rules.files import all_chapters
from adjudicator.rules.rulesets import (
    RulesError,
    load_house,
    profile_names,
    profile_values,
    rule_set,
    template,
)
from adjudicator.ruling.interpretations import PARAMS, POINTS
from adjudicator.ruling.judge import judge_text

ROOT = Path(__file__).resolve().parents[2]
CLUB = ROOT / "examples" / "house-rules" / "longshan.rules"
FIVE = ROOT / "cases" / "profiles" / "five_concealed_pungs_tw16.case"
LIGU = ROOT / "cases" / "scoring" / "tai36_ligu_wind_triplet.case"
WINDOW = ROOT / "cases" / "substitute" / "window_counts_wall_draws.case"
UNTOUCHED = [ROOT / "cases" / "scoring" / "tai08_duiduihu.case",
             ROOT / "cases" / "profiles" / "di_ting_tw16.case"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ the one definition


def test_every_point_and_parameter_is_defined_whole() -> None:
    for point in POINTS.values():
        assert point.question and point.clause and point.seed is not None, point.id
        assert point.default in point.readings, point.id
        assert re.fullmatch(r"00[0-4]", point.seed.file) and point.seed.says, point.id
    for param in PARAMS.values():
        assert param.question and param.clause and param.seed is not None, param.id
        if param.values is None:
            lo, hi = param.range
            assert lo <= int(param.default) <= hi and param.unit in ("台", "番"), param.id
        else:
            assert param.default in param.values, param.id


def _literals(name: str) -> set[tuple[str, str]]:
    """(id, value) of every ``name(ID, VALUE)`` a rule chapter reads with a constant value."""
    pattern = re.compile(name + r'\(("?)([^,"()]+)\1,\s*("?)([^,")]+)\3\)')
    out = set()
    for path in all_chapters():
        text = "\n".join(line.split("%")[0] for line in path.read_text("utf-8").splitlines())
        out |= {(m.group(2), m.group(4)) for m in pattern.finditer(text)}
    return out


def test_the_rules_read_only_defined_points_readings_and_parameters() -> None:
    def constant(term: str) -> bool:
        return not (term[0].isupper() or term[0] == "_")

    readings = {(k, v) for k, v in _literals("reading_value") if constant(k)}
    assert readings and {(k, v) for k, v in readings if k not in POINTS or (
        constant(v) and v not in POINTS[k].readings)} == set()
    params = {(k, v) for k, v in _literals("param_value") if constant(k)}
    assert params and {k for k, _ in params} <= set(PARAMS)
    # Every point and parameter is read by some chapter: a definition no rule reads is dead.
    assert {k for k, _ in readings} >= set(POINTS)
    assert {k for k, _ in params} >= set(PARAMS)


def test_docs_points_md_is_what_points_writes() -> None:
    assert (ROOT / "docs" / "points.md").read_text("utf-8") == markdown(points_data()), \
        "regenerate: adjudicator points -f md > docs/points.md"


def test_points_lists_each_shipped_profile_and_a_house_column() -> None:
    code, out = run("points", "-f", "json", "--rules", str(CLUB))
    assert code == 0
    data = json.loads(out)
    assert data["profiles"] == ["gd", "tw16", "tw16-alt", "tw16-online"]
    assert data["house"]["name"] == "龍山麻將協會 2026 版"
    assert sorted(data["house"]["differs"]) == sorted(
        ["tai_five_concealed_pungs", "ligu_enabled", "解釋.八張窗"])
    eight = next(p for p in data["points"] if p["id"] == "解釋.八張窗")
    assert eight["house"] == "all" and eight["defaults"]["tw16"] == "wall"
    assert eight["seed"]["file"] == "001" and eight["clause"] == "錯碰.2"


# ------------------------------------------------------------------ shipped profiles


def test_the_shipped_profiles_are_data_and_resolve_as_the_rulebook_says() -> None:
    assert profile_names() == ("gd", "tw16", "tw16-alt", "tw16-online")
    assert not list((ROOT / "asp" / "profiles").glob("*.lp"))
    alt, online = profile_values("tw16-alt"), profile_values("tw16-online")
    assert (alt["tai_five_concealed_pungs"], alt["tai_di_ting"]) == ("12", "6")
    assert {k for k, v in online.items() if profile_values("tw16")[k] != v} == {
        "haidi_may_pass", "dealer_stays_on_draw", "pass_forbids_win", "eye_deposit_tai",
        "last_three_closed_kongs_allowed", "lanhu_platform_clause", "platform_settlement",
        # issue 28: 平台.優先, 平台.海底's robbed kong, 平台.暗杠, 平台.眼牌's privacy
        "platform_priority_order", "haidi_robbed_kong_tai", "platform_concealed_kong",
        "eye_privacy"}
    assert rule_set("gd").family == "gd" and set(profile_values("gd")) == {
        *(p for p in POINTS if POINTS[p].family == "gd"),
        *(p for p in PARAMS if PARAMS[p].family == "gd")}


# ------------------------------------------------------------------ the club's file


def test_the_clubs_rules_resolve_over_their_base() -> None:
    house = load_house(CLUB)
    assert (house.name, house.version, house.extends, house.profile) == (
        "龍山麻將協會 2026 版", "2026.1", "tw16", "tw16")
    rules = rule_set(house.profile, house)
    assert rules.settings() == {"tai_five_concealed_pungs": "12", "ligu_enabled": "0",
                                "解釋.八張窗": "all"}
    assert rules.hash != rule_set("tw16").hash


def test_the_same_rules_in_another_order_and_name_give_the_same_hash(tmp_path: Path) -> None:
    lines = CLUB.read_text("utf-8").splitlines()
    values = [x for x in lines if x and not x.startswith("#") and ":" in x
              and x.split(":")[0] not in ("名稱", "版本", "依據")]
    shuffled = write(tmp_path, "other.rules", "\n".join(
        ["# the same rules, written another way round", *reversed(values),
         "依據: tw16", "name: 另一個名字", "version: 9"]) + "\n")
    a, b = load_house(CLUB), load_house(shuffled)
    assert rule_set("tw16", a).hash == rule_set("tw16", b).hash
    # The --set of the same values over the bare profile is the same rule set too.
    assert rule_set("tw16", settings=dict(a.values)).hash == rule_set("tw16", a).hash
    # A house file that changes nothing is its base's rules.
    same = write(tmp_path, "same.rules", "名稱: 原樣\n依據: tw16-alt\ntai_di_ting: 6\n")
    assert rule_set("tw16-alt", load_house(same)).hash == rule_set("tw16-alt").hash


def test_a_house_file_may_extend_another_in_its_folder(tmp_path: Path) -> None:
    write(tmp_path, "base.rules", "名稱: 基本\n依據: tw16-alt\nligu_enabled: 0\n")
    child = write(tmp_path, "child.rules", "名稱: 分會\n依據: base\n解釋.人和: first\n")
    house = load_house(child)
    assert house.profile == "tw16-alt" and house.extends == "base"
    values = dict(house.values)
    assert (values["ligu_enabled"], values["解釋.人和"], values["tai_di_ting"]) == ("0", "first",
                                                                                   "6")


def test_the_club_judges_differently_where_it_should_and_alike_elsewhere() -> None:
    # Worked out from the rule text, each against the case's own (tw16) expectation:
    # five concealed pungs at 12 台 (台.18 as 000): 12 + 不求 2 = 14; 西 北 pay 300 + 1400,
    # the dealer 東 adds 作莊 1 台; 南 collects 1700 + 1700 + 1800.
    # 嚦咕嚦咕 off: seven pairs and a pung is no winning shape: 南's win is a 詐和 and 南
    # pays each of the three (詐和.1).
    # 八張窗 all: 北's two replacement draws count, 東's winning draw is the ninth after
    # 南's wrong exposed discard, outside the window: each pays its own share of 700.
    code, out = run("diff", str(FIVE), str(LIGU), str(WINDOW), *map(str, UNTOUCHED),
                    "--a", "tw16", "--b-rules", str(CLUB), "--workers", "1", "-f", "json")
    assert code == 1
    report = json.loads(out)
    assert report["b"]["house"] == {"name": "龍山麻將協會 2026 版", "version": "2026.1",
                                    "extends": "tw16"}
    changed = {Path(c["case"]).name: c["changes"] for c in report["cases"] if c["changed"]}
    assert set(changed) == {FIVE.name, LIGU.name, WINDOW.name}
    assert report["summary"] == {**report["summary"], "cases": 5, "changed": 3, "errors": 0}

    def balances(case: str) -> dict[str, int]:
        return {b["seat"]: b["amount"] for b in changed[case]["balances"]["b"]}

    assert [w["tai"] for w in changed[FIVE.name]["wins"]["b"]] == [14]
    assert balances(FIVE.name) == {"東": -1800, "南": 5200, "西": -1700, "北": -1700}
    (ligu,) = changed[LIGU.name]["wins"]["b"]
    assert ligu["valid"] is False
    paid = balances(LIGU.name)
    assert paid["南"] < 0 and all(paid[s] > 0 for s in "東西北") and sum(paid.values()) == 0
    assert balances(WINDOW.name) == {"南": -700, "西": -700, "北": -700}


def test_every_ruling_says_which_rules_judged_it(tmp_path: Path) -> None:
    house = load_house(CLUB)
    ruling = judge_text(FIVE.read_text("utf-8"), house=house)
    rules = json.loads(json.dumps(ruling.rules.to_json()))  # type: ignore[union-attr]
    assert rules["house"]["name"] == "龍山麻將協會 2026 版"
    assert rules["hash"] == rule_set("tw16", house).hash and rules["profile"] == "tw16"
    plain = judge_text(FIVE.read_text("utf-8"))
    assert plain.rules is not None and plain.rules.house is None
    assert plain.rules.to_json()["settings"] == {}
    code, out = run("judge", str(FIVE), "--rules", str(CLUB), "-f", "json")
    assert code == 0 and json.loads(out)["rules"] == rules
    digest = rules["hash"].removeprefix("sha256:")[:12]
    for fmt in ("md", "html"):
        code, out = run("judge", str(FIVE), "--rules", str(CLUB), "-f", fmt)
        assert code == 0 and "龍山麻將協會 2026 版 2026.1" in out and digest in out, fmt
    code, out = run("judge", str(WINDOW), "--rules", str(CLUB), "-f", "md")
    # The 所依解釋 table says where the house rules differ from the profile they extend.
    # Readings in words, not their codes (all, wall).
    assert "所有進牌（含補牌）（家規；tw16 為 任何人自牌牆摸牌" in out


def test_the_pdf_report_names_the_house_rules(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    pdf = tmp_path / "ruling.pdf"
    code, out = run("judge", str(FIVE), "--rules", str(CLUB), "-o", str(pdf))
    assert code == 0, out
    # The PDF's text has CJK radicals where the report has the characters (⿓ for 龍).
    text = unicodedata.normalize("NFKC", "".join(
        page.extract_text() for page in pypdf.PdfReader(pdf).pages))
    digest = rule_set("tw16", load_house(CLUB)).hash.removeprefix("sha256:")[:12]
    assert "龍山麻將協會" in text and digest in text


def test_check_batch_and_match_take_the_rules(tmp_path: Path) -> None:
    code, out = run("check", str(FIVE), "--rules", str(CLUB))
    assert code == 1 and "0 passed, 1 failed" in out  # its 期望 are tw16's 15 台
    sink = tmp_path / "out.jsonl"
    code, _ = run("batch", str(FIVE), str(WINDOW), "--rules", str(CLUB), "--workers", "1",
                  "-o", str(sink))
    lines = [json.loads(x) for x in sink.read_text("utf-8").splitlines()]
    assert code == 0 and {x["rules"]["house"]["name"] for x in lines} == {"龍山麻將協會 2026 版"}
    match = ROOT / "cases" / "matches"
    first = sorted(match.glob("*.match"))[0]
    code, out = run("match", str(first), "--rules", str(CLUB), "-f", "json")
    assert code in (0, 1)
    hands = json.loads(out)["hands"]
    assert hands and all(h["ruling"]["rules"]["house"]["extends"] == "tw16" for h in hands)


def test_profile_and_rules_together_are_refused() -> None:
    code, out = run("judge", str(FIVE), "--profile", "tw16", "--rules", str(CLUB))
    assert code == 2 and "只能擇一" in out


def test_rules_init_writes_a_file_that_reads_as_its_base(tmp_path: Path) -> None:
    out = tmp_path / "new.rules"
    code, _ = run("rules", "init", str(out), "--base", "tw16-online")
    assert code == 0
    text = out.read_text("utf-8")
    # Every point and parameter is there as a comment with its question and readings.
    for point in (p for p in POINTS.values() if p.family == "tw16"):
        assert f"# {point.id}: {profile_values('tw16-online')[point.id]}" in text
        assert all(f"#   {v}：" in text for v in point.readings)
    assert text == template("tw16-online")
    assert rule_set("tw16-online", load_house(out)).hash == rule_set("tw16-online").hash
    code, _ = run("rules", "init", str(out))
    assert code == 2  # not over an existing file


def test_rules_show_prints_the_differences(tmp_path: Path) -> None:
    code, out = run("rules", "show", str(CLUB))
    assert code == 0
    assert "龍山麻將協會 2026 版 2026.1" in out and "3 處與 tw16 不同" in out
    assert "12 台" in out and "13 台" in out and "ligu_enabled" in out
    code, out = run("rules", "show", str(CLUB), "-f", "json")
    assert json.loads(out)["rules"]["hash"] == rule_set("tw16", load_house(CLUB)).hash


# ------------------------------------------------------------------ bad files


BAD = [
    # (file text, line, what must be said: expected words and the nearest valid one)
    ("名稱: x\n依據: tw16\n解釋.八張窓: all\n", 3,
     ["沒有「解釋.八張窓」這個鍵", "是不是「解釋.八張窗」"]),
    ("名稱: x\n依據: tw16\ntai_five_concealed_pung: 12\n", 3,
     ["沒有「tai_five_concealed_pung」", "是不是「tai_five_concealed_pungs」"]),
    ("名稱: x\n依據: tw16\n解釋.八張窗: al\n", 3, ["解釋.八張窗 的讀法", "是不是「all」"]),
    ("名稱: x\n依據: tw16\n\n# 本會計 200 台\ntai_five_concealed_pungs: 200\n", 5,
     ["1 到 64 的整數（台）", "不能是「200」"]),
    ("名稱: x\n依據: tw16\nligu_enabled: off\n", 3, ["ligu_enabled 的值（1（計）、0（不計））"]),
    ("名稱: x\n依據: tw16\n解釋.粵放銃: all\n", 3, ["tw16 一族的解釋點或參數", "屬 gd 一族"]),
    ("名稱: x\n依據: gd\n族: tw16\n", 3, ["gd 的族", "這裡卻寫 tw16"]),
    ("名稱: x\n依據: tw16-onlne\n", 2, ["沒有「tw16-onlne」這個規則", "是不是「tw16-online」"]),
    ("名稱: x\n依據: tw16\n解釋.八張窗: all\n解釋.八張窗: wall\n", 4, ["已在第 3 行寫過"]),
    ("名稱: x\n依據: tw16\n五暗刻 十二台\n", 3, ["「鍵: 值」"]),
    ("名稱: x\n依據: ../tw16\n", 2, ["沒有「../tw16」這個規則"]),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD)
def test_a_bad_house_file_is_refused_with_its_line_and_a_suggestion(
        tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    path = write(tmp_path, "club.rules", text)
    with pytest.raises(RulesError) as caught:
        load_house(path)
    assert caught.value.line == line
    message = str(caught.value)
    assert all(w in message for w in words), message
    assert text.splitlines()[line - 1] in message  # the line itself, under a caret
    code, out = run("judge", str(FIVE), "--rules", str(path))
    assert code == 2 and f"第 {line} 行" in out and "Traceback" not in out


def test_a_cycle_of_extends_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.rules", "名稱: 甲\n依據: b\n")
    write(tmp_path, "b.rules", "名稱: 乙\n依據: a\n")
    with pytest.raises(RulesError, match="依據形成循環") as caught:
        load_house(tmp_path / "a.rules")
    assert caught.value.line == 2
    code, out = run("diff", str(FIVE), "--a", "tw16", "--b-rules", str(tmp_path / "a.rules"))
    assert code == 2 and "循環" in out


def test_a_file_without_a_name_or_base_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="名稱"):
        load_house(write(tmp_path, "a.rules", "依據: tw16\n"))
    with pytest.raises(RulesError, match="依據"):
        load_house(write(tmp_path, "b.rules", "名稱: 甲\n"))
    code, out = run("judge", str(FIVE), "--rules", str(tmp_path / "missing.rules"))
    assert code == 2 and "missing.rules" in out
