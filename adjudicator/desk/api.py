"""The JSON API for platforms and league software (documented at ``/docs``).

A log is sent as ``text/plain`` (UTF-8), as its JSON form (docs/incident.schema.json), or
as JSON ``{"text": "…", "profile": "…", "settings": {"解釋.X": "Y"}}`` (the text, or the
JSON form, in ``text``).  Every error is JSON: ``{"error": {"code", "message", "line",
"column", …}}``, with the line and column of the log (or of the JSON) at fault; a field a
body may not have is refused (422), naming it and the nearest known one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from adjudicator.desk import history, limits, security, service
from adjudicator.desk.archive import Query as ArchiveQuery
from adjudicator.desk.limits import Refused
from adjudicator.language.errors import LogError
from adjudicator.ruling.scoring import HAND_FLAGS

router = APIRouter(prefix="/api", tags=["api"])

def _inlined(node: Any, defs: dict[str, Any]) -> Any:
    """A JSON schema with its ``#/$defs/…`` references written out (they would resolve
    against the OpenAPI document, which has no ``$defs``); the form's are not recursive."""
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        if ref.startswith("#/$defs/"):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**_inlined(defs[ref.removeprefix("#/$defs/")], defs), **rest}
        return {k: _inlined(v, defs) for k, v in node.items()
                if k not in ("$schema", "$id", "$defs")}
    if isinstance(node, list):
        return [_inlined(v, defs) for v in node]
    return node


def _form_schema() -> dict[str, Any]:
    from adjudicator.language.json_form import schema

    return _inlined(schema(), schema().get("$defs", {}))


_FORM = _form_schema()
_WRAPPED = {
    "title": "{\"text\": …}", "type": "object", "required": ["text"],
    "additionalProperties": False,
    "properties": {"text": {"description": "the log: its text, or its JSON form",
                            "oneOf": [{"type": "string"}, _FORM]},
                   "profile": {"type": "string", "example": "tw16-alt"},
                   "settings": {"type": "object", "additionalProperties": {"type": "string"},
                                "example": {"解釋.八張窗": "all"}}}}
_LOG_SCHEMA = {
    "text/plain": {"schema": {"type": "string"},
                   "example": "規則: tw16\n莊家: 東\n紀錄:\n1 東 摸\n"},
    "application/json": {"schema": {"oneOf": [_WRAPPED, _FORM]}},
}
LOG_BODY = {"requestBody": {"required": True, "content": _LOG_SCHEMA}}
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "a log or body that cannot be read: `error` with line and column"},
    413: {"description": "body over 256 KB"},
    422: {"description": "a field the body may not have: `error` names it and the nearest "
                         "known one (`field`, `nearest`)"},
    429: {"description": "too many requests from this client: wait `Retry-After` seconds"},
    504: {"description": "the judgement ran past the time limit"},
}


class Fmt(StrEnum):
    json = "json"
    md = "md"
    html = "html"


class MatchFmt(StrEnum):
    json = "json"
    md = "md"
    html = "html"
    csv = "csv"


# A match is many hands judged in turn in one worker: its time limit is this many times a
# single log's (a 將 of sixteen hands takes a few seconds on this machine).
MATCH_SCALE = 6


@dataclass
class LogInput:
    text: str
    profile: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    rules: str | None = None  # a house-rules set of serve --rules-dir, by name


def _profile(name: str | None, houses: dict[str, Any] | None = None
             ) -> tuple[str | None, str | None]:
    """A chosen name as (shipped profile, house-rules set): a shipped profile, or a set the
    operator offers (serve --rules-dir); 400 for any other name."""
    from adjudicator.rules.rulesets import profile_names

    if not name:  # none chosen (an empty pick): the log's own 規則: line decides
        return None, None
    if name in profile_names():
        return name, None
    if houses and name in houses:
        return None, name
    offered = [*profile_names(), *(houses or {})]
    raise Refused(400, service.error(
        f"沒有「{name}」這個規則；可用的有 {'、'.join(offered)}", "bad_profile"))


def _settings(pairs: list[str], given: dict[str, str]) -> dict[str, str]:
    from adjudicator.ruling.interpretations import SettingError, parse_settings

    try:
        return parse_settings([*(f"{k}={v}" for k, v in given.items()), *pairs])
    except SettingError as err:
        raise Refused(400, service.error(str(err), "bad_setting")) from None


# The fields of a log sent as ``{"text": …}``; the JSON form's own are its schema's.
_WRAPPER = ["text", "profile", "settings"]


def _unknown(where: str, field: str, known: list[str]) -> Refused:
    from adjudicator.language.json_form import UnknownField

    return Refused(422, service.form_error(UnknownField(where, field, known)))


def _log_json(obj: Any) -> tuple[str, str | None, dict[str, str]]:
    """A JSON body's log (as text: the log language, or its JSON form as JSON), profile and
    settings: the JSON form of a log (docs/incident.schema.json) itself, or
    ``{"text": LOG, "profile": …, "settings": {…}}`` where LOG is the log's text or its
    JSON form (as an object or in a string)."""
    import json

    from adjudicator.language.json_form import FORMAT
    from adjudicator.language.json_form import schema as form_schema

    if not isinstance(obj, dict):
        raise Refused(400, service.error(
            "JSON 須為物件：紀錄的 JSON 形式（docs/incident.schema.json）"
            "或 {\"text\": \"紀錄全文\"}", "bad_json"))
    if "format" in obj:  # the JSON form itself: read (and its fields checked) by the worker
        return json.dumps(obj, ensure_ascii=False), None, {}
    for key in obj:
        if key not in _WRAPPER:
            if key in form_schema()["properties"]:
                raise Refused(422, service.error(
                    f"「{key}」是紀錄 JSON 形式的欄位：請加上 \"format\": \"{FORMAT}\""
                    f"（docs/incident.schema.json）", "unknown_field", field=key,
                    nearest="format"))
            raise _unknown("", key, _WRAPPER)
    text = obj.get("text")
    if isinstance(text, dict):
        text = json.dumps(text, ensure_ascii=False)
    if not isinstance(text, str):
        raise Refused(400, service.error(
            "JSON 須有 \"text\"：紀錄全文（或紀錄的 JSON 形式）", "bad_json"))
    profile = obj.get("profile")
    if profile is not None and not isinstance(profile, str):
        raise Refused(400, service.error("profile 須為字串", "bad_json"))
    settings = obj.get("settings") or {}
    if not isinstance(settings, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in settings.items()):
        raise Refused(400, service.error("settings 須為 {\"解釋.X\": \"值\"}", "bad_json"))
    return text, profile, settings


async def log_input(request: Request, profile: str | None, pairs: list[str]) -> LogInput:
    raw = await limits.body(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    given: dict[str, str] = {}
    if kind == "application/json":
        text, given_profile, given = _log_json(limits.parse_json(raw))
        profile = profile or given_profile
    else:
        from adjudicator.language.reader import decode

        try:
            text = decode(raw)
        except LogError as err:
            raise Refused(400, service.log_error(err)) from None
    limits.check_text(text)
    chosen, rules = _profile(profile, request.app.state.houses)
    return LogInput(text, chosen, _settings(pairs, given), rules)


# A worker's refusal by its code: a field the JSON form does not have is 422, the rest 400.
_STATUS = {"unknown_field": 422}


async def _run(request: Request, fn: Any, *args: Any, scale: float = 1) -> dict[str, Any]:
    return (await _timed(request, fn, *args, scale=scale))[0]


async def _timed(request: Request, fn: Any, *args: Any,
                 scale: float = 1) -> tuple[dict[str, Any], dict[str, str]]:
    """The worker's answer, and a ``Server-Timing`` header saying how long the request
    waited for a worker and how long the worker took (and for how many logs)."""
    result, timing = await request.app.state.judges.timed(fn, *args, scale=scale)
    if "error" in result:
        raise Refused(_STATUS.get(result["error"]["code"], 400), result)
    return result, {"Server-Timing": timing.header()}


Profile = Annotated[str | None, Query(description=(
    "規則，如 tw16-alt，或伺服器以 --rules-dir 提供的家規名稱；不給則依紀錄的 規則:（未寫為 "
    "tw16；也可寫家規名稱）。與紀錄 規則: 不同族（如 gd 紀錄選 tw16）則拒收，同 adjudicator "
    "judge --profile"))]
Settings = Annotated[list[str], Query(alias="set", description="解釋點或參數，如 解釋.八張窗=all")]


@router.post("/judge", openapi_extra=LOG_BODY, responses=ERRORS)
async def judge(request: Request, format: Fmt = Fmt.json, profile: Profile = None,
                settings: Settings = [],  # noqa: B006 (FastAPI copies the default)
                archive: Annotated[bool, Query(
                    description="存入裁決檔案；回應標頭 X-Ruling-Id 與 Location 給出永久連結")
                ] = False) -> Response:
    """裁決一份紀錄：`format=json` 為 ruling-json 合約，`md`、`html` 為裁判報告。"""
    log = await log_input(request, profile, settings)
    # The reports are rendered only for an answer or an archive that keeps them.
    reports = format != Fmt.json or archive
    result, headers = await _timed(request, service.judge, log.text, log.profile,
                                   log.settings, reports, log.rules)
    if archive:
        headers |= await _file(request, "ruling", result, log.text)
    return _answer(result, format, "ruling", headers)


_MEDIA = {"md": "text/markdown; charset=utf-8", "html": "text/html; charset=utf-8",
          "csv": "text/csv; charset=utf-8"}


def _answer(result: dict[str, Any], format: str, json_key: str,
            headers: dict[str, str]) -> Response:
    """A judgement as asked: ``result[json_key]`` as JSON, or the document ``result[format]``."""
    if format == "json":
        return JSONResponse(result[json_key], headers=headers)
    return Response(result[format], media_type=_MEDIA[format], headers=headers)


async def _file(request: Request, kind: str, result: dict[str, Any],
                text: str) -> dict[str, str]:
    """File a judgement in the archive under whoever asked; the headers that give its
    permalink and verification code.  The answer's reports print the code (history.py)."""
    entry = await run_in_threadpool(request.app.state.archive.file, kind, result, text,
                                    security.filer(request))
    for ext in ("html", "md"):
        if ext in result:
            result[ext] = history.stamp(ext, result[ext], entry)
    folder = "r" if kind == "ruling" else "m"
    return {f"X-{kind.capitalize()}-Id": entry.subject, "Location": f"/{folder}/{entry.subject}",
            "X-Verification-Code": entry.code}


_MATCH_SCHEMA = {
    "text/plain": {"schema": {"type": "string"},
                   "example": "規則: tw16\n底: 300\n台: 100\n玩家: 東=阿明 南=小華 西=阿德 北=小美"
                              "\n\n第1盤:\n紀錄:\n90 西 打 一萬\n91 牌局 荒局\n"},
    "application/json": {"schema": {k: v for k, v in _WRAPPED.items() if k != "properties"}
                         | {"properties": {**_WRAPPED["properties"],
                                           "text": {"type": "string"}}}},
}


async def judge_match(request: Request, log: LogInput) -> dict[str, Any]:
    """The match judged in a worker (its readable-file errors raised as ``Refused``)."""
    return await _run(request, service.match, log.text, log.profile, log.settings,
                      log.rules, scale=MATCH_SCALE)


@router.post("/match", responses=ERRORS, openapi_extra={
    "requestBody": {"required": True, "content": _MATCH_SCHEMA}})
async def match(request: Request, format: MatchFmt = MatchFmt.json, profile: Profile = None,
                settings: Settings = [],  # noqa: B006
                archive: Annotated[bool, Query(
                    description="存入檔案；回應標頭 X-Match-Id 與 Location 給出永久連結")
                ] = False) -> Response:
    """裁決一將（`.match` 檔，見 docs/match-format.md）：依序裁決每盤、接續莊家與連莊、
    記每人累計帳目。`format=json` 為 `adjudicator match -f json` 的內容；`csv` 為帳目。
    某盤無法裁決時帳目算到前一盤，`stop` 說明原因（仍為 200）。"""
    from adjudicator.language.json_form import looks_like_json

    log = await log_input(request, profile, settings)
    if looks_like_json(log.text):
        raise Refused(400, service.error("一將的紀錄（.match）只有文字形式", "bad_json"))
    result = await judge_match(request, log)
    headers = await _file(request, "match", result, log.text) if archive else {}
    return _answer(result, format, "match", headers)


# kind → (the archive's getter, the 404 message, the permalink's folder, the JSON column).
_FILED = {"ruling": ("get", "沒有這則裁決", "r", "ruling_json"),
          "match": ("get_match", "沒有這個將的紀錄", "m", "match_json")}


async def filed(request: Request, kind: str, ident: str, version: int | None = None) -> Any:
    """A filed ruling or match (``kind``) by its permalink id (a ruling as it stands, or
    its version ``version``); 404 when there is none."""
    getter, missing, _, _ = _FILED[kind]
    read = getattr(request.app.state.archive, getter)
    record = await (run_in_threadpool(read, ident, version) if version is not None
                    else run_in_threadpool(read, ident))
    if record is None:
        raise Refused(404, service.error(missing, "not_found"))
    return record


async def _filed_json(request: Request, kind: str, ident: str) -> dict[str, Any]:
    import json

    record = await filed(request, kind, ident)
    _, _, folder, column = _FILED[kind]
    entries = await run_in_threadpool(request.app.state.archive.history, ident)
    return {**record.summary(), "permalink": f"/{folder}/{record.id}", "text": record.text,
            kind: json.loads(getattr(record, column)), **history.summary(entries)}


@router.get("/matches/{match_id}", responses={404: {"description": "no such match"}})
async def match_record(request: Request, match_id: str) -> dict[str, Any]:
    """一將存檔：原文、`adjudicator match -f json` 的內容、規則、設定與程式版本。"""
    return await _filed_json(request, "match", match_id)


@router.get("/matches")
async def matches(request: Request, player: str = "") -> list[dict[str, Any]]:
    """存檔的將（新的在前），可依玩家名篩選。"""
    found = await run_in_threadpool(request.app.state.archive.matches, player[:40])
    return [{**r.summary(), "permalink": f"/m/{r.id}"} for r in found]


@router.post("/lint", openapi_extra=LOG_BODY, responses=ERRORS)
async def lint(request: Request, profile: Profile = None,
               settings: Settings = []) -> dict[str, Any]:  # noqa: B006
    """檢查紀錄：`errors` 為無法讀取之處（行、字、應寫什麼），`warnings` 為紀錄前後矛盾之處。"""
    log = await log_input(request, profile, settings)
    found = await request.app.state.judges.run(service.lint, log.text, log.profile,
                                               log.settings, log.rules)
    if found["errors"] and found["errors"][0]["code"] in _STATUS:  # the contract, not the log
        first = found["errors"][0]
        raise Refused(_STATUS[first["code"]], {"error": first})
    return found


# The win's yes/no conditions, one field each, all false unless given.
# Every request model refuses a field it does not have (a misspelt flag must not score as
# false): ``_model`` answers 422 naming the field and the nearest known one.
_STRICT = ConfigDict(extra="forbid")
_HandFlags: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "_HandFlags", __config__=_STRICT, **{name: (bool, False) for name in HAND_FLAGS})


class ScoreRequest(_HandFlags):  # type: ignore[valid-type,misc]
    """One winning hand, written as `adjudicator score` takes it."""

    concealed: str = Field("", max_length=400, examples=["一二三萬 四五六筒 七八九索 東東 …"])
    win: str | None = Field(None, max_length=20, examples=["五筒"])
    exposed: str = Field("", max_length=400, examples=["碰 三萬 / 吃 四五六索"])
    flowers: str = Field("", max_length=100, examples=["春 梅"])
    seat: str = Field("東", max_length=4)
    round: str = Field("東", max_length=4)
    dealer: str = Field("東", max_length=4)
    open: str | None = Field(None, max_length=4)
    profile: str = Field("tw16", max_length=64, examples=["tw16", "mcr"])
    flower_win: str | None = Field(None, max_length=10)
    fourth_tile: bool = Field(False, description="和絕張（只用於國標 mcr，國標.58）")


class Side(BaseModel):
    model_config = _STRICT

    profile: str | None = Field(None, max_length=64)
    settings: dict[str, str] = Field(default_factory=dict)


M = TypeVar("M", bound=BaseModel)


class DiffRequest(BaseModel):
    model_config = _STRICT

    text: str | dict[str, Any] = Field(
        description="紀錄全文，或紀錄的 JSON 形式（docs/incident.schema.json）")
    a: Side = Field(default_factory=Side)
    b: Side = Field(default_factory=Side)


# Pydantic's kinds of invalid value, in words (the rest keep pydantic's message).
_INVALID = {"string_type": "應是字串", "bool_type": "應是 true 或 false",
            "bool_parsing": "應是 true 或 false", "dict_type": "應是 JSON 物件",
            "model_type": "應是 JSON 物件", "missing": "缺少這個欄位",
            "string_too_long": "過長", "model_attributes_type": "應是 JSON 物件"}


def _fields_at(model: type[BaseModel], path: tuple[Any, ...]) -> list[str]:
    """The field names of the (nested) model at ``path`` of ``model``."""
    for name in path:
        annotation = model.model_fields[str(name)].annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return []
        model = annotation
    return list(model.model_fields)


async def _model(request: Request, model: type[M]) -> M:
    obj = limits.parse_json(await limits.body(request))
    try:
        return model.model_validate(obj)
    except ValidationError as err:
        first = err.errors()[0]
        loc = tuple(first["loc"])
        if first["type"] == "extra_forbidden" and loc:
            raise _unknown(".".join(str(p) for p in loc[:-1]), str(loc[-1]),
                           _fields_at(model, loc[:-1])) from None
        where = ".".join(str(p) for p in loc) or "內容"
        words = _INVALID.get(first["type"], first["msg"])
        if first["type"] == "string_too_long":
            words += f"（至多 {first.get('ctx', {}).get('max_length')} 字）"
        raise Refused(422, service.error(f"{where}：{words}", "invalid", field=where)) from None


def _body_of(model: type[BaseModel]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {
        "application/json": {"schema": model.model_json_schema(ref_template="#/{model}")}}}}


@router.post("/score", openapi_extra=_body_of(ScoreRequest), responses=ERRORS)
async def score(request: Request) -> dict[str, Any]:
    """一手和牌的台數（牌面台數），列出名堂與條款；不成和時 `complete` 為 false。

    `profile: "mcr"` 計國標番數（同 `adjudicator score --profile mcr`）：暗牌 13 張（不含
    和牌），回傳番種、不計、合計與起和；gd 的番數須寫成紀錄以 `/api/judge` 裁決。"""
    hand = await _model(request, ScoreRequest)
    return await _run(request, service.score, hand.model_dump())


@router.post("/diff", openapi_extra=_body_of(DiffRequest), responses=ERRORS)
async def diff(request: Request) -> dict[str, Any]:
    """同一份紀錄依 A、B 兩邊（規則或解釋點）各裁決一次，列出裁決改變之處。"""
    import json

    asked = await _model(request, DiffRequest)
    text = asked.text if isinstance(asked.text, str) else json.dumps(asked.text,
                                                                     ensure_ascii=False)
    limits.check_text(text)
    houses = request.app.state.houses
    a = (*_profile(asked.a.profile, houses), _settings([], asked.a.settings))
    b = (*_profile(asked.b.profile, houses), _settings([], asked.b.settings))
    return await _run(request, service.diff, text, a, b)


@router.get("/rulings/{ruling_id}", responses={404: {"description": "no such ruling"}})
async def ruling(request: Request, ruling_id: str) -> dict[str, Any]:
    """一則存檔的裁決：紀錄原文、裁決 JSON、規則、設定、程式版本與表頭資料。"""
    return await _filed_json(request, "ruling", ruling_id)


@router.get("/rulings")
async def rulings(request: Request, date: str = "", table: str = "", player: str = "",
                  offence: str = "") -> list[dict[str, Any]]:
    """存檔的裁決（新的在前），可依日期（開頭）、桌號、玩家名、違規種類篩選。"""
    from adjudicator.language.vocabulary import canonical

    query = ArchiveQuery(date[:40], table[:40], player[:40], canonical(offence[:40]))
    found = await run_in_threadpool(request.app.state.archive.search, query)
    states = await run_in_threadpool(request.app.state.archive.states, [r.id for r in found])
    return [{**r.summary(), "permalink": f"/r/{r.id}", "state": states.get(r.id, "filed")}
            for r in found]
