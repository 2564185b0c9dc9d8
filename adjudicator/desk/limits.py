"""What the desk refuses before any judging: big bodies, deep JSON, control characters.

Each refusal is an ``Refused`` carrying the HTTP status and the JSON error (with line and
column where the fault has one), the one shape every API error has.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request

from adjudicator.desk.service import error

MAX_BODY = 256 * 1024  # bytes
MAX_DEPTH = 16  # nesting of JSON arrays and objects; a log's JSON form needs two or three
# C0/C1 controls but tab and line ends, and the bidirectional overrides that change how
# text is shown without being text.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class Refused(Exception):
    def __init__(self, status: int, payload: dict[str, Any]) -> None:
        super().__init__(payload["error"]["message"])
        self.status = status
        self.payload = payload


def too_large() -> Refused:
    return Refused(413, error(f"內容過大：至多 {MAX_BODY // 1024} KB", "too_large"))


async def body(request: Request) -> bytes:
    """The request body, refused as soon as it passes ``MAX_BODY`` (declared or streamed)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise too_large()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large()
        chunks.append(chunk)
    return b"".join(chunks)


def depth(raw: bytes) -> int:
    """How deeply JSON arrays and objects nest in ``raw`` (strings skipped), without parsing:
    Python's parser recurses, so a deep document must be refused before it is parsed."""
    deepest = level = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            level += 1
            deepest = max(deepest, level)
        elif byte in (0x5D, 0x7D):
            level -= 1
    return deepest


def parse_json(raw: bytes) -> Any:
    if depth(raw) > MAX_DEPTH:
        raise Refused(400, error(f"JSON 巢狀過深：至多 {MAX_DEPTH} 層", "too_deep"))
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise Refused(400, error("內容須為 UTF-8", "bad_encoding", 1, err.start + 1)) from None
    except json.JSONDecodeError as err:
        raise Refused(400, error(f"JSON 格式錯誤：{err.msg}", "bad_json", err.lineno,
                                 err.colno)) from None


def check_text(text: str) -> None:
    """Refuse control characters (other than tab and line ends) and bidirectional overrides."""
    found = _CONTROL.search(text)
    if found is None:
        return
    before = text[:found.start()]
    line = before.count("\n") + 1
    column = found.start() - (before.rfind("\n") + 1) + 1
    raise Refused(400, error(
        f"第 {line} 行第 {column} 字：紀錄裡不能有控制字元（U+{ord(found.group()):04X}）",
        "control_character", line, column))
