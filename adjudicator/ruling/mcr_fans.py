"""The 國標 (Chinese Official, ``mcr``) fan list: number, name, value and what each leaves out.

Numbered as the official list of 81 fans (002's partial list carries the same numbers,
57–81).  ``library`` is the Simplified name PyMahjongGB reports, which is how a fan the
library found is looked up here.  ``not_counted`` is the 不計 each fan's definition states
(the fans that may not be counted beside it); PyMahjongGB applies them, and the output
shows them so that a referee sees why a fan the hand seems to have is missing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FanDef:
    number: int
    name: str
    value: int
    library: str
    not_counted: tuple[str, ...] = ()


# number, name, 番, the library's name, then the 不計 of the fan's definition.
_TABLE = """
 1 大四喜    88 大四喜    圈風刻 門風刻 三風刻 碰碰和
 2 大三元    88 大三元    箭刻 雙箭刻
 3 綠一色    88 绿一色    混一色
 4 九蓮寶燈   88 九莲宝灯   清一色
 5 四杠     88 四杠     單釣將
 6 連七對    88 连七对    清一色 不求人 單釣將 門前清 七對
 7 十三幺    88 十三幺    五門齊 不求人 單釣將 門前清
 8 清幺九    64 清幺九    碰碰和 雙同刻 無字
 9 小四喜    64 小四喜    三風刻
10 小三元    64 小三元    箭刻 雙箭刻
11 字一色    64 字一色    碰碰和
12 四暗刻    64 四暗刻    門前清 碰碰和
13 一色雙龍會  64 一色双龙会  平和 七對 清一色
14 一色四同順  48 一色四同顺  一色三節高 一般高 四歸一
15 一色四節高  48 一色四节高  一色三同順 碰碰和
16 一色四步高  32 一色四步高
17 三杠     32 三杠
18 混幺九    32 混幺九    碰碰和
19 七對     24 七对     不求人 單釣將
20 七星不靠   24 七星不靠   五門齊 不求人 單釣將
21 全雙刻    24 全双刻    碰碰和 斷幺
22 清一色    24 清一色    無字
23 一色三同順  24 一色三同顺  一色三節高
24 一色三節高  24 一色三节高  一色三同順
25 全大     24 全大     大於五 無字
26 全中     24 全中     斷幺 無字
27 全小     24 全小     小於五 無字
28 清龍     16 清龙
29 三色雙龍會  16 三色双龙会  喜相逢 老少副 無字 平和
30 一色三步高  16 一色三步高
31 全帶五    16 全带五    斷幺
32 三同刻    16 三同刻    雙同刻
33 三暗刻    16 三暗刻
34 全不靠    12 全不靠    五門齊 不求人 單釣將
35 組合龍    12 组合龙
36 大於五    12 大于五    無字
37 小於五    12 小于五    無字
38 三風刻    12 三风刻
39 花龍      8 花龙
40 推不倒     8 推不倒    缺一門
41 三色三同順   8 三色三同顺
42 三色三節高   8 三色三节高
43 無番和     8 无番和
44 妙手回春    8 妙手回春   自摸
45 海底撈月    8 海底捞月
46 杠上開花    8 杠上开花   自摸
47 搶杠和     8 抢杠和    和絕張
48 碰碰和     6 碰碰和
49 混一色     6 混一色
50 三色三步高   6 三色三步高
51 五門齊     6 五门齐
52 全求人     6 全求人    單釣將
53 雙暗杠     6 双暗杠    暗杠
54 雙箭刻     6 双箭刻    箭刻
55 全帶幺     4 全带幺
56 不求人     4 不求人    自摸
57 雙明杠     4 双明杠    明杠
58 和絕張     4 和绝张
59 箭刻      2 箭刻
60 圈風刻     2 圈风刻
61 門風刻     2 门风刻
62 門前清     2 门前清
63 平和      2 平和     無字
64 四歸一     2 四归一
65 雙同刻     2 双同刻
66 雙暗刻     2 双暗刻
67 暗杠      2 暗杠
68 斷幺      2 断幺     無字
69 一般高     1 一般高
70 喜相逢     1 喜相逢
71 連六      1 连六
72 老少副     1 老少副
73 幺九刻     1 幺九刻
74 明杠      1 明杠
75 缺一門     1 缺一门
76 無字      1 无字
77 邊張      1 独听・边张
78 坎張      1 独听・嵌张
79 單釣將     1 独听・单钓
80 自摸      1 自摸
81 花牌      1 花牌
"""


def _parse(table: str) -> tuple[FanDef, ...]:
    out = []
    for line in table.strip().splitlines():
        number, name, value, library, *not_counted = line.split()
        out.append(FanDef(int(number), name, int(value), library, tuple(not_counted)))
    return tuple(out)


FANS: tuple[FanDef, ...] = _parse(_TABLE)

# Not one of the 81: PyMahjongGB counts one 明杠 with one 暗杠 as a single 5-番 fan, the
# reading of later refereeing practice.  The list 002 cites would count 明杠 1 + 暗杠 2;
# docs/mcr.md names the difference.
EXTRA: tuple[FanDef, ...] = (
    FanDef(0, "明暗杠", 5, "明暗杠", ("明杠", "暗杠")),
)

BY_LIBRARY_NAME: dict[str, FanDef] = {f.library: f for f in (*FANS, *EXTRA)}


def clause_of(fan: FanDef) -> str:
    """``國標.N`` for the 81; the library's extra fan is cited by its name."""
    return f"國標.{fan.number}" if fan.number else f"國標.{fan.name}"
