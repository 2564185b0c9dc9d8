"""The judging pipeline end to end: statuses, contradictions, JSON contract, injection."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from adjudicator.language.errors import LogError
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import to_dict

ROOT = Path(__file__).resolve().parents[2]
HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"


def test_called_not_punged_pays_one_tai_to_discarder() -> None:
    r = judge_text(HEAD + "紀錄:\n11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n")
    assert [(f.kind, f.seat, f.at) for f in r.findings] == [("喊碰未碰", "東", 12)]
    assert r.findings[0].clauses == ("喊碰未碰",)
    assert r.balances == {"東": -100, "南": 0, "西": 100, "北": 0}
    assert r.status == "decided"
    assert r.hand_ends is False and r.next_hand is None


def test_fifth_copy_is_inconsistent_but_still_judged() -> None:
    text = (HEAD + "南 手牌: 三萬 三萬 三萬\n西 手牌: 三萬 三萬\n"
            "紀錄:\n11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n")
    r = judge_text(text)
    assert r.status == "inconsistent"
    assert any(p.kind == "fifth_copy" and "三萬" in p.detail for p in r.problems)
    assert [f.kind for f in r.findings] == ["喊碰未碰"]  # judged as far as it can be


def test_falling_sequence_numbers_are_a_problem() -> None:
    r = judge_text(HEAD + "紀錄:\n12 西 打 七筒\n11 北 摸\n")
    assert r.status == "inconsistent"
    assert [(p.kind, p.at) for p in r.problems] == [("seq_falls", 11)]


def test_replacement_after_the_last_tile_is_a_problem() -> None:
    # One drawable tile left: 西 draws it (春, the 海底) and replaces it — whether it may is
    # 解釋.海底花牌's question, for the rules; but the replacement (夏) is a flower too, and a
    # second replacement has no tile left to come from (殘牌 stay 16): the record
    # contradicts itself.
    haidi = HEAD + "牌牆: 1\n紀錄:\n11 西 摸 春\n12 西 補花 春 補 夏\n"
    assert not judge_text(haidi + "13 西 打 夏\n").problems
    r = judge_text(haidi + "13 西 補花 夏 補 ?\n14 西 打 中\n")
    assert r.status == "inconsistent"
    assert [(p.kind, p.at) for p in r.problems] == [("wall_exhausted", 13)]
    # A kong-end draw after the 海底 is no flower's: beyond the wall at once.
    r = judge_text(HEAD + "牌牆: 1\n紀錄:\n11 西 摸 春\n12 西 補花 夏 補 ?\n")
    assert [(p.kind, p.at) for p in r.problems] == [("wall_exhausted", 12)]


def test_wall_stated_in_the_record_is_counted_from() -> None:
    # The count stated at a line replaces the header's: two left there, two draws, no problem;
    # a third draw after them is one too many.
    two = HEAD + "牌牆: 9\n紀錄:\n牌牆: 2\n11 南 摸\n12 南 打 中\n13 西 摸\n14 西 打 中\n"
    assert not judge_text(two).problems
    r = judge_text(two + "15 北 摸\n")
    assert [(p.kind, p.at) for p in r.problems] == [("wall_exhausted", 15)]


def test_no_wall_count_no_wall_problem() -> None:
    # A fragment that states no count: its draws say nothing about the wall.
    text = HEAD + "紀錄:\n" + "".join(f"{10 + k} 南 摸\n" for k in range(30))
    assert not any(p.kind == "wall_exhausted" for p in judge_text(text).problems)


def test_discard_of_a_tile_known_not_held() -> None:
    hand = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索"
    r = judge_text(HEAD + f"西 手牌: {hand}\n紀錄:\n11 西 摸 東\n12 西 打 中\n")
    assert r.status == "inconsistent"
    assert [p.kind for p in r.problems] == ["not_held"]


def test_discard_of_the_drawn_unknown_tile_is_fine() -> None:
    hand = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索"
    r = judge_text(HEAD + f"西 手牌: {hand}\n紀錄:\n11 西 摸\n12 西 打 中\n")
    assert r.status == "decided" and not r.problems


@pytest.mark.parametrize("name", ["x).:-y.", "%c", "\"a\"", "#show"])
def test_player_names_cannot_change_the_rules(name: str) -> None:
    plain = judge_text(HEAD + "紀錄:\n11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n")
    odd = judge_text(HEAD + f"玩家: 東={name} 西=阿德\n紀錄:\n11 阿德 打 七筒\n"
                     f"12 {name} 喊碰 七筒\n13 北 摸\n")
    odd_dict, plain_dict = _without_meta(to_dict(odd)), _without_meta(to_dict(plain))
    # The names reach the report's meta as written, and nothing else.
    assert to_dict(odd)["meta"] == {"players": {"東": name, "西": "阿德"}}
    assert to_dict(plain)["meta"] == {}
    assert odd_dict == plain_dict


def test_a_note_cannot_change_the_rules() -> None:
    plain = judge_text(HEAD + "紀錄:\n11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n")
    note = "（\"). finding(x).）"
    noted = judge_text(HEAD + f"紀錄:\n11 西 打 七筒 {note}\n12 東 喊碰 七筒\n13 北 摸\n")
    assert _without_words(to_dict(noted)) == _without_words(to_dict(plain))
    # The note is quoted in the reasons as written, nothing more.
    assert "finding(x)" in noted.findings[0].why[0]


def _without_words(d: dict) -> dict:
    """The ruling less its prose (reasons quote acts, notes included, as written)."""
    for f in d["findings"]:
        f.pop("why", None)
        f.pop("reasons", None)
    return d


def test_json_contract_shape() -> None:
    r = judge_text((ROOT / "examples" / "wrong-pung-priority.log").read_text("utf-8"))
    d = to_dict(r)
    assert set(d) >= {"profile", "status", "findings", "wins", "payments", "balances",
                      "hand_ends", "next_hand", "interpretations", "uncertain", "problems"}
    kinds = {(f["kind"], f["seat"], f["at"]) for f in d["findings"]}
    assert kinds == {("優先", "北", 22), ("相公", "東", 25), ("代位賠付", "東", 25)}
    prio = next(f for f in d["findings"] if f["kind"] == "優先")
    assert prio["over"] == "東" and prio["clauses"] == ["優先.3"]
    sub = next(f for f in d["findings"] if f["kind"] == "代位賠付")
    assert sub["window"] == {"draws": 8}
    assert all(f["clauses"] for f in d["findings"])
    assert sum(Fraction(str(v)) for v in d["balances"].values()) == 0
    assert [i["id"] for i in d["interpretations"]] == ["解釋.八張窗"]


def test_unknown_profile_is_a_log_error() -> None:
    with pytest.raises(LogError) as err:
        judge_text("規則: tw99\n紀錄:\n1 東 摸\n")
    assert err.value.line == 1


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT)


def test_cli_refuses_a_malformed_log_with_status_2(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    log.write_text("規則: tw16\n紀錄:\n10 東 打 三萬\n11 南 碰 十萬\n", encoding="utf-8")
    out = _cli("judge", str(log))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert "第 4 行" in out.stderr and "^" in out.stderr


def test_cli_json_output_parses() -> None:
    out = _cli("judge", "examples/wrong-pung-priority.log", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "decided"


def test_cli_check_reports_a_failing_expectation(tmp_path: Path) -> None:
    case = tmp_path / "wrong.case"
    case.write_text(HEAD + "紀錄:\n11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n期望:\n西 相公\n",
                    encoding="utf-8")
    out = _cli("check", str(case))
    assert out.returncode == 1
    assert "第 10 行" in out.stdout and "0 passed, 1 failed" in out.stdout


def _without_meta(ruling: dict) -> dict:
    # The 玩家: line shifts the lines below it: warnings are compared by their words.
    out = {k: v for k, v in ruling.items() if k not in ("meta", "warnings")}
    out["warnings"] = [w["message"] for w in ruling["warnings"]]
    return out
