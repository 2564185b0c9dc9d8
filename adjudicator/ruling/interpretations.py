"""Interpretation points and profile parameters: the knobs a profile sets (rulebook.md).

Each interpretation point (解釋.*: a clause that can be read more than one way) has an id, a
question and its readings (value → what it means), the rulebook's default first.  Each
parameter (台 values, platform variants) has a name, a question and, where it is a choice,
its values.  Both tables are data, in interpretations.toml beside this module.  Profiles
state a value for every one of them in ``asp/profiles/*.lp``; a run's ``--set ID=VALUE``
overrides one (``parse_settings`` checks it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from adjudicator import cache as disk


@dataclass(frozen=True)
class Point:
    """An interpretation point: its question and the readings it may take."""

    id: str
    question: str
    readings: dict[str, str]
    family: str = "tw16"  # the profile family whose chapters read it (rules/families.py)


@dataclass(frozen=True)
class Param:
    """A parameter of the rules a profile or --set gives a value."""

    id: str
    question: str
    values: dict[str, str] | None = None  # None: any whole number
    family: str = "tw16"  # the profile family whose chapters read it


def _table() -> dict[str, list[dict[str, Any]]]:
    # Data, not code: the questions and readings are words a committee edits.
    text = files("adjudicator.ruling").joinpath("interpretations.toml").read_text("utf-8")
    return disk.read_toml(text)  # type: ignore[no-any-return]


_TABLE = _table()
POINTS: dict[str, Point] = {
    row["id"]: Point(row["id"], row["question"], row["readings"], row.get("family", "tw16"))
    for row in _TABLE["point"]}
PARAMS: dict[str, Param] = {
    row["id"]: Param(row["id"], row["question"], row.get("values"), row.get("family", "tw16"))
    for row in _TABLE["param"]}


class SettingError(ValueError):
    """A --set or --profile the system does not know; ``str()`` is the message to print."""


def describe(point_id: str, value: str) -> str:
    point = POINTS.get(point_id)
    if point is None:
        return value
    return point.readings.get(value, value)


@cache
def profile_values(profile: str) -> dict[str, str]:
    """Every reading and parameter value the profile states (after its overrides).

    ``KeyError`` if there is no such profile.  A point or parameter stated twice shows its
    values joined by ``|`` (the tests refuse that).
    """
    from clingo import SymbolType

    from adjudicator.rules.engine import solve
    from adjudicator.rules.files import PARAMS_LP, profile_file

    atoms = solve([], profile, files=[profile_file(profile), PARAMS_LP])
    found: dict[str, set[str]] = {}
    for atom in atoms:
        if atom.name in ("reading_value", "param_value") and len(atom.arguments) == 2:
            key, value = atom.arguments
            name = key.string if atom.name == "reading_value" else str(key)
            text = value.string if value.type == SymbolType.String else str(value)
            found.setdefault(name, set()).add(text)
    return {k: "|".join(sorted(v)) for k, v in sorted(found.items())}


def known_params() -> dict[str, Param]:
    """The documented parameters and any other one a profile states (undocumented)."""
    from adjudicator.rules.files import profile_names

    out = dict(PARAMS)
    for profile in profile_names():
        for name in profile_values(profile):
            if not name.startswith("解釋.") and name not in out:
                out[name] = Param(name, "（未說明）")
    return out


def check_profile(name: str) -> str:
    from adjudicator.rules.files import profile_names

    names = profile_names()
    if name not in names:
        raise SettingError(f"沒有「{name}」這個規則；可用的有：{'、'.join(names)}")
    return name


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
    if key.startswith("解釋."):
        point = POINTS.get(key)
        if point is None:
            raise SettingError(f"{option} {key}：沒有這個解釋點；可用的有：{'、'.join(POINTS)}")
        if value not in point.readings:
            raise SettingError(f"{option} {key}={value}：{key} 沒有「{value}」這個讀法；"
                               f"可用的有：{_choices(point.readings)}")
        return
    param = known_params().get(key)
    if param is None:
        raise SettingError(f"{option} {key}：沒有這個解釋點或參數；參數有："
                           f"{'、'.join(known_params())}；解釋點見 adjudicator points")
    if param.values is not None and value not in param.values:
        raise SettingError(f"{option} {key}={value}：可用的值是 {_choices(param.values)}")
    if param.values is None and not (value.isascii() and value.isdigit()):
        raise SettingError(f"{option} {key}={value}：這個參數的值應是非負整數")


def _choices(values: dict[str, str]) -> str:
    return "、".join(f"{v}（{meaning}）" for v, meaning in values.items())
