"""What the desk refuses before any judging: big bodies, deep JSON, control characters,
lines longer than any log's.

Each refusal is an ``Refused`` carrying the HTTP status and the JSON error (with line and
column where the fault has one), the one shape every API error has.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from adjudicator.desk.service import error

MAX_BODY = 256 * 1024  # bytes
# A log's longest lines (a hand shown, a narration) are some two hundred characters.  A
# longer line is refused here, in the server, at once: else, being a long log, it would
# wait its turn in the long lane (desk/pool.py) behind the longest logs to be refused there.
MAX_LINE = 2_000  # characters


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


def parse_json(raw: bytes) -> Any:
    """The body as JSON (language/json_form.load: its depth, numbers, keys and escapes
    checked), or ``Refused`` 400 with the line and column of the JSON at fault."""
    from adjudicator.language.json_form import JsonError, load

    try:
        return load(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise Refused(400, error("內容須為 UTF-8", "bad_encoding", 1, err.start + 1)) from None
    except JsonError as err:
        raise Refused(400, error(str(err), err.code, err.line, err.column)) from None


def check_text(text: str) -> None:
    """Refuse control characters (other than tab and line ends), bidirectional overrides and
    lines longer than ``MAX_LINE`` (a line of the log language: the JSON form is bounded by
    its body's size and depth instead, and is often one line)."""
    from adjudicator.language.json_form import CONTROL, looks_like_json

    if len(text) > MAX_LINE and not looks_like_json(text):
        lengths = [len(line) for line in text.split("\n")]
        if max(lengths) > MAX_LINE:
            line = next(n for n, length in enumerate(lengths, 1) if length > MAX_LINE)
            raise Refused(400, error(
                f"第 {line} 行過長（{lengths[line - 1]:,} 字）：一行至多 {MAX_LINE:,} 字",
                "line_too_long", line, MAX_LINE + 1))
    found = CONTROL.search(text)
    if found is None:
        return
    before = text[:found.start()]
    line = before.count("\n") + 1
    column = found.start() - (before.rfind("\n") + 1) + 1
    raise Refused(400, error(
        f"第 {line} 行第 {column} 字：紀錄裡不能有控制字元（U+{ord(found.group()):04X}）",
        "control_character", line, column))
