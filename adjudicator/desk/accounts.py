"""Who may use the desk: accounts (a name, a role, an argon2 password hash) and bearer
tokens for platforms (kept as their SHA-256, shown once), in the archive's database.

Roles rise: a viewer reads the archive; a referee also judges, files, corrects and
withdraws; an admin also manages accounts and tokens.  A token is 256 random bits, so a
plain SHA-256 of it is enough to find and check it (a password needs a slow hash).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import String, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from adjudicator.desk.schema import Base

ROLES = ("viewer", "referee", "admin")
ROLE_WORDS = {"viewer": "檢視者", "referee": "裁判", "admin": "管理者"}
MIN_PASSWORD = 10
TOKEN_PREFIX = "adj_"
_hasher = PasswordHasher()  # argon2id, RFC 9106's low-memory profile


class AccountError(ValueError):
    """A refused change to the accounts, said in words for the command line."""


class Account(Base):
    __tablename__ = "accounts"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    password: Mapped[str] = mapped_column(String(200))  # argon2 hash
    created: Mapped[str] = mapped_column(String(40))

    @property
    def stamp(self) -> str:
        """Changes with the password: a session signed with an older one is void."""
        return hashlib.sha256(self.password.encode()).hexdigest()[:16]


class Token(Base):
    __tablename__ = "tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # shown, for revoke
    name: Mapped[str] = mapped_column(String(64))  # the platform it was given to
    role: Mapped[str] = mapped_column(String(16))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[str] = mapped_column(String(40))
    revoked: Mapped[str | None] = mapped_column(String(40), nullable=True)


class Secret(Base):
    """The key that signs the desk's cookies, shared by every server on this archive."""

    __tablename__ = "desk_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


@dataclass(frozen=True)
class Who:
    """Who a request is from: a signed-in account, a token's platform, or the open desk."""

    name: str
    role: str
    via: str  # "session" | "token" | "open"

    def may(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)

    @property
    def label(self) -> str:
        """How the archive names the filer."""
        return {"session": self.name, "token": f"token:{self.name}",
                "open": f"open:{self.name}"}[self.via]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"沒有「{role}」這個角色；可用的有 {'、'.join(ROLES)}")
    return role


def _name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > 64 or any(c.isspace() or not c.isprintable() for c in name):
        raise AccountError("名稱須為 1–64 個字元，不含空白或控制字元")
    return name


def add_user(engine: Engine, name: str, password: str, role: str) -> None:
    name, role = _name(name), _role(role)
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"密碼至少 {MIN_PASSWORD} 個字元")
    try:
        with Session(engine) as session, session.begin():
            session.add(Account(name=name, role=role, password=_hasher.hash(password),
                                created=_now()))
    except IntegrityError:
        raise AccountError(f"已有名為「{name}」的帳號") from None


def set_password(engine: Engine, name: str, password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"密碼至少 {MIN_PASSWORD} 個字元")
    with Session(engine) as session, session.begin():
        done = session.execute(update(Account).where(Account.name == name)
                               .values(password=_hasher.hash(password)))
    if not done.rowcount:
        raise AccountError(f"沒有名為「{name}」的帳號")


def users(engine: Engine) -> list[Account]:
    with Session(engine) as session:
        return list(session.scalars(select(Account).order_by(Account.name)))


def remove_user(engine: Engine, name: str) -> None:
    with Session(engine) as session, session.begin():
        done = session.execute(delete(Account).where(Account.name == name))
    if not done.rowcount:
        raise AccountError(f"沒有名為「{name}」的帳號")


def account(engine: Engine, name: str) -> Account | None:
    with Session(engine) as session:
        return session.get(Account, name)


# Checked when the name is unknown, so that a wrong name costs as long as a wrong password.
_DUMMY = _hasher.hash(secrets.token_hex(16))


def check_password(engine: Engine, name: str, password: str) -> Account | None:
    """The account if the password is its own, else ``None`` (slow either way)."""
    found = account(engine, name)
    try:
        _hasher.verify(found.password if found else _DUMMY, password)
    except (VerificationError, InvalidHashError):
        return None
    if found is None:
        return None
    if _hasher.check_needs_rehash(found.password):
        set_password(engine, name, password)
        found = account(engine, name)
    return found


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(engine: Engine, name: str, role: str) -> tuple[str, str]:
    """A new token for a platform: its id (for revoke) and the secret, shown only now."""
    name, role = _name(name), _role(role)
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ident = secrets.token_hex(4)
    with Session(engine) as session, session.begin():
        session.add(Token(id=ident, name=name, role=role, digest=_digest(secret),
                          created=_now()))
    return ident, secret


def tokens(engine: Engine) -> list[Token]:
    with Session(engine) as session:
        return list(session.scalars(select(Token).order_by(Token.created, Token.id)))


def revoke_token(engine: Engine, ident: str) -> int:
    """Revoke the token with this id, or every live token given to this name; how many."""
    with Session(engine) as session, session.begin():
        done = session.execute(
            update(Token).where((Token.id == ident) | (Token.name == ident),
                                Token.revoked.is_(None)).values(revoked=_now()))
    if not done.rowcount:
        raise AccountError(f"沒有 id 或名稱為「{ident}」且仍有效的權杖")
    return int(done.rowcount)


def token_holder(engine: Engine, secret: str) -> Who | None:
    if not secret.startswith(TOKEN_PREFIX):
        return None
    with Session(engine) as session:
        found = session.scalars(select(Token).where(
            Token.digest == _digest(secret), Token.revoked.is_(None))).first()
    return Who(found.name, found.role, "token") if found else None


def any_credentials(engine: Engine) -> bool:
    """Whether anyone can sign in: an account, or a token not revoked."""
    with Session(engine) as session:
        return (session.scalars(select(Account.name).limit(1)).first() is not None
                or session.scalars(select(Token.id).where(Token.revoked.is_(None))
                                   .limit(1)).first() is not None)


def signing_key(engine: Engine) -> str:
    """The archive's cookie key, made on first use (every server on it reads the same)."""
    with Session(engine) as session:
        found = session.get(Secret, "cookies")
        if found is not None:
            return found.value
    try:
        with Session(engine) as session, session.begin():
            session.add(Secret(name="cookies", value=secrets.token_urlsafe(48)))
    except IntegrityError:
        pass  # another server made it first
    with Session(engine) as session:
        made = session.get(Secret, "cookies")
        assert made is not None
        return made.value
