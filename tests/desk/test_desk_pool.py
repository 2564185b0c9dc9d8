"""The worker pool's batches: logs judged together answer exactly as each judged alone."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from adjudicator.desk import service
from adjudicator.desk.app import create_app

ROOT = Path(__file__).resolve().parents[2]
TEXT = {"content-type": "text/plain; charset=utf-8"}

# Decided, drawn, contradictory and open-fact logs, a Guangdong one, and two that cannot be
# judged (a typo, an unknown profile): a batch must keep each its own.
LOGS = [(ROOT / "cases" / name).read_text("utf-8") for name in (
    "calls/called_and_punged.case", "calls/called_not_punged.case",
    "golden/false_win_xianggong.log", "golden/contradiction.log",
    "golden/hand_not_recorded.log", "golden/priority_substitute.log",
    "gd/exhausted.case", "gd/fan_all_pungs.case")] + [
    "規則: tw16\n紀錄:\n1 東 打 十萬\n", "規則: nope\n紀錄:\n1 東 摸\n"]


@pytest.mark.parametrize("reports", [False, True])
def test_judged_together_each_answer_is_its_own_judgement(reports: bool) -> None:
    alone = [service.judge(text, None, {}, reports) for text in LOGS]
    together = service.judge_many(LOGS, None, {}, reports)
    assert together == alone
    assert sum("ruling" in a for a in alone) >= 8
    assert sum("error" in a for a in alone) == 2
    assert all(("html" in a) == reports for a in alone if "ruling" in a)


def test_a_profile_and_settings_apply_to_the_whole_batch() -> None:
    tw = LOGS[:6]
    settings = {"解釋.八張窗": "all"}
    alone = [service.judge(text, "tw16-alt", settings, False) for text in tw]
    assert service.judge_many(tw, "tw16-alt", settings, False) == alone


def test_requests_that_wait_together_are_judged_together_and_answered_alike(
        tmp_path: Path) -> None:
    # A generous time limit: under a loaded machine the queued ones wait out the long log.
    app = create_app(f"sqlite:///{tmp_path / 'archive.db'}", workers=1, timeout=300)
    with TestClient(app) as c:
        def ask(text: str) -> httpx2.Response:
            return c.post("/api/judge", content=text.encode(), headers=TEXT)

        # One long log keeps the one worker busy while the others queue up behind it.
        long = "規則: tw16\n莊家: 東\n紀錄:\n" + "東 摸\n東 打 一萬\n" * 1000
        answers: dict[int, httpx2.Response] = {}

        def send(i: int, text: str) -> None:
            answers[i] = ask(text)

        threads = [threading.Thread(target=send, args=(-1, long))]
        threads[0].start()
        while not app.state.judges.busy():
            threading.Event().wait(0.01)
        threads += [threading.Thread(target=send, args=(i, t)) for i, t in enumerate(LOGS)]
        for t in threads[1:]:
            t.start()
        for t in threads:
            t.join()
        assert app.state.judges.batched >= 2
        for i, text in enumerate(LOGS):
            expected = service.judge(text, None, {}, False)
            got = answers[i]
            if "error" in expected:
                assert got.status_code == 400 and got.json() == expected
            else:
                assert got.status_code == 200 and got.json() == expected["ruling"]


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"  # ended, not yet reaped


def test_a_worker_is_replaced_after_its_share_of_logs_and_answers_stay_right(
        tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'archive.db'}", workers=1, timeout=300,
                     recycle=2)
    logs = [f"規則: tw16\n紀錄:\n1 東 打 {n}萬\n" for n in "一二三四五"]
    with TestClient(app) as c:
        judges = app.state.judges
        seen: list[list[int]] = [judges.pids()]
        for text in logs:
            got = c.post("/api/judge", content=text.encode(), headers=TEXT)
            assert got.status_code == 200
            assert got.json() == service.judge(text, None, {}, False)["ruling"]
            seen.append(judges.pids())
        # Two logs a worker: replaced after the 2nd and the 4th, each time by a new process.
        assert judges.replaced == 2
        first, second, third = seen[0], seen[3], seen[5]
        assert len({*first, *second, *third}) == 3
        for old in first + second:
            for _ in range(100):
                if _gone(old):
                    break
                threading.Event().wait(0.1)
            assert _gone(old), f"the replaced worker {old} is still running"
