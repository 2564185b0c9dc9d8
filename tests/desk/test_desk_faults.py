"""The pool under faults (issue #33): a judgement past its limit is cancelled and its worker
replaced; a worker killed idle is replaced before work reaches it; the server killed
leaves no process behind; the health endpoint answers while the workers warm."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from adjudicator.desk.app import create_app

ROOT = Path(__file__).resolve().parents[2]
TEXT = {"content-type": "text/plain; charset=utf-8"}
SHORT = "規則: tw16\n莊家: 北\n連莊: 3\n\n紀錄:\n90 西 打 一萬\n91 牌局 荒局\n"
LONG = "規則: tw16\n莊家: 東\n紀錄:\n" + "東 摸\n東 打 一萬\n" * 4900


def _until(test: Callable[[], bool], seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.05)
    return test()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                children = [int(c) for c in (task / "children").read_text().split()]
                found += children
                todo += children
        except OSError:
            continue
    return found


def test_a_judgement_past_its_limit_is_cancelled_and_its_worker_replaced(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", workers=1, timeout=2)
    with TestClient(app) as c:
        judges = app.state.judges
        [old] = judges.pids(long=True)  # a log this long is judged in the long lane
        r = c.post("/api/judge", content=LONG.encode(), headers=TEXT)
        assert r.status_code == 504 and r.json()["error"]["code"] == "timeout"
        assert judges.cancelled == 1
        assert _until(lambda: not _alive(old)), "the cancelled judgement's worker still runs"
        assert _until(lambda: judges.health()["long"]["ready"] == 1)
        [new] = judges.pids(long=True)
        assert new != old and judges.died == 0
        long_again = LONG.replace("一萬", "二萬", 1)
        r = c.post("/api/judge", content=long_again.encode(), headers=TEXT)
        assert r.status_code == 504 and judges.cancelled == 2
        # A short log meanwhile is judged by the short lane, whatever the long one does.
        r = c.post("/api/judge", content=SHORT.encode(), headers=TEXT)
        assert r.status_code == 200 and r.headers["server-timing"].startswith("queue")


def test_the_long_lane_takes_one_at_a_time_and_refuses_past_its_queue(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", workers=1, timeout=30)
    with TestClient(app) as c:
        answers: list[httpx2.Response] = []
        texts = [LONG.replace("一萬", n, 1) for n in ("二萬", "三萬", "四萬", "五萬")]
        asking = [threading.Thread(target=lambda t=t: answers.append(
            c.post("/api/judge", content=t.encode(), headers=TEXT))) for t in texts]
        for t in asking:
            t.start()
            time.sleep(0.2)
        short = c.post("/api/judge", content=SHORT.encode(), headers=TEXT)
        assert short.status_code == 200
        for t in asking:
            t.join()
        codes = sorted(a.json().get("error", {}).get("code", "judged") for a in answers)
        # One judged (within the limit or past it, as fast as the machine is), the next
        # waited, and past the queue one was refused at once.
        assert codes.count("long_busy") >= 1
        assert set(codes) <= {"long_busy", "timeout", "judged"}
        assert app.state.judges.health()["long"]["refused"] >= 1


def test_a_worker_killed_idle_is_replaced_before_work_reaches_it(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", workers=1, timeout=60)
    with TestClient(app) as c:
        judges = app.state.judges
        [old] = judges.pids()
        os.kill(old, signal.SIGKILL)
        assert _until(lambda: judges.died == 1 and judges.pids() != [old])
        assert c.get("/api/health").json()["judges"]["died"] == 1
        # Sent at once: it waits for the warm replacement, never meets the dead one.
        r = c.post("/api/judge", content=(SHORT + "# after\n").encode(), headers=TEXT)
        assert r.status_code == 200
        assert not _alive(old)


def _serve(db: Path, *more: str) -> tuple[subprocess.Popen[bytes], str]:
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "adjudicator", "serve", "--port", str(port),
         "--db", f"sqlite:///{db}", *more], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    return proc, f"http://127.0.0.1:{port}"


def _health(url: str) -> httpx2.Response | None:
    try:
        return httpx2.get(url + "/api/health", timeout=2)
    except httpx2.TransportError:
        return None


@pytest.mark.parametrize("busy", [False, True])
def test_the_server_killed_leaves_no_process_behind(tmp_path: Path, busy: bool) -> None:
    proc, url = _serve(tmp_path / "a.db", "--workers", "2")
    try:
        # Every worker warm, the long lane's too (it warms at a low priority: slowly on a
        # loaded machine).
        assert _until(lambda: (h := _health(url)) is not None and h.status_code == 200
                      and h.json()["judges"]["long"]["ready"] == 1, 300)
        children = _descendants(proc.pid)
        assert len(children) >= 2
        if busy:  # a worker deep in a long judgement when the server dies
            threading.Thread(target=lambda: _post_quietly(url, LONG), daemon=True).start()
            assert _until(lambda: _health(url).json()["judges"]["long"]["busy"] == 1, 30)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert _until(lambda: not any(_alive(p) for p in children), 10), \
            [p for p in children if _alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _post_quietly(url: str, text: str) -> None:
    try:
        httpx2.post(url + "/api/judge", content=text.encode(), headers=TEXT, timeout=60)
    except httpx2.TransportError:
        pass


def test_health_answers_while_the_workers_warm_and_then_the_first_judgement(
        tmp_path: Path) -> None:
    proc, url = _serve(tmp_path / "a.db", "--workers", "1")
    try:
        assert _until(lambda: _health(url) is not None, 60)
        first = _health(url)
        assert first is not None and first.json()["status"] in ("starting", "ok")
        r = httpx2.post(url + "/api/judge", content=SHORT.encode(), headers=TEXT, timeout=60)
        assert r.status_code == 200
        assert _health(url).status_code == 200
        children = _descendants(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert _until(lambda: not any(_alive(p) for p in children), 10)
