"""The JSON API in-process (httpx2 through Starlette's TestClient; real worker processes
and a real SQLite file), and what it refuses."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from adjudicator.desk import service
from adjudicator.desk.app import create_app
from adjudicator.desk.archive import Archive

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "wrong-pung-priority.log").read_text("utf-8")
EXHAUSTED = "規則: tw16\n莊家: 北\n連莊: 3\n\n紀錄:\n90 西 打 一萬\n91 牌局 荒局\n"
TEXT = {"content-type": "text/plain; charset=utf-8"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('api') / 'archive.db'}"


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, workers=2)) as c:
        yield c


def _judge(client: TestClient, text: str, query: str = "") -> httpx2.Response:
    return client.post("/api/judge" + query, content=text.encode(), headers=TEXT)


# ---------------------------------------------------------------------- judging


def test_judge_returns_the_ruling_json(client: TestClient) -> None:
    r = _judge(client, EXAMPLE)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    ruling = r.json()
    assert ruling["status"] == "decided" and ruling["profile"] == "tw16"
    assert {(f["kind"], f["seat"]) for f in ruling["findings"]} >= {("優先", "北"), ("相公", "東")}


def test_judge_as_markdown_and_html(client: TestClient) -> None:
    md = _judge(client, EXAMPLE, "?format=md")
    assert md.headers["content-type"].startswith("text/markdown")
    assert md.text.startswith("# 裁決報告") and "東（阿明） 相公" in md.text
    html = _judge(client, EXAMPLE, "?format=html")
    assert html.headers["content-type"].startswith("text/html")
    assert "<h1>裁決報告</h1>" in html.text and "東（阿明） 相公" in html.text


def test_the_json_form_and_a_profile_and_settings(client: TestClient, called: str) -> None:
    as_text = _judge(client, called).json()
    as_json = client.post("/api/judge", json={"text": called}).json()
    assert as_text == as_json
    online = client.post("/api/judge", json={"text": EXHAUSTED, "profile": "tw16-online"}).json()
    assert online["profile"] == "tw16-online"
    assert online["next_hand"]["dealer"] == "東"
    tw16 = _judge(client, EXHAUSTED).json()
    assert tw16["next_hand"] != online["next_hand"]
    via_query = _judge(client, EXHAUSTED, "?profile=tw16-online").json()
    assert via_query["next_hand"] == online["next_hand"]
    setting = client.post("/api/judge", json={"text": EXAMPLE,
                                              "settings": {"解釋.八張窗": "all"}})
    assert setting.status_code == 200
    assert any(i["id"] == "解釋.八張窗" and i["reading"].startswith("all")
               for i in setting.json()["interpretations"])


def test_simplified_input_is_judged_like_traditional(client: TestClient) -> None:
    simplified = ("规则: tw16\n庄家: 东\n底: 300\n台: 100\n\n记录:\n"
                  "11 西 打 七筒\n12 东 喊碰 七筒\n13 北 摸\n14 北 打 一万\n")
    ruling = _judge(client, simplified).json()
    assert [(f["kind"], f["seat"]) for f in ruling["findings"]] == [("喊碰未碰", "東")]
    assert ruling["balances"] == {"東": -100, "南": 0, "西": 100, "北": 0}


def test_a_log_that_does_not_parse_is_a_json_error_with_line_and_column(
        client: TestClient) -> None:
    r = _judge(client, "規則: tw16\n莊家: 東\n紀錄:\n11 西 打 十萬\n")
    assert r.status_code == 400
    err = r.json()["error"]
    assert (err["code"], err["line"], err["column"]) == ("log_error", 4, 8)
    assert err["source_line"] == "11 西 打 十萬" and err["caret"].endswith("^")
    assert err["expected"]


def test_an_unknown_profile_or_setting_is_refused(client: TestClient) -> None:
    r = _judge(client, EXAMPLE, "?profile=nosuch")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_profile"
    r = _judge(client, EXAMPLE, "?set=解釋.沒有這個=x")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_setting"


# ---------------------------------------------------------------------- lint, score, diff


def test_lint_gives_the_parse_error(client: TestClient) -> None:
    r = client.post("/api/lint", content="規則: tw16\n紀錄:\n1 東 打 七同\n".encode(),
                    headers=TEXT)
    assert r.status_code == 200
    (err,) = r.json()["errors"]
    assert err["line"] == 3 and err["column"] == 7 and "牌名" in err["expected"]


def test_lint_gives_the_rulings_problems_as_warnings(client: TestClient) -> None:
    hand = "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 九九索"
    text = f"規則: tw16\n莊家: 東\n西 手牌: {hand}\n紀錄:\n11 西 摸 東\n12 西 打 中\n"
    answer = client.post("/api/lint", content=text.encode(), headers=TEXT).json()
    assert answer["errors"] == []
    (problem,) = [w for w in answer["warnings"] if "lines" in w]
    assert problem["line"] == 6 and problem["lines"] == [3, 6]
    # The log's own queries come too: 17 tiles stated for 西 before its draw.
    assert any("手牌記了 17 張" in w["message"] for w in answer["warnings"])
    started = "規則: tw16\n莊家: 東\n起點: 開局\n紀錄:\n1 東 打 九萬\n2 南 摸\n"
    clean = client.post("/api/lint", content=started.encode(), headers=TEXT).json()
    assert clean == {"errors": [], "warnings": [], "status": "decided"}


def test_score_counts_a_hand(client: TestClient) -> None:
    hand = {"concealed": "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 東",
            "win": "東", "self_drawn": True}
    r = client.post("/api/score", json=hand)
    assert r.status_code == 200
    assert r.json()["complete"] is True
    assert "不求" in {p["name"] for p in r.json()["patterns"]}  # 門清 and self-drawn
    cli = subprocess.run([sys.executable, "-m", "adjudicator", "score", *hand["concealed"].split(),
                          "--win", "東", "--self-drawn", "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.json() == json.loads(cli.stdout)
    short = client.post("/api/score", json={**hand, "concealed": "一二三萬"})
    assert short.status_code == 400 and "16" in short.json()["error"]["message"]
    wrong_type = client.post("/api/score", json={**hand, "self_drawn": "maybe"})
    assert wrong_type.status_code == 422 and "self_drawn" in wrong_type.json()["error"]["message"]


def test_diff_shows_what_a_profile_changes(client: TestClient) -> None:
    r = client.post("/api/diff", json={"text": EXHAUSTED, "a": {"profile": "tw16"},
                                       "b": {"profile": "tw16-online"}})
    assert r.status_code == 200
    answer = r.json()
    assert answer["changed"] is True and "next_hand" in answer["changes"]
    same = client.post("/api/diff", json={"text": EXHAUSTED, "a": {"profile": "tw16"},
                                          "b": {"profile": "tw16"}})
    assert same.json()["changed"] is False


# ---------------------------------------------------------------------- the archive


def test_a_judged_log_is_kept_under_a_permalink(client: TestClient, called: str) -> None:
    r = _judge(client, called, "?archive=true&format=html")
    ruling_id = r.headers["X-Ruling-Id"]
    assert r.headers["Location"] == f"/r/{ruling_id}"
    kept = client.get(f"/api/rulings/{ruling_id}").json()
    assert (kept["date"], kept["venue"], kept["table"], kept["referee"]) == (
        "2026-11-30 20:15", "和平麻將會館", "7", "陳大文")
    assert kept["players"] == ["阿明", "小華", "阿德", "小美"]
    assert kept["offences"] == ["喊碰未碰"] and kept["status"] == "decided"
    assert kept["profile"] == "tw16" and kept["settings"] == {} and kept["version"]
    assert kept["text"] == called and kept["ruling"]["balances"]["西"] == 100
    page = client.get(f"/r/{ruling_id}")
    assert page.status_code == 200 and ("和平麻將會館" in page.text
            and "東（阿明） 喊碰未碰" in page.text)
    md = client.get(f"/r/{ruling_id}.md")
    assert "attachment" in md.headers["content-disposition"] and "喊碰未碰" in md.text
    assert client.get(f"/r/{ruling_id}.json").json() == kept["ruling"]
    assert client.get(f"/r/{ruling_id}.html").text == r.text


def test_the_archive_is_searched_by_date_table_player_and_offence(
        client: TestClient, called: str) -> None:
    ruling_id = _judge(client, called.replace("桌號: 7", "桌號: 12"),
                       "?archive=true").headers["X-Ruling-Id"]
    _judge(client, EXAMPLE, "?archive=true")

    def ids(**query: str) -> set[str]:
        return {r["id"] for r in client.get("/api/rulings", params=query).json()}

    assert ruling_id in ids(date="2026-11", table="12", player="阿德", offence="喊碰未碰")
    assert ruling_id not in ids(table="7")
    assert ruling_id not in ids(offence="相公")
    assert ruling_id not in ids(date="2025")
    assert ruling_id in ids(offence="喊碰未碰")
    page = client.get("/rulings", params={"table": "12"})
    assert f'href="/r/{ruling_id}"' in page.text


def test_an_unknown_ruling_is_404(client: TestClient) -> None:
    r = client.get("/api/rulings/nosuch")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert client.get("/r/nosuch").status_code == 404


def test_diff_archive_rejudges_the_kept_logs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'archive.db'}"
    archive = Archive(url)
    kept = archive.save(service.judge(EXHAUSTED), EXHAUSTED)
    # The example's contest is timed (優先): under tw16-online the fixed order of 平台.優先
    # (issue 28) decides it, so it differs too.
    example = archive.save(service.judge(EXAMPLE), EXAMPLE)
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "diff", "--archive", url, "--a", "tw16",
         "--b", "tw16-online", "-f", "json"], capture_output=True, text=True, cwd=tmp_path,
        timeout=120)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["summary"]["cases"] == 2
    assert sorted(c["case"] for c in report["cases"]) == sorted(
        [f"archive/{kept}", f"archive/{example}"])


# ---------------------------------------------------------------------- hostile input


def test_a_body_over_256_kb_is_refused(client: TestClient) -> None:
    big = ("# " + "x" * 1000 + "\n") * 300
    r = _judge(client, big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(300):
            yield ("# " + "x" * 1000 + "\n").encode()

    r = client.post("/api/lint", content=chunks(), headers=TEXT)
    assert r.status_code == 413


def test_deep_json_is_refused_before_parsing(client: TestClient) -> None:
    deep = b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    r = client.post("/api/judge", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "too_deep"
    r = client.post("/api/score", content=b"[" * 50_000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "too_deep"


def test_a_line_longer_than_any_log_is_refused_at_once(client: TestClient) -> None:
    # 4,000 tiles run together on one line (24 KB): a long log by its characters, refused
    # by the server before it is queued for the long lane (no worker's Server-Timing).
    log = "規則: tw16\n莊家: 東\n紀錄:\n1 東 摸\n2 東 打 " + "三萬" * 4000 + "\n"
    r = _judge(client, log)
    err = r.json()["error"]
    assert r.status_code == 400 and err["code"] == "line_too_long" and err["line"] == 5
    assert "第 5 行" in err["message"] and "Server-Timing" not in r.headers
    assert client.get("/api/health").json()["judges"]["long"]["refused"] == 0
    for kind, body in (("text/plain", log),
                       ("application/json", json.dumps({"text": log}, ensure_ascii=False))):
        r = client.post("/api/lint", content=body.encode(), headers={"content-type": kind})
        assert r.status_code == 400 and r.json()["error"]["code"] == "line_too_long", kind
    # A line as long as the limit is read as any other (here: refused for what it says).
    r = _judge(client, "規則: tw16\n紀錄:\n# " + "註" * 1998 + "\n1 東 打 三萬\n")
    assert r.json().get("error", {}).get("code") != "line_too_long"


def test_broken_json_is_refused_with_its_line_and_column(client: TestClient) -> None:
    r = client.post("/api/judge", content=b'{\n  "text": "x",\n  oops}',
                    headers={"content-type": "application/json"})
    err = r.json()["error"]
    assert r.status_code == 400 and (err["code"], err["line"], err["column"]) == ("bad_json", 3, 3)
    r = client.post("/api/judge", json=["not", "an", "object"])
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("bad", ["\x00", "\x1b[31m", "\u202e", "\x7f"])
def test_control_characters_are_refused_with_their_place(client: TestClient, bad: str) -> None:
    r = _judge(client, f"規則: tw16\n紀錄:\n11 西 打{bad} 七筒\n")
    err = r.json()["error"]
    assert r.status_code == 400 and err["code"] == "control_character"
    assert (err["line"], err["column"]) == (3, 7)


def test_bytes_that_are_not_utf8_are_refused_with_their_place(client: TestClient) -> None:
    r = client.post("/api/judge", content="規則: tw16\n紀錄:\n11 西 打 ".encode() + b"\xff\n",
                    headers=TEXT)
    err = r.json()["error"]
    assert r.status_code == 400 and (err["line"], err["column"]) == (3, 8)


def test_more_than_10000_acts_are_refused(client: TestClient) -> None:
    text = "規則: tw16\n紀錄:\n" + "東 摸\n" * 10_001
    r = _judge(client, text)
    assert r.status_code == 400 and "10000" in r.json()["error"]["message"]


def test_a_judgement_past_the_time_limit_is_504(db: str) -> None:
    with TestClient(create_app(db, workers=1, timeout=0.001)) as slow:
        r = _judge(slow, EXAMPLE + "\n# not cached\n")
    assert r.status_code == 504 and r.json()["error"]["code"] == "timeout"


def test_a_slow_log_does_not_block_the_others(server: str) -> None:
    big = "規則: tw16\n莊家: 東\n紀錄:\n" + "".join(
        f"{n} 東 摸\n{n + 1} 東 打 {t}\n" for n, t in zip(
            range(1, 4000, 2), ["一萬", "九筒", "東", "中"] * 500, strict=False))
    timings: dict[str, float] = {}

    def slow() -> None:
        start = time.monotonic()
        httpx2.post(server + "/api/judge", content=big.encode(), headers=TEXT, timeout=120)
        timings["slow"] = time.monotonic() - start

    worker = threading.Thread(target=slow)
    worker.start()
    time.sleep(0.3)
    start = time.monotonic()
    quick = httpx2.post(server + "/api/judge", content=EXHAUSTED.encode(), headers=TEXT,
                       timeout=120)
    timings["quick"] = time.monotonic() - start
    worker.join()
    assert quick.status_code == 200
    assert timings["quick"] < timings["slow"] / 2, timings


# ---------------------------------------------------------------------- docs, PDF, pages


def test_openapi_documents_the_api_and_docs_need_no_cdn(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/judge", "/api/lint", "/api/score", "/api/diff",
            "/api/rulings/{ruling_id}"} <= set(spec["paths"])
    body = spec["paths"]["/api/judge"]["post"]["requestBody"]["content"]
    assert {"text/plain", "application/json"} <= set(body)
    docs = client.get("/docs").text
    assert "swagger-ui-bundle.js" in docs and "https://" not in docs
    for path in ("/", "/rulings"):
        assert "https://" not in client.get(path).text and "http://" not in client.get(path).text


def test_the_pdf_is_printed_by_chromium_or_refused_with_503(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ruling_id = _judge(client, EXAMPLE, "?archive=true").headers["X-Ruling-Id"]
    monkeypatch.setenv("ADJUDICATOR_CHROMIUM", "/nonexistent/chromium")
    r = client.get(f"/r/{ruling_id}.pdf")
    assert r.status_code == 503 and r.json()["error"]["code"] == "no_pdf"
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("/usr/bin/chromium is not installed")
    monkeypatch.setenv("ADJUDICATOR_CHROMIUM", "/usr/bin/chromium")
    r = client.get(f"/r/{ruling_id}.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert r.headers["content-type"] == "application/pdf"


def _until(client: TestClient, done: Callable[[dict[str, Any]], bool], what: str,
           within: float = 120) -> dict[str, Any]:
    """Poll the health endpoint until ``done(its judges)``; the pool's state then.  No fixed
    sleep: a loaded machine takes its time to warm a worker, an idle one does not wait."""
    deadline = time.monotonic() + within
    while True:
        judges = client.get("/api/health").json()["judges"]
        if done(judges):
            return judges
        assert time.monotonic() < deadline, f"{what} not within {within} s: {judges}"
        time.sleep(0.05)


def test_a_worker_that_dies_is_replaced(db: str) -> None:
    import os
    import signal

    # A limit no judgement here reaches on a loaded machine: this is about deaths, not time.
    app = create_app(db, workers=1, timeout=300)
    with TestClient(app) as c:
        answers: list[httpx2.Response] = []
        big = "規則: tw16\n莊家: 東\n紀錄:\n" + "東 摸\n東 打 一萬\n" * 4900
        asking = threading.Thread(target=lambda: answers.append(_judge(c, big)))
        asking.start()
        # Killed while the long lane's worker judges the long log and the other idles.
        _until(c, lambda j: j["long"]["busy"] == 1, "the long log given to its worker")
        for pid in app.state.judges.pids() + app.state.judges.pids(long=True):
            os.kill(pid, signal.SIGKILL)
        asking.join()
        assert answers[0].status_code == 503
        assert answers[0].json()["error"]["code"] == "worker_died"
        # Both deaths noticed (the idle one too) and both places warm again.
        judges = _until(c, lambda j: j["ready"] == 1 and j["long"]["ready"] == 1,
                        "both workers replaced")
        assert judges["died"] == 2 and judges["cancelled"] == 0
        assert _judge(c, EXHAUSTED + "\n# again\n").status_code == 200


def test_a_json_form_on_one_line_is_not_held_to_the_line_limit(client: TestClient) -> None:
    # The JSON form is bounded by its body's size and depth; a 40-act log in it, written
    # on one line as clients send it, is longer than a line of the log language may be.
    from adjudicator.language.json_form import to_json_form
    from adjudicator.language.reader import read
    from adjudicator.simulation.game import simulate
    from adjudicator.simulation.writer import write

    log = write(simulate(7))
    body = json.dumps(to_json_form(read(log)), ensure_ascii=False)
    assert "\n" not in body and len(body) > 2_000
    r = client.post("/api/judge", content=body.encode(),
                    headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    as_text = _judge(client, log).json()
    for key in ("status", "findings", "payments", "balances", "warnings"):
        assert r.json()[key] == as_text[key], key
