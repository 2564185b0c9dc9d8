"""Reports players sign: the header's occasion and names on every report and in `meta`,
who pays whom in words, seat order, text that folds instead of cutting, a format chosen by
-o's suffix, void wins without a 台, and an A4 print of at most two pages that ends with
the signature line (counted in a real PDF from Debian's Chromium)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from adjudicator.language import reader
from adjudicator.report import html as render_html
from adjudicator.report import markdown as render_md
from adjudicator.report import pdf
from adjudicator.report import text as render_text
from adjudicator.report.model import build
from adjudicator.ruling.judge import judge
from adjudicator.ruling.model import to_dict

ROOT = Path(__file__).resolve().parents[2]

# 優先.3 then 罰則.2: 東 punged a tile 北 had already chowed and discarded on; 南 self-draws
# on the first counted draw, 門清 1 + 不求 2 + 獨聽 1 = 4 台.  東 pays its own share with
# 作莊 (1 台 more: 300 + 500 = 800) and, in the stead of 西 and 北, theirs (300 + 400 each).
SIGNED = """\
日期: 2026-11-30 20:15
場地: 和平麻將會館
桌號: 7
裁判: 陳大文
盤號: 東風圈第3盤
規則: tw16
莊家: 東
底: 300
台: 100
玩家: 東=阿明 南=小華 西=阿德 北=小美

紀錄:
21 西 打 七筒
22 北 吃 七筒 用 六筒 八筒
23 北 打 二索
24 阿明 喊碰 七筒
25 阿明 碰 七筒
26 阿明 打 九萬
27 南 摸 九索
28 南 自摸 九索
南 手牌: 一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索
"""
FIELDS = {"日期": "2026-11-30 20:15", "場地": "和平麻將會館", "桌號": "7", "裁判": "陳大文",
          "盤號": "東風圈第3盤"}
FIELD_ATTRS = {"日期": "date", "場地": "venue", "桌號": "table", "裁判": "referee",
               "盤號": "hand"}
NAMED = ("東（阿明）", "南（小華）", "西（阿德）", "北（小美）")
PAYS = "東（阿明） 付 南（小華） 2,200（代位賠付：代 西（阿德）、北（小美））"


def _report():
    incident = reader.read(SIGNED)
    ruling = judge(incident)
    return ruling, build(ruling, incident)


def _text(width: int) -> str:
    ruling, _ = _report()
    buffer = io.StringIO()
    render_text.render(ruling, Console(file=buffer, width=width, no_color=True),
                       reader.read(SIGNED))
    return buffer.getvalue()


def test_header_fields_are_read_and_in_meta() -> None:
    incident = reader.read(SIGNED)
    h = incident.header
    assert {k: getattr(h, f) for k, f in FIELD_ATTRS.items()} == FIELDS
    meta = to_dict(judge(incident))["meta"]
    assert meta == {"date": "2026-11-30 20:15", "venue": "和平麻將會館", "table": "7",
                    "referee": "陳大文", "hand": "東風圈第3盤",
                    "players": {"東": "阿明", "南": "小華", "西": "阿德", "北": "小美"}}
    # Absent keys are left out; a comment after a value is no part of it.
    bare = reader.read("日期: 2026-12-01  # 晚場\n紀錄:\n東 摸\n")
    assert to_dict(judge(bare))["meta"] == {"date": "2026-12-01"}


@pytest.mark.parametrize("render", ["text", "md", "html"])
def test_every_report_shows_the_header_and_the_names(render: str) -> None:
    ruling, report = _report()
    out = {"text": lambda: _text(100), "md": lambda: render_md.render(report),
           "html": lambda: render_html.render(report)}[render]()
    for key, value in FIELDS.items():
        assert key in out and value in out, (key, value)
    for named in NAMED:
        assert named in out
    assert "東（阿明） 相公" in out


def test_the_conclusion_says_who_pays_whom_how_much() -> None:
    _, report = _report()
    assert report.conclusion == [PAYS]
    assert PAYS in report.verdict
    assert PAYS in render_md.render(report).split("## 經過")[0]


def test_payments_and_balances_in_seat_order_then_outside_bettors() -> None:
    # 老王 bets 50 on 南 from outside; 北 discards into 南's win.  Whatever the rules make
    # of it, every list reads 東 南 西 北 and then 老王.
    log = ("規則: tw16\n莊家: 東\n底: 300\n台: 100\n插花: 外插 老王 南 50\n"
           "插花: 內插 西 2\n紀錄:\n27 北 打 九索\n28 南 和 九索\n"
           "南 手牌: 一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索\n")
    incident = reader.read(log)
    ruling = judge(incident)
    report = build(ruling, incident)
    order = {"東": 0, "南": 1, "西": 2, "北": 3}
    whos = [w for w, _ in report.balances]
    assert whos[:4] == ["東", "南", "西", "北"] and whos[4:] == ["老王"]
    keys = [(order.get(p.frm, 4), order.get(p.to, 4)) for p in report.payments]
    assert keys == sorted(keys) and any(p.to == "老王" or p.frm == "老王"
                                        for p in report.payments)
    payers = [line.split(" 付 ")[0] for line in report.conclusion]
    assert payers == sorted(payers, key=lambda w: order.get(w, 4))


@pytest.mark.parametrize("width", [40, 60, 80])
def test_text_never_cuts_a_clause_id_or_an_amount(width: int) -> None:
    out = _text(width)
    assert "…" not in out
    assert all(len(line) <= width for line in out.splitlines())
    ruling, report = _report()
    lines = out.splitlines()
    # Each id and sum is whole on some line: folded around, never through.
    for clause in ("罰則.2", "優先.3", "台.11", "代位賠付"):
        assert any(clause in line for line in lines), clause
    for amount in ("2,200", "-2200", "+2200", "800", "700"):
        assert any(re.search(rf"(?<![\d,]){re.escape(amount)}(?![\d,])", line)
                   for line in lines), amount


def test_text_folds_when_piped() -> None:
    done = subprocess.run([sys.executable, "-m", "adjudicator", "judge", "-"], input=SIGNED,
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "…" not in done.stdout
    assert "罰則.2" in done.stdout and "2,200" in done.stdout


def test_a_void_win_has_no_score() -> None:
    log = (ROOT / "cases" / "golden" / "false_win_xianggong.log").read_text("utf-8")
    incident = reader.read(log)
    report = build(judge(incident), incident)
    win = report.wins[0]
    assert win.verdict == "無效" and win.tai == ""
    line = next(v for v in report.verdict if "自摸（第 31 手）" in v)
    assert line.endswith("：無效") and "台" not in line
    md = render_md.render(report)
    assert "### 北 自摸（第 31 手）：無效\n" in md
    assert "和牌無效；下列牌面台數只供計算罰則" in md


def _cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          cwd=ROOT)


@pytest.mark.parametrize(("suffix", "start"), [
    (".json", b"{"), (".md", "# 裁決報告".encode()), (".html", b"<!DOCTYPE html>"),
    (".txt", "日期：".encode()),
])
def test_output_suffix_picks_the_format(tmp_path: Path, suffix: str, start: bytes) -> None:
    log = tmp_path / "signed.log"
    log.write_text(SIGNED, encoding="utf-8")
    out = tmp_path / f"report{suffix}"
    done = _cli("judge", str(log), "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    assert out.read_bytes().startswith(start)
    if suffix == ".json":
        assert json.loads(out.read_text("utf-8"))["meta"]["venue"] == "和平麻將會館"
    # -f wins over the suffix.
    forced = _cli("judge", str(log), "-o", str(out), "-f", "json")
    assert forced.returncode == 0 and out.read_bytes().startswith(b"{")


CHROMIUM = pdf.chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on PATH (apt-get install -y chromium fonts-noto-cjk)")


@needs_chromium
def test_pdf_by_suffix_prints_on_two_a4_pages_signature_last(tmp_path: Path) -> None:
    import pypdf

    log = tmp_path / "signed.log"
    log.write_text(SIGNED, encoding="utf-8")
    out = tmp_path / "report.pdf"
    done = _cli("judge", str(log), "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    document = pypdf.PdfReader(out)
    pages = document.pages
    assert 1 <= len(pages) <= 2 and pdf.page_count(out.read_bytes()) == len(pages)
    for page in pages:  # A4: 595 × 842 points
        assert round(float(page.mediabox.width)) == 595
        assert round(float(page.mediabox.height)) == 842
    texts = [page.extract_text() for page in pages]
    assert "裁決報告" in texts[0]  # no blank first page
    # Page numbers (pypdf may give 頁 as the Kangxi radical ⾴).
    assert all(re.search(rf"第 {n} [頁⾴]，共 {len(pages)} [頁⾴]", t)
               for n, t in enumerate(texts, 1))
    last = texts[-1]
    # pypdf maps some CJK to compatibility forms (⼩ for 小); compare on what it keeps.
    assert "以上裁決經宣讀" in last and "陳" in last and "阿明" in last


@needs_chromium
@pytest.mark.parametrize("name", ["priority_substitute", "false_win_xianggong",
                                  "hand_not_recorded", "contradiction"])
def test_golden_rulings_print_on_at_most_two_pages(name: str) -> None:
    incident = reader.read((ROOT / "cases" / "golden" / f"{name}.log").read_text("utf-8"))
    html = render_html.render(build(judge(incident), incident))
    assert 1 <= pdf.page_count(pdf.render(html)) <= 2
