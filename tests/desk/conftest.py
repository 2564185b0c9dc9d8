"""The desk under test: in-process (httpx2 through Starlette's TestClient, real worker
processes, a real SQLite file) and as a real uvicorn server on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx2
import pytest

ROOT = Path(__file__).resolve().parents[2]

# 喊碰未碰 (cases/calls/called_not_punged.case): 東 owes 西 one 台, 100.
CALLED = """規則: tw16
莊家: 東
底: 300
台: 100
玩家: 東=阿明 南=小華 西=阿德 北=小美
日期: 2026-11-30 20:15
場地: 和平麻將會館
桌號: 7
裁判: 陳大文

紀錄:
11 阿德 打 七筒
12 阿明 喊碰 七筒
13 北 摸
14 北 打 一萬
"""


@pytest.fixture
def called() -> str:
    return CALLED


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(db: str, workers: int = 2, probe: str = "/api/rulings") -> Iterator[str]:
    """``adjudicator serve`` on ``db`` in a child process, until ``probe`` answers 200; its
    URL.  Stopped on leaving."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "adjudicator", "serve", "--port", str(port),
         "--db", db, "--workers", str(workers)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                # Once the judging workers are warm (the server answers before) and the
                # probe answers.
                health = httpx2.get(url + "/api/health", timeout=2)
                if (health.status_code == 200 and health.json()["judges"]["long"]["ready"]
                        and httpx2.get(url + probe, timeout=2).status_code == 200):
                    break
            except httpx2.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"the server did not start: {out}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.fixture(scope="session")
def serving() -> Callable[..., AbstractContextManager[str]]:
    """Starts ``adjudicator serve`` on a database: ``with serving(db) as url: …``."""
    return _serving


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``adjudicator serve`` in a child process; its URL.  Stopped after the tests."""
    db = tmp_path_factory.mktemp("desk") / "archive.db"
    with _serving(f"sqlite:///{db}") as url:
        yield url
