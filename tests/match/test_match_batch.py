"""``adjudicator batch`` on ``.match`` files: a line per hand, in order, with the deal and the
running ledger; the same rulings as ``adjudicator match``; resume; local processes.

The figures are east_round.match's, worked out by hand in that file's comments."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.batch.matches import match_lines, run_matches
from adjudicator.batch.sources import expand
from adjudicator.cli.commands import app

ROOT = Path(__file__).resolve().parents[2]
MATCHES = ROOT / "cases" / "matches"
TOTALS = {"阿明": 2700, "小華": -2000, "阿德": -1100, "小美": 400}


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("east_round.match", "open_dealer_stops.match"):
        (folder / name).write_text((MATCHES / name).read_text("utf-8"), encoding="utf-8")
    log = ROOT / "cases" / "calls" / "called_and_punged.case"
    (folder / "single.case").write_text(log.read_text("utf-8"), encoding="utf-8")
    return folder


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_a_folder_with_matches_gives_a_line_per_hand(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["batch", str(folder), "-o", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = _lines(out)
    east = [x for x in lines if x.get("match") == str(folder / "east_round.match")]
    assert [x["source"] for x in east] == [f"{folder / 'east_round.match'}#{n}"
                                           for n in range(1, 10)]
    assert [x["hand"] for x in east] == list(range(1, 10))
    assert east[4]["deal"] == {"jiang": 1, "round_wind": "東", "dealer": "南",
                               "dealer_name": "小華", "streak": 0}
    assert east[4]["by_name"] == {"阿明": -600, "小華": -700, "阿德": -600, "小美": 1900}
    assert east[4]["totals"] == {"阿明": 2800, "小華": -2300, "阿德": -900, "小美": 400}
    assert all(x["status"] == "decided" and "end" not in x for x in east[:-1])
    assert east[-1]["end"] is True and east[-1]["totals"] == TOTALS
    assert (east[-1]["next"]["dealer_name"], east[-1]["next"]["streak"]) == ("阿明", 1)
    stops = [x for x in lines if x.get("match") == str(folder / "open_dealer_stops.match")]
    assert [x.get("hand") for x in stops] == [1, 2]
    assert stops[0]["status"] == "undetermined"
    assert "莊家未定" in stops[1]["error"] and stops[1]["end"] is True
    assert stops[1]["stop"]["kind"] == "carry"
    single = [x for x in lines if "match" not in x]
    assert [x["source"] for x in single] == [str(folder / "single.case")]
    assert "裁決 12 份" in result.output and "error 1" in result.output


def test_the_rulings_are_the_match_commands(tmp_path: Path) -> None:
    path = MATCHES / "dealer_false_win.match"
    shown = CliRunner().invoke(app, ["match", str(path), "-f", "json"])
    assert shown.exit_code == 0, shown.output
    hands = json.loads(shown.stdout)["hands"]
    lines = match_lines(str(path), path.read_text("utf-8"), None, None, {})
    assert len(lines) == len(hands)
    for line, hand in zip(lines, hands, strict=True):
        assert {k: line[k] for k in hand["ruling"]} == hand["ruling"]
        assert line["totals"] == hand["totals"] or line.get("end")


def test_a_file_that_cannot_be_read_is_one_error_line() -> None:
    lines = match_lines("bad.match", "將: x\n玩家: 東=阿明\n\n第1盤:\n紀錄:\n", None, None, {})
    assert len(lines) == 1 and lines[0]["end"] is True and "第 2 行" in lines[0]["error"]


def test_resume_judges_a_match_cut_off_midway_again(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = tmp_path / "out.jsonl"
    runner = CliRunner()
    assert runner.invoke(app, ["batch", str(folder), "-o", str(out),
                               "--workers", "1"]).exit_code == 0
    first = out.read_text(encoding="utf-8").splitlines()
    east = str(folder / "east_round.match")
    # Interrupted after four of east_round's nine lines, the fifth cut in half.
    cut = [x for x in first if json.loads(x).get("match") != east]
    cut += [x for x in first if json.loads(x).get("match") == east][:4]
    out.write_text("\n".join(cut) + "\n" + '{"source": "' + east + '#5", "mat', encoding="utf-8")
    result = runner.invoke(app, ["batch", str(folder), "-o", str(out), "--resume",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "略過 2 份" in result.output and "裁決 9 份" in result.output
    again = _lines(out)
    assert sorted(x["source"] for x in again) == sorted(json.loads(x)["source"] for x in first)


def test_local_processes_give_the_in_process_lines(tmp_path: Path) -> None:
    items = [i for i in expand([str(_folder(tmp_path))]) if i.name.endswith(".match")]
    alone: list[dict] = []
    pooled: list[dict] = []
    run_matches(items, alone.append, workers=1)
    run_matches(items, pooled.append, workers=2)

    def outcome(line: dict) -> dict:
        return {k: v for k, v in line.items() if k != "ms"}

    key = lambda line: line["source"]  # noqa: E731
    assert sorted(map(outcome, alone), key=key) == sorted(map(outcome, pooled), key=key)
    # Each match's lines stay together and in order.
    for name in {x["match"] for x in pooled}:
        hands = [x["hand"] for x in pooled if x["match"] == name]
        assert hands == sorted(hands)
