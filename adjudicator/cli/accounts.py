"""``adjudicator users | tokens | archive``: the desk's accounts, platform tokens and the
archive's chain, on the archive database (``--db``, as ``serve`` takes it)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

DB = Annotated[str | None, typer.Option(
    help="裁決檔案的資料庫（同 serve --db；預設為本資料夾的 adjudicator-archive.db）")]
ROLE = Annotated[str, typer.Option(help="角色：viewer（檢視）、referee（裁判）、admin（管理）")]

users = typer.Typer(help="裁判桌的帳號：新增、列出、刪除、改密碼。", no_args_is_help=True)
tokens = typer.Typer(help="平台的 API 權杖（Authorization: Bearer）：建立、列出、撤銷。",
                     no_args_is_help=True)
archive = typer.Typer(help="裁決檔案：檢查檔案鏈。", no_args_is_help=True)


def _open(db: str | None, create: bool = False):  # noqa: ANN202 (Archive, imported late)
    """The archive ``db``; exit 2 naming it when it cannot be opened, or is not there and
    ``create`` is not asked (only adding the first account or token makes one, and says so)."""
    from adjudicator.desk.archive import Archive, NoArchive

    try:
        try:
            return Archive(db, create=False)
        except NoArchive as missing:
            if not create:
                print(f"{missing}；請以 --db 指定裁決檔案（同 serve --db）", file=sys.stderr)
                raise typer.Exit(2) from None
            made = Archive(db)
            print(f"新建裁決檔案：{db or made.engine.url}", file=sys.stderr)
            return made
    except typer.Exit:
        raise
    except Exception as err:  # an unreachable database, a bad URL, a missing driver
        print(f"無法開啟裁決檔案 {db or '（預設 SQLite 檔）'}：{err}", file=sys.stderr)
        raise typer.Exit(2) from None


def _engine(db: str | None, create: bool = False):  # noqa: ANN202 (SQLAlchemy's Engine)
    return _open(db, create).engine


def _password(given_stdin: bool) -> str:
    """The password: one line of standard input with ``--password-stdin``, else asked
    twice without echo."""
    if given_stdin or not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    first = typer.prompt("密碼", hide_input=True)
    if typer.prompt("再輸入一次", hide_input=True) != first:
        print("兩次輸入的密碼不同", file=sys.stderr)
        raise typer.Exit(2)
    return str(first)


def _refused(err: Exception) -> typer.Exit:
    print(str(err), file=sys.stderr)
    return typer.Exit(2)


@users.command("add")
def users_add(name: str, role: ROLE = "referee", db: DB = None,
              password_stdin: Annotated[bool, typer.Option(
                  help="從標準輸入讀一行密碼（給腳本用）")] = False) -> None:
    """新增帳號（密碼以 argon2 雜湊存放）。"""
    from adjudicator.desk.accounts import AccountError, add_user

    engine = _engine(db, create=True)
    try:
        add_user(engine, name, _password(password_stdin), role)
    except AccountError as err:
        raise _refused(err) from None
    print(f"已新增帳號 {name}（{role}）")


@users.command("password")
def users_password(name: str, db: DB = None,
                   password_stdin: Annotated[bool, typer.Option(
                       help="從標準輸入讀一行密碼")] = False) -> None:
    """改帳號的密碼（該帳號已登入的工作階段隨即失效）。"""
    from adjudicator.desk.accounts import AccountError, set_password

    engine = _engine(db)
    try:
        set_password(engine, name, _password(password_stdin))
    except AccountError as err:
        raise _refused(err) from None
    print(f"已更改 {name} 的密碼")


@users.command("list")
def users_list(db: DB = None) -> None:
    """列出帳號與角色。"""
    from adjudicator.desk.accounts import users as all_users

    for account in all_users(_engine(db)):
        print(f"{account.name}\t{account.role}\t{account.created}")


@users.command("remove")
def users_remove(name: str, db: DB = None) -> None:
    """刪除帳號（其工作階段隨即失效；它存過的裁決仍記著它的名字）。"""
    from adjudicator.desk.accounts import AccountError, remove_user

    try:
        remove_user(_engine(db), name)
    except AccountError as err:
        raise _refused(err) from None
    print(f"已刪除帳號 {name}")


@tokens.command("create")
def tokens_create(name: Annotated[str, typer.Argument(help="拿到權杖的平台名稱")],
                  role: ROLE = "referee", db: DB = None) -> None:
    """建立權杖：只在此時顯示一次（存放的是它的 SHA-256）。"""
    from adjudicator.desk.accounts import AccountError, create_token

    try:
        ident, secret = create_token(_engine(db, create=True), name, role)
    except AccountError as err:
        raise _refused(err) from None
    print(f"權杖 {ident}（{name}，{role}）——請現在抄下，之後不再顯示：", file=sys.stderr)
    print(secret)


@tokens.command("list")
def tokens_list(db: DB = None) -> None:
    """列出權杖（id、平台、角色、建立與撤銷時間；不含權杖本身）。"""
    from adjudicator.desk.accounts import tokens as all_tokens

    for token in all_tokens(_engine(db)):
        state = f"revoked {token.revoked}" if token.revoked else "active"
        print(f"{token.id}\t{token.name}\t{token.role}\t{token.created}\t{state}")


@tokens.command("revoke")
def tokens_revoke(ident: Annotated[str, typer.Argument(help="權杖的 id，或平台名稱（撤銷其全部）")],
                  db: DB = None) -> None:
    """撤銷權杖：之後用它的請求一律 401。"""
    from adjudicator.desk.accounts import AccountError, revoke_token

    try:
        count = revoke_token(_engine(db), ident)
    except AccountError as err:
        raise _refused(err) from None
    print(f"已撤銷 {count} 個權杖")


@archive.command("verify")
def archive_verify(db: DB = None) -> None:
    """逐筆檢查檔案鏈：每筆的雜湊涵蓋紀錄、裁決 JSON、報告、程式版本、規則、存檔者與前一筆；
    全部相符結束狀態為 0，否則指出第一筆不符的並以 1 結束。"""
    from adjudicator.desk.ledger import code

    opened = _open(db)
    try:
        found = opened.verify()
    except Exception as err:
        print(f"無法開啟裁決檔案 {db or '（預設 SQLite 檔）'}：{err}", file=sys.stderr)
        raise typer.Exit(2) from None
    if found.whole:
        print(f"檔案鏈完整：{found.entries} 筆，結尾 {found.head}（驗證碼 {code(found.head)}）")
        return
    print(f"檔案鏈不符：{found.fault}", file=sys.stderr)
    print(f"（之前的 {found.entries} 筆相符）", file=sys.stderr)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(users, name="users")
    app.add_typer(tokens, name="tokens")
    app.add_typer(archive, name="archive")
