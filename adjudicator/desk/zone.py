"""The desk's time zone: the day a new log is dated and the zone filing times are shown in.

The archive keeps times in UTC; the pages show them where the table is (``serve --tz``,
Asia/Taipei unless told).
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import Request

DEFAULT_TZ = "Asia/Taipei"


def zone_named(name: str) -> ZoneInfo:
    """The zone ``name`` (an IANA name such as Asia/Taipei); ValueError if there is none."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"沒有「{name}」這個時區（請寫 IANA 名稱，如 {DEFAULT_TZ}）") from None


def zone_of(request: Request) -> ZoneInfo:
    return getattr(request.app.state, "tz", None) or ZoneInfo(DEFAULT_TZ)


def local_time(moment: datetime, zone: ZoneInfo) -> str:
    """A filing time as the table reads it: 2026-12-02 05:48, in the desk's zone."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite keeps it naive
    return aware.astimezone(zone).strftime("%Y-%m-%d %H:%M")


def today(zone: ZoneInfo) -> str:
    return datetime.now(zone).strftime("%Y-%m-%d")
