"""PDFs at the desk (issue #33): one Chromium, reused, sandboxed where the platform allows,
and a bounded queue that refuses the rest with 503."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from adjudicator.desk.app import create_app
from adjudicator.report import pdf

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "wrong-pung-priority.log").read_text("utf-8")
TEXT = {"content-type": "text/plain; charset=utf-8"}

pytestmark = pytest.mark.skipif(pdf.chromium() is None, reason="no Chromium on PATH")


def chromium_browsers() -> list[int]:
    """Chromium browser processes on the machine (not their zygotes and renderers)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if args and args[0].endswith(b"/chromium") and b"--remote-debugging-pipe" in args \
                and not any(a.startswith(b"--type=") for a in args):
            found.append(int(proc.name))
    return found


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = f"sqlite:///{tmp_path_factory.mktemp('pdf') / 'archive.db'}"
    with TestClient(create_app(db, workers=1, pdf_queue=2)) as c:
        yield c


def test_prints_share_one_sandboxed_chromium(client: TestClient) -> None:
    ident = client.post("/api/judge?archive=true", content=EXAMPLE.encode(),
                        headers=TEXT).headers["X-Ruling-Id"]
    printer = client.app.state.printer  # type: ignore[attr-defined]
    first = client.get(f"/r/{ident}.pdf")
    assert first.status_code == 200 and first.content.startswith(b"%PDF")
    browser = printer._browser.pid()
    second = client.get(f"/r/{ident}.pdf")
    assert second.status_code == 200 and printer._browser.pid() == browser
    health = client.get("/api/health").json()["printer"]
    assert health["printed"] == 2 and health["chromium"] is True
    # User namespaces (or Chromium's setuid sandbox) are there on this kind of machine.
    assert health["sandboxed"] is True


def test_a_burst_of_prints_is_bounded_by_the_queue(client: TestClient) -> None:
    ident = client.post("/api/judge?archive=true", content=(EXAMPLE + "# b\n").encode(),
                        headers=TEXT).headers["X-Ruling-Id"]
    assert client.get(f"/r/{ident}.pdf").status_code == 200  # the printer's one Chromium
    before = set(chromium_browsers())
    answers: list[httpx2.Response] = []
    seen: list[int] = []
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            seen.append(len(set(chromium_browsers()) - before))
            done.wait(0.05)

    counter = threading.Thread(target=count)
    counter.start()
    asking = [threading.Thread(target=lambda: answers.append(client.get(f"/r/{ident}.pdf")))
              for _ in range(6)]
    for t in asking:
        t.start()
    for t in asking:
        t.join()
    done.set()
    counter.join()
    statuses = sorted(a.status_code for a in answers)
    assert 200 in statuses and 503 in statuses, statuses
    assert set(statuses) <= {200, 503}
    assert all(a.content.startswith(b"%PDF") for a in answers if a.status_code == 200)
    assert all(a.json()["error"]["code"] == "pdf_busy" for a in answers if a.status_code == 503)
    # The module's printer already runs one Chromium; the burst starts no other.
    assert max(seen) == 0
    assert len(set(chromium_browsers()) - before) == 0


def test_chromium_ends_with_the_desk(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", workers=1)) as c:
        ident = c.post("/api/judge?archive=true", content=EXAMPLE.encode(),
                       headers=TEXT).headers["X-Ruling-Id"]
        assert c.get(f"/r/{ident}.pdf").status_code == 200
        browser = c.app.state.printer._browser.pid()  # type: ignore[attr-defined]
        assert browser in chromium_browsers()
    assert browser not in chromium_browsers()
