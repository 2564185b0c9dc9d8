"""The Guangdong family (gd) beside the Taiwanese one: chapters, flowers, hands, refusals.

The rulings themselves are checked by cases/gd/*.case (hand-worked from 002); these tests
check what a case cannot: which rules are loaded, what is refused, and with which words.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.analysis import hands
from adjudicator.analysis.warnings import log_warnings
from adjudicator.language import reader
from adjudicator.language import tiles as T
from adjudicator.language.errors import LogError
from adjudicator.rules.engine import chapter_files
from adjudicator.rules.files import ASP
from adjudicator.rules.rulesets import profile_family, profile_names
from adjudicator.ruling.judge import judge_text
from adjudicator.ruling.model import to_dict

ROOT = Path(__file__).resolve().parents[2]

GD_WIN = """規則: gd
莊家: 東
底: 10
南 手牌: 一二三萬 四五六萬 二三四筒 六七索 九九筒

紀錄:
21 西 打 八索
22 南 和 八索
"""


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, cwd=ROOT, check=False)


def test_each_profile_has_its_family() -> None:
    assert "gd" in profile_names()
    assert profile_family("gd").name == "gd"
    assert {profile_family(p).name for p in ("tw16", "tw16-alt", "tw16-online")} == {"tw16"}
    assert profile_family("gd").sets == 4 and not profile_family("gd").flowers
    assert profile_family("tw16").hand_tiles == 16 and profile_family("gd").hand_tiles == 13


def test_the_families_load_disjoint_rules() -> None:
    gd = {p.relative_to(ASP).as_posix() for p in chapter_files("gd")}
    tw = {p.relative_to(ASP).as_posix() for p in chapter_files("tw16")}
    assert {"gd/scoring.lp", "gd/wins.lp", "gd/payments.lp", "gd/dealer.lp"} <= gd
    assert not any(p.startswith("gd/") for p in tw)
    assert not gd & {"settlement/scoring.lp", "offences/wins.lp", "settlement/dealer.lp"}
    assert "core.lp" in gd and "core.lp" in tw


@pytest.mark.parametrize(("line", "text"), [
    (5, "南 花: 春"),
    (8, "22 南 補花 春 補 三萬"),
    (8, "22 南 摸 梅"),
])
def test_flowers_are_refused_under_gd_naming_the_line(line: int, text: str) -> None:
    header = "規則: gd\n莊家: 東\n底: 10\n南 手牌: 一二三萬 四五六萬 二三四筒 六七索 九九筒\n"
    body = "\n紀錄:\n21 西 打 八索\n"
    log = header + (text + "\n" + body if line == 5 else body + text + "\n")
    with pytest.raises(LogError) as err:
        judge_text(log)
    assert err.value.line == line
    assert "花" in str(err.value) and "gd" in str(err.value)


def test_the_same_flower_line_is_read_under_tw16() -> None:
    log = GD_WIN.replace("規則: gd", "規則: tw16") + "23 東 補花 春 補 三萬\n"
    assert judge_text(log).profile == "tw16"


def test_a_flower_log_is_refused_by_the_cli_with_status_2(tmp_path: Path) -> None:
    path = tmp_path / "flower.log"
    path.write_text(GD_WIN + "23 東 補花 春 補 三萬\n", encoding="utf-8")
    done = _cli("judge", str(path))
    assert done.returncode == 2
    assert "第 9 行" in done.stderr and "Traceback" not in done.stderr


def test_a_taiwanese_log_is_not_judged_under_gd() -> None:
    log = GD_WIN.replace("規則: gd", "規則: tw16")
    with pytest.raises(LogError) as err:
        judge_text(log, profile="gd")
    assert err.value.line == 1 and "gd" in str(err.value)
    # Within one family a profile may be swapped.
    assert judge_text(log, profile="tw16-alt").profile == "tw16-alt"


def test_diff_across_families_is_refused() -> None:
    done = _cli("diff", "cases/gd", "--a", "tw16", "--b", "gd")
    assert done.returncode == 2
    assert "一族" in done.stderr


def test_a_gd_ruling_has_the_taiwanese_shape() -> None:
    gd = to_dict(judge_text(GD_WIN))
    tw = to_dict(judge_text("""規則: tw16
莊家: 東
底: 10
南 手牌: 一二三萬 四五六萬 二三四筒 六七八索 一二三索 五索

紀錄:
21 西 打 五索
22 南 和 五索
"""))
    assert set(gd) == set(tw)
    assert set(gd["wins"][0]) == set(tw["wins"][0])
    assert set(gd["payments"][0]) == set(tw["payments"][0])
    assert gd["wins"][0]["patterns"] == [{"name": "平和", "tai": 1, "clause": "粵番.平和"}]
    json.dumps(gd, ensure_ascii=False)


def test_thirteen_orphans() -> None:
    orphans = list(hands.ORPHANS)
    assert hands.thirteen_orphans([*orphans, T.parse_one("中")]) == T.parse_one("中")
    assert hands.thirteen_orphans([*orphans[:-1], 0, 0]) is None
    assert hands.thirteen_orphans_waits(orphans) == set(orphans)
    assert hands.thirteen_orphans_waits([*orphans[:-1], 0]) == {orphans[-1]}


def test_a_thirteen_tile_hand_draws_no_size_warning_under_gd() -> None:
    sizes = [w for w in log_warnings(reader.read(GD_WIN)) if "手牌記了" in w.message]
    assert sizes == []
    taiwan = [w for w in log_warnings(reader.read(GD_WIN.replace("規則: gd", "規則: tw16")))
              if "手牌記了" in w.message]
    assert len(taiwan) == 1 and "16 張" in taiwan[0].message


@pytest.mark.parametrize("path", sorted((ROOT / "cases" / "gd").glob("*.case")),
                         ids=lambda p: p.stem)
def test_every_gd_case_is_a_log_that_could_have_happened(path: Path) -> None:
    # The expectations are checked by the case runner; a case whose hands cannot be (a fifth
    # copy, a tile not held) would test the rules on an impossible table.
    # (A fragment may leave a fact open: undetermined, not inconsistent.)
    ruling = judge_text(path.read_text(encoding="utf-8"))
    assert ruling.status != "inconsistent" and not ruling.problems, ruling.problems


def test_the_reports_count_a_gd_win_in_fan() -> None:
    from adjudicator.report import html, markdown
    from adjudicator.report.model import build

    incident = reader.read(GD_WIN)
    report = build(judge_text(GD_WIN), incident)
    assert report.wins[0].tai == "1 番" and report.payments[0].unit == "番"
    md = markdown.render(report)
    assert "| 牌型 | 番 | 條款 |" in md and "粵番.平和" in md
    assert "<th>番</th>" in html.render(report)
    taiwan = build(judge_text(GD_WIN.replace("規則: gd", "規則: tw16")), incident)
    assert taiwan.wins[0].unit == "台"


def test_score_refuses_a_gd_hand_rather_than_price_it_in_tai() -> None:
    from typer.testing import CliRunner

    from adjudicator.cli.commands import app

    out = CliRunner().invoke(app, ["score", "--profile", "gd", "123m", "456m", "789m", "123p",
                                   "5p", "--win", "5p"])
    assert out.exit_code == 2 and "adjudicator judge" in out.output


def test_a_corpus_diff_leaves_out_the_cases_of_another_family(tmp_path: Path) -> None:
    from adjudicator.committee.diff import Side, diff_corpus

    root = Path(__file__).resolve().parents[2] / "cases"
    tw = root / "record" / "self_draw_after_into_row.case"
    gd = sorted((root / "gd").glob("*.case"))[0]
    for case in (tw, gd):
        (tmp_path / case.name).write_text(case.read_text(encoding="utf-8"), encoding="utf-8")
    report = diff_corpus([tmp_path], Side("tw16"), Side("tw16-online"))
    assert [p.name for p in report.other_family] == [gd.name]
    assert [c.path.name for c in report.cases] == [tw.name] and not report.errors
