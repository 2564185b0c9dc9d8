"""The API's contract (issue #31, 3): a log as text, as ``{"text": …}`` or as its JSON form on
every endpoint that takes one; a field no body has refused (422) naming the nearest known
one; JSON faults in words with their line and column; the act limit naming the act."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from adjudicator.desk import service
from adjudicator.desk.app import create_app
from adjudicator.language.json_form import to_json_form
from adjudicator.language.reader import read

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "wrong-pung-priority.log").read_text("utf-8")
FORM = to_json_form(read(EXAMPLE))
TEXT = {"content-type": "text/plain; charset=utf-8"}
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = f"sqlite:///{tmp_path_factory.mktemp('contract') / 'archive.db'}"
    with TestClient(create_app(db, workers=1, timeout=60)) as c:
        yield c


def _sans_lines(value: object) -> object:
    """A ruling without its line numbers: the JSON form's lines are those of the log text
    made from it, not the sender's."""
    if isinstance(value, dict):
        return {k: _sans_lines(v) for k, v in value.items() if k not in ("line", "lines")}
    if isinstance(value, list):
        return [_sans_lines(v) for v in value]
    return value


def _post(client: TestClient, path: str, body: object) -> httpx2.Response:
    return client.post(path, content=json.dumps(body, ensure_ascii=False).encode(),
                       headers=JSON)


def test_the_json_form_is_judged_as_its_text_on_every_endpoint(client: TestClient) -> None:
    as_text = client.post("/api/judge", content=EXAMPLE.encode(), headers=TEXT).json()
    assert as_text["findings"]
    assert _post(client, "/api/judge", {"text": EXAMPLE}).json() == as_text
    as_form = _post(client, "/api/judge", FORM).json()
    assert _sans_lines(as_form) == _sans_lines(as_text)
    assert _post(client, "/api/judge", {"text": FORM}).json() == as_form
    assert _post(client, "/api/judge", {"text": json.dumps(FORM)}).json() == as_form
    lint_text = client.post("/api/lint", content=EXAMPLE.encode(), headers=TEXT).json()
    assert _sans_lines(_post(client, "/api/lint", FORM).json()) == _sans_lines(lint_text)
    diff = _post(client, "/api/diff", {"text": FORM, "b": {"profile": "tw16-alt"}})
    assert diff.status_code == 200
    assert _sans_lines(diff.json()) == _sans_lines(_post(
        client, "/api/diff", {"text": EXAMPLE, "b": {"profile": "tw16-alt"}}).json())


def test_a_misspelt_score_flag_is_refused_naming_the_field_it_means(client: TestClient) -> None:
    hand = {"concealed": "一二三萬 四五六萬 七八九萬 一二三筒 四五六筒 東", "win": "東"}
    assert _post(client, "/api/score", hand).status_code == 200
    assert _post(client, "/api/score", {**hand, "self_drawn": True}).status_code == 200
    r = _post(client, "/api/score", {**hand, "selfdrawn": True})
    err = r.json()["error"]
    assert r.status_code == 422 and err["code"] == "unknown_field"
    assert (err["field"], err["nearest"]) == ("selfdrawn", "self_drawn")
    assert "selfdrawn" in err["message"] and "self_drawn" in err["message"]
    r = _post(client, "/api/diff", {"text": EXAMPLE, "b": {"profil": "tw16-alt"}})
    err = r.json()["error"]
    assert r.status_code == 422 and (err["where"], err["nearest"]) == ("b", "profile")


@pytest.mark.parametrize("path", ["/api/judge", "/api/lint"])
def test_unknown_fields_of_a_log_are_refused(client: TestClient, path: str) -> None:
    r = _post(client, path, {"txt": EXAMPLE})
    assert r.status_code == 422 and r.json()["error"]["nearest"] == "text"
    r = _post(client, path, {"events": FORM["events"]})  # the form without its format
    assert r.status_code == 422 and "format" in r.json()["error"]["message"]
    bad = json.loads(json.dumps(FORM))
    bad["events"][2]["tile"] = bad["events"][2].pop("tiles", ["三萬"])
    r = _post(client, path, bad)
    err = r.json()["error"]
    assert r.status_code == 422
    assert (err["where"], err["field"], err["nearest"]) == ("events[2]", "tile", "tiles")
    bad = {**FORM, "hedaer": FORM["header"]}
    r = _post(client, path, bad)
    assert r.status_code == 422 and r.json()["error"]["nearest"] == "header"


def test_json_faults_are_told_in_words_with_their_line_and_column(client: TestClient) -> None:
    r = client.post("/api/judge", content=b'{\n  "text": ,\n}', headers=JSON)
    err = r.json()["error"]
    assert r.status_code == 400 and (err["line"], err["column"]) == (2, 11)
    assert "Expecting" not in err["message"] and "這裡應是一個值" in err["message"]
    r = client.post("/api/judge", content=b'{"text": "x", "text": "y"}', headers=JSON)
    assert r.status_code == 400 and "兩次" in r.json()["error"]["message"]
    r = client.post("/api/score", content=b'{"win": NaN}', headers=JSON)
    assert r.status_code == 400 and r.json()["error"]["column"] == 9


def test_the_act_limit_names_the_act_past_it(client: TestClient) -> None:
    text = "規則: tw16\n紀錄:\n" + "東 摸\n" * 10_001
    err = client.post("/api/judge", content=text.encode(), headers=TEXT).json()["error"]
    assert err["line"] == 10_003 and "第 10001 個動作" in err["message"]
    # The JSON form of as many acts is over the body limit: the worker's answer, directly.
    form = {**FORM, "events": [{"actor": "東", "verb": "摸"}] * 10_001}
    err = service.judge(json.dumps(form, ensure_ascii=False))["error"]
    assert err["where"] == "events[10000]" and "第 10001 個動作" in err["message"]


def test_openapi_shows_the_json_form(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/api/judge", "/api/lint"):
        body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        forms = body["schema"]["oneOf"]
        form = next(f for f in forms if "events" in f.get("properties", {}))
        verbs = form["properties"]["events"]["items"]["oneOf"][0]["properties"]["verb"]["enum"]
        assert "打" in verbs and "$defs" not in json.dumps(body)
    score = spec["paths"]["/api/score"]["post"]["requestBody"]["content"]["application/json"]
    assert score["schema"]["additionalProperties"] is False
