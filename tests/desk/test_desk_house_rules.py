"""House rules at the desk: the operator's folder (serve --rules-dir) offered by name, a log's
規則: line naming one, every ruling and the archive saying which rules judged it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from adjudicator.cli.commands import app as cli
from adjudicator.desk.app import create_app
from adjudicator.rules.rulesets import load_folder, load_house, rule_set

ROOT = Path(__file__).resolve().parents[2]
CLUB = ROOT / "examples" / "house-rules" / "longshan.rules"
FIVE = (ROOT / "cases" / "profiles" / "five_concealed_pungs_tw16.case").read_text("utf-8")
TEXT = {"content-type": "text/plain; charset=utf-8"}
DIGEST = rule_set("tw16", load_house(CLUB)).hash


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("rules")
    shutil.copy(CLUB, folder / "longshan.rules")
    db = f"sqlite:///{tmp_path_factory.mktemp('desk') / 'archive.db'}"
    with TestClient(create_app(db, workers=1, houses=load_folder(folder))) as c:
        yield c


def _judge(client: TestClient, text: str, query: str = "") -> dict:
    r = client.post("/api/judge" + query, content=text.encode(), headers=TEXT)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_request_and_a_log_may_name_the_house_rules(client: TestClient) -> None:
    chosen = _judge(client, FIVE, "?profile=longshan")
    assert chosen["rules"]["house"]["name"] == "龍山麻將協會 2026 版"
    assert chosen["rules"]["hash"] == DIGEST
    assert [w["tai"] for w in chosen["wins"]] == [14]  # 五暗刻 12 + 不求 2
    own = _judge(client, FIVE.replace("規則: tw16", "規則: longshan"))
    assert own["rules"] == chosen["rules"]
    plain = _judge(client, FIVE)
    assert plain["rules"]["house"] is None and [w["tai"] for w in plain["wins"]] == [15]


def test_an_unknown_name_is_refused_naming_what_is_offered(client: TestClient) -> None:
    r = client.post("/api/judge?profile=../longshan", content=FIVE.encode(), headers=TEXT)
    assert r.status_code == 400
    assert "longshan" in r.json()["error"]["message"]


def test_the_archive_files_and_lists_the_rules(client: TestClient) -> None:
    r = client.post("/api/judge?profile=longshan&archive=true", content=FIVE.encode(),
                    headers=TEXT)
    assert r.status_code == 200
    ident = r.headers["X-Ruling-Id"]
    listed = {x["id"]: x for x in client.get("/api/rulings").json()}
    assert listed[ident]["rules"]["house"]["version"] == "2026.1"
    assert listed[ident]["rules"]["hash"] == DIGEST
    page = client.get("/rulings").text
    assert "家規 龍山麻將協會 2026 版 2026.1" in page and DIGEST[7:19] in page
    assert DIGEST[7:19] in client.get(f"/r/{ident}").text


def test_the_desk_offers_the_house_rules_and_the_settings_list(client: TestClient) -> None:
    page = client.get("/").text
    assert 'value="longshan"' in page and "龍山麻將協會 2026 版（家規，依據 tw16）" in page
    assert 'value="解釋.八張窗=all"' in page and 'value="ligu_enabled=0"' in page


def test_diff_compares_a_profile_with_the_house_rules(client: TestClient) -> None:
    r = client.post("/api/diff", json={"text": FIVE, "a": {"profile": "tw16"},
                                       "b": {"profile": "longshan"}})
    assert r.status_code == 200, r.text
    assert [w["tai"] for w in r.json()["changes"]["wins"]["b"]] == [14]


def test_serve_refuses_a_folder_with_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "bad.rules").write_text("名稱: x\n依據: tw16\n解釋.八張窗: al\n", "utf-8")
    result = CliRunner().invoke(cli, ["serve", "--rules-dir", str(tmp_path)])
    assert result.exit_code == 2 and "第 3 行" in result.output and "all" in result.output
    (tmp_path / "bad.rules").unlink()
    (tmp_path / "tw16.rules").write_text("名稱: x\n依據: tw16\n", "utf-8")
    result = CliRunner().invoke(cli, ["serve", "--rules-dir", str(tmp_path)])
    assert result.exit_code == 2 and "同名" in result.output


def test_a_match_may_be_judged_by_the_house_rules(client: TestClient) -> None:
    text = sorted((ROOT / "cases" / "matches").glob("*.match"))[0].read_text("utf-8")
    r = client.post("/api/match?profile=longshan", content=text.encode(), headers=TEXT)
    assert r.status_code == 200, r.text
    assert r.json()["rules"]["house"]["name"] == "龍山麻將協會 2026 版"
    assert all(h["ruling"]["rules"]["hash"] == DIGEST for h in r.json()["hands"])


def test_the_match_form_offers_the_house_rules(client: TestClient) -> None:
    form = client.get("/match").text
    assert '<option value="longshan">龍山麻將協會 2026 版（家規，依據 tw16）</option>' in form
    # The shipped profiles by their titles, the code beside them.
    assert "台灣十六張（001 行牌與罰則，003 台數），代號 tw16</option>" in form
    text = sorted((ROOT / "cases" / "matches").glob("*.match"))[0].read_text("utf-8")
    r = client.post("/match", data={"text": text, "profile": "longshan"})
    assert r.status_code == 200 and "/m/" in str(r.url), r.text[:500]
    assert "家規 龍山麻將協會 2026 版 2026.1" in r.text
