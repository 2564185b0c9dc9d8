"""A whole match at the desk, in-process: POST /api/match, the form at /match, the permalink
/m/{id} with its ledger table and chart, the downloads — and what they refuse.

The ledger figures are east_round.match's, worked out by hand in that file's comments."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from adjudicator.desk.app import create_app

ROOT = Path(__file__).resolve().parents[2]
EAST = (ROOT / "cases" / "matches" / "east_round.match").read_text("utf-8")
STOPS = (ROOT / "cases" / "matches" / "open_dealer_stops.match").read_text("utf-8")
TOTALS = {"阿明": 2700, "小華": -2000, "阿德": -1100, "小美": 400}
TEXT = {"content-type": "text/plain; charset=utf-8"}
# Two 荒局 under tw16: no money moves; the dealer stays, the streak grows.
EXHAUSTED = "紀錄:\n90 西 打 一萬\n91 牌局 荒局\n"
SHORT = ("將: 短\n規則: tw16\n底: 300\n台: 100\n玩家: 東=阿明 南=小華 西=阿德 北=小美\n\n"
         f"第1盤:\n{EXHAUSTED}\n第2盤:\n{EXHAUSTED}")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = f"sqlite:///{tmp_path_factory.mktemp('match') / 'archive.db'}"
    with TestClient(create_app(db, workers=2)) as c:
        yield c


def _cells(html: str, row_class: str) -> list[list[str]]:
    rows = re.findall(rf'<tr class="{row_class}"[^>]*>(.*?)</tr>', html, re.S)
    return [re.findall(r'<td class="money"[^>]*>(.*?)</td>', r) for r in rows]


def test_a_match_is_judged_with_its_ledger(client: TestClient) -> None:
    r = client.post("/api/match", content=EAST.encode(), headers=TEXT)
    assert r.status_code == 200
    d = r.json()
    assert d["totals"] == TOTALS and d["sum"] == 0 and d["stop"] is None
    assert len(d["hands"]) == 9
    fifth = d["hands"][4]
    assert (fifth["dealer"], fifth["dealer_name"], fifth["streak"]) == ("南", "小華", 0)
    assert d["hands"][8]["round_wind"] == "南"
    assert d["next"]["dealer_name"] == "阿明" and d["next"]["streak"] == 1


def test_a_match_as_csv_markdown_and_html(client: TestClient) -> None:
    csv = client.post("/api/match?format=csv", content=EAST.encode(), headers=TEXT)
    assert csv.headers["content-type"].startswith("text/csv")
    last = csv.text.splitlines()[-1].split(",")
    assert last[0] == "9" and last[-4:] == ["2700", "-2000", "-1100", "400"]
    md = client.post("/api/match?format=md", content=EAST.encode(), headers=TEXT).text
    assert "| 終局 |" in md and "+2700" in md
    html = client.post("/api/match?format=html", content=EAST.encode(), headers=TEXT).text
    assert '<svg id="chart"' in html and html.count("<polyline") == 4


def test_the_json_form_and_a_profile_override(client: TestClient) -> None:
    r = client.post("/api/match", json={"text": SHORT, "profile": "tw16-online"})
    assert r.status_code == 200
    d = r.json()
    assert d["hands"][0]["ruling"]["profile"] == "tw16-online"
    assert d["totals"] == {"阿明": 0, "小華": 0, "阿德": 0, "小美": 0}


def test_an_archived_match_has_a_permalink_page_with_ledger_and_chart(
        client: TestClient) -> None:
    r = client.post("/api/match?archive=true", content=EAST.encode(), headers=TEXT)
    match_id = r.headers["X-Match-Id"]
    assert r.headers["Location"] == f"/m/{match_id}"
    page = client.get(f"/m/{match_id}")
    assert page.status_code == 200
    html = page.text
    assert _cells(html, "end") == [["+2700", "-2000", "-1100", "+400"]]
    hands = re.findall(r'<tr class="hand" data-hand="(\d+)">(.*?)</tr>', html, re.S)
    assert [n for n, _ in hands] == [str(n) for n in range(1, 10)]
    words = re.search(r'<tr class="words" data-hand="5">(.*?)</tr>', html, re.S)
    assert words and "莊 南（小華）連 0" in words.group(1) and "小美 自摸 3 台" in words.group(1)
    assert re.findall(r'<span class="delta">(.*?)</span>', hands[4][1]) == [
        "-600", "-700", "-600", "+1900"]
    assert re.findall(r'<span class="total">(.*?)</span>', hands[4][1]) == [
        "+2800", "-2300", "-900", "+400"]
    assert html.count('<polyline class="series"') == 4
    assert "週五夜 第1將" in html and "和平麻將會館" in html
    assert "https://" not in html and "<script" not in html
    stored = client.get(f"/api/matches/{match_id}").json()
    assert stored["text"] == EAST and stored["match"]["totals"] == TOTALS
    assert stored["hands"] == 9 and stored["stopped"] is None
    listed = client.get("/api/matches?player=小美").json()
    assert match_id in [m["id"] for m in listed]
    assert match_id in client.get("/matches?player=小美").text


@pytest.mark.parametrize(("ext", "kind", "piece"), [
    ("csv", "text/csv", "9,1,南,東,阿明,0"), ("md", "text/markdown", "| 終局 |"),
    ("json", "application/json", '"totals"'), ("html", "text/html", '<svg id="chart"')])
def test_the_downloads(client: TestClient, ext: str, kind: str, piece: str) -> None:
    match_id = client.post("/api/match?archive=true", content=EAST.encode(),
                           headers=TEXT).headers["X-Match-Id"]
    r = client.get(f"/m/{match_id}.{ext}")
    assert r.status_code == 200 and r.headers["content-type"].startswith(kind)
    assert "attachment" in r.headers["content-disposition"] and piece in r.text


def test_the_form_judges_files_and_sends_to_the_permalink(client: TestClient) -> None:
    assert 'name="text"' in client.get("/match").text
    # A browser sends the text box's line ends as CR LF.
    r = client.post("/match", data={"text": EAST.replace("\n", "\r\n"), "profile": ""},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/m/")
    page = client.get(r.headers["location"]).text
    assert _cells(page, "end") == [["+2700", "-2000", "-1100", "+400"]]


def test_a_match_that_stops_shows_the_ledger_up_to_there(client: TestClient) -> None:
    r = client.post("/api/match?archive=true", content=STOPS.encode(), headers=TEXT)
    assert r.status_code == 200
    assert r.json()["stop"]["hand"] == 2 and len(r.json()["hands"]) == 1
    page = client.get(r.headers["Location"]).text
    assert re.search(r'<p class="stop error">停止：第2盤：莊家未定', page)
    assert client.get(f"/api/matches/{r.headers['X-Match-Id']}").json()["stopped"]


def test_a_file_that_cannot_be_read_is_an_error_with_its_line(client: TestClient) -> None:
    bad = SHORT.replace("玩家: 東=阿明 南=小華 西=阿德 北=小美", "玩家: 東=阿明")
    r = client.post("/api/match", content=bad.encode(), headers=TEXT)
    err = r.json()["error"]
    assert r.status_code == 400 and (err["code"], err["line"]) == ("log_error", 5)
    form = client.post("/match", data={"text": bad})
    assert form.status_code == 400
    assert re.search(r'<div class="diag error" id="match-error" data-line="5">', form.text)
    assert "玩家: 東=阿明" in form.text  # the text is given back to be fixed


def test_too_many_hands_are_refused(client: TestClient) -> None:
    many = SHORT.split("\n第1盤:")[0] + "".join(f"\n第{i}盤:\n{EXHAUSTED}" for i in range(1, 66))
    r = client.post("/api/match", content=many.encode(), headers=TEXT)
    assert r.status_code == 400 and "64" in r.json()["error"]["message"]


def test_an_unknown_profile_is_refused(client: TestClient) -> None:
    r = client.post("/api/match?profile=nosuch", content=SHORT.encode(), headers=TEXT)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_profile"
    assert client.post("/match", data={"text": SHORT, "profile": "nosuch"}).status_code == 400


def test_an_unknown_match_is_404(client: TestClient) -> None:
    assert client.get("/api/matches/nosuch").status_code == 404
    assert client.get("/m/nosuch").status_code == 404
    assert client.get("/m/nosuch.csv").status_code == 404


# ---------------------------------------------------------------------- hostile input


def test_a_huge_match_is_refused_by_the_api_and_the_page(client: TestClient) -> None:
    big = SHORT + ("# " + "x" * 1000 + "\n") * 300
    r = client.post("/api/match", content=big.encode(), headers=TEXT)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    page = client.post("/match", data={"text": big})
    assert page.status_code == 413 and page.headers["content-type"].startswith("text/html")
    assert "內容過大" in page.text


def test_deep_json_is_refused(client: TestClient) -> None:
    deep = b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    r = client.post("/api/match", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "too_deep"


@pytest.mark.parametrize("bad", ["\x00", "\x1b[31m", "\u202e"])
def test_control_characters_are_refused_by_the_api_and_the_page(
        client: TestClient, bad: str) -> None:
    text = SHORT.replace("91 牌局 荒局", f"91 牌局{bad} 荒局", 1)
    r = client.post("/api/match", content=text.encode(), headers=TEXT)
    err = r.json()["error"]
    assert r.status_code == 400 and err["code"] == "control_character"
    assert (err["line"], err["column"]) == (10, 6)
    form = client.post("/match", data={"text": text})
    assert form.status_code == 400 and "控制字元" in form.text
    assert 'data-line="10"' in form.text


def test_html_in_player_names_is_inert_on_the_match_page(client: TestClient) -> None:
    hostile = SHORT.replace("阿明", "<script>alert(1)</script>").replace(
        "小華", '"&<b>小華</b>')
    r = client.post("/api/match?archive=true", content=hostile.encode(), headers=TEXT)
    assert r.status_code == 200
    page = client.get(r.headers["Location"]).text
    assert "<script" not in page and "<b>小華" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'data-name="&quot;&amp;&lt;b&gt;小華&lt;/b&gt;"' in page
    html = client.get(r.headers["Location"] + ".html").text
    assert "<script" not in html and "<b>小華" not in html


def test_a_page_post_that_is_not_a_form_is_refused(client: TestClient) -> None:
    r = client.post("/match", content=SHORT.encode(), headers=TEXT)
    assert r.status_code == 415
