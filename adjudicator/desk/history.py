"""What a permalink shows of its chain entries: the verification code printed on a report,
and the history of a ruling (what the players were first told, each correction and its
reason, a withdrawal).

The stored report is kept exactly as it was given (its hash covers it); the code is added
where the report is shown or downloaded, since it is the hash of the entry that holds it.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from adjudicator.desk.ledger import Entry

KIND_WORDS = {"ruling": "存檔", "match": "存檔", "correction": "更正", "withdrawal": "撤回"}
VERIFY = "adjudicator archive verify"


def e(value: object) -> str:
    return escape(str(value), quote=True)


def versions(entries: list[Entry]) -> list[Entry]:
    """The entries that hold a version of the ruling (the filing and each correction)."""
    return [x for x in entries if x.record is not None]


def shown_entry(entries: list[Entry], version: int | None) -> Entry | None:
    kept = versions(entries)
    if not kept:
        return None
    return kept[-1] if version is None else kept[version - 1]


def withdrawal(entries: list[Entry]) -> Entry | None:
    """The withdrawal that stands: one after the last version filed."""
    last = entries[-1] if entries else None
    return last if last is not None and last.kind == "withdrawal" else None


def code_line(entry: Entry) -> str:
    return f"驗證碼 {entry.code}（檔案鏈第 {entry.seq} 筆；{VERIFY}）"


def stamp_html(html: str, entry: Entry | None) -> str:
    if entry is None:
        return html
    line = f'<p class="verification" id="verification">{e(code_line(entry))}</p>'
    return html.replace("</body>", line + "</body>", 1) if "</body>" in html else html + line


def stamp_md(md: str, entry: Entry | None) -> str:
    return md if entry is None else md.rstrip("\n") + f"\n\n{code_line(entry)}\n"


def stamp(ext: str, content: str, entry: Entry | None) -> str:
    if ext == "html":
        return stamp_html(content, entry)
    if ext == "md":
        return stamp_md(content, entry)
    return content


def summary(entries: list[Entry]) -> dict[str, Any]:
    """The history as the JSON API gives it."""
    out = withdrawal(entries)
    return {"versions": len(versions(entries)), "withdrawn": out is not None,
            "history": [x.summary() for x in entries]}


def box(base: str, entries: list[Entry], shown: Entry | None, may_amend: bool) -> str:
    """The permalink bar's history: every entry, the one shown marked, links to each
    version (``?v=1`` is what the players were first told)."""
    out = withdrawal(entries)
    notice = ""
    if out is not None:
        notice = (f'<p class="withdrawn" id="withdrawn"><b>已撤回</b>（{e(out.created[:16])}，'
                  f'{e(out.filed_by or "—")}）：{e(out.reason)}。以下為撤回前的裁決。</p>')
    kept = versions(entries)
    if shown is not None and kept and shown is not kept[-1]:
        notice += (f'<p class="superseded" id="superseded">這是較早的版本；'
                   f'<a href="{e(base)}">現行的裁決</a>已更正。</p>')
    items = []
    number = 0
    for x in entries:
        label = KIND_WORDS[x.kind]
        if x.record is not None:
            number += 1
            label = f'<a href="{e(base)}?v={number}">第 {number} 版</a> {label}'
            if number == 1:
                label += "（最初告知的裁決）"
        mark = ' class="shown"' if x is shown else ""
        reason = f"：{e(x.reason)}" if x.reason else ""
        items.append(f'<li{mark} data-kind="{e(x.kind)}">{label} {e(x.created[:16])} '
                     f'{e(x.filed_by or "—")}{reason} <code>{e(x.code)}</code></li>')
    amend = (f' <a href="{e(base)}/amend" id="amend">更正或撤回</a>' if may_amend else "")
    if len(entries) <= 1 and not amend:
        return notice
    return (f'{notice}<details class="desk-history" id="history"'
            f'{" open" if len(entries) > 1 else ""}><summary>紀錄沿革（{len(entries)} 筆）'
            f'</summary><ol>{"".join(items)}</ol></details>{amend}')


def version_query(version: int | None) -> str:
    return f"?v={version}" if version is not None else ""


def permalink(folder: str, ident: str) -> str:
    return f"/{folder}/{quote(ident)}"
