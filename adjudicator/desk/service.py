"""What the desk asks of the engine: lint, judge, score, diff — as plain dicts.

These functions run in the worker processes of ``pool.py``, so they take and return only
picklable values, and never raise for a bad log: a ``LogError`` becomes ``{"error": …}``
with its line and column, the shape every API error has.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator import __version__
from adjudicator.language.errors import LogError, caret_line
from adjudicator.language.incident import Incident
from adjudicator.language.json_form import FormError, JsonError, UnknownField

if TYPE_CHECKING:
    from adjudicator.rules.rulesets import House
    from adjudicator.ruling.model import Ruling

MAX_ACTS = 10_000
MAX_HANDS = 64  # a 將 is sixteen hands or a few more; four 將 fit


# The house-rules sets the operator put in serve --rules-dir, by name: set in each worker
# when it starts (pool.py), never from a request.
_HOUSES: dict[str, House] = {}


def use_houses(houses: dict[str, House]) -> None:
    _HOUSES.clear()
    _HOUSES.update(houses)


def _house(incident: Incident, rules: str | None) -> House | None:
    """The house rules a log is judged by: those the request chose by name (checked by the
    API), else those its 規則: line names, when no shipped profile has that name."""
    from adjudicator.rules.rulesets import profile_names

    if rules is not None:
        return _HOUSES[rules]
    own = incident.header.profile
    return _HOUSES.get(own) if own not in profile_names() else None


def error(message: str, code: str, line: int | None = None, column: int | None = None,
          **more: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "line": line, "column": column, **more}}


# Of a very long line, an error quotes this many characters either side of the fault (the
# caret under it), not the whole line back.
QUOTED = 60


def log_error(err: LogError) -> dict[str, Any]:
    start = max(err.column - 1 - QUOTED, 0)
    quoted = err.source_line[start:err.column - 1 + QUOTED]
    shown = quoted.replace("\t", " ")
    return error(err.message, "log_error", err.line, err.column, expected=err.expected,
                 detail=err.detail, source_line=quoted,
                 caret=caret_line(shown, err.column - start))


def form_error(err: FormError) -> dict[str, Any]:
    """A JSON log's fault as the API's error: a field the form does not have (with the
    nearest it has), JSON that does not parse (its line and column), or the part at fault."""
    if isinstance(err, UnknownField):
        return error(str(err), "unknown_field", where=err.where, field=err.field,
                     nearest=err.nearest)
    if isinstance(err, JsonError):
        return error(str(err), err.code, err.line, err.column)
    return error(str(err), "bad_form", where=err.where)


def _read(text: str) -> tuple[Incident, dict[str, str]]:
    """A log in text or in its JSON form (a ``FormError`` for the latter's faults)."""
    from adjudicator.language.json_form import looks_like_json, origin, read_any

    incident = read_any(text)
    if len(incident.acts) > MAX_ACTS:
        act = incident.acts[MAX_ACTS]
        detail = (f"這是第 {MAX_ACTS + 1} 個動作（序號 {act.seq}）；"
                  f"這份紀錄有 {len(incident.acts)} 個")
        if looks_like_json(text):
            raise FormError(origin(text, act.line), f"至多 {MAX_ACTS} 個動作的紀錄；{detail}")
        lines = text.splitlines()
        shown = lines[act.line - 1] if 0 < act.line <= len(lines) else ""
        raise LogError(act.line, 1, f"至多 {MAX_ACTS} 個動作的紀錄", shown, detail)
    # The occasion as the archive files it (long values cut: they are search keys).
    return incident, {key: value[:200] for _, key, value in incident.header.occasion()}


def lint(text: str, profile: str | None = None,
         settings: dict[str, str] | None = None, rules: str | None = None) -> dict[str, Any]:
    """The log's faults: the parse error, else the ruling's ``warnings`` (as ``adjudicator
    lint`` gives them, and the 相公 that rest on a hand's size) and its ``problems``.

    The one place the desk's live checking is defined; ``/api/lint`` and the page call it.
    """
    from adjudicator.ruling.judge import judge

    try:
        incident, _ = _read(text)
        ruling = judge(incident, profile=profile, settings=settings,
                       house=_house(incident, rules))
    except LogError as err:
        return {"errors": [log_error(err)["error"]], "warnings": []}
    except FormError as err:
        return {"errors": [form_error(err)["error"]], "warnings": []}
    warnings = [{"line": w.line, "message": w.message} for w in ruling.warnings]
    warnings += [{"line": p.line, "at": p.at, "kind": p.kind, "message": p.detail,
                  "lines": [c.line for c in p.conflicts]} for p in ruling.problems]
    return {"errors": [], "warnings": warnings, "status": ruling.status}


def judge(text: str, profile: str | None = None, settings: dict[str, str] | None = None,
          reports: bool = True, rules: str | None = None) -> dict[str, Any]:
    """The ruling (ruling-json), both reports unless ``reports`` is false (the JSON answer
    alone needs neither), and what the archive files it under; by the house-rules set
    named ``rules`` when given."""
    from adjudicator.ruling.judge import judge as judge_incident

    try:
        incident, meta = _read(text)
        ruling = judge_incident(incident, profile=profile, settings=settings,
                                house=_house(incident, rules))
    except LogError as err:
        return log_error(err)
    except FormError as err:
        return form_error(err)
    return _judged(incident, meta, ruling, settings, reports)


def judge_many(texts: list[str], profile: str | None = None,
               settings: dict[str, str] | None = None,
               reports: bool = True, rules: str | None = None) -> list[dict[str, Any] | Exception]:
    """``judge`` of each text, judged together in one clingo run (the pipeline's
    ``judge_many``): the rules' fixed grounding is paid once for all.  A log the batch could
    not judge for another reason than a bad log is judged alone, as ``judge`` would: its
    place holds what that raised, for the caller to raise."""
    from adjudicator.ruling.pipeline import Pipeline

    out: list[dict[str, Any] | Exception | None] = [None] * len(texts)
    read: list[tuple[int, Incident, dict[str, str]]] = []
    for slot, text in enumerate(texts):
        try:
            incident, meta = _read(text)
        except LogError as err:
            out[slot] = log_error(err)
            continue
        except FormError as err:
            out[slot] = form_error(err)
            continue
        if rules is None and _house(incident, None) is not None:
            out[slot] = judge(text, profile, settings, reports)  # its own house rules
            continue
        read.append((slot, incident, meta))
    house = None if rules is None else _HOUSES[rules]
    results = Pipeline(profile, settings, house).judge_many([incident for _, incident, _ in read])
    for (slot, incident, meta), (ruling, _) in zip(read, results, strict=True):
        if isinstance(ruling, LogError):
            out[slot] = log_error(ruling)
        elif isinstance(ruling, Exception):
            try:
                out[slot] = judge(texts[slot], profile, settings, reports, rules)
            except Exception as err:  # raised for the request it belongs to, not the batch
                out[slot] = err
        else:
            out[slot] = _judged(incident, meta, ruling, settings, reports)
    return [o for o in out if o is not None]


def _judged(incident: Incident, meta: dict[str, str], ruling: Ruling,
            settings: dict[str, str] | None, reports: bool) -> dict[str, Any]:
    from adjudicator.ruling.model import to_dict

    judged = {
        "ruling": to_dict(ruling), "meta": meta, "players": dict(incident.header.players),
        "offences": sorted({f.kind for f in ruling.findings}),
        "profile": ruling.profile, "settings": dict(settings or {}), "version": __version__,
    }
    if reports:
        from adjudicator.report.html import render as render_html
        from adjudicator.report.markdown import render as render_md
        from adjudicator.report.model import build

        report = build(ruling, incident)
        judged |= {"html": render_html(report), "md": render_md(report)}
    return judged


def match(text: str, profile: str | None = None,
          settings: dict[str, str] | None = None, rules: str | None = None) -> dict[str, Any]:
    """A ``.match`` judged hand by hand: the match report's dict (``adjudicator match -f
    json``), its HTML, Markdown and ledger CSV, and what the archive files it under.

    A hand that stops the carry is not an error: the ledger up to it is the answer, and
    ``stop`` in the dict says why.  Only a file that cannot be read at all is."""
    from adjudicator.match import report
    from adjudicator.match.format import read_match
    from adjudicator.match.run import judge_match

    try:
        parsed = read_match(text)
        if len(parsed.hands) > MAX_HANDS:
            hand = parsed.hands[MAX_HANDS]
            raise LogError(hand.line, 1, f"至多 {MAX_HANDS} 盤的將",
                           text.splitlines()[hand.line - 1], f"這個將有 {len(parsed.hands)} 盤")
        for hand in parsed.hands:
            # Lines bound the acts: the reader is not run on an oversized hand.
            if sum(1 for line in hand.text.splitlines() if line.strip()) > MAX_ACTS:
                raise LogError(hand.line, 1, f"每盤至多 {MAX_ACTS} 行",
                               text.splitlines()[hand.line - 1], f"第{hand.number}盤過長")
    except LogError as err:
        return log_error(err)
    house = None if rules is None else _HOUSES[rules]
    result = judge_match(parsed, profile=profile, settings=settings, house=house)
    d = report.to_dict(result)
    h = parsed.header
    return {
        "match": d, "html": report.to_html(result), "md": report.markdown(result),
        "csv": report.ledger_csv(result),
        # The occasion as the archive files it (long values cut: they are search keys).
        "meta": {"title": (h.title or "")[:200], "date": h.meta.get("日期", "")[:200],
                 "venue": h.meta.get("場地", "")[:200], "table": h.meta.get("桌號", "")[:200],
                 "referee": h.meta.get("裁判", "")[:200]},
        "players": list(result.ledger.names),
        "profile": house.profile if house is not None else profile or h.profile,
        "settings": dict(settings or {}), "version": __version__,
    }


def diff(text: str, a: tuple[str | None, str | None, dict[str, str]],
         b: tuple[str | None, str | None, dict[str, str]]) -> dict[str, Any]:
    """One log judged under two sides (profile, house-rules set, settings), compared as
    ``adjudicator diff`` compares a case; refused as ``diff`` refuses it (profiles of two
    families) or as ``judge --profile`` refuses the log (a side of another family than its
    規則: line)."""
    from adjudicator.cli.diff import family_mismatch
    from adjudicator.committee.diff import Side, diff_incident
    from adjudicator.ruling.judge import profile_of

    sa, sb = (Side(p, s, None if r is None else _HOUSES[r]) for p, r, s in (a, b))
    if (why := family_mismatch(sa.base, sb.base)) is not None:
        return error(why, "bad_profile")
    try:
        incident, _ = _read(text)
        for side in (sa, sb):
            profile_of(incident, side.base)
        out = diff_incident(Path("log"), incident, sa, sb).to_json()
    except LogError as err:
        return log_error(err)
    except FormError as err:
        return form_error(err)
    if "error" in out:  # judged on neither side: the error dict every API error is
        return error(str(out["error"]).splitlines()[0], "unjudged")
    return out


def score(fields: dict[str, Any]) -> dict[str, Any]:
    """``adjudicator score`` for one hand given as JSON fields: the Taiwanese 台, or with
    ``profile: mcr`` the 國標 fans (``score --profile mcr``); the same JSON, the same
    refusals."""
    import json

    from adjudicator.cli.score import TileError, _build_hand, _json, _mcr_json, profile_refusal
    from adjudicator.rules.files import SCORE_ONLY
    from adjudicator.ruling import mcr
    from adjudicator.ruling.scoring import HAND_FLAGS, hand_problems
    from adjudicator.ruling.scoring import score as score_hand

    profile = fields.get("profile") or "tw16"
    if (why := profile_refusal(profile)) is not None:
        return error(why, "bad_profile")
    flags = {k: bool(fields.get(k, False)) for k in (*HAND_FLAGS, "fourth_tile")}
    chairs = {k: fields.get(k) for k in ("seat", "round", "dealer", "open")}
    try:
        hand = _build_hand([fields.get("concealed", "")], fields.get("win"),
                           fields.get("exposed", ""), fields.get("flowers", ""), flags, chairs,
                           fields.get("flower_win"))
    except (TileError, ValueError) as err:
        return error(str(err), "bad_hand")
    if profile in SCORE_ONLY:  # 國標
        if found := mcr.problems(hand):
            return error("；".join(found), "bad_hand")
        return json.loads(_mcr_json(mcr.score(hand)))
    problems = hand_problems(hand)
    if problems:
        return error("；".join(problems), "bad_hand")
    return json.loads(_json(score_hand(hand, profile)))
