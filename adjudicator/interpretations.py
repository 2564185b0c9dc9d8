"""Interpretation points: where a clause can be read more than one way (rulebook.md).

Each point has an id, a question and its readings (value → what it means).  Profiles pick
a value per point in ``asp/profiles/*.lp``; ``--set ID=VALUE`` overrides one for a run.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    id: str
    question: str
    readings: dict[str, str]


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
          {"yes": "是，同詐和.1", "no": "否"}),
    Point("解釋.相公二度", "何謂相公二度違規",
          {"any": "相公者任何禁止之行為（吃碰明杠、和牌）或再犯", "listed": "僅再犯相公之列"}),
    Point("解釋.攔和", "多人搶同一張舍牌、較遠者先喊",
          {"nearest": "不論先後，離放銃者較近者和", "first": "先喊者和"}),
    Point("解釋.花和缺張", "補花前宣告花和",
          {"void": "和牌無效，牌局繼續（台.27）", "詐和": "以詐和（缺張）論"}),
    Point("解釋.示記高", "連莊示記高於實際連莊序",
          {"real_shown": "和牌按實際收，放銃按所示付（001）", "none": "不調整"}),
)}


def describe(point_id: str, value: str) -> str:
    point = POINTS.get(point_id)
    if point is None:
        return value
    return point.readings.get(value, value)
