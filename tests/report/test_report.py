"""The referee's report: Markdown, HTML (opened in headless Chromium), golden reports, what
the record leaves open, and contradictions pointing at their lines."""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clingo import Function, Number, String

from adjudicator.language import reader
from adjudicator.report import html as render_html
from adjudicator.report import markdown as render_md
from adjudicator.report.model import build
from adjudicator.report.pdf import HEADLESS
from adjudicator.rules.engine import solve_open
from adjudicator.ruling import atoms as read_atoms
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import to_dict

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "cases" / "golden"
CHROMIUM = Path("/usr/bin/chromium")
HEAD = "規則: tw16\n莊家: 東\n底: 300\n台: 100\n"


def _report(name: str) -> tuple[str, str]:
    incident = reader.read((GOLDEN / f"{name}.log").read_text("utf-8"))
    report = build(judge(incident), incident)
    return render_md.render(report), render_html.render(report)


# ------------------------------------------------------------------ Markdown and HTML


def test_markdown_has_verdict_findings_payments_balances() -> None:
    md, _ = _report("priority_substitute")
    verdict = md.split("## 經過")[0]
    assert "**裁決確定**" in verdict
    assert "東 相公（第 25 手「東 碰 七筒」；罰則.2）" in verdict
    assert "南 自摸（第 28 手）：有效，4 台" in verdict
    assert "收支：東 -2200、南 +2200、西 0、北 0" in verdict
    assert "### 2. 東 相公" in md and "罰則.2（失去優先仍要碰" in md
    assert "| 東 | 南 | 700 | 4 | 自摸 | 西 |" in md  # paid instead of 西 (代位賠付)
    assert "| -2200 | +2200 | 0 | 0 |" in md
    assert "| 解釋.代位自摸 |" in md


def test_the_chain_names_acts_reasons_and_clauses_in_order() -> None:
    md, _ = _report("false_win_xianggong")
    chain = md.split("### 2. 北 詐和")[1].split("## 和牌")[0]
    acts, reasons, clauses, verdict = (chain.index(x) for x in ("所依動作", "理由", "條款", "認定"))
    assert acts < reasons < clauses < verdict
    assert "第 20 手「北 自承 偷牌」" in chain and "第 31 手「北 自摸」" in chain
    assert "已是相公，不得和牌" in chain and "詐和.1（" in chain


def test_html_is_self_contained_and_made_for_a4() -> None:
    _, html = _report("priority_substitute")
    assert html.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in html
    assert "@page { size: A4" in html and "break-inside: avoid" in html
    assert not re.search(r"""(src|href)\s*=|@import|url\(|https?://""", html)
    for text in ("裁決確定", "東 相公", "罰則.2", "代位賠付", "-2200", "+2200", "解釋.八張窗"):
        assert text in html


def test_html_escapes_what_the_record_says() -> None:
    text = HEAD + "紀錄:\n11 西 打 七筒 （<script>x</script>|*）\n12 東 喊碰 七筒\n13 北 摸\n"
    incident = reader.read(text)
    report = build(judge(incident), incident)
    html = render_html.render(report)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "\\|\\*" in render_md.render(report)


# ------------------------------------------------------------------ golden reports


def _goldens() -> list[Path]:
    return sorted(GOLDEN.glob("*.log"))


@pytest.mark.parametrize("log", _goldens(), ids=lambda p: p.stem)
def test_golden_report(log: Path) -> None:
    """Re-render each reviewed report; on a change, review the diff and, if right, rewrite
    it with ``adjudicator judge cases/golden/X.log --format md -o cases/golden/X.md``."""
    expected = log.with_suffix(".md").read_text("utf-8")
    actual, _ = _report(log.stem)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            str(log.with_suffix(".md")), "now"))
        pytest.fail(f"the report of {log.name} changed:\n{diff}")


def test_there_are_golden_reports() -> None:
    assert len(_goldens()) >= 3
    assert all(p.with_suffix(".md").is_file() for p in _goldens())


# ------------------------------------------------------------------ what is left open


def test_unknown_hand_is_undetermined_with_both_possibilities() -> None:
    incident = reader.read((GOLDEN / "hand_not_recorded.log").read_text("utf-8"))
    r = judge(incident)
    assert r.status == "undetermined"
    assert r.hand_ends is True and r.next_hand is None and not r.payments  # decided part
    (win,) = r.wins
    assert not win.valid and win.open == ("紀錄未載 北 和牌時的手牌",) and not win.clauses
    (u,) = r.uncertain
    assert u.at == 36 and u.term == 'hand_not_recorded("北")'
    complete, incomplete = u.possibilities
    assert "已成和" in complete.assumption and complete.wins[0].valid
    assert complete.wins[0].tai is None and complete.next_hand.dealer == "南"
    assert [f.kind for f in incomplete.findings] == ["詐和"]
    assert incomplete.balances == {"東": 400, "南": 300, "西": 300, "北": -1000}
    d = to_dict(r)["uncertain"][0]
    assert {"at", "fact", "changes", "possibilities"} <= set(d) and d["possibilities"][1]["if"]


def test_an_open_fact_that_changes_nothing_leaves_the_ruling_decided() -> None:
    # A 相公 player's win is 詐和 whether or not its hand was complete.
    log = HEAD + "北 門前: 碰 三萬\n紀錄:\n20 北 自承 偷牌\n35 北 摸\n36 北 自摸\n"
    r = judge(reader.read(log))
    assert r.status == "decided" and not r.uncertain
    assert [f.kind for f in r.findings] == ["相公", "詐和"]
    assert r.findings[1].why == ("北 自第 20 手「北 自承 偷牌」起已是相公，不得和牌",)


def test_nothing_open_means_one_solve() -> None:
    from adjudicator.analysis import replay
    from adjudicator.facts import record as facts
    from adjudicator.facts import win_facts as winfacts

    incident = reader.read((GOLDEN / "priority_substitute.log").read_text("utf-8"))
    timeline = replay.replay(incident)
    symbols = facts.all_facts(incident, timeline) + list(winfacts.win_facts(incident, timeline))
    answer = solve_open(symbols, "tw16")
    assert answer.solves == 1 and not answer.possibilities and answer.atoms == answer.brave


# ------------------------------------------------------------------ contradictions


def test_contradictions_point_at_the_lines_that_conflict() -> None:
    r = judge(reader.read((GOLDEN / "contradiction.log").read_text("utf-8")))
    assert r.status == "inconsistent"
    lines = {p.kind: [(c.line, c.text) for c in p.conflicts] for p in r.problems}
    assert [n for n, _ in lines["fifth_copy"]] == [10, 11, 17]
    assert lines["seq_falls"] == [(17, "14 北 摸 三萬"), (18, "13 北 打 三萬")]
    first = to_dict(r)["problems"][0]["conflicts"][0]
    assert first["line"] == 10 and first["text"].startswith("南 手牌: 三萬 三萬 三萬")


def test_a_discard_not_held_points_at_the_hand_stated() -> None:
    hand = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索"
    text = HEAD + f"西 手牌: {hand}  # as seen\n紀錄:\n11 西 摸 東\n12 西 打 中\n"
    (problem,) = judge(reader.read(text)).problems
    assert [(c.line, c.text) for c in problem.conflicts] == [(5, f"西 手牌: {hand}"),
                                                             (8, "12 西 打 中")]


# ------------------------------------------------------------------ reasons with premises


def test_premises_and_step_clauses_are_rendered_as_a_chain() -> None:
    incident = reader.read(HEAD + "紀錄:\n11 西 打 七筒\n12 東 喊碰 七筒\n13 北 摸\n")
    why = Function("called_not_punged", [Number(1), String("西"), Number(7)])
    premise = Function("xianggong", [Number(3)])
    atoms = [Function("finding", [String("喊碰未碰"), String("東"), Number(2)]),
             Function("finding_clause", [String("喊碰未碰"), String("東"), Number(2),
                                         String("喊碰未碰")]),
             Function("finding_why", [String("喊碰未碰"), String("東"), Number(2), why]),
             Function("why_premise", [why, premise]),
             Function("why_clause", [premise, String("相公")])]
    r = read_atoms._ruling(incident, "tw16", atoms)
    (reason,) = r.findings[0].reasons
    assert reason.acts == (11,) and reason.premises[0].acts == (13,)
    assert reason.premises[0].clauses == ("相公",)
    md = render_md.render(build(r, incident))
    assert "  - 東 自第 13 手「北 摸」起已是相公" in md and "（依 相公）" in md


# ------------------------------------------------------------------ command line


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_cli_writes_markdown_and_html(tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    done = _cli("judge", "cases/golden/priority_substitute.log", "--format", "md", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and out.read_text("utf-8") == _report("priority_substitute")[0]
    html = _cli("judge", "cases/golden/priority_substitute.log", "--format", "html")
    assert html.returncode == 0 and html.stdout.startswith("<!DOCTYPE html>")
    text = _cli("judge", "cases/golden/hand_not_recorded.log")
    assert text.returncode == 0 and "待查明" in text.stdout and "已成和" in text.stdout
    data = json.loads(_cli("judge", "cases/golden/hand_not_recorded.log", "-f", "json").stdout)
    assert data["status"] == "undetermined"


# ------------------------------------------------------------------ a real browser


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    flags = [*HEADLESS, f"--user-data-dir={tmp_path / 'profile'}"]
    return subprocess.run([str(CHROMIUM), *flags, *args], capture_output=True, timeout=120)


@pytest.mark.skipif(not CHROMIUM.exists(),
                    reason="/usr/bin/chromium is not installed (apt-get install -y chromium)")
def test_html_renders_in_chromium(tmp_path: Path) -> None:
    _, html = _report("priority_substitute")
    page = tmp_path / "report.html"
    page.write_text(html, encoding="utf-8")
    pdf = tmp_path / "report.pdf"
    _chromium(tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri())
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert 1 <= pages <= 6
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri()).stdout.decode("utf-8")
    assert "裁決確定" in dom and "東 相公" in dom and "-2200" in dom


def test_a_win_the_record_leaves_open_is_marked_undetermined_not_void() -> None:
    from adjudicator.ruling.model import to_dict

    r = judge(reader.read((GOLDEN / "hand_not_recorded.log").read_text("utf-8")))
    win = to_dict(r)["wins"][0]
    assert r.status == "undetermined"
    assert win["undetermined"] is True and win["valid"] is False
    assert "手牌" in win["why"] and win["clauses"] == ["和牌型態"]
