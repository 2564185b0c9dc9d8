"""The base of every table the archive database holds (archive.py, ledger.py, accounts.py)."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass
