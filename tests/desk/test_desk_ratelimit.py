"""The per-client limit on the requests that make the desk work (issue #33)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from adjudicator.desk.app import create_app
from adjudicator.desk.ratelimit import RateLimit

SHORT = "規則: tw16\n莊家: 北\n連莊: 3\n\n紀錄:\n90 西 打 一萬\n91 牌局 荒局\n"
TEXT = {"content-type": "text/plain; charset=utf-8"}


def test_a_bucket_refills_at_its_rate_and_clients_are_apart() -> None:
    limit = RateLimit(None, per_minute=60, burst=3)  # type: ignore[arg-type]
    assert [limit.take("a", now=100.0) for _ in range(3)] == [0, 0, 0]
    assert limit.take("a", now=100.0) == pytest.approx(1.0)
    assert limit.take("b", now=100.0) == 0  # another client has its own bucket
    assert limit.take("a", now=101.5) == 0  # a second refills one request
    small = RateLimit(None, per_minute=60, burst=1, clients=2)  # type: ignore[arg-type]
    for client in ("a", "b", "c"):
        small.take(client, now=0.0)
    assert len(small._buckets) == 2  # the longest idle forgotten


def test_past_the_limit_a_client_is_answered_429_and_reading_is_not_limited(
        tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", workers=1, rate_limit=6)
    with TestClient(app) as c:
        statuses = [c.post("/api/lint", content=SHORT.encode(), headers=TEXT).status_code
                    for _ in range(32)]
        assert statuses[:30] == [200] * 30 and statuses[-1] == 429
        r = c.post("/api/judge", content=SHORT.encode(), headers=TEXT)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert c.get("/api/rulings").status_code == 200
        assert c.get("/api/health").status_code == 200
        assert c.post("/match", data={"text": "x"}).status_code == 429
