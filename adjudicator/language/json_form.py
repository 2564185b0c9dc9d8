"""The JSON form of an incident log: what platforms and the web desk send instead of text.

One object per log (docs/incident.schema.json): ``header``, ``positions`` and ``events``,
with the verbs, chairs and tile names of incident-language.md and the fields of
``language/incident.py`` (``tiles``, ``using``, ``replacement``, ``note``, ``target``,
``what``).

JSON is turned into the text language and read by the one reader, rather than built into an
Incident directly: the reader is the single place that knows what a well-formed act is (a
chow's two tiles, a flower verb's flowers, names of players), so a JSON log and a text log
cannot come to mean different things.  Each generated line remembers which part of the
object it came from, and a reader error is reported against that part (``events[7]``),
never against a line the sender did not write.

``to_json_form`` goes the other way, from an Incident: text → JSON → text judges the same
(tests/language/test_json_form.py checks it over every case).
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from importlib.resources import files
from typing import Any

from adjudicator.language import reader
from adjudicator.language import tiles as tl
from adjudicator.language.errors import LogError
from adjudicator.language.form_format import FORMAT, VERSION, FormError
from adjudicator.language.incident import Act, Incident, Meld, Position, WallCount
from adjudicator.language.vocabulary import VERB_CLASSES

# header field → the text language's key, for the fields that are one value.
_HEADER_KEYS = {"profile": "規則", "round_wind": "圈風", "dealer": "莊家", "streak": "連莊",
                "shown_streak": "示記", "open_seat": "開門", "base": "底", "per_tai": "台",
                "wall": "牌牆", "start": "起點"}
# Header fields for reports and archives, free text as written (spaces allowed).
_TEXT_KEYS = {"date": "日期", "venue": "場地", "table": "桌號", "referee": "裁判", "hand": "盤號"}


MAX_DEPTH = 16  # nesting of JSON arrays and objects; a log's JSON form needs four
MAX_DIGITS = 20  # digits of a JSON number: no count, stake or act number needs more


class UnknownField(FormError):
    """A field the format does not have (a misspelling, most often), never silently
    ignored: it names the field and the nearest known one."""

    def __init__(self, where: str, field: str, known: list[str]) -> None:
        from adjudicator.language.suggest import nearest

        self.field = field
        self.nearest = nearest(field, known)
        guess = f"；是不是要寫「{self.nearest}」？" if self.nearest else ""
        super().__init__(where, f"沒有「{field}」這個欄位{guess}（可用的有 {'、'.join(known)}）")


class JsonError(FormError):
    """Text that is not JSON we take: the line and column (of the JSON) and why, in words."""

    def __init__(self, line: int, column: int, message: str, code: str = "bad_json") -> None:
        self.line, self.column, self.code = line, column, code
        super().__init__(f"第 {line} 行第 {column} 字", message)


# Python's json messages (their start) in the referee's words.
_JSON_WORDS = (
    ("Expecting value", "這裡應是一個值（字串、數字、true、false、null、物件或陣列）"),
    ("Expecting property name", "這裡應是以雙引號括住的欄位名"),
    ("Expecting ',' delimiter", "這裡應是逗號「,」或結束的括號"),
    ("Expecting ':' delimiter", "欄位名之後應是冒號「:」"),
    ("Unterminated string", "字串沒有結束：少了右邊的雙引號"),
    ("Invalid control character", "字串裡有控制字元（換行要寫成 \\n）"),
    ("Invalid \\escape", "字串裡的反斜線後面不是有效的跳脫字元"),
    ("Invalid \\uXXXX escape", "\\u 後面應是四個十六進位數字"),
    ("Extra data", "JSON 已經結束，後面卻還有內容"),
    ("Illegal trailing comma", "最後一項後面多了逗號"),
)
# A JSON string (its escapes skipped whole), a number too long to be one we take, or a
# bracket: what load() looks at before parsing.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?[0-9]{' + str(MAX_DIGITS + 1) + r',}|[\[\]{}]')
# C0/C1 controls but tab and line ends, and the bidirectional overrides that change how
# text is shown without being text: no field of a log may hold one (the desk refuses them
# in a text log too, desk/limits.py).
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")


def _place(text: str, at: int) -> tuple[int, int]:
    """Line and column (1-based, in characters) of position ``at`` of ``text``."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def _words(message: str) -> str:
    return next((words for start, words in _JSON_WORDS if message.startswith(start)),
                f"不是有效的 JSON（{message}）")


class _Refusal(Exception):
    """Raised inside the decoder's hooks; load() turns it into a JsonError with a place."""

    def __init__(self, literal: str, message: str, again: bool = False) -> None:
        self.literal, self.message = literal, message
        self.again = again  # at the literal's second occurrence (a key written twice)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Refusal(json.dumps(key, ensure_ascii=False), f"欄位「{key}」寫了兩次", True)
        found[key] = value
    return found


def _number(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _Refusal(literal, f"數字 {literal} 太大")
    return value


def _constant(literal: str) -> float:
    raise _Refusal(literal, f"JSON 沒有 {literal}：數字要寫成一般的數字")


def load(text: str) -> Any:
    """``text`` decoded as JSON, or ``JsonError`` saying where (line and column of the JSON)
    and why: not JSON, nested deeper than ``MAX_DEPTH`` (refused before parsing: Python's
    parser recurses), a number of more than ``MAX_DIGITS`` digits, NaN or Infinity, a key
    written twice, or a ``\\u`` escape that is half of a surrogate pair (no character)."""
    level = 0
    for token in _TOKENS.finditer(text):
        first = token.group()[0]
        if first in "[{":
            level += 1
            if level > MAX_DEPTH:
                raise JsonError(*_place(text, token.start()),
                                f"JSON 巢狀過深：至多 {MAX_DEPTH} 層", "too_deep")
        elif first in "]}":
            level -= 1
        elif first != '"':
            raise JsonError(*_place(text, token.start()),
                            f"數字過長：至多 {MAX_DIGITS} 位", "bad_json")
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_float=_number,
                          parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise JsonError(err.lineno, err.colno, f"JSON 格式錯誤：{_words(err.msg)}") from None
    except _Refusal as err:
        at = text.find(err.literal)
        if err.again:
            at = text.find(err.literal, at + 1)
        raise JsonError(*_place(text, max(at, 0)), err.message) from None
    if _has_surrogate(data):
        raise JsonError(*_place(text, _surrogate_at(text)),
                        "\\u 跳脫寫的是半個代理對（surrogate），不是字元", "bad_encoding")
    return data


def _has_surrogate(value: Any) -> bool:
    # The nesting is at most MAX_DEPTH: the recursion is bounded.
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def _surrogate_at(text: str) -> int:
    """Where the first string holding a lone surrogate escape starts its bad escape."""
    for token in _TOKENS.finditer(text):
        if not token.group().startswith('"'):
            continue
        escapes = list(_ESCAPE.finditer(token.group()))
        for i, esc in enumerate(escapes):
            code = int(esc.group(1)[1:], 16) if esc.group(1)[0] == "u" else 0
            paired = (i + 1 < len(escapes) and escapes[i + 1].start() == esc.end()
                      and escapes[i + 1].group(1)[0] == "u"
                      and 0xDC00 <= int(escapes[i + 1].group(1)[1:], 16) <= 0xDFFF)
            after_high = (i > 0 and escapes[i - 1].end() == esc.start()
                          and escapes[i - 1].group(1)[0] == "u"
                          and 0xD800 <= int(escapes[i - 1].group(1)[1:], 16) <= 0xDBFF)
            if 0xD800 <= code <= 0xDBFF and not paired or 0xDC00 <= code <= 0xDFFF \
                    and not after_high:
                return token.start() + esc.start()
    return 0


def looks_like_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def read_any(text: str) -> Incident:
    """A log in any accepted form: the text language, this JSON form, or an imported record.

    Raises ``LogError`` for text and ``FormError`` for JSON that cannot be read.
    """
    if not looks_like_json(text):
        return reader.read(text)
    return from_object(load(text.lstrip("\ufeff")))


@cache
def schema() -> dict[str, Any]:
    """docs/incident.schema.json, which ships in the package (the API's OpenAPI shows it)."""
    return json.loads((files(__package__) / "incident.schema.json").read_text("utf-8"))


@cache
def _known(part: str) -> list[str]:
    """The fields an object of the JSON form may have, by the schema: ``part`` is one of
    top, header, side_bet, position, meld, event, wall."""
    s = schema()
    found = {
        "top": s["properties"], "header": s["properties"]["header"]["properties"],
        "side_bet": s["properties"]["header"]["properties"]["side_bets"]["items"]["properties"],
        "position": s["$defs"]["position"]["properties"],
        "meld": s["$defs"]["position"]["properties"]["melds"]["items"]["properties"],
        "event": s["$defs"]["event"]["properties"],
        "wall": s["properties"]["events"]["items"]["oneOf"][1]["properties"],
    }[part]
    return list(found)


def _fields(value: dict[str, Any], part: str, where: str) -> None:
    known = _known(part)
    for key in value:
        if key not in known:
            raise UnknownField(where, key, known)


def from_object(data: Any) -> Incident:
    """An Incident from a decoded JSON object of any accepted JSON format."""
    if not isinstance(data, dict):
        raise FormError("", "紀錄應是一個 JSON 物件")
    fmt = data.get("format")
    if fmt == FORMAT:
        return read_form(data)
    from adjudicator.language.importers import record_v1

    if fmt == record_v1.FORMAT:
        return read_form(record_v1.to_form(data))
    raise FormError("format", f"不認得的格式 {fmt!r}；可用的有 {FORMAT!r}、{record_v1.FORMAT!r}")


def origin(text: str, line: int) -> str:
    """The part of the JSON log ``text`` that line ``line`` of its log text came from."""
    data = load(text.lstrip("\ufeff"))
    if data.get("format") != FORMAT:
        from adjudicator.language.importers import record_v1

        data = record_v1.to_form(data)
    origins = to_text(data)[1]
    return origins[line - 1] if 0 < line <= len(origins) else ""


def read_form(data: dict[str, Any]) -> Incident:
    """Read one object of the JSON form."""
    _fields(data, "top", "")
    if data.get("version", VERSION) != VERSION:
        raise FormError("version", f"只支援第 {VERSION} 版")
    text, origins = to_text(data)
    try:
        return reader.read(text)
    except LogError as err:
        where = origins[err.line - 1] if 0 < err.line <= len(origins) else ""
        raise FormError(where, f"{err.message}（轉成紀錄文字為「{err.source_line.strip()}」）") \
            from err


# ------------------------------------------------------------------ JSON → text


def to_text(data: dict[str, Any]) -> tuple[str, list[str]]:
    """The log text of a JSON-form object, and for each line the part it came from."""
    lines: list[str] = []
    origins: list[str] = []

    def emit(line: str, origin: str) -> None:
        if "\n" in line:
            raise FormError(origin, "欄位中不可有換行")
        if (found := CONTROL.search(line)) is not None:
            raise FormError(origin, f"欄位中不可有控制字元（U+{ord(found.group()):04X}）")
        lines.append(line)
        origins.append(origin)

    header = _obj(data.get("header", {}), "header")
    _fields(header, "header", "header")
    for key, word in _HEADER_KEYS.items():
        if header.get(key) is not None:
            emit(f"{word}: {_word(header[key], f'header.{key}')}", f"header.{key}")
    for key, word in _TEXT_KEYS.items():
        if header.get(key) is not None:
            emit(f"{word}: {_text_value(header[key], f'header.{key}')}", f"header.{key}")
    players = _obj(header.get("players", {}), "header.players")
    if players:
        pairs = " ".join(f"{_word(seat, 'header.players')}={_word(name, 'header.players')}"
                         for seat, name in players.items())
        emit(f"玩家: {pairs}", "header.players")
    for i, bet in enumerate(_list(header.get("side_bets", []), "header.side_bets")):
        where = f"header.side_bets[{i}]"
        bet = _obj(bet, where)
        _fields(bet, "side_bet", where)
        parts = [bet.get("kind"), bet.get("bettor"), bet.get("seat"), bet.get("amount")]
        refused = _list(bet.get("refused", []), f"{where}.refused")
        if refused:
            parts += ["不受", *refused]
        emit("插花: " + " ".join(_word(p, where) for p in parts if p is not None), where)
    for i, position in enumerate(_list(data.get("positions", []), "positions")):
        emit(_position(_obj(position, f"positions[{i}]"), f"positions[{i}]"), f"positions[{i}]")
    emit("紀錄:", "events")
    for i, event in enumerate(_list(data.get("events", []), "events")):
        where = f"events[{i}]"
        event = _obj(event, where)
        if "wall" in event and "verb" not in event:
            _fields(event, "wall", where)
            emit(f"牌牆: {_word(event['wall'], where)}", where)
        elif "kind" in event and "verb" not in event:
            emit(_position(event, where), where)
        else:
            _fields(event, "event", where)
            emit(_event(event, where), where)
    return "\n".join(lines) + "\n", origins


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FormError(where, "應是 JSON 物件")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormError(where, "應是 JSON 陣列")
    return value


def _word(value: Any, where: str) -> str:
    """One word of the text language: a string without spaces, or a whole number."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FormError(where, f"應是字串或整數，而非 {json.dumps(value, ensure_ascii=False)}")
    text = str(value)
    if not text or any(ch.isspace() for ch in text) or "#" in text or "＃" in text:
        raise FormError(where, f"「{text}」不可為空，也不可含空白或 #")
    return text


def _text_value(value: Any, where: str) -> str:
    """A free-text header value: one line, no comment sign."""
    if isinstance(value, bool) or not isinstance(value, str | int) or not str(value).strip():
        raise FormError(where, "應是非空的字串")
    text = str(value)
    if "\n" in text or "#" in text or "＃" in text:
        raise FormError(where, "不可含換行或 #")
    return text


def _tiles(value: Any, where: str) -> list[str]:
    return [_word(t, where) for t in _list(value, where)]


def _position(pos: dict[str, Any], where: str) -> str:
    _fields(pos, "position", where)
    seat, kind = _word(pos.get("seat"), where), _word(pos.get("kind"), where)
    if kind == "門前":
        melds = []
        for j, meld in enumerate(_list(pos.get("melds", []), f"{where}.melds")):
            meld = _obj(meld, f"{where}.melds[{j}]")
            _fields(meld, "meld", f"{where}.melds[{j}]")
            tiles = _tiles(meld.get("tiles", []), f"{where}.melds[{j}]")
            melds.append(" ".join([_word(meld.get("kind"), f"{where}.melds[{j}]"), *tiles]))
        return f"{seat} 門前: {' / '.join(melds)}"
    return f"{seat} {kind}: {' '.join(_tiles(pos.get('tiles', []), where))}"


def _event(ev: dict[str, Any], where: str) -> str:
    verb = _word(ev.get("verb"), f"{where}.verb")
    words = [] if ev.get("seq") is None else [_word(ev["seq"], f"{where}.seq")]
    if verb != "荒局" or ev.get("actor") not in (None, "牌局"):
        words.append(_word(ev.get("actor"), f"{where}.actor"))
    words.append(verb)
    tiles = _tiles(ev.get("tiles", []), f"{where}.tiles")
    target, what = ev.get("target"), ev.get("what")
    if verb in VERB_CLASSES["accuses"]:
        words += [_word(target, f"{where}.target"), _word(what, f"{where}.what"), *tiles]
    elif verb == "自承":
        words += [_word(what, f"{where}.what"), *tiles]
    elif verb == "弄亂":
        words += ["牌牆"] if what == "牌牆" else [_word(target, f"{where}.target"), "手牌"]
    elif verb == "檢查":
        words.append("暗杠")
    else:
        words += tiles
        if ev.get("using"):
            words += ["用", *_tiles(ev["using"], f"{where}.using")]
        if ev.get("replacement") is not None:
            words += ["補", _word(ev["replacement"], f"{where}.replacement")]
    if ev.get("note") is not None:
        note = ev["note"]
        if not isinstance(note, str) or "）" in note or "\n" in note:
            raise FormError(f"{where}.note", "應是一行不含「）」的文字")
        words.append(f"（{note}）")
    return " ".join(words)


# ------------------------------------------------------------------ Incident → JSON


def to_json_form(incident: Incident) -> dict[str, Any]:
    """The JSON form of a read log (expectations, which a judge ignores, are left out)."""
    h = incident.header
    header: dict[str, Any] = {"profile": h.profile, "round_wind": h.round_wind}
    for key in ("dealer", "streak", "shown_streak", "open_seat", "base", "per_tai", "wall",
                "start", *_TEXT_KEYS):
        value = getattr(h, key)
        if value is not None:
            header[key] = int(value) if isinstance(value, int) else str(value)
    if h.players:
        header["players"] = {seat: name for name, seat in h.players.items()}
    if h.side_bets:
        header["side_bets"] = [
            {"kind": b.kind, **({"bettor": b.bettor} if b.bettor else {}), "seat": b.seat,
             "amount": b.amount, **({"refused": list(b.refused)} if b.refused else {})}
            for b in h.side_bets]
    events: list[dict[str, Any]] = []
    for item in incident.record:
        if isinstance(item, Act):
            events.append(_act_json(item))
        elif isinstance(item, WallCount):
            events.append({"wall": item.count})
        else:
            events.append(_position_json(item))
    return {"format": FORMAT, "version": VERSION, "header": header,
            "positions": [_position_json(p) for p in incident.positions], "events": events}


def _names(tiles: tuple[int, ...]) -> list[str]:
    return [tl.name(t) for t in tiles]


def _meld_json(meld: Meld) -> dict[str, Any]:
    return {"kind": meld.kind, "tiles": _names(meld.tiles)}


def _position_json(pos: Position) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": pos.seat, "kind": pos.kind}
    if pos.kind == "門前":
        out["melds"] = [_meld_json(m) for m in pos.melds]
    else:
        out["tiles"] = _names(pos.tiles)
    return out


def _act_json(act: Act) -> dict[str, Any]:
    # An unnumbered line stays unnumbered: where a record starts can hang on it.
    out: dict[str, Any] = {"seq": act.seq} if act.numbered else {}
    out.update(actor=act.actor, verb=act.verb)
    if act.tiles:
        out["tiles"] = _names(act.tiles)
    if act.using:
        out["using"] = _names(act.using)
    if act.replacement is not None:
        out["replacement"] = tl.name(act.replacement)
    for key in ("note", "target", "what"):
        if getattr(act, key) is not None:
            out[key] = getattr(act, key)
    return out
