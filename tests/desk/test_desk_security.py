"""Who may do what at the desk, refused cross-site writes, the headers of every answer, and
the archive's chain (corrections, withdrawals, ``archive verify``): the real app in-process
(Starlette's TestClient, real workers, a real SQLite file) and the real command line."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient

from adjudicator.desk import accounts
from adjudicator.desk.app import create_app
from adjudicator.desk.archive import Archive

ROOT = Path(__file__).resolve().parents[2]
TEXT = {"content-type": "text/plain; charset=utf-8"}
FORM = {"content-type": "application/x-www-form-urlencoded"}
PASSWORD = "correct horse battery"
EAST = (ROOT / "cases" / "matches" / "east_round.match").read_text("utf-8")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An archive with an admin, a referee and a viewer, and a platform's tokens."""
    url = f"sqlite:///{tmp_path_factory.mktemp('club') / 'archive.db'}"
    engine = Archive(url).engine
    for name, role in (("ada", "admin"), ("rita", "referee"), ("vic", "viewer")):
        accounts.add_user(engine, name, PASSWORD, role)
    _, platform = accounts.create_token(engine, "league", "referee")
    _, reader = accounts.create_token(engine, "scoreboard", "viewer")
    return {"url": url, "engine": engine, "platform": platform, "reader": reader}


@pytest.fixture(scope="module")
def app(club: dict[str, Any]) -> Iterator[Any]:
    built = create_app(club["url"], workers=1)
    with TestClient(built):  # starts the judging pool once for the module
        yield built


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The open desk (no account), as a referee's own laptop runs it."""
    url = f"sqlite:///{tmp_path_factory.mktemp('open') / 'archive.db'}"
    with TestClient(create_app(url, workers=1)) as client:
        yield client


def _client(app: Any) -> TestClient:
    return TestClient(app, follow_redirects=False)


def _token(page: str) -> str:
    found = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
    assert found, "the page carries no CSRF token"
    return found.group(1)


def _login(client: TestClient, name: str, password: str = PASSWORD,
           target: str = "/") -> Any:
    token = _token(client.get("/login").text)
    return client.post("/login", headers=FORM, data={
        "name": name, "password": password, "next": target, "csrftoken": token})


def _signed_in(app: Any, name: str) -> tuple[TestClient, str]:
    client = _client(app)
    assert _login(client, name).status_code == 303
    return client, _token(client.get("/rulings").text)


def _judge(client: TestClient, text: str, token: str | None = None,
           **headers: str) -> Any:
    if token is not None:
        headers["X-CSRFToken"] = token
    return client.post("/api/judge?archive=true&format=html", content=text.encode(),
                       headers={**TEXT, **headers})


# ---------------------------------------------------------------------- accounts and roles


def test_without_an_account_the_desk_sends_you_to_sign_in(app: Any, called: str) -> None:
    client = _client(app)
    page = client.get("/rulings?player=阿德")
    assert page.status_code == 303
    location = urlsplit(page.headers["location"])
    assert location.path == "/login"
    assert parse_qs(location.query)["next"] == ["/rulings?player=%E9%98%BF%E5%BE%B7"]
    assert client.get("/").status_code == 303
    for answer in (client.get("/api/rulings"), client.post("/api/judge", content=called,
                                                           headers=TEXT)):
        assert answer.status_code == 401
        assert answer.json()["error"]["code"] == "login_required"
        assert answer.headers["www-authenticate"].startswith("Bearer")


def test_a_referee_signs_in_judges_and_files_under_their_name(app: Any, called: str) -> None:
    client = _client(app)
    answer = _login(client, "rita", target="/rulings")
    assert answer.status_code == 303 and answer.headers["location"] == "/rulings"
    cookie = answer.headers["set-cookie"]
    assert "adjudicator_session=" in cookie and "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()
    page = client.get("/").text
    assert 'id="account">rita（裁判）' in page
    r = _judge(client, called, _token(page))
    assert r.status_code == 200, r.text
    assert re.search(r"驗證碼 [A-Z2-7]{4}-[A-Z2-7]{4}", r.text)
    ident = r.headers["X-Ruling-Id"]
    entry = app.state.archive.history(ident)[0]
    assert entry.filed_by == "rita" and entry.code == r.headers["X-Verification-Code"]


def test_signing_in_never_sends_the_browser_to_another_site(app: Any) -> None:
    for target in ("//evil.example/", "/\\evil.example", "https://evil.example/"):
        answer = _login(_client(app), "vic", target=target)
        assert answer.status_code == 303 and answer.headers["location"] == "/", target


def test_a_viewer_reads_the_archive_but_cannot_judge(app: Any, called: str) -> None:
    client, token = _signed_in(app, "vic")
    assert client.get("/rulings").status_code == 200
    assert client.get("/api/rulings").status_code == 200
    refused = _judge(client, called, token)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert "檢視者" in refused.json()["error"]["message"]
    assert client.get("/").status_code == 403
    assert client.get("/accounts").status_code == 403


def test_only_an_admin_sees_the_accounts(app: Any) -> None:
    client, _ = _signed_in(app, "ada")
    page = client.get("/accounts")
    assert page.status_code == 200
    assert "rita" in page.text and "league" in page.text
    assert "adj_" not in page.text  # a token's secret is shown once, at creation only


def test_a_wrong_password_is_refused_and_many_are_slowed(app: Any) -> None:
    client = _client(app)
    first = _login(client, "rita", "not the password")
    assert first.status_code == 401 and "帳號或密碼不對" in first.text
    assert _login(client, "nobody", "not the password").status_code == 401
    for _ in range(5):
        _login(client, "ada", "guess guess guess")
    held = _login(client, "ada")  # even the right password waits now
    assert held.status_code == 429 and "秒後再試" in held.text
    assert _login(client, "rita").status_code == 303  # another name is not held


def test_signing_out_and_a_removed_account_end_the_session(app: Any,
                                                           club: dict[str, Any]) -> None:
    client, token = _signed_in(app, "rita")
    assert client.post("/logout", headers={**FORM, "X-CSRFToken": token}).status_code == 303
    assert client.get("/rulings").status_code == 303
    accounts.add_user(club["engine"], "temp", PASSWORD, "viewer")
    client, _ = _signed_in(app, "temp")
    accounts.remove_user(club["engine"], "temp")
    assert client.get("/rulings").status_code == 303


def test_a_platform_token_works_without_csrf_and_is_refused_once_revoked(
        app: Any, club: dict[str, Any], called: str) -> None:
    script = _client(app)
    bearer = {"Authorization": f"Bearer {club['platform']}"}
    r = _judge(script, called, **bearer)
    assert r.status_code == 200
    assert app.state.archive.history(r.headers["X-Ruling-Id"])[0].filed_by == "token:league"
    reader = {"Authorization": f"Bearer {club['reader']}"}
    assert script.get("/api/rulings", headers=reader).status_code == 200
    assert _judge(script, called, **reader).status_code == 403
    ident, secret = accounts.create_token(club["engine"], "old-league", "referee")
    assert _judge(script, called, Authorization=f"Bearer {secret}").status_code == 200
    done = _cli("tokens", "revoke", ident, "--db", club["url"])
    assert done.returncode == 0, done.stderr
    gone = _judge(script, called, Authorization=f"Bearer {secret}")
    assert gone.status_code == 401 and gone.json()["error"]["code"] == "bad_token"


def test_a_permalink_is_readable_without_an_account_and_the_list_is_not(
        app: Any, club: dict[str, Any], called: str) -> None:
    filer = _client(app)
    r = _judge(filer, called, Authorization=f"Bearer {club['platform']}")
    ident = r.headers["X-Ruling-Id"]
    player = _client(app)  # no account, no token: only the link
    page = player.get(f"/r/{ident}")
    assert page.status_code == 200 and "和平麻將會館" in page.text
    assert r.headers["X-Verification-Code"] in page.text
    assert player.get(f"/r/{ident}.md").status_code == 200
    assert player.get(f"/api/rulings/{ident}").json()["text"] == called
    assert player.get(f"/r/{ident}/amend").status_code == 303
    assert player.get("/rulings").status_code == 303
    assert player.get("/api/rulings").status_code == 401
    m = filer.post("/api/match?archive=true", content=EAST.encode(),
                   headers={**TEXT, "Authorization": f"Bearer {club['platform']}"})
    assert player.get(m.headers["Location"]).status_code == 200
    assert player.get("/matches").status_code == 303


# ---------------------------------------------------------------------- cross-site writes


def test_a_write_from_another_site_is_refused_on_the_open_desk_too(
        desk: TestClient, called: str) -> None:
    evil = _judge(desk, called, Origin="https://evil.example")
    assert evil.status_code == 403 and evil.json()["error"]["code"] == "cross_site"
    assert "evil.example" in evil.json()["error"]["message"]
    sandboxed = _judge(desk, called, Origin="null")
    assert sandboxed.status_code == 403
    fetched = _judge(desk, called, **{"Sec-Fetch-Site": "cross-site"})
    assert fetched.status_code == 403
    form = desk.post("/match", headers={**FORM, "Origin": "https://evil.example"},
                     data={"text": EAST})
    assert form.status_code == 403 and "錯誤" in form.text
    # The desk's own page, and a script that sends no Origin, are as before.
    assert _judge(desk, called, Origin="http://testserver").status_code == 200
    assert _judge(desk, called).status_code == 200


def test_a_signed_in_write_without_its_csrf_token_is_refused(app: Any, called: str) -> None:
    client, token = _signed_in(app, "rita")
    bare = _judge(client, called)
    assert bare.status_code == 403 and bare.json()["error"]["code"] == "csrf"
    assert _judge(client, called, "forged" + token).status_code == 403
    form = client.post("/match", headers=FORM, data={"text": EAST})
    assert form.status_code == 403 and "CSRF" in form.text
    page = client.get("/match").text
    assert f'<input type="hidden" name="csrftoken" value="{_token(page)}">' in page
    sent = client.post("/match", headers=FORM, data={"text": EAST, "csrftoken": token})
    assert sent.status_code == 303 and sent.headers["location"].startswith("/m/")
    # Signing in needs the token too (a page cannot sign a referee in as someone else).
    assert _client(app).post("/login", headers=FORM, data={
        "name": "rita", "password": PASSWORD}).status_code == 403


def test_the_open_loopback_desk_refuses_other_host_names(tmp_path: Path, called: str) -> None:
    built = create_app(f"sqlite:///{tmp_path / 'a.db'}", workers=1, loopback_only=True)
    with TestClient(built, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/").status_code == 200
        assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
        rebound = client.get("/api/rulings", headers={"Host": "attacker.example"})
        assert rebound.status_code == 421 and rebound.json()["error"]["code"] == "bad_host"


# ---------------------------------------------------------------------- where it runs


def test_serving_beyond_loopback_without_an_account_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'empty.db'}"
    for where in (["--host", "0.0.0.0"], ["--proxy", "127.0.0.1"]):
        done = _cli("serve", *where, "--port", "9", "--db", db)
        assert done.returncode == 2
        assert "users add" in done.stdout and "--open" in done.stdout


def test_users_and_tokens_on_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    added = subprocess.run(
        [sys.executable, "-m", "adjudicator", "users", "add", "mei", "--role", "referee",
         "--db", db, "--password-stdin"], input=PASSWORD + "\n", capture_output=True,
        text=True, cwd=ROOT, timeout=120)
    assert added.returncode == 0, added.stderr
    assert _cli("users", "list", "--db", db).stdout.split("\t")[:2] == ["mei", "referee"]
    again = subprocess.run(
        [sys.executable, "-m", "adjudicator", "users", "add", "mei", "--db", db,
         "--password-stdin"], input=PASSWORD + "\n", capture_output=True, text=True,
        cwd=ROOT, timeout=120)
    assert again.returncode == 2 and "已有" in again.stderr
    made = _cli("tokens", "create", "league", "--db", db)
    secret = made.stdout.strip()
    assert made.returncode == 0 and secret.startswith("adj_")
    listed = _cli("tokens", "list", "--db", db).stdout
    assert "league" in listed and secret not in listed
    engine = Archive(db).engine
    stored = [t.digest for t in accounts.tokens(engine)]
    assert secret not in stored and len(stored[0]) == 64  # kept as its SHA-256
    assert accounts.users(engine)[0].password.startswith("$argon2id$")
    assert _cli("users", "remove", "mei", "--db", db).returncode == 0
    assert _cli("users", "remove", "mei", "--db", db).returncode == 2
    assert _cli("users", "add", "x", "--role", "boss", "--db", db).returncode == 2


def test_a_missing_archive_is_refused_not_made(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    db = f"sqlite:///{missing}"
    for command in (("archive", "verify"), ("users", "list"), ("users", "remove", "mei"),
                    ("tokens", "list"), ("tokens", "revoke", "league")):
        done = _cli(*command, "--db", db)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert str(missing) in done.stderr and "Traceback" not in done.stderr, command
        assert not missing.exists(), command  # no empty archive left behind
    compared = _cli("diff", "--archive", db, "--a", "tw16", "--b", "tw16-alt")
    assert compared.returncode == 2 and str(missing) in compared.stderr
    assert not missing.exists()
    # A database that holds no archive is not one either, and is left as it was.
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("create table notes (x)").connection.commit()
    done = _verify(f"sqlite:///{other}")
    assert done.returncode == 2 and "rulings" in done.stderr
    assert [r[0] for r in sqlite3.connect(other).execute(
        "select name from sqlite_master")] == ["notes"]
    # Adding the first account makes the archive, and says so; then it verifies.
    added = subprocess.run(
        [sys.executable, "-m", "adjudicator", "users", "add", "mei", "--db", db,
         "--password-stdin"], input=PASSWORD + "\n", capture_output=True, text=True,
        cwd=ROOT, timeout=120)
    assert added.returncode == 0 and "新建裁決檔案" in added.stderr and missing.exists()
    assert _verify(db).returncode == 0


# ---------------------------------------------------------------------- headers

PAGES = ("/", "/match", "/rulings", "/matches", "/login", "/docs", "/api/rulings",
         "/static/desk.js", "/static/desk.css", "/no-such-page", "/r/none")


def test_every_answer_carries_the_security_headers(desk: TestClient, called: str) -> None:
    r = _judge(desk, called)
    ident = r.headers["X-Ruling-Id"]
    m = desk.post("/api/match?archive=true", content=EAST.encode(), headers=TEXT)
    paths = (*PAGES, f"/r/{ident}", f"/r/{ident}.md", f"/r/{ident}.json",
             m.headers["Location"], f"/api/rulings/{ident}")
    for path in paths:
        answer = desk.get(path)
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["referrer-policy"] == "same-origin", path
        csp = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
    for answer in (r, _judge(desk, called, Origin="https://evil.example")):
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_no_page_has_an_inline_script_or_style_attribute(desk: TestClient,
                                                         called: str) -> None:
    ident = _judge(desk, called).headers["X-Ruling-Id"]
    m = desk.post("/api/match?archive=true", content=EAST.encode(), headers=TEXT)
    for path in ("/", "/match", "/rulings", "/matches", "/docs", "/login", f"/r/{ident}",
                 m.headers["Location"]):
        html = desk.get(path).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert not re.search(r"<[^>]+\sstyle=", html), path
        assert not re.search(r"<[^>]+\son[a-z]+=", html), path


# ---------------------------------------------------------------------- the chain


def _verify(url: str) -> subprocess.CompletedProcess[str]:
    return _cli("archive", "verify", "--db", url)


def test_a_correction_is_shown_with_its_history(desk: TestClient, called: str) -> None:
    first = _judge(desk, called)
    ident, told = first.headers["X-Ruling-Id"], first.headers["X-Verification-Code"]
    # The referee mis-wrote the table's 台: 200, not 100 (東 owes 西 one 台, now 200).
    mended = called.replace("台: 100", "台: 200")
    fixed = desk.post(f"/api/rulings/{ident}/correct?reason=台數寫錯&format=json",
                      content=mended.encode(), headers=TEXT)
    assert fixed.status_code == 200, fixed.text
    assert fixed.headers["X-Ruling-Id"] == ident and fixed.headers["X-Ruling-Version"] == "2"
    assert [p["amount"] for p in fixed.json()["payments"]] == [200]
    page = desk.get(f"/r/{ident}").text
    assert "第 1 版" in page and "最初告知的裁決" in page and "台數寫錯" in page
    assert fixed.headers["X-Verification-Code"] in page
    first_told = desk.get(f"/r/{ident}?v=1").text
    assert 'id="superseded"' in first_told and told in first_told
    stored = desk.get(f"/api/rulings/{ident}").json()
    assert stored["text"] == mended and stored["versions"] == 2
    assert [h["kind"] for h in stored["history"]] == ["ruling", "correction"]
    assert stored["history"][1]["reason"] == "台數寫錯"
    assert "100" in desk.get(f"/r/{ident}.md?v=1").text
    # A correction is not listed apart; the ruling is, marked corrected.
    listed = [r for r in desk.get("/api/rulings").json() if r["id"] == ident]
    assert len(listed) == 1 and listed[0]["state"] == "corrected"
    refused = desk.post(f"/api/rulings/{ident}/correct", content=mended.encode(),
                        headers=TEXT)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "no_reason"
    out = desk.post(f"/api/rulings/{ident}/withdraw", json={"reason": "同一手重複送出"})
    assert out.status_code == 200 and out.json()["entry"]["kind"] == "withdrawal"
    page = desk.get(f"/r/{ident}").text
    assert 'id="withdrawn"' in page and "同一手重複送出" in page
    assert "（已撤回）" in desk.get("/rulings").text
    assert desk.post("/api/rulings/none/withdraw", json={"reason": "x"}).status_code == 404


def test_the_amend_page_corrects_and_withdraws(desk: TestClient, called: str) -> None:
    ident = _judge(desk, called).headers["X-Ruling-Id"]
    form = desk.get(f"/r/{ident}/amend")
    assert form.status_code == 200 and "台: 100" in form.text
    desk.follow_redirects = False
    try:
        bad = desk.post(f"/r/{ident}/amend", headers=FORM,
                        data={"action": "correct", "text": "紀錄:\n1 東 碰碰\n", "reason": "x"})
        assert bad.status_code == 400 and 'id="amend-error"' in bad.text
        done = desk.post(f"/r/{ident}/amend", headers=FORM, data={
            "action": "correct", "text": called.replace("台: 100", "台: 300"),
            "reason": "台數"})
        assert done.status_code == 303 and done.headers["location"] == f"/r/{ident}"
    finally:
        desk.follow_redirects = True
    assert desk.get(f"/api/rulings/{ident}").json()["ruling"]["payments"][0]["amount"] == 300


def test_archive_verify_finds_a_tampered_row(tmp_path: Path, called: str) -> None:
    path = tmp_path / "archive.db"
    url = f"sqlite:///{path}"
    with TestClient(create_app(url, workers=1)) as client:
        idents = [_judge(client, called).headers["X-Ruling-Id"] for _ in range(3)]
        client.post(f"/api/rulings/{idents[0]}/correct?reason=r", content=called.encode(),
                    headers=TEXT)
        client.post("/api/match?archive=true", content=EAST.encode(), headers=TEXT)
    whole = _verify(url)
    assert whole.returncode == 0, whole.stderr
    assert "5 筆" in whole.stdout
    db = sqlite3.connect(path)
    try:
        original = db.execute("select ruling_json from rulings where id = ?",
                              (idents[1],)).fetchone()[0]
        # Someone with the database makes 東 pay 西 less, quietly.
        db.execute("update rulings set ruling_json = ? where id = ?",
                   (original.replace('"amount": 100', '"amount": 10'), idents[1]))
        db.commit()
        found = _verify(url)
        assert found.returncode == 1
        assert f"第 2 筆（ruling {idents[1]}）" in found.stderr and "被改過" in found.stderr
        db.execute("update rulings set ruling_json = ? where id = ?", (original, idents[1]))
        db.commit()
        assert _verify(url).returncode == 0
        # An entry's filer changed, an entry removed, a row slipped in: each is found.
        filer = db.execute("select filed_by from entries where seq = 3").fetchone()[0]
        db.execute("update entries set filed_by = 'someone' where seq = 3")
        db.commit()
        assert "第 3 筆" in _verify(url).stderr
        db.execute("update entries set filed_by = ? where seq = 3", (filer,))
        db.execute("delete from entries where seq = 5")
        db.commit()
        assert "結尾" in _verify(url).stderr
    finally:
        db.close()


def test_an_archive_from_before_the_chain_is_entered_into_it(tmp_path: Path,
                                                             called: str) -> None:
    from adjudicator.desk import service

    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    archive = Archive(url)
    kept = archive.save(service.judge(called), called)
    db = sqlite3.connect(path)
    db.execute("drop table entries")
    db.execute("drop table chain_head")
    db.commit()
    db.close()
    again = Archive(url)  # as a new version starting on an old archive
    assert [e.kind for e in again.history(kept)] == ["ruling"]
    assert again.history(kept)[0].filed_by == ""
    assert again.verify().whole
