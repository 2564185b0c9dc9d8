"""Interpretation points and profile parameters: the knobs a rule set sets (rulebook.md).

Each interpretation point (解釋.*: a clause that can be read more than one way) and each
parameter (台 values, platform variants) is defined once, in interpretations.toml beside
this module: its question, its readings or its type, range and unit, the clause it
interprets, the rule text it rests on, and its default.  The profiles and a club's house
rules (rules/rulesets.py) set values of these; a run's ``--set ID=VALUE`` overrides one
(``parse_settings`` checks it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from adjudicator import cache as disk


@dataclass(frozen=True)
class Seed:
    """Where in the rule texts (../shared/seeds/) a point or parameter rests, in our words."""

    file: str  # the seed file's number (000 … 004)
    clause: str  # where in it
    says: str


@dataclass(frozen=True)
class Point:
    """An interpretation point: its question and the readings it may take."""

    id: str
    question: str
    readings: dict[str, str]
    family: str = "tw16"  # the profile family whose chapters read it (rules/families.py)
    default: str = ""  # the reading of the family's base profile
    clause: str = ""  # the clause id it interprets
    seed: Seed | None = None


@dataclass(frozen=True)
class Param:
    """A parameter of the rules a profile or --set gives a value."""

    id: str
    question: str
    values: dict[str, str] | None = None  # a choice's values; None: a whole number in range
    family: str = "tw16"  # the profile family whose chapters read it
    default: str = ""
    clause: str = ""
    seed: Seed | None = None
    range: tuple[int, int] = (0, 0)  # of a whole number, both ends allowed
    unit: str = ""  # of a whole number (台, 番)


def _table() -> dict[str, list[dict[str, Any]]]:
    # Data, not code: the questions and readings are words a committee edits.
    text = files("adjudicator.ruling").joinpath("interpretations.toml").read_text("utf-8")
    return disk.read_toml(text)  # type: ignore[no-any-return]


def _seed(row: dict[str, Any]) -> Seed | None:
    seed = row.get("seed")
    return None if seed is None else Seed(seed["file"], seed["clause"], seed["says"])


def _point(row: dict[str, Any]) -> Point:
    return Point(row["id"], row["question"], row["readings"], row.get("family", "tw16"),
                 str(row.get("default", "")), row.get("clause", ""), _seed(row))


def _param(row: dict[str, Any]) -> Param:
    lo, hi = row.get("range", (0, 0))
    return Param(row["id"], row["question"], row.get("values"), row.get("family", "tw16"),
                 str(row.get("default", "")), row.get("clause", ""), _seed(row),
                 (int(lo), int(hi)), row.get("unit", ""))


_TABLE = _table()
POINTS: dict[str, Point] = {row["id"]: _point(row) for row in _TABLE["point"]}
PARAMS: dict[str, Param] = {row["id"]: _param(row) for row in _TABLE["param"]}


class SettingError(ValueError):
    """A --set or --profile the system does not know; ``str()`` is the message to print."""


def describe(point_id: str, value: str) -> str:
    point = POINTS.get(point_id)
    if point is None:
        return value
    return point.readings.get(value, value)


def parse_settings(pairs: Iterable[str], option: str = "--set") -> dict[str, str]:
    """``ID=VALUE`` pairs → settings for ``judge``; ``SettingError`` names the fault."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.replace("＝", "=", 1).partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise SettingError(f"{option} 應寫成 ID=VALUE，例如 解釋.八張窗=all，不是「{pair}」")
        _check_setting(key, value, option)
        if out.get(key, value) != value:
            raise SettingError(f"{option} {key} 寫了兩個不同的值：{out[key]} 與 {value}")
        out[key] = value
    return out


def _check_setting(key: str, value: str, option: str) -> None:
    definition: Point | Param | None = POINTS.get(key) or PARAMS.get(key)
    if definition is None:
        what = "解釋點" if key.startswith("解釋.") else "解釋點或參數"
        raise SettingError(f"{option} {key}：沒有這個{what}；可用的有："
                           f"{'、'.join([*POINTS, *PARAMS])}（見 adjudicator points）")
    problem = check_value(definition, value)
    if problem is not None:
        what = "讀法" if isinstance(definition, Point) else "值"
        raise SettingError(f"{option} {key}={value}：{key} 沒有「{value}」這個{what}；"
                           f"這裡應是{problem[0]}" + (f"；{problem[1]}" if problem[1] else ""))


def check_value(definition: Point | Param, value: str) -> tuple[str, str | None] | None:
    """None if ``value`` is one ``definition`` takes; else what was expected and a hint
    (the nearest valid reading, when a slip of the pen is likely)."""
    from adjudicator.language.suggest import nearest

    options = definition.readings if isinstance(definition, Point) else definition.values
    if options is not None:
        if value in options:
            return None
        what = "讀法" if isinstance(definition, Point) else "值"
        near = nearest(value, options)
        return (f"{definition.id} 的{what}（{choices(options)}）",
                None if near is None else f"是不是「{near}」？")
    lo, hi = definition.range
    if value.isascii() and value.isdigit() and lo <= int(value) <= hi:
        return None
    return f"{lo} 到 {hi} 的整數（{definition.unit}）", None


def choices(values: dict[str, str]) -> str:
    return "、".join(f"{v}（{meaning}）" for v, meaning in values.items())
