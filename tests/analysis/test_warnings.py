"""Warnings (adjudicator/analysis/warnings.py), `adjudicator lint`, and the reader's
robustness fixes that share its line counting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.analysis.warnings import log_warnings
from adjudicator.cli.commands import app
from adjudicator.language.errors import LogError
from adjudicator.language.reader import read
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import to_dict

CLEAN = """起點: 開局
莊家: 東
紀錄:
1 東 打 三萬
2 南 摸 ?
3 南 打 九筒
"""

FRAGMENT = """莊家: 東
北 手牌: 一二三萬 四五六萬 七八九萬 五筒 九筒 二三四索 東東 中中
紀錄:
東 打 五筒
12 北 打 中
北 打 東
南 打 中
北 自摸 中
"""


def _lint(tmp_path: Path, text: str, *args: str) -> tuple[int, str]:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["lint", str(log), *args])
    return result.exit_code, result.output


def test_lint_clean_exits_0(tmp_path: Path) -> None:
    code, out = _lint(tmp_path, CLEAN)
    assert code == 0 and "沒有疑點" in out


def test_lint_warnings_exit_1(tmp_path: Path) -> None:
    code, out = _lint(tmp_path, FRAGMENT, "-f", "json")
    assert code == 1
    lines = {w["line"] for w in json.loads(out)}
    # line 2: 18 tiles stated; 5: numbering mixed, and 北 discarding after 東 with no
    # draw; 6: two discards with no draw between; 7: 南 discarding after 北 with no draw;
    # 8: a 自摸 with no own draw.  No 「未載起點」: no 天和 … 人和 question arises.
    assert lines == {2, 5, 6, 7, 8}


def test_lint_reads_the_json_form_as_judge_does(tmp_path: Path) -> None:
    """The JSON form of a log (docs/incident.schema.json) is linted like its text: the same
    warnings, the same lines counted in the text the form stands for."""
    from adjudicator.language.json_form import to_json_form

    form = tmp_path / "x.json"
    form.write_text(json.dumps(to_json_form(read(FRAGMENT)), ensure_ascii=False), "utf-8")
    result = CliRunner().invoke(app, ["lint", str(form), "-f", "json"])
    _, text = _lint(tmp_path, FRAGMENT, "-f", "json")
    assert result.exit_code == 1
    assert [w["message"] for w in json.loads(result.output)] == \
        [w["message"] for w in json.loads(text)]
    data = to_json_form(read(FRAGMENT))
    data["events"][0]["verbb"] = data["events"][0].pop("verb")
    form.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    refused = CliRunner().invoke(app, ["lint", str(form)])
    assert refused.exit_code == 2 and "verbb" in refused.output, refused.output


def test_lint_unreadable_exits_2(tmp_path: Path) -> None:
    code, _ = _lint(tmp_path, "莊家: 東\n紀錄:\n1 東 打 十萬\n")
    assert code == 2
    code, _ = _lint(tmp_path, "# only comments\n\n# more\n")
    assert code == 2


def test_warnings_in_the_json_and_meta() -> None:
    text = "日期: 2026-11-30 20:15\n桌號: 7\n裁判: 陳大文\n玩家: 東=阿明 南=小華\n" + FRAGMENT
    out = to_dict(judge_text(text))
    assert out["meta"] == {"date": "2026-11-30 20:15", "table": "7", "referee": "陳大文",
                           "players": {"東": "阿明", "南": "小華"}}
    assert [w["line"] for w in out["warnings"]] == [6, 9, 9, 10, 11, 12]
    assert to_dict(judge_text(CLEAN))["warnings"] == []


def test_start_of_record() -> None:
    assert read(CLEAN).from_deal
    assert not read(FRAGMENT).from_deal
    assert read("莊家: 東\n紀錄:\n1 東 打 三萬\n").from_deal
    assert not read("起點: 中途\n紀錄:\n1 東 打 三萬\n").from_deal


CASES = Path(__file__).resolve().parents[2] / "cases"
UNSTATED = "紀錄未載起點"


def _start_warnings(text: str) -> list[str]:
    return [w.message for w in judge_text(text).warnings if UNSTATED in w.message]


def test_an_unstated_start_warns_only_where_the_ruling_asks_for_it() -> None:
    # 東's 自摸 could be 天和 if the unnumbered record began at the deal: the ruling's own
    # open fact, so the warning names what 「起點: 開局」 would answer.
    text = (CASES / "record" / "fragment_no_tianhu.case").read_text("utf-8")
    assert judge_text(text).uncertain
    (warned,) = _start_warnings(text)
    assert "開局之初" in warned and "起點: 開局" in warned
    # The same hand numbered past the first go-round says it is mid-hand: nothing to ask.
    numbered = text.replace("東 摸 七索\n東 自摸 七索", "21 東 摸 七索\n22 東 自摸 七索")
    assert not judge_text(numbered).uncertain and _start_warnings(numbered) == []
    # An unnumbered fragment where no start-of-hand question arises: no warning.
    assert _start_warnings("莊家: 東\n紀錄:\n東 打 三萬\n南 摸\n南 打 九筒\n") == []


@pytest.mark.parametrize("where", ["底: {}\n", "紀錄:\n{} 東 打 三萬\n"])
def test_huge_numbers_are_refused_not_crashed(where: str) -> None:
    text = "莊家: 東\n" + where.format("9" * 5000)
    with pytest.raises(LogError) as err:
        read(text)
    assert err.value.line == text.count("\n")


@pytest.mark.parametrize("brk", ["\u2028", "\x85", "\v", "\f", "\r"])
def test_error_line_is_the_line_shown(brk: str) -> None:
    with pytest.raises(LogError) as err:
        read(f"莊家: 東{brk}底: 300\n紀錄:\n1 東 打 十萬\n")
    assert err.value.line == 4 and err.value.source_line == "1 東 打 十萬"


def test_comments_only_same_answer_in_process() -> None:
    with pytest.raises(LogError):
        judge_text("# nothing\n\n# but comments\n")


def test_a_won_discard_in_the_laid_hand_is_not_a_fifth_copy() -> None:
    # The hand laid down after a win on a discard, written with the won tile: all four 南
    # are on record, the tile is in the hand and no longer in the sea.
    from pathlib import Path

    from adjudicator.ruling.judge import judge_text

    case = Path(__file__).resolve().parents[2] / "cases" / "record" / \
        "discard_win_laid_hand_all_copies_seen.case"
    ruling = judge_text(case.read_text("utf-8"))
    assert ruling.status == "decided" and not ruling.problems
    # Without the won tile the same hand is read the same way.
    shorter = case.read_text("utf-8").replace("南 南 南\n\n期望", "南 南\n\n期望")
    assert judge_text(shorter).status == "decided"


def test_a_penalty_resting_on_a_stated_hand_size_warns() -> None:
    # cases/record/seventeen_tiles_stated_before_draw.case: the 相公 (逾張) rests only on the
    # size of the stated hand; the ruling says so and warns at the act it is found at.
    case = Path(__file__).resolve().parents[2] / "cases" / "record" / \
        "seventeen_tiles_stated_before_draw.case"
    text = case.read_text(encoding="utf-8")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if s.startswith("34 西 打"))
    ruling = judge_text(text)
    (warning,) = [w for w in ruling.warnings if w.line == line]
    assert "相公" in warning.message and "張數" in warning.message
    assert any("依紀錄所記手牌張數推算" in why for f in ruling.findings for why in f.why)


STATED = "規則: tw16\n莊家: 東\n{hand}紀錄:\n21 東 打 三萬\n22 南 摸 ?\n{inside}23 南 打 九筒\n"
SIXTEEN = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 七索"
SEVENTEEN = SIXTEEN + " 東"
FIFTEEN = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒"


def _size_warnings(text: str) -> list[str]:
    return [f"{w.line} {w.message}" for w in log_warnings(read(text)) if "手牌記了" in w.message]


@pytest.mark.parametrize(("hand", "inside", "warned"), [
    # Before the record, 南 is not to discard (東 discards first): 17 is a slip, 16 fits.
    (f"南 手牌: {SEVENTEEN}\n", "", "3 南 手牌記了 17 張，合計 17 張；此時 南 不是輪到打牌"),
    (f"南 手牌: {SIXTEEN}\n", "", None),
    # Right after its draw 南 is to discard: 17 fits, 15 is a slip.
    ("", f"南 手牌: {SEVENTEEN}\n", None),
    ("", f"南 手牌: {FIFTEEN}\n", "6 南 手牌記了 15 張，合計 15 張；此時輪到 南 打牌"),
    # 東, whose discard opens the record, held 17 before it.
    (f"東 手牌: {SEVENTEEN}\n", "", None),
])
def test_a_stated_hand_that_does_not_fit_its_moment_warns(hand: str, inside: str,
                                                          warned: str | None) -> None:
    text = STATED.format(hand=hand, inside=inside)
    found = _size_warnings(text)
    assert [w for w in found if warned and w.startswith(warned)] == found
    assert bool(found) == (warned is not None)
    lint = {(w.line, w.message) for w in judge_text(text).warnings}
    assert {(w.line, w.message) for w in log_warnings(read(text))} <= lint


@pytest.mark.parametrize(("record", "warned"), [
    ("1 東 打 三萬\n南 摸\n", True), ("1 東 打 三萬\n2 南 摸\n", False),
    ("東 打 三萬\n南 摸\n", False)])
def test_mixed_numbering_warns(record: str, warned: bool) -> None:
    found = [w for w in log_warnings(read("莊家: 東\n紀錄:\n" + record)) if "序號" in w.message]
    assert bool(found) == warned


@pytest.mark.parametrize(("record", "warned"), [
    ("21 東 摸 ?\n22 東 自摸\n", False), ("21 南 摸 ?\n22 南 打 九筒\n23 南 自摸\n", True)])
def test_a_self_drawn_win_without_its_draw_warns(record: str, warned: bool) -> None:
    found = [w for w in log_warnings(read("莊家: 東\n紀錄:\n" + record)) if "自摸" in w.message]
    assert bool(found) == warned


def test_a_penalty_that_does_not_rest_on_a_hand_size_does_not_warn() -> None:
    # A 相公 for a wrong pung rests on the act, not on a counted hand.
    text = (CASES / "wrong_pung" / "stage_1_restore.case").read_text("utf-8")
    ruling = judge_text(text)
    assert any(f.kind == "相公" for f in ruling.findings)
    assert not [w for w in ruling.warnings if "張數推算" in w.message]


TURNS = "規則: tw16\n莊家: 東\n紀錄:\n22 南 摸 ?\n23 南 打 九萬\n"


@pytest.mark.parametrize(("lines", "warned"), [
    ("24 北 摸 ?\n25 北 打 東\n", "北 摸牌，但 南 打牌後應由 西 摸牌"),  # skips 西
    ("24 西 摸 ?\n25 西 打 東\n", None),  # the 下家
    ("24 西 碰 九萬\n25 西 打 東\n", None),  # a claim, then its discard
    ("24 北 打 東\n", "北 打牌，但 南 打牌後未記 北 摸牌或吃碰"),  # no draw, out of turn
    ("24 西 摸 ?\n25 西 打 東\n26 北 摸 ?\n27 北 打 南\n", None),
])
def test_acts_out_of_turn_warn(lines: str, warned: str | None) -> None:
    text = TURNS + lines
    found = [w.message for w in log_warnings(read(text)) if "打牌後" in w.message]
    assert [m for m in found if warned and m.startswith(warned)] == found
    assert bool(found) == (warned is not None)
    # Never judged from the order of lines alone.
    assert not judge_text(text).findings


def test_draw_by_wrong_chair_warns_in_the_case() -> None:
    case = Path(__file__).resolve().parents[2] / "cases" / "record" / \
        "draw_by_wrong_chair_not_judged.case"
    ruling = judge_text(case.read_text(encoding="utf-8"))
    assert any("搶摸" in w.message and "西" in w.message for w in ruling.warnings)
