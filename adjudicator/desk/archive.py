"""The archive of rulings: every log judged at the desk, with what it was judged by.

SQLAlchemy over a SQLite file by default; ``postgresql://…`` URLs use psycopg 3 (the
``postgres`` extra).  A ruling is kept as it was given — its JSON and both reports — so a
permalink shows what the players were told even after the rules or the program change;
``adjudicator diff --archive`` re-judges the kept logs to see what a change would do.

Every filing is also an entry of the archive's chain (ledger.py): a ruling is never changed
in place; a correction is a new version filed as a new entry naming the first, and a
withdrawal an entry with its reason.  A permalink keeps its id through them all.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import DateTime, String, Text, create_engine, event, inspect, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

# accounts: its tables are made with the archive's (create_all below).
from adjudicator.desk import accounts, ledger  # noqa: F401
from adjudicator.desk.ledger import Entry
from adjudicator.desk.schema import Base

DEFAULT_URL = "sqlite:///adjudicator-archive.db"
T = TypeVar("T")
# A filing that met another process's (a lock held past SQLite's wait, a conflict) is
# tried again this many times, a little later each time.
RETRIES = 6


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


class NoArchive(Exception):
    """There is no archive at the URL (a missing SQLite file, a database without the
    archive's tables); ``str()`` names where it was looked for."""


def _existing(engine: Engine, url: str) -> None:
    """``NoArchive`` unless ``engine``'s database holds an archive: a command that reads one
    (``archive verify``, ``users list``) must not make an empty one and call it whole.  A
    SQLite file is looked for before connecting, which would create it."""
    if engine.dialect.name == "sqlite":
        name = engine.url.database
        if not name or name == ":memory:":
            raise NoArchive(f"{url} 是記憶體中的資料庫，沒有裁決檔案")
        if not Path(name).is_file():
            where = str(Path(name).resolve())
            raise NoArchive(f"找不到裁決檔案 {name}" + (f"（即 {where}）" if where != name else "")
                            + "：沒有這個檔案")
    if not inspect(engine).has_table(Record.__tablename__):
        raise NoArchive(f"{url} 不是裁決檔案（沒有 {Record.__tablename__} 資料表）")


class Archive:
    def __init__(self, url: str | None = None, create: bool = True) -> None:
        """The archive at ``url`` (default: ``DEFAULT_URL``); made there if there is none,
        else with ``create=False`` ``NoArchive``."""
        self.engine = engine_for(url)
        if not create:
            _existing(self.engine, url or DEFAULT_URL)
        for attempt in range(RETRIES):
            try:  # two servers starting at once on a new database both create its tables
                Base.metadata.create_all(self.engine)
                break
            except DBAPIError:
                if attempt == RETRIES - 1:
                    raise
                time.sleep(0.05 * 2 ** attempt)
        self._start_chain()

    def _start_chain(self) -> None:
        """Make the chain's head; an archive filed before the chain existed has its rows
        entered first, oldest first (as filed by no one known: ``filed_by`` empty)."""
        def begin(session: Session) -> None:
            if not ledger.start(session):
                return
            session.flush()
            old = [(r.created, "ruling", r) for r in session.scalars(select(Record))]
            old += [(m.created, "match", m) for m in session.scalars(select(MatchRecord))]
            for _, kind, row in sorted(old, key=lambda o: (o[0].replace(tzinfo=None), o[2].id)):
                content = (ledger.ruling_content(row) if kind == "ruling"
                           else ledger.match_content(row))
                ledger.append(session, kind, row.id, row.id, content, "")

        self._write(begin)

    def _write(self, work: Callable[[Session], T]) -> T:
        """``work`` in one transaction, tried again when another process was in the way."""
        for attempt in range(RETRIES):
            try:
                with Session(self.engine, expire_on_commit=False) as session, session.begin():
                    return work(session)
            except (IntegrityError, DBAPIError) as err:
                if attempt == RETRIES - 1 or not _conflict(err):
                    raise
                time.sleep(0.02 * 2 ** attempt)
        raise AssertionError("unreachable")

    def save(self, judged: dict[str, Any], text: str, by: str = "") -> str:
        """File a judgement (``service.judge``'s dict) and return its permalink id."""
        return self.file("ruling", judged, text, by).subject

    def save_match(self, judged: dict[str, Any], text: str, by: str = "") -> str:
        """File a judged match (``service.match``'s dict) and return its permalink id."""
        return self.file("match", judged, text, by).subject

    def file(self, kind: str, judged: dict[str, Any], text: str, by: str = "") -> Entry:
        """File a ruling or a match; its chain entry (``subject`` is the permalink id)."""
        def work(session: Session) -> Entry:
            row = _row(kind, judged, text)
            session.add(row)
            session.flush()
            return ledger.append(session, kind, row.id, row.id, _content(row), by)

        return self._write(work)

    def correct(self, ruling_id: str, judged: dict[str, Any], text: str, by: str,
                reason: str) -> Entry | None:
        """File a new version of a ruling (its log judged again), naming the first and the
        reason; ``None`` when there is no such ruling.  A withdrawn ruling can be corrected:
        the correction stands again."""
        def work(session: Session) -> Entry | None:
            if _first(session, ruling_id, "ruling") is None:
                return None
            row = _row("ruling", judged, text)
            session.add(row)
            session.flush()
            return ledger.append(session, "correction", ruling_id, row.id, _content(row), by,
                                 reason)

        return self._write(work)

    def withdraw(self, ident: str, by: str, reason: str, kind: str = "ruling") -> Entry | None:
        """Withdraw a filed ruling or match: an entry with the reason, nothing deleted."""
        def work(session: Session) -> Entry | None:
            if _first(session, ident, kind) is None:
                return None
            return ledger.append(session, "withdrawal", ident, None, None, by, reason)

        return self._write(work)

    def history(self, ident: str) -> list[Entry]:
        """Every entry about a permalink, oldest first: the filing, then its corrections
        and withdrawals."""
        stmt = select(Entry).where(Entry.subject == ident).order_by(Entry.seq)
        with Session(self.engine, expire_on_commit=False) as session:
            return list(session.scalars(stmt))

    def verify(self) -> ledger.Verdict:
        """Check the whole chain (ledger.verify) against the rows it covers."""
        def content(entry: Entry) -> dict[str, Any] | None:
            if entry.record is None:
                return None
            table = MatchRecord if entry.kind == "match" else Record
            row = session.get(table, entry.record)
            if row is None:
                raise LookupError(f"它所存的 {entry.record} 不在資料庫裡（被刪過）")
            return _content(row)

        def unchained() -> Iterator[tuple[str, str]]:
            chained = select(Entry.record).where(Entry.record.is_not(None))
            for table, kind in ((Record, "裁決"), (MatchRecord, "將")):
                for ident in session.scalars(select(table.id).where(table.id.not_in(chained))):
                    yield kind, ident

        with Session(self.engine) as session:
            return ledger.verify(session, content, unchained())

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

    def get(self, ruling_id: str, version: int | None = None) -> Record | None:
        """A filed ruling under its permalink id: the version that stands now (the last
        correction, else the ruling as first filed), or version ``version`` (1 is the
        first).  The row returned carries the permalink's id, whichever version it is."""
        with Session(self.engine, expire_on_commit=False) as session:
            versions = [e.record for e in session.scalars(
                select(Entry).where(Entry.subject == ruling_id, Entry.record.is_not(None),
                                    Entry.kind.in_(("ruling", "correction")))
                .order_by(Entry.seq))]
            if not versions:
                # A ruling filed before its entry was committed, or none at all.
                return session.get(Record, ruling_id) if version in (None, 1) else None
            if version is not None and not 1 <= version <= len(versions):
                return None
            record = session.get(Record, versions[-1 if version is None else version - 1])
            if record is None:
                return None
            session.expunge(record)
        record.id = ruling_id
        return record

    def search(self, query: Query, limit: int = 200) -> list[Record]:
        """Newest first; each field narrows by substring (date by its start).  A correction
        is not listed apart: its ruling's permalink is."""
        corrections = select(Entry.record).where(Entry.kind == "correction")
        stmt = (select(Record).where(Record.id.not_in(corrections))
                .order_by(Record.created.desc()).limit(limit))
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

    def states(self, idents: list[str]) -> dict[str, str]:
        """``corrected`` or ``withdrawn`` for each permalink whose last entry says so."""
        stmt = (select(Entry.subject, Entry.kind).where(Entry.subject.in_(idents))
                .order_by(Entry.seq))
        with Session(self.engine) as session:
            last = {subject: kind for subject, kind in session.execute(stmt)}
        words = {"correction": "corrected", "withdrawal": "withdrawn"}
        return {ident: words[kind] for ident, kind in last.items() if kind in words}

    def logs(self) -> Iterator[tuple[str, str]]:
        """Every archived ruling's log as it stands (its last correction), oldest first, as
        (name, text); a withdrawn ruling is left out."""
        with Session(self.engine) as session:
            stmt = select(Record.id).where(Record.id.not_in(
                select(Entry.record).where(Entry.kind == "correction"))
            ).order_by(Record.created)
            idents = list(session.scalars(stmt))
        withdrawn = {i for i, state in self.states(idents).items() if state == "withdrawn"}
        for ruling_id in idents:
            if ruling_id in withdrawn:
                continue
            record = self.get(ruling_id)
            if record is not None:
                yield f"archive/{ruling_id}", record.text


def _conflict(err: Exception) -> bool:
    """Whether a failed filing met another one (and is worth trying again)."""
    text = str(getattr(err, "orig", err)).lower()
    return isinstance(err, IntegrityError) or any(
        word in text for word in ("locked", "busy", "could not serialize", "deadlock"))


def _first(session: Session, ident: str, kind: str) -> Entry | None:
    return session.scalars(select(Entry).where(
        Entry.subject == ident, Entry.kind == kind).limit(1)).first()


def _content(row: Record | MatchRecord) -> dict[str, Any]:
    return ledger.ruling_content(row) if isinstance(row, Record) else ledger.match_content(row)


def _row(kind: str, judged: dict[str, Any], text: str) -> Record | MatchRecord:
    """The row a judgement is filed as (``service.judge``'s or ``service.match``'s dict)."""
    settings = json.dumps(judged["settings"], ensure_ascii=False)
    ident = secrets.token_urlsafe(9)
    if kind == "ruling":
        meta = judged["meta"]
        return Record(
            id=ident, created=datetime.now(UTC), text=text, profile=judged["profile"],
            settings=settings, version=judged["version"], status=judged["ruling"]["status"],
            date=meta.get("date", ""), venue=meta.get("venue", ""),
            table_no=meta.get("table", ""), referee=meta.get("referee", ""),
            hand_no=meta.get("hand", ""), players=" ".join(judged["players"]),
            offences=" ".join(judged["offences"]),
            ruling_json=json.dumps(judged["ruling"], ensure_ascii=False),
            report_html=judged["html"], report_md=judged["md"])
    meta, d = judged["meta"], judged["match"]
    return MatchRecord(
        id=ident, created=datetime.now(UTC), text=text, profile=judged["profile"],
        settings=settings, version=judged["version"], title=meta["title"], date=meta["date"],
        venue=meta["venue"], table_no=meta["table"], referee=meta["referee"],
        players=" ".join(judged["players"]), hands=len(d["hands"]),
        stopped=(d["stop"] or {}).get("message", ""),
        match_json=json.dumps(d, ensure_ascii=False), report_html=judged["html"],
        report_md=judged["md"], ledger_csv=judged["csv"])
