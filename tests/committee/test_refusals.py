"""Refusal cases (*.refusal): a log that must be refused, on the line and under the clause
its ``#! refused:`` line names; coverage counts that clause only when the refusal comes."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.committee.coverage import coverage
from adjudicator.committee.refusals import Refusal, expected_refusal, run_refusal
from adjudicator.language.errors import LogError
from adjudicator.language.family_check import FamilyRefusal
from adjudicator.ruling.judge import judge_text

ROOT = Path(__file__).resolve().parents[2]
GD = """規則: gd
莊家: 東
底: 10
南 手牌: 一二三萬 四五六萬 二三四筒 六七索 九九筒
{flowers}
紀錄:
西 打 八索
南 和 八索
"""


def _write(tmp_path: Path, frame: str, flowers: str = "南 花: 春") -> Path:
    path = tmp_path / "c.refusal"
    path.write_text(f"{frame}\n" + GD.format(flowers=flowers), encoding="utf-8")
    return path


def test_the_frame_line_is_read() -> None:
    assert expected_refusal("# x\n#! refused: line 9 粵.牌數\n規則: gd\n") == \
        Refusal(9, ("粵.牌數",))
    assert expected_refusal("#! refused: 粵.牌數\n") == Refusal(None, ("粵.牌數",))
    assert expected_refusal("規則: gd\n") is None


def test_a_refusal_as_expected_passes(tmp_path: Path) -> None:
    assert run_refusal(_write(tmp_path, "#! refused: line 6 粵.牌數")).passed


@pytest.mark.parametrize(("frame", "flowers", "says"), [
    ("#! refused: line 7 粵.牌數", "南 花: 春", "應拒收第 7 行"),      # another line
    ("#! refused: line 6 粵.和牌型態", "南 花: 春", "拒收應引 粵.和牌型態"),  # another clause
    ("#! refused: line 6 粵.牌數", "", "卻裁決為 decided"),          # judged, not refused
])
def test_a_refusal_otherwise_fails(tmp_path: Path, frame: str, flowers: str, says: str) -> None:
    result = run_refusal(_write(tmp_path, frame, flowers))
    assert not result.passed and result.error is None
    assert says in result.failures[0]


def test_a_refusal_file_without_its_frame_line_is_an_error(tmp_path: Path) -> None:
    result = run_refusal(_write(tmp_path, "# nothing expected"))
    assert result.error is not None and "#! refused:" in result.error


def test_coverage_counts_the_clause_of_an_expected_refusal_only(tmp_path: Path) -> None:
    good = tmp_path / "good"
    bad = tmp_path / "bad"
    good.mkdir()
    bad.mkdir()
    _write(good, "#! refused: line 6 粵.牌數")
    _write(bad, "#! refused: line 6 粵.牌數", flowers="")  # judged: reaches nothing
    assert coverage([good]).reached["粵.牌數"] == [(good / "c.refusal").as_posix()]
    report = coverage([bad])
    assert "粵.牌數" in report.unreached and report.errors


def test_the_family_refusal_cites_its_clause_and_survives_a_process_hop() -> None:
    with pytest.raises(LogError) as err:
        judge_text(GD.format(flowers="南 花: 春"))
    assert isinstance(err.value, FamilyRefusal) and err.value.clause == "粵.牌數"
    assert "粵.牌數" in str(err.value) and err.value.line == 5
    again = pickle.loads(pickle.dumps(err.value))
    assert again.clause == "粵.牌數" and str(again) == str(err.value)


def test_check_runs_refusal_cases_beside_the_others() -> None:
    done = subprocess.run([sys.executable, "-m", "adjudicator", "check", "cases/gd",
                           "-k", "refused"], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
