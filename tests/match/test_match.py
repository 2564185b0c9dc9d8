"""The match: reading the file, carrying the deal, stopping where a hand cannot be judged."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli.commands import app
from adjudicator.language.errors import LogError
from adjudicator.match.format import read_match
from adjudicator.match.run import judge_match

HEAD = """規則: tw16
底: 300
台: 100
玩家: 東=阿明 南=小華 西=阿德 北=小美
"""
WIN = "一二三萬 四五六萬 二三四筒 六七八索 五五索 三四筒"  # 3 台 on 五筒 (門清, 平和)


def discard_win(winner: str, payer: str) -> str:
    return f"{winner} 手牌: {WIN}\n紀錄:\n20 {payer} 打 五筒\n21 {winner} 和 五筒\n"


EXHAUSTED = "紀錄:\n90 北 打 一萬\n91 荒局\n"
UNRECORDED = "北 門前: 碰 三萬\n紀錄:\n35 北 摸\n36 北 自摸\n"  # complete or 詐和: open


def run(text: str):  # type: ignore[no-untyped-def]
    return judge_match(read_match(text))


def hands(*bodies: str) -> str:
    return "".join(f"\n第{i}盤:\n{body}" for i, body in enumerate(bodies, start=1))


# ------------------------------------------------------------------ reading the file


def test_hand_lines_keep_the_file_numbers() -> None:
    text = HEAD + hands(EXHAUSTED, "紀錄:\n90 北 打 十萬\n")
    result = run(text)
    assert result.stop is not None and result.stop.kind == "parse"
    bad = text.splitlines().index("90 北 打 十萬") + 1
    assert f"第 {bad} 行" in result.stop.message
    assert len(result.hands) == 1  # the ledger up to there


def test_the_header_must_name_four_players() -> None:
    with pytest.raises(LogError) as err:
        read_match("規則: tw16\n玩家: 東=阿明 南=小華\n" + hands(EXHAUSTED))
    assert err.value.line == 2 and "四位玩家" in str(err.value)


def test_a_hand_key_in_the_match_header_is_refused() -> None:
    with pytest.raises(LogError) as err:
        read_match(HEAD + "示記: 1\n" + hands(EXHAUSTED))
    assert err.value.line == 5 and "屬於各盤" in str(err.value)


def test_hands_are_numbered_in_order() -> None:
    with pytest.raises(LogError) as err:
        read_match(HEAD + "\n第1盤:\n" + EXHAUSTED + "\n第3盤:\n" + EXHAUSTED)
    assert "第2盤" in err.value.expected


def test_dashes_separate_hands_too() -> None:
    match = read_match(HEAD + "---\n" + EXHAUSTED + "---\n" + EXHAUSTED)
    assert [h.number for h in match.hands] == [1, 2]


def test_a_hand_may_not_change_the_stake() -> None:
    result = run(HEAD + hands(EXHAUSTED, "底: 500\n" + EXHAUSTED))
    assert result.stop is not None and result.stop.hand == 2 and "底" in result.stop.message


def test_a_hand_may_repeat_the_stake() -> None:
    result = run(HEAD + hands("底: 300\n台: 100\n規則: tw16\n" + EXHAUSTED))
    assert result.stop is None


# ------------------------------------------------------------------ the carry


def test_an_undetermined_next_dealer_must_be_stated() -> None:
    result = run(HEAD + hands(UNRECORDED, EXHAUSTED))
    assert result.hands[0].ruling.status == "undetermined"
    # Only what holds in every possibility is booked: the win's 台 is unknown, the 詐和 open.
    assert all(v == 0 for v in result.hands[0].totals.values())
    assert result.stop is not None and result.stop.kind == "carry" and result.stop.hand == 2
    assert "莊家" in result.stop.message and "紀錄未載" in result.stop.message


def test_a_stated_dealer_fills_what_was_open_without_warning() -> None:
    result = run(HEAD + hands(UNRECORDED, "莊家: 南\n" + EXHAUSTED))
    assert result.stop is None
    assert result.hands[1].deal.dealer == "南" and result.hands[1].deal.streak == 0
    assert result.warnings == []


def test_an_inconsistent_hand_stops_the_carry() -> None:
    log = Path("cases/golden/contradiction.log").read_text("utf-8").split("規則: tw16")[1]
    body = "\n".join(line for line in log.splitlines()
                     if not line.startswith(("莊家", "底", "台")))
    result = run(HEAD + hands(discard_win("東", "南"), body, EXHAUSTED))
    assert result.stop is not None and result.stop.kind == "inconsistent"
    assert result.stop.hand == 2 and len(result.hands) == 2
    assert not result.hands[1].booked
    assert result.ledger.totals["阿明"] == 700  # the first hand only


def test_a_hand_that_does_not_end_leaves_the_dealer_open() -> None:
    result = run(HEAD + hands("紀錄:\n10 東 打 五筒\n11 南 摸 ?\n", EXHAUSTED))
    assert result.stop is not None and result.stop.kind == "carry"
    assert "沒有結束" in result.stop.message


NORTH = HEAD + "圈風: 北\n莊家: 北\n起莊: 東\n"


def test_after_the_north_round_a_new_jiang_begins() -> None:
    result = run(NORTH + hands(discard_win("南", "西"), EXHAUSTED))
    second = result.hands[1].deal
    assert (second.jiang, second.round_wind, second.dealer, second.streak) == (2, "東", "東", 0)
    assert [w.key for w in result.warnings] == ["搬風"]  # no new seats written


def test_a_new_jiang_seats_and_deals_anew() -> None:
    moved = "玩家: 東=阿德 南=阿明 西=小華 北=小美\n莊家: 南\n"
    result = run(NORTH + hands(discard_win("南", "西"), moved + EXHAUSTED))
    second = result.hands[1].deal
    assert second.dealer == "南" and second.start_dealer == "南"  # a new 定莊: no warning
    assert second.seating["南"] == "阿明" and result.warnings == []


def test_new_seats_in_the_same_order_are_drawn_again() -> None:
    rotated = "玩家: 東=小美 南=阿明 西=小華 北=阿德\n"
    result = run(NORTH + hands(discard_win("南", "西"), rotated + EXHAUSTED))
    assert [w.key for w in result.warnings] == ["搬風"]
    assert "重搬" in result.warnings[0].message


def test_seats_changed_mid_round_are_a_warning() -> None:
    moved = "玩家: 東=小華 南=阿明 西=阿德 北=小美\n"
    result = run(HEAD + hands(EXHAUSTED, moved + discard_win("東", "南")))
    assert [w.key for w in result.warnings] == ["玩家"]
    assert "東=阿明" in result.warnings[0].message and "東=小華" in result.warnings[0].message
    # The hand is judged with the seats it states: 小華 sat in 東 and dealt on 連1 (after the
    # 荒局): 300 + (3 + 作莊 1 + 連1拉1 2) × 100 from 阿明, now in 南.
    assert result.ledger.totals["小華"] == 900 and result.ledger.totals["阿明"] == -900


def test_a_seat_change_must_name_the_same_four() -> None:
    result = run(HEAD + hands("玩家: 東=阿明 南=小華 西=阿德 北=老王\n" + EXHAUSTED))
    assert result.stop is not None and result.stop.kind == "parse"
    assert "本將的玩家" in result.stop.message


def test_the_profile_rules_the_carry() -> None:
    text = HEAD + hands(EXHAUSTED, EXHAUSTED)
    tw16 = run(text)
    online = run(text.replace("tw16", "tw16-online"))
    assert [h.deal.dealer for h in tw16.hands] == ["東", "東"]
    assert [h.deal.dealer for h in online.hands] == ["東", "南"]


# ------------------------------------------------------------------ the command


def test_command_formats(tmp_path: Path) -> None:
    path = tmp_path / "m.match"
    path.write_text(HEAD + hands(discard_win("東", "南"), EXHAUSTED), "utf-8")
    runner = CliRunner()
    out = runner.invoke(app, ["match", str(path), "-f", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["totals"] == {"阿明": 700, "小華": -700, "阿德": 0, "小美": 0}
    assert data["hands"][1]["streak"] == 1 and data["next"]["streak"] == 2
    csv = runner.invoke(app, ["match", str(path), "--csv"]).stdout.splitlines()
    assert csv[0].startswith("盤,將,圈風,莊家,莊家玩家,連莊,阿明 收支")
    assert csv[1].split(",")[:6] == ["1", "1", "東", "東", "阿明", "0"]
    assert len(csv) == 3
    html = runner.invoke(app, ["match", str(path), "-f", "html"]).stdout
    assert '<table id="ledger"' in html and "+700" in html
    assert html.count("<polyline") == 4  # the running total of each player
    md = runner.invoke(app, ["match", str(path), "-f", "md"]).stdout
    assert "| 終局 |" in md
    text = runner.invoke(app, ["match", str(path)]).stdout
    assert "下一盤：第1將 東風圈 莊家 東（阿明）連莊 2" in text


def test_command_exit_status(tmp_path: Path) -> None:
    runner = CliRunner()
    broken = tmp_path / "broken.match"
    broken.write_text("規則: tw16\n" + hands(EXHAUSTED), "utf-8")
    out = runner.invoke(app, ["match", str(broken)])
    assert out.exit_code == 2 and not out.stdout and "玩家" in out.stderr
    stopped = tmp_path / "stopped.match"
    stopped.write_text(HEAD + hands(UNRECORDED, EXHAUSTED), "utf-8")
    out = runner.invoke(app, ["match", str(stopped)])
    assert out.exit_code == 1 and "莊家" in out.stderr and "第1盤" in out.stdout
    missing = runner.invoke(app, ["match", str(tmp_path / "none.match")])
    assert missing.exit_code == 2 and "沒有這個檔案" in missing.stderr


def test_money_stays_exact() -> None:
    result = run(HEAD + hands(discard_win("東", "南")))
    assert all(isinstance(v, Fraction) for v in result.ledger.totals.values())


def test_check_runs_match_cases(tmp_path: Path) -> None:
    good = tmp_path / "good.match"
    good.write_text(HEAD + hands(discard_win("東", "南"))
                    + "將期望:\n第1盤後: 阿明 +700 小華 -700\n下一盤 莊家 東 連莊 1\n", "utf-8")
    bad = tmp_path / "bad.match"
    bad.write_text(HEAD + hands(discard_win("東", "南"))
                   + "將期望:\n終局: 阿明 +600 小華 -600\n", "utf-8")
    out = CliRunner().invoke(app, ["check", str(tmp_path), "-v"])
    assert out.exit_code == 1
    assert "good.match PASSED" in out.stdout and "bad.match FAILED" in out.stdout
    assert "終局帳目應為 阿明 +600 小華 -600；結果為 阿明 +700 小華 -700" in out.stdout


def test_the_first_dealer_defaults_to_the_start_chair() -> None:
    assert read_match(HEAD + "起莊: 西\n" + hands(EXHAUSTED)).header.dealer == "西"
    started = read_match(HEAD + "莊家: 北\n" + hands(EXHAUSTED)).header
    assert (started.dealer, started.start_dealer) == ("北", "北")


# ------------------------------------------------------------------ 插花's timing


def test_a_withdrawal_naming_no_bet_stops_with_its_line() -> None:
    text = HEAD + hands("退插: 老王\n" + discard_win("東", "南"))
    result = run(text)
    assert result.stop is not None and result.stop.kind == "parse"
    assert f"第 {text.splitlines().index('退插: 老王') + 1} 行" in result.stop.message


def test_a_move_to_someone_not_at_the_table_stops() -> None:
    text = HEAD + "插花: 外插 老王 小華 50\n" + hands(
        discard_win("西", "南"), "轉插: 老王 老李\n" + discard_win("東", "北"))
    result = run(text)
    assert result.stop is not None and result.stop.kind == "parse" and result.stop.hand == 2
    assert "老李" in result.stop.message


def test_a_bet_begun_in_a_hand_lasts_and_rides_on_its_player() -> None:
    # 起插 in the first hand: the second hand carries the bet without writing it.
    result = run(HEAD + hands("起插: 外插 老王 小美 50\n" + discard_win("東", "南"),
                              discard_win("東", "北")))
    assert result.stop is None and result.warnings == []
    assert result.hands[0].amounts.get("老王", 0) == 0  # 小美 took no part in the first hand
    assert result.hands[1].amounts["老王"] == -50  # 小美 paid 阿明 600; her backer pays 50
    assert result.ledger.total() == 0


def test_a_refused_change_names_its_clause() -> None:
    # A 內插 may not be withdrawn within its 將: the warning cites 插花.內插, the bet stays.
    result = run(HEAD + "插花: 內插 阿德 1\n" + hands("退插: 西\n" + discard_win("西", "南")))
    [warning] = result.warnings
    assert (warning.key, warning.clause) == ("插花", "插花.內插")
    assert result.hands[0].amounts["小華"] == -900  # 600, and 阿德's 內插 300
