"""The desk and the CLI agree on families and score-only profiles: a log's own 規則: line
decides unless a profile is picked, a pick of another family is refused as `judge
--profile` refuses it, and /api/score takes 國標 (mcr) as `score --profile mcr` does."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from adjudicator.desk.app import create_app

ROOT = Path(__file__).resolve().parents[2]
TEXT = {"content-type": "text/plain; charset=utf-8"}
# 平和 (四副順子, 九筒 pair) on 西's discard: 1 番 → 分值 2, 西 pays 10 × 2 = 20 (粵番.平和).
GD_LOG = (ROOT / "cases" / "gd" / "fan_pinghu.case").read_text(encoding="utf-8")
RULE_LINE = GD_LOG.splitlines().index("規則: gd") + 1
# cases/mcr/58_和絕張.fan: 花龍 8 + 和絕張 4 + 門前清 2 + 平和 2 = 16.
MCR_HAND = {"concealed": "一二三萬 四五六筒 七八九索 二二索 六七萬", "win": "五萬",
            "fourth_tile": True, "profile": "mcr"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = f"sqlite:///{tmp_path_factory.mktemp('families') / 'archive.db'}"
    with TestClient(create_app(db, workers=1)) as c:
        yield c


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)


def test_a_gd_log_is_judged_as_gd_when_no_profile_is_picked(client: TestClient) -> None:
    for query in ("", "?profile="):  # the page's default pick sends none, or an empty one
        r = client.post("/api/judge" + query, content=GD_LOG.encode(), headers=TEXT)
        assert r.status_code == 200, r.text
        ruling = r.json()
        assert ruling["profile"] == "gd"
        assert ruling["wins"][0]["patterns"] == [
            {"name": "平和", "tai": 1, "clause": "粵番.平和"}]
        assert ruling["balances"] == {"東": 0, "南": 20, "西": -20, "北": 0}
    cli = json.loads(_cli("judge", "-f", "json", "-", stdin=GD_LOG).stdout)
    assert cli["profile"] == "gd" and cli["balances"] == ruling["balances"]
    lint = client.post("/api/lint", content=GD_LOG.encode(), headers=TEXT).json()
    assert lint["errors"] == []


def test_a_pick_of_another_family_is_refused_as_the_cli_refuses_it(client: TestClient) -> None:
    r = client.post("/api/judge?profile=tw16", content=GD_LOG.encode(), headers=TEXT)
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "log_error" and err["line"] == RULE_LINE
    assert "gd（gd 一族）" in err["message"] and "tw16" in err["message"]
    done = _cli("judge", "--profile", "tw16", "-", stdin=GD_LOG)
    assert done.returncode == 2 and err["message"] in done.stderr
    # Within the family the pick stands (the only gd profile is gd itself).
    same = client.post("/api/judge?profile=gd", content=GD_LOG.encode(), headers=TEXT)
    assert same.status_code == 200 and same.json()["profile"] == "gd"
    lint = client.post("/api/lint?profile=tw16", content=GD_LOG.encode(), headers=TEXT).json()
    assert lint["errors"][0]["line"] == RULE_LINE


def test_the_page_picks_no_profile_by_default(client: TestClient) -> None:
    page = client.get("/").text
    profiles = page[page.index('<select id="profile">'):]
    profiles = profiles[:profiles.index("</select>")]
    options = dict(re.findall(r'<option value="([^"]*)"([^>]*)>', profiles))
    assert " selected" in options[""]
    assert all(" selected" not in attrs for value, attrs in options.items() if value)


def test_each_profile_says_its_familys_hand_size(client: TestClient) -> None:
    # The hand editor's count (desk.js handSize): 3 × sets + 1 tiles between turns.
    page = client.get("/").text
    tiles = dict(re.findall(r'<option value="([^"]*)" data-tiles="(\d+)"', page))
    assert tiles[""] == tiles["tw16"] == tiles["tw16-alt"] == "16"
    assert tiles["gd"] == "13"


def test_score_takes_mcr_as_the_cli_does(client: TestClient) -> None:
    r = client.post("/api/score", json=MCR_HAND)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["profile"] == "mcr" and answer["complete"] is True and answer["fan"] == 16
    assert {(p["name"], p["fan"]) for p in answer["patterns"]} == {
        ("花龍", 8), ("和絕張", 4), ("門前清", 2), ("平和", 2)}
    cli = _cli("score", "--profile", "mcr", "--format", "json",
               *MCR_HAND["concealed"].split(), "--win", "五萬", "--fourth-tile")
    assert cli.returncode == 0 and answer == json.loads(cli.stdout)


def test_score_refuses_what_the_cli_refuses(client: TestClient) -> None:
    short = client.post("/api/score", json={**MCR_HAND, "concealed": "一二三萬"})
    assert short.status_code == 400 and short.json()["error"]["code"] == "bad_hand"
    assert "13" in short.json()["error"]["message"]
    # 和絕張 is a 國標 fan: the Taiwanese table refuses it.
    taiwan = client.post("/api/score", json={**MCR_HAND, "profile": "tw16",
                                             "concealed": MCR_HAND["concealed"] + " 東東東"})
    assert taiwan.status_code == 400
    gd = client.post("/api/score", json={**MCR_HAND, "profile": "gd"})
    assert gd.status_code == 400 and gd.json()["error"]["code"] == "bad_profile"
    done = _cli("score", "--profile", "gd", "123m", "--win", "1m")
    assert done.returncode == 2 and _flat(gd.json()["error"]["message"]) in _flat(done.stderr)


def _flat(text: str) -> str:
    """Without the line breaks the terminal's width put in."""
    return "".join(text.split())


def test_diff_across_families_is_refused_as_the_cli_refuses_it(client: TestClient) -> None:
    r = client.post("/api/diff", json={"text": GD_LOG, "a": {"profile": "tw16"},
                                       "b": {"profile": "gd"}})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_profile"
    done = _cli("diff", "cases/gd", "--a", "tw16", "--b", "gd")
    assert done.returncode == 2
    assert _flat(r.json()["error"]["message"]) in _flat(done.stderr)
    # Both sides Taiwanese, the log Guangdong: refused on its 規則: line.
    r = client.post("/api/diff", json={"text": GD_LOG, "a": {"profile": "tw16"},
                                       "b": {"profile": "tw16-alt"}})
    assert r.status_code == 400 and r.json()["error"]["line"] == RULE_LINE
    # Within the family: 解釋.粵放銃=all makes the discard win paid by all three.
    r = client.post("/api/diff", json={"text": GD_LOG, "a": {},
                                       "b": {"settings": {"解釋.粵放銃": "all"}}})
    assert r.status_code == 200 and r.json()["changed"] is True
    balances = {row["seat"]: row["amount"] for row in r.json()["changes"]["balances"]["b"]}
    assert balances == {"東": -20, "南": 60, "北": -20}  # 西 pays 20 either way
