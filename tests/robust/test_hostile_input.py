"""Hostile and broken input on every endpoint and every command that reads a log
(issue #33): lone surrogates, bytes that are not UTF-8, JSON nested thousands deep, control
and bidirectional characters, a word of a thousand tiles.  Each is refused with a clear
error (400 / 413 / 422 at the desk, exit 2 on the command line) or judged, never a 500 or
a traceback.  Bounded in count and time; the desk is in-process, its workers real."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from typer.testing import CliRunner

from adjudicator.cli.commands import app as cli_app
from adjudicator.desk.app import create_app

ROOT = Path(__file__).resolve().parents[2]
LOG_START = "規則: tw16\n莊家: 東\n紀錄:\n"

# Pieces hostile input is made of: log lines, JSON punctuation, lone surrogates (raw and
# as escapes), controls, bidirectional overrides, odd line breaks, a byte-order mark.
PIECES = st.sampled_from([
    "規則: tw16\n", "紀錄:\n", "1 東 打 三萬\n", "東 摸\n", "2 南 碰 三萬 用 三萬 三萬\n",
    "玩家: 東=阿明\n", "{", "}", "[", "]", ",", ":", '"text": ', '"', "\\ud800", "\\udc00",
    '"\\ud83d"', "\ud800", "\udfff", "\ufeff", "\u202e", "\x00", "\x1b", "\r", "\u2028",
    '"format": "adjudicator.incident", ', '"version": 1, ', '"events": [', "1" * 30,
    "NaN", "一萬" * 50, "x" * 200, "\t", "（", "）", "#",
])
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8), st.characters(
    categories=["Cs", "Cc", "Cf", "Lo", "Zs", "Nd"])), max_size=24).map("".join)
DEEP = st.integers(17, 4000).map(lambda n: '{"text": ' + "[" * n + "]" * n + "}")


def _bytes(text: str, how: str) -> bytes:
    # surrogatepass: a lone surrogate becomes the three bytes no UTF-8 decoder accepts.
    return text.encode("utf-8", "surrogatepass" if how == "pass" else "replace")


BODIES = st.one_of(
    st.tuples(TEXT, st.sampled_from(["pass", "replace"])).map(lambda p: _bytes(*p)),
    st.tuples(TEXT.map(lambda t: LOG_START + t), st.just("pass")).map(lambda p: _bytes(*p)),
    DEEP.map(str.encode),
    TEXT.map(lambda t: json.dumps({"text": t}, ensure_ascii=True).encode()),
    TEXT.map(lambda t: json.dumps({"text": LOG_START + t}).encode()),
    st.binary(max_size=64),
)
POSTS = ["/api/judge", "/api/lint", "/api/score", "/api/diff", "/api/match",
         "/api/judge?format=html", "/api/match?format=csv"]
KINDS = ["text/plain; charset=utf-8", "application/json"]
REFUSALS = {400, 413, 415, 422}
FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'archive.db'}"
    with TestClient(create_app(db, workers=1, timeout=60),
                    raise_server_exceptions=False) as c:
        yield c


@FAST
@given(body=BODIES)
def test_every_endpoint_refuses_or_judges_bad_bodies(desk: TestClient, body: bytes) -> None:
    for path in POSTS:
        for kind in KINDS:
            r = desk.post(path, content=body, headers={"content-type": kind})
            assert r.status_code == 200 or r.status_code in REFUSALS, (path, kind, r.text)
            if path.startswith("/api/") and "format=" not in path and r.status_code != 200:
                assert set(r.json()) == {"error"} and r.json()["error"]["message"]
    r = desk.post("/match", content=body,
                  headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 or r.status_code in REFUSALS


@FAST
@given(word=TEXT)
def test_queries_and_paths_with_bad_characters_are_not_a_500(desk: TestClient,
                                                             word: str) -> None:
    quoted = word.encode("utf-8", "surrogatepass").decode("latin-1")
    from urllib.parse import quote

    q = quote(quoted, safe="")
    for path in (f"/api/rulings?player={q}&date={q}", f"/rulings?offence={q}",
                 f"/api/rulings/{q or 'x'}", f"/r/{q or 'x'}", f"/r/{q or 'x'}.pdf",
                 f"/api/judge?profile={q or 'x'}", f"/api/matches?player={q}"):
        r = (desk.post(path, content=b"x", headers={"content-type": "text/plain"})
             if "judge" in path else desk.get(path))
        assert r.status_code < 500, (path, r.status_code, r.text[:200])


# ---------------------------------------------------------------------- the command line

COMMANDS = {
    "judge": lambda p: ["judge", str(p), "-f", "json"],
    "lint": lambda p: ["lint", str(p)],
    "batch": lambda p: ["batch", str(p), "--workers", "1"],
    "check": lambda p: ["check", str(p.with_suffix(".case"))],
    "diff": lambda p: ["diff", str(p.with_suffix(".case")), "--b", "tw16-alt", "--workers", "1"],
    "match": lambda p: ["match", str(p.with_suffix(".match"))],
}


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=BODIES)
def test_every_command_refuses_or_judges_bad_files(tmp_path: Path, body: bytes) -> None:
    log = tmp_path / "bad.log"
    for suffix in (".log", ".case", ".match"):
        log.with_suffix(suffix).write_bytes(body)
    jsonl = tmp_path / "bad.jsonl"
    jsonl.write_bytes(body.replace(b"\n", b" ") + b"\n" + b'{"log": "x"}\n')
    runner = CliRunner()
    for name, args in COMMANDS.items():
        done = runner.invoke(cli_app, args(log))
        assert done.exit_code in (0, 1, 2), (name, done.output[-500:])
        assert done.exception is None or isinstance(done.exception, SystemExit), \
            (name, repr(done.exception))
        assert "Traceback" not in done.output
    done = runner.invoke(cli_app, ["batch", str(jsonl), "--workers", "1"])
    assert done.exit_code == 0 and done.exception is None, done.output[-500:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines and all("error" in line or "status" in line for line in lines)


# The issue's own inputs, through the real command, one process each.
CRASHES = {
    "surrogate.json": '{"format": "adjudicator.incident", "version": 1, "header": '
                      '{"players": {"東": "\\ud800"}}, "events": []}',
    "deep.json": '{"format": "adjudicator.incident", "version": 1, "events": '
                 + "[" * 5000 + "]" * 5000 + "}",
    "tiles.log": LOG_START + "1 東 打 " + "三萬" * 4000 + "\n",
}


@pytest.mark.parametrize("name", sorted(CRASHES))
def test_the_reported_crashes_are_refused_by_the_command(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(CRASHES[name], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "judge", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "第 1 行" in done.stderr or "第 4 行" in done.stderr, done.stderr


def test_a_deep_line_in_jsonl_is_an_error_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([
        json.dumps({"name": "a", "log": LOG_START + "1 東 打 三萬\n"}, ensure_ascii=False),
        CRASHES["deep.json"], CRASHES["surrogate.json"],
        json.dumps({"name": "b", "log": LOG_START + "1 東 打 四萬\n"}, ensure_ascii=False),
    ]) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "batch", str(path),
                           "--workers", "1"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["source"] for line in lines] == ["a", f"{path}:2", f"{path}:3", "b"]
    assert "巢狀過深" in lines[1]["error"] and "surrogate" in lines[2]["error"]
    assert lines[0]["status"] == lines[3]["status"] == "decided"


@pytest.mark.parametrize("path", ["/api/judge", "/api/lint", "/api/diff", "/api/match"])
def test_a_lone_surrogate_in_json_is_a_400_with_its_place(desk: TestClient, path: str) -> None:
    r = desk.post(path, content=b'{"text": "\\ud800"}',
                  headers={"content-type": "application/json"})
    err = r.json()["error"]
    assert r.status_code == 400 and (err["line"], err["column"]) == (1, 11)  # the backslash


def test_a_word_of_four_thousand_tiles_is_refused_at_once(desk: TestClient) -> None:
    import time

    start = time.monotonic()
    r = desk.post("/api/judge", content=CRASHES["tiles.log"].encode(),
                  headers={"content-type": "text/plain"})
    assert r.status_code == 400 and time.monotonic() - start < 5
    assert len(r.json()["error"]["message"]) < 200  # the word is quoted cut, not whole
