"""The archive of rulings: every log judged at the desk, with what it was judged by.

SQLAlchemy over a SQLite file by default; ``postgresql://…`` URLs use psycopg 3 (the
``postgres`` extra).  A ruling is kept as it was given — its JSON and both reports — so a
permalink shows what the players were told even after the rules or the program change;
``adjudicator diff --archive`` re-judges the kept logs to see what a change would do.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, String, Text, create_engine, event, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

DEFAULT_URL = "sqlite:///adjudicator-archive.db"


class Base(DeclarativeBase):
    pass


class Record(Base):
    __tablename__ = "rulings"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    text: Mapped[str] = mapped_column(Text)  # the log as the referee wrote it
    profile: Mapped[str] = mapped_column(String(64))
    settings: Mapped[str] = mapped_column(Text)  # JSON object of --set overrides
    version: Mapped[str] = mapped_column(String(32))  # the program that judged it
    status: Mapped[str] = mapped_column(String(16))
    date: Mapped[str] = mapped_column(String(200), default="", index=True)
    venue: Mapped[str] = mapped_column(String(200), default="")
    table_no: Mapped[str] = mapped_column(String(200), default="", index=True)
    referee: Mapped[str] = mapped_column(String(200), default="")
    hand_no: Mapped[str] = mapped_column(String(200), default="")
    players: Mapped[str] = mapped_column(Text, default="")  # names, space-separated
    offences: Mapped[str] = mapped_column(Text, default="")  # finding kinds, space-separated
    ruling_json: Mapped[str] = mapped_column(Text)
    report_html: Mapped[str] = mapped_column(Text)
    report_md: Mapped[str] = mapped_column(Text)

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "created": self.created.isoformat(), "status": self.status,
                "profile": self.profile, "settings": json.loads(self.settings),
                "version": self.version, "date": self.date, "venue": self.venue,
                "table": self.table_no, "referee": self.referee, "hand": self.hand_no,
                "players": self.players.split(), "offences": self.offences.split(),
                # By which rules (ruling-json's rules: profile, house rules, hash).
                "rules": json.loads(self.ruling_json).get("rules")}


class MatchRecord(Base):
    """A whole match judged at the desk, kept as it was given (like a ``Record``)."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    text: Mapped[str] = mapped_column(Text)  # the .match file as sent
    profile: Mapped[str] = mapped_column(String(64))
    settings: Mapped[str] = mapped_column(Text)
    version: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200), default="")
    date: Mapped[str] = mapped_column(String(200), default="", index=True)
    venue: Mapped[str] = mapped_column(String(200), default="")
    table_no: Mapped[str] = mapped_column(String(200), default="")
    referee: Mapped[str] = mapped_column(String(200), default="")
    players: Mapped[str] = mapped_column(Text, default="")  # names, space-separated
    hands: Mapped[int] = mapped_column(default=0)  # hands judged and shown
    stopped: Mapped[str] = mapped_column(Text, default="")  # why the carry stopped, if it did
    match_json: Mapped[str] = mapped_column(Text)
    report_html: Mapped[str] = mapped_column(Text)
    report_md: Mapped[str] = mapped_column(Text)
    ledger_csv: Mapped[str] = mapped_column(Text)

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "created": self.created.isoformat(), "profile": self.profile,
                "settings": json.loads(self.settings), "version": self.version,
                "title": self.title, "date": self.date, "venue": self.venue,
                "table": self.table_no, "referee": self.referee,
                "players": self.players.split(), "hands": self.hands,
                "stopped": self.stopped or None}


def engine_for(url: str | None) -> Engine:
    url = url or DEFAULT_URL
    if url.startswith("postgresql://"):  # SQLAlchemy would look for psycopg2
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _write_ahead)
    return engine


def _write_ahead(connection: Any, _: Any) -> None:
    # A write-ahead log: a filed ruling costs one sync of the log, not of a rollback journal
    # and the database, still synced before the
    # permalink is given; and the list pages read while a ruling is filed.
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")


@dataclass
class Query:
    date: str = ""
    table: str = ""
    player: str = ""
    offence: str = ""


class Archive:
    def __init__(self, url: str | None = None) -> None:
        self.engine = engine_for(url)
        Base.metadata.create_all(self.engine)

    def save(self, judged: dict[str, Any], text: str) -> str:
        """File a judgement (``service.judge``'s dict) and return its permalink id."""
        meta = judged["meta"]
        ruling_id = secrets.token_urlsafe(9)
        record = Record(
            id=ruling_id, created=datetime.now(UTC), text=text,
            profile=judged["profile"],
            settings=json.dumps(judged["settings"], ensure_ascii=False),
            version=judged["version"], status=judged["ruling"]["status"],
            date=meta.get("date", ""), venue=meta.get("venue", ""),
            table_no=meta.get("table", ""), referee=meta.get("referee", ""),
            hand_no=meta.get("hand", ""), players=" ".join(judged["players"]),
            offences=" ".join(judged["offences"]),
            ruling_json=json.dumps(judged["ruling"], ensure_ascii=False),
            report_html=judged["html"], report_md=judged["md"])
        with Session(self.engine) as session, session.begin():
            session.add(record)
        return ruling_id

    def save_match(self, judged: dict[str, Any], text: str) -> str:
        """File a judged match (``service.match``'s dict) and return its permalink id."""
        meta, d = judged["meta"], judged["match"]
        match_id = secrets.token_urlsafe(9)
        record = MatchRecord(
            id=match_id, created=datetime.now(UTC), text=text, profile=judged["profile"],
            settings=json.dumps(judged["settings"], ensure_ascii=False),
            version=judged["version"], title=meta["title"], date=meta["date"],
            venue=meta["venue"], table_no=meta["table"], referee=meta["referee"],
            players=" ".join(judged["players"]), hands=len(d["hands"]),
            stopped=(d["stop"] or {}).get("message", ""),
            match_json=json.dumps(d, ensure_ascii=False), report_html=judged["html"],
            report_md=judged["md"], ledger_csv=judged["csv"])
        with Session(self.engine) as session, session.begin():
            session.add(record)
        return match_id

    def get_match(self, match_id: str) -> MatchRecord | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.get(MatchRecord, match_id)

    def matches(self, player: str = "", limit: int = 200) -> list[MatchRecord]:
        """Newest first; ``player`` narrows by a name's substring."""
        stmt = select(MatchRecord).order_by(MatchRecord.created.desc()).limit(limit)
        if player:
            stmt = stmt.where(MatchRecord.players.contains(player, autoescape=True))
        with Session(self.engine, expire_on_commit=False) as session:
            return list(session.scalars(stmt))

    def get(self, ruling_id: str) -> Record | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.get(Record, ruling_id)

    def search(self, query: Query, limit: int = 200) -> list[Record]:
        """Newest first; each field narrows by substring (date by its start)."""
        stmt = select(Record).order_by(Record.created.desc()).limit(limit)
        if query.date:
            stmt = stmt.where(Record.date.startswith(query.date, autoescape=True))
        if query.table:
            stmt = stmt.where(Record.table_no == query.table)
        if query.player:
            stmt = stmt.where(Record.players.contains(query.player, autoescape=True))
        if query.offence:
            stmt = stmt.where(Record.offences.contains(query.offence, autoescape=True))
        with Session(self.engine, expire_on_commit=False) as session:
            return list(session.scalars(stmt))

    def logs(self) -> Iterator[tuple[str, str]]:
        """Every archived log, oldest first, as (name, text)."""
        with Session(self.engine) as session:
            stmt = select(Record.id, Record.text).order_by(Record.created)
            for ruling_id, text in session.execute(stmt):
                yield f"archive/{ruling_id}", text
