"""The archive on a real PostgreSQL server: a throwaway cluster (initdb into a temporary
folder, pg_ctl on a free loopback port), started for this module and removed after it.

Runs where Debian's PostgreSQL binaries and psycopg are installed (``.ci/run`` installs the
first, the ``test`` extra the second); skips with the reason otherwise.  PostgreSQL will not
run as root, so as root the cluster belongs to the ``postgres`` user the package creates.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _as_owner(owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--"] if owner else []


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A running throwaway server; its URL (``postgresql://…``)."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL's initdb/pg_ctl are not installed "
                    "(apt-get install -y postgresql)")
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("psycopg is not installed (pip install -e '.[postgres]')")
    owner = None
    if os.geteuid() == 0:
        owner = "postgres"
        try:
            import pwd

            pwd.getpwnam(owner)
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to own the cluster")
    # Not under pytest's temporary folder: as root that is closed to the cluster's owner.
    base = Path(tempfile.mkdtemp(prefix="adjudicator-pg-"))
    data, sockets, log = base / "data", base / "run", base / "server.log"
    sockets.mkdir()
    if owner:
        shutil.chown(base, owner)
        shutil.chown(sockets, owner)
    with socket.socket() as probe:  # a free loopback port for the server
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
    started = False
    try:
        _run([*_as_owner(owner), initdb, "-D", str(data), "-U", "adjudicator", "--auth=trust",
              "-E", "UTF8", "--no-locale", "--no-sync"])
        _run([*_as_owner(owner), pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w",
              "-t", "60", "start"])
        started = True
        yield f"postgresql://adjudicator@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run([*_as_owner(owner), pg_ctl, "-D", str(data), "-m", "immediate",
                            "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def test_the_archive_keeps_and_finds_rulings_on_postgresql(postgres: str, called: str) -> None:
    from adjudicator.desk import service
    from adjudicator.desk.archive import Archive, Query

    archive = Archive(postgres)
    assert archive.engine.dialect.name == "postgresql"
    kept = archive.save(service.judge(called), called)
    record = archive.get(kept)
    assert record is not None and record.text == called
    assert record.venue == "和平麻將會館" and record.players.split()[2] == "阿德"
    # Substring search, with LIKE's own characters taken literally.
    assert [r.id for r in archive.search(Query(player="阿德"))] == [kept]
    assert archive.search(Query(player="%")) == []
    assert [r.id for r in archive.search(Query(date="2026-11", offence="喊碰未碰"))] == [kept]
    assert [name for name, _ in archive.logs()] == [f"archive/{kept}"]


def test_the_desk_files_a_ruling_and_a_match_on_postgresql(postgres: str, called: str) -> None:
    from starlette.testclient import TestClient

    from adjudicator.desk.app import create_app

    east = (ROOT / "cases" / "matches" / "east_round.match").read_text("utf-8")
    text = {"content-type": "text/plain; charset=utf-8"}
    with TestClient(create_app(postgres, workers=1)) as client:
        r = client.post("/api/judge?archive=true", content=called.encode(), headers=text)
        assert r.status_code == 200
        stored = client.get(f"/api/rulings/{r.headers['X-Ruling-Id']}").json()
        assert stored["text"] == called and stored["ruling"]["status"] == "decided"
        r = client.post("/api/match?archive=true", content=east.encode(), headers=text)
        page = client.get(r.headers["Location"])
        assert page.status_code == 200 and "+2700" in page.text
        assert client.get("/api/matches?player=小美").json()[0]["hands"] == 9


def test_diff_archive_reads_a_postgresql_archive(postgres: str) -> None:
    import json

    from adjudicator.desk.archive import Archive

    kept = [name for name, _ in Archive(postgres).logs()]
    assert kept
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "diff", "--archive", postgres, "--a", "tw16",
         "--b", "tw16-online", "-f", "json"], capture_output=True, text=True, cwd=ROOT,
        timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["summary"]["cases"] == len(kept)


def test_two_servers_file_into_one_postgresql_archive_and_the_chain_stays_whole(
        postgres: str, called: str, serving: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import httpx2

    from adjudicator.desk.archive import Archive

    before = Archive(postgres).verify()
    assert before.whole, before.fault
    with serving(postgres, workers=1) as one, serving(postgres, workers=1) as two:
        bases = [one, two]

        def file(k: int) -> str:
            text = called.replace("桌號: 7", f"桌號: {k}")
            r = httpx2.post(f"{bases[k % 2]}/api/judge?archive=true", content=text.encode(),
                            headers={"content-type": "text/plain; charset=utf-8"}, timeout=120)
            assert r.status_code == 200, r.text
            return r.headers["X-Ruling-Id"]

        with ThreadPoolExecutor(8) as pool:
            filed = list(pool.map(file, range(16)))
        # A withdrawal through one server of a ruling the other filed.
        out = httpx2.post(f"{one}/api/rulings/{filed[1]}/withdraw", json={"reason": "重複"},
                          timeout=60)
        assert out.status_code == 200
    assert len(set(filed)) == 16
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "archive", "verify", "--db", postgres],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{before.entries + 17} 筆" in done.stdout
    archive = Archive(postgres)
    entries = [e for ident in filed for e in archive.history(ident)]
    assert sorted(e.seq for e in entries) == list(
        range(before.entries + 1, before.entries + 18))
