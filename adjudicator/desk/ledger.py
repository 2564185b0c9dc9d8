"""The archive's chain: every filing is an entry whose hash covers what was filed, by whom,
by which program and rules, and the hash of the entry before it.

A row changed in the database afterwards no longer matches its entry's hash; an entry
removed or reordered breaks the next one's ``prev``; a row slipped in without an entry is
outside the chain.  ``verify`` finds all three and names the first entry at fault.  The
chain's head (the last entry's number and hash) is kept in a one-row table that every
filing updates first: that row's lock is what orders filings from several processes.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Integer, String, Text, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from adjudicator.desk.schema import Base

GENESIS = "0" * 64  # the ``prev`` of the first entry
FORMAT = 1  # the layout of the hashed document below; a new layout gets a new number

# An entry's kinds: a ruling or a match filed, a ruling corrected (a new version of it,
# judged again) or withdrawn (no ruling stands).
KINDS = ("ruling", "match", "correction", "withdrawal")


class Entry(Base):
    __tablename__ = "entries"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    created: Mapped[str] = mapped_column(String(40))  # ISO 8601, kept as hashed
    kind: Mapped[str] = mapped_column(String(16))
    subject: Mapped[str] = mapped_column(String(24), index=True)  # the permalink's id
    record: Mapped[str | None] = mapped_column(String(24), nullable=True, index=True)
    filed_by: Mapped[str] = mapped_column(String(200), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    prev: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)

    @property
    def code(self) -> str:
        return code(self.hash)

    def summary(self) -> dict[str, Any]:
        return {"seq": self.seq, "created": self.created, "kind": self.kind,
                "record": self.record, "filed_by": self.filed_by, "reason": self.reason,
                "hash": self.hash, "code": self.code}


class Head(Base):
    """The chain's last entry, in one row (``id`` 1)."""

    __tablename__ = "chain_head"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str] = mapped_column(String(64))


def code(digest: str) -> str:
    """The short verification code a report prints: the hash's first 40 bits in base32."""
    letters = base64.b32encode(bytes.fromhex(digest)[:5]).decode()
    return f"{letters[:4]}-{letters[4:]}"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rules_of(judged_json: str, profile: str, settings_json: str) -> dict[str, Any]:
    """The rules a filing was judged by: its profile and settings, and the ruling's own
    ``rules.hash`` (the resolved rule set, house rules included) once the ruling has one."""
    rules: dict[str, Any] = {"profile": profile, "settings": json.loads(settings_json)}
    given = json.loads(judged_json).get("rules")
    if isinstance(given, dict) and isinstance(given.get("hash"), str):
        rules["hash"] = given["hash"]
    return rules


def ruling_content(r: Any) -> dict[str, Any]:
    """What an entry's hash covers of a filed ruling (an ``archive.Record``)."""
    return {"log": _sha(r.text), "ruling": _sha(r.ruling_json), "html": _sha(r.report_html),
            "md": _sha(r.report_md), "version": r.version,
            "rules": rules_of(r.ruling_json, r.profile, r.settings),
            "filed": {"status": r.status, "date": r.date, "venue": r.venue,
                      "table": r.table_no, "referee": r.referee, "hand": r.hand_no,
                      "players": r.players, "offences": r.offences}}


def match_content(m: Any) -> dict[str, Any]:
    """What an entry's hash covers of a filed match (an ``archive.MatchRecord``)."""
    return {"log": _sha(m.text), "match": _sha(m.match_json), "html": _sha(m.report_html),
            "md": _sha(m.report_md), "csv": _sha(m.ledger_csv), "version": m.version,
            "rules": rules_of(m.match_json, m.profile, m.settings),
            "filed": {"title": m.title, "date": m.date, "venue": m.venue,
                      "table": m.table_no, "referee": m.referee, "players": m.players,
                      "hands": m.hands, "stopped": m.stopped}}


def entry_hash(entry: Entry, content: dict[str, Any] | None) -> str:
    document = {"format": FORMAT, "seq": entry.seq, "created": entry.created,
                "kind": entry.kind, "subject": entry.subject, "record": entry.record,
                "filed_by": entry.filed_by, "reason": entry.reason, "content": content,
                "prev": entry.prev}
    canonical = json.dumps(document, ensure_ascii=False, sort_keys=True,
                           separators=(",", ":"))
    return _sha(canonical)


def start(session: Session) -> bool:
    """Make the head row if the chain has none yet; whether this call made it."""
    if session.get(Head, 1) is not None:
        return False
    session.add(Head(id=1, seq=0, hash=GENESIS))
    return True


def append(session: Session, kind: str, subject: str, record: str | None,
           content: dict[str, Any] | None, filed_by: str, reason: str = "") -> Entry:
    """Add an entry after the head, inside the caller's transaction.

    The head row is updated first: its write lock (SQLite's database lock, PostgreSQL's
    row lock) is held to the commit, so a second process waits here and then reads the
    head this one wrote."""
    seq, prev = session.execute(
        update(Head).where(Head.id == 1).values(seq=Head.seq + 1)
        .returning(Head.seq, Head.hash)).one()
    entry = Entry(seq=seq, created=datetime.now(UTC).isoformat(timespec="microseconds"),
                  kind=kind, subject=subject, record=record, filed_by=filed_by[:200],
                  reason=reason, prev=prev)
    entry.hash = entry_hash(entry, content)
    session.add(entry)
    session.execute(update(Head).where(Head.id == 1).values(hash=entry.hash))
    return entry


@dataclass
class Verdict:
    """What ``verify`` found: how many entries it checked, the head, the first fault."""

    entries: int
    head: str
    fault: str | None = None
    at: int | None = None  # the number of the first entry at fault

    @property
    def whole(self) -> bool:
        return self.fault is None


def verify(session: Session, content_of: Any, unchained: Iterator[tuple[str, str]]) -> Verdict:
    """Check every entry in order: its number, its ``prev``, its hash over the row it names
    (``content_of(entry)``: the content, or ``None`` for no row); then the head, and that
    no filed row lies outside the chain (``unchained``: kind and id of each)."""
    # The head first: what other servers file meanwhile lies past it and is left for the
    # next check (their rows commit with their entries, so none looks unchained).
    head = session.get(Head, 1)
    last = head.seq if head is not None else 0
    prev, seq = GENESIS, 0
    for entry in session.scalars(select(Entry).where(Entry.seq <= last).order_by(Entry.seq)):
        seq += 1
        where = f"第 {entry.seq} 筆（{entry.kind} {entry.subject}）"
        if entry.seq != seq:
            return Verdict(seq - 1, prev, f"第 {seq} 筆不見了（下一筆是第 {entry.seq} 筆）", seq)
        if entry.prev != prev:
            return Verdict(seq - 1, prev, f"{where}的前一筆雜湊不符：前面的紀錄被改過或刪過",
                           seq)
        try:
            content = content_of(entry)
        except LookupError as missing:
            return Verdict(seq - 1, prev, f"{where}：{missing.args[0]}", seq)
        if entry_hash(entry, content) != entry.hash:
            return Verdict(seq - 1, prev, f"{where}的內容與雜湊不符：存檔後被改過", seq)
        prev = entry.hash
    if head is None or (head.seq, head.hash) != (seq, prev):
        return Verdict(seq, prev, f"檔案鏈的結尾不符：記為第 {head.seq if head else 0} 筆，"
                                  f"實有 {seq} 筆（最後的紀錄被刪過或改過）", seq + 1)
    for kind, ident in unchained:
        return Verdict(seq, prev, f"{kind} {ident} 不在檔案鏈上：不是由裁判桌存入的", None)
    return Verdict(seq, prev)
