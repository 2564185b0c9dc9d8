"""Interpretation points and profile parameters: the knobs a profile sets (rulebook.md).

Each interpretation point (解釋.*: a clause that can be read more than one way) has an id, a
question and its readings (value → what it means), the rulebook's default first.  Each
parameter (台 values, platform variants) has a name, a question and, where it is a choice,
its values.  Profiles state a value for every one of them in ``asp/profiles/*.lp``; a run's
``--set ID=VALUE`` overrides one (``parse_settings`` checks it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Point:
    id: str
    question: str
    readings: dict[str, str]
    family: str = "tw16"  # the profile family whose chapters read it (rules/families.py)


POINTS: dict[str, Point] = {p.id: p for p in (
    Point("解釋.詐和牌面", "詐和 的牌面台數（手牌未成和時）",
          {"shown": "按已亮出部分所示台數（花、風箭刻、門清…），不計需成和的牌型",
           "zero": "0 台"}),
    Point("解釋.八張窗", "「其後摸序八張」計哪些摸牌",
          {"wall": "任何人自牌牆摸牌，補牌不計", "all": "所有進牌（含補牌）"}),
    Point("解釋.代位自摸", "代位賠付窗內自摸時誰付多少",
          {"all": "負責者付三家之份", "others": "負責者只付另兩家之份"}),
    Point("解釋.平均賠付", "多人錯暗杠平均賠付除不盡時",
          {"exact": "精確分數", "floor": "捨去，餘數由輪序最先者付"}),
    Point("解釋.偷窺", "錯杠.加.1：嚴格場合是否因偷窺杠上牌判相公",
          {"no": "不判相公", "相公": "判相公"}),
    Point("解釋.禁制罰", "違反未定罰則的行牌禁制",
          {"相公": "判相公（同錯吃碰杠）", "void": "僅該動作無效"}),
    Point("解釋.莊家被自摸", "他家自摸時莊家是否另付作莊與連N拉N",
          {"yes": "是", "no": "否（台.9 只說和放皆加計）"}),
    Point("解釋.末八張", "何謂「末八張（三張）內」",
          {"remaining": "動作時可摸牌不多於八（三）張",
           "drawn": "行為者最後摸的那張在末八（三）張內"}),
    Point("解釋.包賠莊台", "包賠是否含作莊與連N拉N",
          {"yes": "是，同詐和.1：與莊家另計；莊家犯規則三家皆加計", "no": "否"}),
    Point("解釋.相公二度", "何謂相公二度違規",
          {"any": "相公者任何禁止之行為（吃碰明杠、和牌）或再犯", "listed": "僅再犯相公之列"}),
    Point("解釋.攔和", "多人搶同一張舍牌、較遠者先喊",
          {"nearest": "不論先後，離放銃者較近者和", "first": "先喊者和"}),
    Point("解釋.花和缺張", "補花前宣告花和",
          {"void": "和牌無效，牌局繼續（台.27）", "詐和": "以詐和（缺張）論"}),
    Point("解釋.示記高", "連莊示記高於實際連莊序",
          {"real_shown": "和牌按實際收，放銃按所示付（001）", "none": "不調整"}),
    Point("解釋.人和", "台.35 人和「和各家打出宣告後第一張牌」",
          {"each": "任何一家於宣告地聽後打出的第一張牌（同地和之各家）",
           "first": "宣告地聽後全桌打出的第一張牌"}),
    Point("解釋.相公時點", "紀錄顯示相公之列的行為（打出花牌、錯位摸補…）而未經舉發時",
          {"act": "自該行為起即為相公（裁決即其發現）", "report": "須經舉發、自承或發現始為相公"}),
    Point("解釋.包賠下莊", "包賠終止本盤後由誰作莊（條文未定）",
          {"詐和": "同詐和.3：莊家包賠下莊；閒家包賠則莊家續莊、不計連莊序",
           "荒局": "同無人和牌之荒局（依規則續莊或下莊）"}),
    Point("解釋.自摸過水", "摸得可自摸之牌而未和，是否為過水",
          {"yes": "是（得和牌而未和牌）", "no": "否，僅他家舍牌（含加杠）未和為過水"}),
    Point("解釋.過水自摸", "過水未解除前，自摸是否亦不得和",
          {"yes": "是，任何和牌皆為詐和（不得和牌；加杠補牌自摸有效之但書）",
           "no": "否，僅不得和他家之牌；過水時暗杠之補牌仍不得自摸"}),
    Point("解釋.伸手過水", "得和牌者伸手摸牌，何時即為過水",
          {"reach": "伸手即是（過水、攔和、優先.8）", "touch": "須伸手並觸及牆牌（同優先.5）"}),
    Point("解釋.同巡", "禁制.5「同巡打過之牌」含哪些舍牌",
          {"others": "本家前一次打牌後他家打出之牌", "own_too": "另含本家前一次打出之牌"}),
    Point("解釋.露牌和銃", "禁制.8：露牌後何種和銃被禁",
          {"held": "露出之牌仍在手中即不得和銃", "near": "僅不得和露出之牌或可與之成搭之牌"}),
    Point("解釋.末八張暗杠", "錯杠.暗.3 的「末八張內除外」：末八張內之錯暗杠對非杠上之和牌",
          {"huangju": "僅指錯杠.暗.2 荒局檢出之包賠；非杠上之和牌仍無賠付責任",
           "all_wins": "其後任何和牌皆由錯暗杠者代位賠付"}),
    Point("解釋.獨聽", "台.11 獨聽：只聽一張牌，或只聽一種搭子",
          {"tiles": "按張：手牌只聽一種牌",
           "shape": "按搭：和牌在所取組合中補成 中洞、邊張 或 單釣"}),
    Point("解釋.花和牌面", "花和 時手牌已成和：計哪些台",
          {"full": "手牌全部牌面（含滿花 8）加計 八仙過海／七搶一 8",
           "eight": "只計花和之 8 台"}),
    # The Guangdong family (docs/gd-rulebook.md): where the 廣東麻將 text is silent.
    Point("解釋.粵底分", "粵：底與分值（2 的番數次方）如何算成每份賠付",
          {"product": "底 × 分值（未寫底時以分計，乘表頭的台）",
           "sum": "底 + 分值 × 台（同台灣十六張之底台算法）"}, "gd"),
    Point("解釋.粵放銃", "粵：和他家打出的牌時由誰付",
          {"discarder": "放銃者一家付", "all": "三家各付一份（同自摸）"}, "gd"),
    Point("解釋.粵天地人和", "粵特.8–10 天和、地和、人和：條文未定番數",
          {"limit": "作特殊牌型，計 6 番（與最高的特殊牌型同）",
           "none": "只記其事，不另計番"}, "gd"),
)}


@dataclass(frozen=True)
class Param:
    id: str
    question: str
    values: dict[str, str] | None = None  # None: any whole number
    family: str = "tw16"  # the profile family whose chapters read it


PARAMS: dict[str, Param] = {p.id: p for p in (
    Param("tai_five_concealed_pungs", "台.18 五暗刻 的台數（003 計 13，000 計 12）"),
    Param("tai_di_ting", "台.32 地聽 的台數（003 計 4，000 計 6）"),
    Param("haidi_may_pass", "海底牌可否不摸（棄摸）",
          {"1": "可以", "0": "不可：須摸須打，不得杠或補花（平台.海底）"}),
    Param("dealer_stays_on_draw", "荒局／流局後莊家是否連莊",
          {"1": "連莊", "0": "下莊（平台.流局）"}),
    Param("pass_forbids_win", "過水後再和是否為詐和",
          {"1": "是", "0": "否，和牌無過水之限（平台.過水）"}),
    Param("eye_deposit_tai", "宣告眼牌時的供托台數（平台.眼牌）"),
    Param("last_three_closed_kongs_allowed", "末三張內可否暗杠、加杠",
          {"1": "可以（平台.末三張）", "0": "未另行准許"}),
    Param("ligu_enabled", "台.36 嚦咕嚦咕（選用）是否計台", {"1": "計", "0": "不計"}),
    Param("lanhu_platform_clause", "攔和之外是否另引平台.拦胡（平台只准最近放槍者一家和）",
          {"0": "否", "1": "是（平台.拦胡）"}),
    Param("platform_settlement", "和牌賠付是否另引平台.授受",
          {"0": "否", "1": "是（平台.授受）"}),
    Param("gd_cap", "粵.爆和：爆和內牌型連附加番的上限（番）", family="gd"),
    Param("gd_minimum", "粵特.1、.2、.4、.7：不滿此番數者按此番數計", family="gd"),
)}


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
