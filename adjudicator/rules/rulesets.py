"""Rule sets: the shipped profiles and a club's house rules, read from data and resolved.

A rules file (``asp/profiles/NAME.rules`` for a shipped profile, any ``*.rules`` file for
house rules; docs/house-rules.md) is a list of ``鍵: 值`` lines: its name and version, the
profile it extends (or, for a family's base profile, the family), then the parameter
values and readings it sets.  Every key and value is checked against the one definition
of each point and parameter (ruling/interpretations.toml); a file that does not fit is
refused with its line, what was expected and the nearest valid key or reading.

Resolving a file walks its ``依據:`` chain down to a family's defaults and lays each file's
values over the one below: the result, a ``RuleSet``, holds the value of every point and
parameter of the family, the facts the rules read (``param/2``, ``reading/2``), and a hash
of those values that two files saying the same rules share, whatever their order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from clingo import Function, Number, String, Symbol

from adjudicator.language.errors import caret_line
from adjudicator.rules.families import DEFAULT, FAMILIES, Family
from adjudicator.rules.files import PROFILES, SCORE_ONLY
from adjudicator.ruling.interpretations import (
    PARAMS,
    POINTS,
    Param,
    Point,
    SettingError,
    check_value,
)

SUFFIX = ".rules"
# The keys of a file that are about the file itself, each with its English alias.
META = {"名稱": "name", "版本": "version", "依據": "extends", "族": "family"}
ALIASES = {english: key for key, english in META.items()}


class RulesError(ValueError):
    """A rules file that cannot be used; ``str()`` is the whole message to print."""

    def __init__(self, file: str, line: int, column: int, expected: str,
                 source_line: str = "", detail: str | None = None,
                 hint: str | None = None) -> None:
        self.file, self.line, self.column = file, line, column
        self.expected, self.source_line = expected, source_line
        self.detail, self.hint = detail, hint
        super().__init__(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.file, self.line, self.column, self.expected,
                             self.source_line, self.detail, self.hint))

    @property
    def message(self) -> str:
        text = f"{self.file}：第 {self.line} 行第 {self.column} 字：這裡應是{self.expected}"
        return f"{text}；{self.detail}" if self.detail else text

    def __str__(self) -> str:
        text = self.message
        if self.source_line:
            shown = self.source_line.replace("\t", " ")
            text += f"\n{shown}\n{caret_line(shown, self.column)}"
        return f"{text}\n提示：{self.hint}" if self.hint else text


@dataclass(frozen=True)
class Entry:
    key: str
    value: str
    line: int
    text: str  # the whole line, for the message
    value_column: int  # where the value starts (1-based)


@dataclass(frozen=True)
class RulesFile:
    """One rules file as written: its own lines, not yet laid over its base."""

    label: str  # how messages name it (a path, or asp/profiles/NAME.rules)
    stem: str  # its name as a 規則: line or 依據: names it
    folder: Path | None  # where a house file's own 依據: looks for another house file
    meta: dict[str, Entry]
    entries: tuple[Entry, ...]  # the points and parameters it sets, in its order

    def get(self, key: str) -> str | None:
        entry = self.meta.get(key)
        return None if entry is None else entry.value


def parse(text: str, label: str, stem: str, folder: Path | None = None) -> RulesFile:
    """The lines of a rules file; ``RulesError`` for a line that is no ``鍵: 值``, a key
    given twice, or a key no point, parameter or file field has."""
    meta: dict[str, Entry] = {}
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        colon = min((i for i in (line.find(":"), line.find("：")) if i >= 0), default=-1)
        if colon <= 0:
            raise RulesError(label, number, len(raw) - len(raw.lstrip()) + 1,
                             "「鍵: 值」，如 解釋.八張窗: all", raw)
        key = line[:colon].strip()
        value = line[colon + 1:].strip()
        start = len(raw) - len(raw.lstrip()) + 1
        key = ALIASES.get(key, key)
        if key not in META and key not in POINTS and key not in PARAMS:
            raise RulesError(label, number, start, "檔案欄位（名稱、版本、依據、族）、解釋點或參數",
                             raw, f"沒有「{key}」這個鍵", _nearest_hint(key, every_key()))
        if key in seen:
            raise RulesError(label, number, start, "尚未寫過的鍵", raw,
                             f"{key} 已在第 {seen[key]} 行寫過")
        if not value:
            raise RulesError(label, number, colon + 2, f"{key} 的值", raw)
        seen[key] = number
        entry = Entry(key, value, number, raw, line.index(value, colon + 1) + 1)
        if key in META:
            meta[key] = entry
        else:
            entries.append(entry)
    return RulesFile(label, stem, folder, meta, tuple(entries))


def every_key() -> list[str]:
    return [*META, *ALIASES, *POINTS, *PARAMS]


def _nearest_hint(word: str, vocabulary: Iterable[str]) -> str | None:
    from adjudicator.language.suggest import nearest  # a refused file's guess only

    found = nearest(word, vocabulary)
    return None if found is None else f"是不是「{found}」？"


# ------------------------------------------------------------------ the shipped profiles


@cache
def profile_names() -> tuple[str, ...]:
    """The shipped profiles (asp/profiles/*.rules), by name."""
    return tuple(sorted(p.stem for p in PROFILES.glob(f"*{SUFFIX}")))


@cache
def shipped(name: str) -> RulesFile:
    """Shipped profile ``name`` as written; ``KeyError`` if there is none."""
    path = PROFILES / f"{name}{SUFFIX}"
    if name not in profile_names():
        raise KeyError(name)
    return parse(path.read_text(encoding="utf-8"), f"asp/profiles/{path.name}", name)


def read_file(path: Path) -> RulesFile:
    """A house-rules file; ``RulesError`` (line 0) if it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RulesError(str(path), 0, 0, "可讀的 UTF-8 規則檔",
                         detail=getattr(err, "strerror", None) or str(err)) from None
    return parse(text, str(path), path.stem, path.parent)


# ------------------------------------------------------------------ resolving


@dataclass(frozen=True)
class House:
    """A house-rules file, resolved: what it says about itself and the values it makes."""

    name: str
    version: str | None
    extends: str  # what its 依據: names
    stem: str
    profile: str  # the shipped profile its chain rests on
    family: str
    values: tuple[tuple[str, str], ...]  # every point and parameter of the family

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "extends": self.extends}


@dataclass(frozen=True)
class Resolved:
    """A file laid over its base: its family, the shipped profile below it, its values."""

    family: str
    profile: str | None  # None for a shipped profile that extends none
    values: dict[str, str] = field(hash=False)


def resolve_profile(name: str) -> Resolved:
    """Shipped profile ``name`` resolved; ``KeyError`` if there is none."""
    return _resolved_shipped(name)


@cache
def _resolved_shipped(name: str) -> Resolved:
    return _resolve(shipped(name), ())


def resolve_house(file: RulesFile) -> House:
    """A house-rules file resolved over its base; ``RulesError`` names what is wrong."""
    if file.get("名稱") is None:
        raise RulesError(file.label, 1, 1, "名稱: 這份規則的名稱（如 名稱: 龍山麻將協會 2026 版）",
                         detail="家規須有名稱")
    if file.get("依據") is None:
        raise RulesError(file.label, 1, 1, "依據: 所依據的規則（如 依據: tw16）",
                         detail=f"家規須寫明依據哪個規則；可用的有：{'、'.join(profile_names())}")
    resolved = _resolve(file, ())
    assert resolved.profile is not None
    return House(file.get("名稱") or "", file.get("版本"), file.get("依據") or "", file.stem,
                 resolved.profile, resolved.family, tuple(sorted(resolved.values.items())))


def _resolve(file: RulesFile, chain: tuple[str, ...]) -> Resolved:
    base_name = file.get("依據")
    own_family = file.meta.get("族")
    if base_name is None:
        if own_family is None or own_family.value not in FAMILIES:
            at = own_family or Entry("族", "", 1, "", 1)
            raise RulesError(file.label, at.line, at.value_column,
                             f"族（{'、'.join(FAMILIES)}）或 依據: 所依據的規則", at.text,
                             None if own_family is None else f"沒有「{own_family.value}」這一族",
                             None if own_family is None else
                             _nearest_hint(own_family.value, FAMILIES))
        family = own_family.value
        values = defaults(family)
        profile = None
    else:
        entry = file.meta["依據"]
        base, base_label = _base(file, entry, chain)
        below = _resolve(base, (*chain, file.label))
        family, values = below.family, dict(below.values)
        # The shipped profile a house file rests on is the first one down its chain.
        profile = base.stem if base.folder is None else below.profile
        if own_family is not None and own_family.value != family:
            raise RulesError(file.label, own_family.line, own_family.value_column,
                             f"{entry.value} 的族（{family}）", own_family.text,
                             f"{base_label} 屬 {family} 一族，這裡卻寫 {own_family.value}")
    for entry in file.entries:
        values[entry.key] = _checked(file, entry, family)
    return Resolved(family, profile, values)


def _base(file: RulesFile, entry: Entry, chain: tuple[str, ...]) -> tuple[RulesFile, str]:
    """The file ``依據:`` names: a shipped profile, or another house file in the folder."""
    name = entry.value
    if name in profile_names():
        base = shipped(name)
    elif file.folder is not None and _plain_name(name) and (
            file.folder / f"{name}{SUFFIX}").is_file():
        base = read_file(file.folder / f"{name}{SUFFIX}")
    else:
        others = [*profile_names(), *(house_names(file.folder) if file.folder else [])]
        raise RulesError(file.label, entry.line, entry.value_column,
                         f"所依據的規則（{'、'.join(others)}）", entry.text,
                         f"沒有「{name}」這個規則", _nearest_hint(name, others))
    if base.label in (*chain, file.label):
        loop = " → ".join((*chain, file.label, base.label))
        raise RulesError(file.label, entry.line, entry.value_column,
                         "不在自身依據鏈上的規則", entry.text, f"依據形成循環：{loop}")
    return base, base.label


def _plain_name(name: str) -> bool:
    """A 依據: name that is a file name in the same folder, never a path."""
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")


def _checked(file: RulesFile, entry: Entry, family: str) -> str:
    """``entry``'s value if it is one its point or parameter takes, else ``RulesError``."""
    definition: Point | Param = POINTS.get(entry.key) or PARAMS[entry.key]
    if definition.family != family:
        raise RulesError(file.label, entry.line, 1, f"{family} 一族的解釋點或參數", entry.text,
                         f"{entry.key} 屬 {definition.family} 一族，這份規則屬 {family} 一族")
    problem = check_value(definition, entry.value)
    if problem is None:
        return entry.value
    expected, hint = problem
    raise RulesError(file.label, entry.line, entry.value_column, expected, entry.text,
                     f"{entry.key} 不能是「{entry.value}」", hint)


def defaults(family: str) -> dict[str, str]:
    """Every point and parameter of ``family`` at its default."""
    return {**{p.id: p.default for p in POINTS.values() if p.family == family},
            **{p.id: p.default for p in PARAMS.values() if p.family == family}}


# ------------------------------------------------------------------ the rule set of a run


@dataclass(frozen=True)
class RuleSet:
    """The rules one judgement applies: a shipped profile, house rules over it, --set."""

    profile: str
    family: str
    values: tuple[tuple[str, str], ...]  # every point and parameter, by id
    house: House | None = None

    @property
    def by_id(self) -> dict[str, str]:
        return dict(self.values)

    @property
    def hash(self) -> str:
        return _hash(self.family, self.values)

    def settings(self) -> dict[str, str]:
        """The values that differ from the shipped profile's (the house rules', --set's)."""
        base = profile_values(self.profile)
        return {k: v for k, v in self.values if base.get(k) != v}

    def facts(self) -> list[Symbol]:
        return list(_facts(self.values))

    def to_json(self) -> dict[str, Any]:
        """The ruling JSON's ``rules`` (ruling-json.md, third edition)."""
        return {"profile": self.profile, "family": self.family,
                "house": None if self.house is None else self.house.to_json(),
                "settings": self.settings(), "hash": self.hash}


@cache
def _hash(family: str, values: tuple[tuple[str, str], ...]) -> str:
    canonical = json.dumps({"family": family, "values": dict(sorted(values))},
                           ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@cache
def _facts(values: tuple[tuple[str, str], ...]) -> tuple[Symbol, ...]:
    out = []
    for key, value in values:
        if key in POINTS:
            out.append(Function("reading", [String(key), String(value)]))
        else:
            out.append(Function("param", [Function(key), Number(int(value))]))
    return tuple(out)


def profile_values(profile: str) -> dict[str, str]:
    """Every reading and parameter value shipped profile ``profile`` takes; ``KeyError``
    if there is no such profile."""
    return dict(resolve_profile(profile).values)


def check_profile(name: str) -> str:
    """``name`` if a shipped profile has it, else ``SettingError`` saying which do."""
    if name not in profile_names():
        raise SettingError(f"沒有「{name}」這個規則；可用的有：{'、'.join(profile_names())}")
    return name


def profile_title(name: str) -> str:
    """A shipped profile's name in words (its file's 名稱), the code for a name no profile
    has."""
    try:
        return shipped(name).get("名稱") or name
    except KeyError:
        return name


def profile_label(name: str) -> str:
    """A profile as a page or a report shows it: its title, the code beside it."""
    title = profile_title(name)
    return name if title == name else f"{title}，代號 {name}"


def profile_family(profile: str) -> Family:
    """The family of profile ``profile``; ``KeyError`` if there is no such profile."""
    return FAMILIES[resolve_profile(profile).family]


def named_family(name: str | None) -> Family:
    """The family of profile ``name``, or the Taiwanese one for a name no profile has
    (a log's own 規則: line, before the judge refuses it)."""
    try:
        return profile_family(name) if name else DEFAULT
    except KeyError:
        return DEFAULT


def score_profiles() -> list[str]:
    """The names ``adjudicator score --profile`` takes: the rule profiles and the score-only."""
    return [*profile_names(), *SCORE_ONLY]


def rule_set(profile: str, house: House | None = None,
             settings: Mapping[str, str] | None = None) -> RuleSet:
    """The rules of a judgement by ``profile`` (or ``house``, which rests on it) with the
    run's --set values laid over; a --set key of another family's game does not apply."""
    return _rule_set(profile, house, tuple(sorted((settings or {}).items())))


def own_rules(profile: str | None) -> RuleSet:
    """The rule set of a log's own 規則: line (the default profile's for a name no profile
    has: the judge refuses that log before its ruling)."""
    from adjudicator.rules.files import DEFAULT_PROFILE

    return rule_set(profile if profile in profile_names() else DEFAULT_PROFILE)


@cache
def _rule_set(profile: str, house: House | None,
              settings: tuple[tuple[str, str], ...]) -> RuleSet:
    values = dict(house.values) if house is not None else profile_values(profile)
    values.update((k, v) for k, v in settings if k in values)
    family = house.family if house is not None else resolve_profile(profile).family
    return RuleSet(profile, family, tuple(sorted(values.items())), house)


# ------------------------------------------------------------------ a folder of house rules


def house_names(folder: Path) -> list[str]:
    """The house-rules files an operator put in ``folder``, by name (the file's stem)."""
    return sorted(p.stem for p in folder.glob(f"*{SUFFIX}") if p.is_file())


def load_house(path: Path) -> House:
    """A house-rules file read and resolved; ``RulesError`` if it cannot be used."""
    return resolve_house(read_file(path))


def load_folder(folder: Path) -> dict[str, House]:
    """Every house-rules file of ``folder`` by name; ``RulesError`` for the first bad one
    (an operator's folder is checked whole when the desk starts)."""
    return {name: load_house(folder / f"{name}{SUFFIX}") for name in house_names(folder)}


# ------------------------------------------------------------------ for people to read


def definitions(family: str) -> list[Point | Param]:
    """The points and parameters of ``family``, in their file's order."""
    return [d for d in (*POINTS.values(), *PARAMS.values()) if d.family == family]


def words(definition: Point | Param, value: str) -> str:
    """A value with what it means (``all（所有進牌）``, ``12 台``)."""
    options = definition.readings if isinstance(definition, Point) else definition.values
    if options is None:
        return f"{value} {definition.unit}"
    return f"{value}（{options.get(value, '?')}）"


def comparison(house: House) -> list[dict[str, Any]]:
    """Each point and parameter of the house rules' family: the shipped profile's value
    (the one the house chain rests on), the house's, and whether they differ."""
    base = profile_values(house.profile)
    own = dict(house.values)
    return [{"id": d.id, "question": d.question, "base": base[d.id], "house": own[d.id],
             "base_words": words(d, base[d.id]), "house_words": words(d, own[d.id]),
             "differs": base[d.id] != own[d.id]} for d in definitions(house.family)]


def template(base: str) -> str:
    """A house-rules file to fill in (``adjudicator rules init``): its name, version and
    base, then every point and parameter of the base's family as a comment, with its
    question, its readings or range, and the base's value."""
    values = profile_values(base)
    family = resolve_profile(base).family
    lines = ["# 家規檔（adjudicator rules init 所寫；格式見 docs/house-rules.md）",
             "# 每行「鍵: 值」；# 之後是註解。改哪一項，就去掉該行開頭的 # 並填上值；",
             f"# 未寫的都依「依據」的規則（{base}）。寫好後以 adjudicator rules show 檔名 核對。",
             "",
             "名稱: 請填上這份規則的名稱（如 龍山麻將協會 2026 版）",
             "版本: 1",
             f"依據: {base}",
             ""]
    for d in definitions(family):
        lines.append(f"# {d.question}" + (f"（{d.clause}）" if d.clause else ""))
        if d.seed is not None:
            lines.append(f"#   原文 {d.seed.file} {d.seed.clause}：{d.seed.says}")
        options = d.readings if isinstance(d, Point) else d.values
        if options is None:
            lines.append(f"#   {d.range[0]} 到 {d.range[1]} 的整數（{d.unit}）")
        else:
            lines += [f"#   {value}：{meaning}" for value, meaning in options.items()]
        lines += [f"# {d.id}: {values[d.id]}", ""]
    return "\n".join(lines)


def rules_label(rules: Mapping[str, Any]) -> str:
    """A ruling JSON's ``rules`` in words, as every report and the archive head it: the
    profile, or the house rules' name, version and base; how many values differ from the
    profile; the first 12 characters of the hash (ruling-json.md)."""
    house = rules.get("house")
    if house:
        version = f" {house['version']}" if house.get("version") else ""
        words = f"家規 {house['name']}{version}（依據 {house['extends']}）"
    else:
        words = f"規則 {profile_label(rules['profile'])}"
    changed = len(rules.get("settings") or {})
    digest = str(rules.get("hash", "")).removeprefix("sha256:")[:12]
    return words + (f"，改動 {changed} 處" if changed else "") + f" · 雜湊 {digest}"
