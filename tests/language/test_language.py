"""The incident-log language: every form of incident-language.md, in both scripts.

Each spec block is checked as written (Traditional), as hand-written Simplified, and in two
mechanical variants of each: full-width punctuation/digits/spaces, and no spaces at all.
"""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Callable
from fractions import Fraction

import pytest

from adjudicator.language import tiles
from adjudicator.language.errors import LogError, caret_line, display_width
from adjudicator.language.incident import (
    FINDING_KINDS,
    OFFENCES,
    VERBS,
    Act,
    BalanceExpectation,
    FindingExpectation,
    HandEndExpectation,
    Incident,
    Meld,
    NextHandExpectation,
    Position,
    WallCount,
    WinExpectation,
)
from adjudicator.language.reader import read


def ts(words: str) -> tuple[int, ...]:
    """Tiles by their canonical names, through the one tile table: ``ts("三萬 白")``."""
    return tuple(tiles.parse_one(w) for w in words.split())


def t(word: str) -> int:
    return tiles.parse_one(word)


# ---------------------------------------------------------------------------- variants

_FULL_WIDTH = str.maketrans({
    ":": "：", "(": "（", ")": "）", ",": "，", ".": "．", "/": "／", "=": "＝", "?": "？",
    "#": "＃", "+": "＋", "-": "－", " ": "\u3000",
    **{str(d): chr(0xFF10 + d) for d in range(10)},
    "m": "ｍ", "p": "ｐ", "s": "ｓ", "z": "ｚ", "f": "ｆ",
})


def full_width(log: str) -> str:
    """The log typed with a Chinese keyboard: full-width punctuation, digits and spaces.

    The 規則 line keeps its profile name as written (a name, not a number)."""
    return "\n".join(
        line if line.lstrip().startswith(("規則", "规则")) else line.translate(_FULL_WIDTH)
        for line in log.split("\n")
    )


def no_spaces(log: str) -> str:
    """The log typed on a phone with no spaces at all (comments dropped with them)."""
    return "\n".join(re.sub(r"[ \u3000]+", "", line.split("#")[0]) for line in log.split("\n"))


def variants(traditional: str, simplified: str) -> list[tuple[str, str]]:
    return [
        ("traditional", traditional),
        ("simplified", simplified),
        ("full-width", full_width(traditional)),
        ("no-spaces", no_spaces(traditional)),
        ("simplified-full-width", full_width(simplified)),
        ("simplified-no-spaces", no_spaces(simplified)),
    ]


def params(traditional: str, simplified: str) -> Callable[[Callable[..., None]], object]:
    cases = variants(traditional, simplified)
    return pytest.mark.parametrize("log", [c[1] for c in cases], ids=[c[0] for c in cases])


# ---------------------------------------------------------------------------- the example

EXAMPLE = """\
規則: tw16
圈風: 東
莊家: 東
底: 300
台: 100

紀錄:
21 西 打 七筒
22 北 吃 七筒 用 六筒 八筒
23 北 打 二索
24 東 喊碰 七筒                   # called only after 北 showed and discarded: 優先.3
25 東 碰 七筒                     # insisted: 罰則.2, 相公 and 代位賠付 for 8 draws

期望:
北 優先
東 相公
東 代位賠付
繼續
"""

EXAMPLE_SIMPLIFIED = """\
规则: tw16
圈风: 东
庄家: 东
底: 300
台: 100

记录:
21 西 打 七饼
22 北 吃 七饼 用 六饼 八饼
23 北 打 二条
24 东 喊碰 七饼                   # 北 吃后才喊：优先.3
25 东 碰 七饼                     # 坚持碰：罚则.2

期望:
北 优先
东 相公
东 代位赔付
继续
"""


@params(EXAMPLE, EXAMPLE_SIMPLIFIED)
def test_spec_example(log: str) -> None:
    incident = read(log)
    header = incident.header
    assert (header.profile, header.round_wind, header.dealer) == ("tw16", "東", "東")
    assert (header.base, header.per_tai, header.streak) == (300, 100, 0)
    assert header.lines == {"規則": 1, "圈風": 2, "莊家": 3, "底": 4, "台": 5}
    assert incident.positions == []
    assert incident.record == [
        Act(seq=21, line=8, actor="西", verb="打", tiles=ts("七筒")),
        Act(seq=22, line=9, actor="北", verb="吃", tiles=ts("七筒"), using=ts("六筒 八筒")),
        Act(seq=23, line=10, actor="北", verb="打", tiles=ts("二索")),
        Act(seq=24, line=11, actor="東", verb="喊碰", tiles=ts("七筒")),
        Act(seq=25, line=12, actor="東", verb="碰", tiles=ts("七筒")),
    ]
    assert incident.expectations == [
        FindingExpectation(line=15, negated=False, seat="北", kind="優先"),
        FindingExpectation(line=16, negated=False, seat="東", kind="相公"),
        FindingExpectation(line=17, negated=False, seat="東", kind="代位賠付"),
        HandEndExpectation(line=18, negated=False, ends=False),
    ]
    assert incident.source == log


# ---------------------------------------------------------------------------- the header

HEADER = """\
規則: tw16              # profile; default tw16 (see rulebook.md)
圈風: 南                # round wind; default 東
莊家: 西                # dealer's chair
連莊: 2                 # the dealer's real streak N (連N拉N); default 0
示記: 1                 # the streak the dealer's dice show (連莊示記); default = 連莊
開門: 北                # the chair that is 東位 this hand: seat winds and flower numbers
                        #   count from it (001: 開門位即為該一盤之東位); default = 莊家
底: 300                 # base stake
台: 100                 # amount per 台
玩家: 東=阿明 南=小華 西=阿德 北=小美
插花: 外插 老王 東 50    # an outsider bets 50 on 東 (fixed amount)
插花: 內插 南 2         # 南 raises its own stake to 2 底 (插 1, 飄 2, 飛 3+)
牌牆: 20                # drawable tiles left when the record starts
"""

HEADER_SIMPLIFIED = """\
规则: tw16              # 规则档
圈风: 南                # 圈风
庄家: 西
连庄: 2
示记: 1
开门: 北
                        # 开门位即为该一盘之东位
底: 300
台: 100
玩家: 东=阿明 南=小华 西=阿德 北=小美
插花: 外插 老王 东 50
插花: 内插 南 2
牌墙: 20
"""


def check_header(incident: Incident, *, small: str, bettor: str) -> None:
    header = incident.header
    assert header.profile == "tw16"
    assert header.round_wind == "南"
    assert header.dealer == "西"
    assert (header.streak, header.shown_streak, header.open_seat) == (2, 1, "北")
    assert (header.base, header.per_tai, header.wall) == (300, 100, 20)
    assert header.players == {"阿明": "東", small: "南", "阿德": "西", "小美": "北"}
    assert [(b.line, b.kind, b.seat, b.amount, b.bettor) for b in header.side_bets] == [
        (11, "外插", "東", 50, bettor),
        (12, "內插", "南", 2, None),
    ]
    assert header.lines == {
        "規則": 1, "圈風": 2, "莊家": 3, "連莊": 4, "示記": 5, "開門": 6, "底": 8, "台": 9,
        "玩家": 10, "插花": 11, "牌牆": 13,
    }
    assert incident.record == [] and incident.expectations == []


@params(HEADER, HEADER_SIMPLIFIED)
def test_header(log: str) -> None:
    simplified = "规则" in log
    # Without spaces the outsider's name runs into the chair (外插老王東50): the one form
    # that needs its spaces, so that variant keeps them.
    if "外插" in log and "外插 " not in log and "外插\u3000" not in log:
        log = log.replace("外插老王", "外插 老王 ")
    check_header(read(log), small="小华" if simplified else "小華", bettor="老王")


def test_header_defaults() -> None:
    header = read("紀錄:\n").header
    assert (header.profile, header.round_wind, header.dealer) == ("tw16", "東", None)
    assert (header.streak, header.shown_streak, header.open_seat) == (0, None, None)
    assert (header.base, header.per_tai, header.wall) == (None, None, None)
    assert header.players == {} and header.side_bets == []


def test_header_forgiving_forms() -> None:
    header = read("圈風：東風\n臺：50\n底 300\n莊家:阿明\n玩家: 東 = 阿明 南＝小華\n").header
    assert (header.round_wind, header.per_tai, header.base, header.dealer) == ("東", 50, 300, "東")
    assert header.players == {"阿明": "東", "小華": "南"}
    # A name may be written right before the next chair: 阿明 ends where 南= starts.
    assert read("玩家:東=阿明南=小華西=南南\n").header.players == {
        "阿明": "東", "小華": "南", "南南": "西"
    }


# ---------------------------------------------------------------------------- positions

POSITIONS = """\
南 手牌: 一二三萬 四五六筒 七八九索 東東 中中中 五六筒 二二索    # concealed tiles
南 門前: 碰 三萬 / 吃 四五六索 / 明杠 北 / 暗杠 白                # exposed sets, / between
南 花: 春 梅
北 門前: 暗杠 五萬 五萬 五萬 六萬 / 加杠 1z
紀錄:
東 打 三萬
北 門前: 暗杠 五萬 五萬 五萬 六萬
"""

POSITIONS_SIMPLIFIED = """\
南 手牌: 一二三万 四五六饼 七八九条 东东 中中中 五六饼 二二条    # 暗牌
南 门前: 碰 三万 / 吃 四五六条 / 明杠 北 / 暗杠 白                # 明牌
南 花: 春 梅
北 门前: 暗杠 五万 五万 五万 六万 / 加杠 1z
记录:
东 打 三万
北 门前: 暗杠 五万 五万 五万 六万
"""


@params(POSITIONS, POSITIONS_SIMPLIFIED)
def test_positions(log: str) -> None:
    incident = read(log)
    hand = ts("一萬 二萬 三萬 四筒 五筒 六筒 七索 八索 九索 東 東 中 中 中 五筒 六筒 二索 二索")
    odd_kong = Meld("暗杠", ts("五萬 五萬 五萬 六萬"))
    assert incident.positions == [
        Position(line=1, seat="南", kind="手牌", tiles=hand),
        Position(line=2, seat="南", kind="門前", melds=(
            Meld("碰", ts("三萬 三萬 三萬")),
            Meld("吃", ts("四索 五索 六索")),
            Meld("明杠", ts("北 北 北 北")),
            Meld("暗杠", ts("白 白 白 白")),
        )),
        Position(line=3, seat="南", kind="花", tiles=ts("春 梅")),
        Position(line=4, seat="北", kind="門前", melds=(odd_kong, Meld("加杠", ts("東 東 東 東")))),
    ]
    # Inside the record a position is what was seen at that point.
    assert incident.record == [
        Act(seq=1, line=6, actor="東", verb="打", tiles=ts("三萬")),
        Position(line=7, seat="北", kind="門前", melds=(odd_kong,)),
    ]


def test_meld_forms() -> None:
    melds = read("東 門前: 碰 三三三萬 , 明槓 4z 4z 4z 4z 、暗槓 白 吃 4s5s6s\n").positions[0].melds
    assert melds == (
        Meld("碰", ts("三萬 三萬 三萬")),
        Meld("明杠", ts("北 北 北 北")),
        Meld("暗杠", ts("白 白 白 白")),
        Meld("吃", ts("四索 五索 六索")),
    )
    assert read("東 門前:\n東 花:\n").positions == [
        Position(line=1, seat="東", kind="門前"), Position(line=2, seat="東", kind="花"),
    ]


# ---------------------------------------------------------------------------- the record

RECORD = """\
紀錄:
1 東 摸
2 東 摸 ?
3 東 摸 三萬 （海底）
4 東 棄摸
5 東 補花 春 補 三萬
6 東 補 三萬
7 東 補
8 東 打 三萬
9 東 打 三萬 （門前）
10 南 吃 七筒 用 六筒 八筒
11 南 碰 七筒
12 南 明杠 七筒
13 南 加杠 七筒
14 南 暗杠 白
15 南 暗杠 五萬 五萬 五萬 六萬
16 南 喊碰 七筒
17 南 喊吃
18 南 喊杠 七筒
19 南 喊和 七筒
20 南 亮牌 七筒 七筒
21 南 伸手
22 南 觸及
23 南 入手
24 南 靠張
25 南 和 七筒
26 南 搶花 梅
27 南 自摸 七筒
28 南 推倒
29 南 過 七筒
30 南 聽
31 南 天聽
32 南 地聽
33 南 眼牌
34 南 換牌
35 南 露牌 一二三萬
36 南 弄亂 牌牆
37 南 弄亂 東 手牌
38 裁判 檢查 暗杠
39 西 舉發 東 錯杠
40 東 自承 逾張 三萬
41 裁判 發現 東 花牌未補 春
42 東 復原
43 牌局 荒局
44 南 換杠 白
45 南 帶牌走動
46 南 透露
牌牆: 12
東 手牌: 555z
"""

RECORD_SIMPLIFIED = """\
记录:
1 东 摸
2 东 摸 ?
3 东 摸 三万 （海底）
4 东 弃摸
5 东 补花 春 补 三万
6 东 补 三万
7 东 补
8 东 打 三万
9 东 打 三万 （门前）
10 南 吃 七饼 用 六饼 八饼
11 南 碰 七饼
12 南 明杠 七饼
13 南 加杠 七饼
14 南 暗杠 白
15 南 暗杠 五万 五万 五万 六万
16 南 喊碰 七饼
17 南 喊吃
18 南 喊杠 七饼
19 南 喊胡 七饼
20 南 亮牌 七饼 七饼
21 南 伸手
22 南 触及
23 南 入手
24 南 靠张
25 南 胡 七饼
26 南 抢花 梅
27 南 自摸 七饼
28 南 推倒
29 南 过 七饼
30 南 听
31 南 天听
32 南 地听
33 南 眼牌
34 南 换牌
35 南 露牌 一二三万
36 南 弄乱 牌墙
37 南 弄乱 东 手牌
38 裁判 检查 暗杠
39 西 举发 东 错杠
40 东 自承 逾张 三万
41 裁判 发现 东 花牌未补 春
42 东 复原
43 牌局 荒局
44 南 换杠 白
45 南 带牌走动
46 南 透露
牌墙: 12
东 手牌: 555z
"""

# seq, actor, verb, tiles, extra fields
EXPECTED_ACTS: list[tuple[int, str, str, str, dict[str, object]]] = [
    (1, "東", "摸", "", {}),
    (2, "東", "摸", "?", {}),
    (3, "東", "摸", "三萬", {"note": "海底"}),
    (4, "東", "棄摸", "", {}),
    (5, "東", "補花", "春", {"replacement": t("三萬")}),
    (6, "東", "補", "三萬", {}),
    (7, "東", "補", "", {}),
    (8, "東", "打", "三萬", {}),
    (9, "東", "打", "三萬", {"note": "門前"}),
    (10, "南", "吃", "七筒", {"using": ts("六筒 八筒")}),
    (11, "南", "碰", "七筒", {}),
    (12, "南", "明杠", "七筒", {}),
    (13, "南", "加杠", "七筒", {}),
    (14, "南", "暗杠", "白", {}),
    (15, "南", "暗杠", "五萬 五萬 五萬 六萬", {}),
    (16, "南", "喊碰", "七筒", {}),
    (17, "南", "喊吃", "", {}),
    (18, "南", "喊杠", "七筒", {}),
    (19, "南", "喊和", "七筒", {}),
    (20, "南", "亮牌", "七筒 七筒", {}),
    (21, "南", "伸手", "", {}),
    (22, "南", "觸及", "", {}),
    (23, "南", "入手", "", {}),
    (24, "南", "靠張", "", {}),
    (25, "南", "和", "七筒", {}),
    (26, "南", "搶花", "梅", {}),
    (27, "南", "自摸", "七筒", {}),
    (28, "南", "推倒", "", {}),
    (29, "南", "過", "七筒", {}),
    (30, "南", "聽", "", {}),
    (31, "南", "天聽", "", {}),
    (32, "南", "地聽", "", {}),
    (33, "南", "眼牌", "", {}),
    (34, "南", "換牌", "", {}),
    (35, "南", "露牌", "一萬 二萬 三萬", {}),
    (36, "南", "弄亂", "", {"what": "牌牆"}),
    (37, "南", "弄亂", "", {"target": "東", "what": "手牌"}),
    (38, "裁判", "檢查", "", {"what": "暗杠"}),
    (39, "西", "舉發", "", {"target": "東", "what": "錯杠"}),
    (40, "東", "自承", "三萬", {"what": "逾張"}),
    (41, "裁判", "發現", "春", {"target": "東", "what": "花牌未補"}),
    (42, "東", "復原", "", {}),
    (43, "牌局", "荒局", "", {}),
    (44, "南", "換杠", "白", {}),
    (45, "南", "帶牌走動", "", {}),
    (46, "南", "透露", "", {}),
]


@params(RECORD, RECORD_SIMPLIFIED)
def test_every_act(log: str) -> None:
    incident = read(log)
    expected = [
        Act(seq=seq, line=seq + 1, actor=actor, verb=verb, tiles=ts(words), **extra)  # type: ignore[arg-type]
        for seq, actor, verb, words, extra in EXPECTED_ACTS
    ]
    assert incident.record[: len(expected)] == expected
    assert incident.record[len(expected):] == [
        WallCount(line=48, count=12),
        Position(line=49, seat="東", kind="手牌", tiles=ts("白 白 白")),
    ]
    assert incident.positions == []


# 台.23's ways of mishandling a drawn tile, each a plain act, in both scripts.
DRAWN_TILE_ACTS = ("落海", "低於桌面", "觸落牆牌", "觸及海內牌")


@params("紀錄:\n南 落海\n南 低於桌面\n南 觸落牆牌\n南 觸及海內牌\n",
        "记录:\n南 落海\n南 低于桌面\n南 触落墙牌\n南 触及海内牌\n")
def test_drawn_tile_acts(log: str) -> None:
    assert [act.verb for act in read(log).record] == list(DRAWN_TILE_ACTS)


# 插花.影響: the act of a 外插 bettor, who holds no chair, written by the bettor's name.
OUTSIDER_ACTS = ("影響行牌",)


# (An outsider's name, like the bettor's on its 插花 line, is followed by a space.)
@pytest.mark.parametrize("log", ["插花: 外插 老王 南 50\n紀錄:\n老王 影響行牌\n",
                                 "插花: 外插 老王 南 50\n记录:\n老王 影响行牌\n"])
def test_outsider_act(log: str) -> None:
    [act] = read(log).record
    assert (act.actor, act.verb) == ("老王", "影響行牌")


@pytest.mark.parametrize("log", ["插花: 外插 老王 南 50\n紀錄:\n南 影響行牌\n",
                                 "插花: 外插 老王 南 50\n紀錄:\n老王 打 三萬\n",
                                 "\n紀錄:\n老王 影響行牌\n"])
def test_outsider_act_only_by_its_outsider(log: str) -> None:
    err = failure(log)
    assert err.line == 3 and err.column == 1


def test_table_stake() -> None:
    [bet] = read("插花: 外插 老王 南 底台 不受 北\n").header.side_bets
    assert (bet.amount, bet.refused) == ("底台", ("北",))
    assert read("插花: 外插 老王 南 底台\n").header.side_bets[0].amount == "底台"


def test_every_verb_is_covered() -> None:
    covered = ({verb for _, _, verb, _, _ in EXPECTED_ACTS} | set(DRAWN_TILE_ACTS)
               | set(OUTSIDER_ACTS))
    assert covered == set(VERBS)


def test_verb_spellings() -> None:
    log = "紀錄:\n東 明槓 三萬\n東 加槓 三萬\n東 暗槓 白\n東 喊槓\n東 喊胡\n東 胡\n裁判 檢查 暗槓\n"
    acts = read(log).acts
    assert [a.verb for a in acts] == ["明杠", "加杠", "暗杠", "喊杠", "喊和", "和", "檢查"]
    assert acts[-1].what == "暗杠"


def test_exhaust_without_actor() -> None:
    act = read("紀錄:\n99 荒局\n").acts[0]
    assert (act.seq, act.actor, act.verb) == (99, "牌局", "荒局")


def test_sequence_numbers() -> None:
    log = "紀錄:\n東 摸\n12 南 摸\n13. 西 摸\n14、北 摸\n１５．東 摸\n牌牆: 3\n南 摸\n9 西 摸\n"
    log += "北 摸\n"
    acts = read(log).acts
    # Falling numbers are kept as written: the judge reports them, the reader does not.
    assert [a.seq for a in acts] == [1, 12, 13, 14, 15, 16, 9, 10]
    assert [a.line for a in acts] == [2, 3, 4, 5, 6, 8, 9, 10]


def test_notes() -> None:
    log = "紀錄:\n東 摸 三萬（海底）\n東 打 三萬 (门前)\n東 和 三萬 （ 搶杠 ）\n"
    log += "東 和 三萬（抢杠）\n"
    assert [a.note for a in read(log).acts] == ["海底", "門前", "搶杠", "抢杠"]


def test_chair_or_tile_by_position() -> None:
    act = read("紀錄:\n東 打 東\n南 舉發 東 錯打明牌 東\n東家 碰 南風\n").acts
    assert (act[0].actor, act[0].tiles) == ("東", ts("東"))
    assert (act[1].actor, act[1].target, act[1].what) == ("南", "東", "錯打明牌")
    assert act[1].tiles == ts("東")
    assert (act[2].actor, act[2].tiles) == ("東", ts("南"))


def test_chow_with_a_run_of_two() -> None:
    act = read("紀錄:\n北 吃 七筒 用 六八筒\n北 吃 7p\n").acts
    assert (act[0].tiles, act[0].using) == (ts("七筒"), ts("六筒 八筒"))
    assert (act[1].tiles, act[1].using) == (ts("七筒"), ())


# ---------------------------------------------------------------------------- tiles


@pytest.mark.parametrize(
    ("written", "tile"),
    [
        *[(f"{n}萬", tiles.suited(0, i + 1)) for i, n in enumerate(tiles.NUMERALS)],
        *[(f"{i}萬", tiles.suited(0, i)) for i in range(1, 10)],
        *[(f"{i}m", tiles.suited(0, i)) for i in range(1, 10)],
        ("三万", 2), ("1筒", 9), ("1p", 9), ("九餅", 17), ("九饼", 17),
        ("1索", 18), ("1s", 18), ("五條", 22), ("五条", 22),
        ("東", 27), ("南", 28), ("西", 29), ("北", 30),
        ("東風", 27), ("东风", 27), ("南風", 28), ("西风", 29), ("北風", 30),
        ("1z", 27), ("2z", 28), ("3z", 29), ("4z", 30),
        ("中", 33), ("紅中", 33), ("红中", 33), ("7z", 33),
        ("發", 32), ("发", 32), ("發財", 32), ("青發", 32), ("6z", 32),
        ("白", 31), ("白板", 31), ("5z", 31),
        *[(name, 34 + i) for i, name in enumerate(tiles.FLOWERS)],
        *[(f"{i}f", 33 + i) for i in range(1, 9)],
        ("蘭", 39), ("兰", 39),
        ("?", tiles.UNKNOWN), ("？", tiles.UNKNOWN),
        ("３ｍ", 2), ("７ｚ", 33),
    ],
)
def test_tile_forms(written: str, tile: int) -> None:
    assert read(f"紀錄:\n東 露牌 {written}\n").acts[0].tiles == (tile,)


def test_every_alias_of_the_tile_table_is_accepted() -> None:
    for alias, tile in tiles.HONOUR_ALIASES.items():
        assert read(f"紀錄:\n東 露牌 {alias}\n").acts[0].tiles == (tile,), alias
    for suit_word, suit in tiles.SUIT_ALIASES.items():
        numeral = "3" if suit_word in "mps" else "三"
        assert read(f"紀錄:\n東 打 {numeral}{suit_word}\n").acts[0].tiles == (suit * 9 + 2,)


@pytest.mark.parametrize(
    ("written", "words"),
    [
        ("一二三萬", "一萬 二萬 三萬"),
        ("五五五筒", "五筒 五筒 五筒"),
        ("123m", "一萬 二萬 三萬"),
        ("東東東", "東 東 東"),
        ("中中", "中 中"),
        ("555z", "白 白 白"),
        ("12f", "春 夏"),
        ("一二三萬四五六筒東東", "一萬 二萬 三萬 四筒 五筒 六筒 東 東"),
        ("一萬、二萬,三萬", "一萬 二萬 三萬"),
    ],
)
def test_runs(written: str, words: str) -> None:
    assert read(f"紀錄:\n東 露牌 {written}\n").acts[0].tiles == ts(words)


# ---------------------------------------------------------------------------- offences, kinds

OFFENCES_SIMPLIFIED = {
    "錯杠": "错杠", "錯暗杠": "错暗杠", "錯加杠": "错加杠", "錯碰杠": "错碰杠", "錯碰": "错碰",
    "錯打明牌": "错打明牌", "缺張": "缺张", "逾張": "逾张", "錯吃碰杠": "错吃碰杠", "偷牌": "偷牌",
    "花牌未補": "花牌未补", "花牌打出": "花牌打出", "錯位摸補": "错位摸补", "搶摸": "抢摸",
    "吃碰未撿入": "吃碰未捡入", "吃入打出": "吃入打出", "打出吃入": "打出吃入",
    "窺視暗牌": "窥视暗牌", "帶牌摸牌": "带牌摸牌", "過水": "过水", "換牌": "换牌",
    "眼牌未聽": "眼牌未听",
}

KINDS_SIMPLIFIED = {
    "相公": "相公", "詐和": "诈和", "包賠": "包赔", "代位賠付": "代位赔付", "過水": "过水",
    "眼牌違規": "眼牌违规", "喊碰未碰": "喊碰未碰", "強制復原": "强制复原", "禁制": "禁制",
    "優先": "优先", "錯杠": "错杠", "錯碰": "错碰", "錯打明牌": "错打明牌",
}


def test_the_lists_are_complete() -> None:
    assert tuple(OFFENCES_SIMPLIFIED) == OFFENCES
    assert sorted(KINDS_SIMPLIFIED) == sorted(FINDING_KINDS)  # FINDING_KINDS: ruling order


@pytest.mark.parametrize("offence", OFFENCES)
def test_offences(offence: str) -> None:
    simplified = OFFENCES_SIMPLIFIED[offence]
    log = (f"紀錄:\n西 舉發 東 {offence}\n東 自承 {simplified} 三萬\n"
           f"裁判 發現 南 {offence.replace('杠', '槓')}\n北发现东{simplified}\n")
    acts = read(log).acts
    assert [(a.verb, a.target, a.what) for a in acts] == [
        ("舉發", "東", offence), ("自承", None, offence), ("發現", "南", offence),
        ("發現", "東", offence),
    ]
    assert acts[1].tiles == ts("三萬")


@pytest.mark.parametrize("kind", FINDING_KINDS)
def test_finding_kinds(kind: str) -> None:
    log = f"期望:\n南 {kind}\n無 東 {KINDS_SIMPLIFIED[kind]}\n无西{kind.replace('和', '胡')}\n"
    assert read(log).expectations == [
        FindingExpectation(line=2, negated=False, seat="南", kind=kind),
        FindingExpectation(line=3, negated=True, seat="東", kind=kind),
        FindingExpectation(line=4, negated=True, seat="西", kind=kind),
    ]


# ---------------------------------------------------------------------------- expectations

EXPECTATIONS = """\
期望:
南 相公                          # a finding: SEAT KIND
南 代位賠付
北 詐和
東 和 有效 7台                   # a win: valid or 無效, and its 台數
本盤終止                         # or 繼續
收支: 東 +2100 南 -700 西 -700 北 -700   # net money for each chair
下盤: 莊家 南 連莊 3             # next hand's dealer and streak
無 南 詐和
東 和 無效
西 和 8臺
繼續
下盤: 莊家 南 連莊 3 不計連莊序
收支: 東 +1400/3 南 -1400/3 西 0 北 +0
下盤: 莊家 東
"""

EXPECTATIONS_SIMPLIFIED = """\
期望：
南 相公                          # 裁定：座位 种类
南 代位赔付
北 诈和
东 胡 有效 7台
本盘终止
收支: 东 +2100 南 -700 西 -700 北 -700
下盘: 庄家 南 连庄 3
无 南 诈和
东 和 无效
西 胡 8台
继续
下盘: 庄家 南 连庄 3 不计连庄序
收支: 东 +1400/3 南 -1400/3 西 0 北 +0
下盘: 庄家 东
"""


@params(EXPECTATIONS, EXPECTATIONS_SIMPLIFIED)
def test_expectations(log: str) -> None:
    assert read(log).expectations == [
        FindingExpectation(2, False, "南", "相公"),
        FindingExpectation(3, False, "南", "代位賠付"),
        FindingExpectation(4, False, "北", "詐和"),
        WinExpectation(5, False, "東", valid=True, tai=7),
        HandEndExpectation(6, False, ends=True),
        BalanceExpectation(7, False, {"東": 2100, "南": -700, "西": -700, "北": -700}),
        NextHandExpectation(8, False, "南", streak=3, counts_streak=True),
        FindingExpectation(9, True, "南", "詐和"),
        WinExpectation(10, False, "東", valid=False, tai=None),
        WinExpectation(11, False, "西", valid=None, tai=8),
        HandEndExpectation(12, False, ends=False),
        NextHandExpectation(13, False, "南", streak=3, counts_streak=False),
        BalanceExpectation(14, False, {
            "東": Fraction(1400, 3), "南": Fraction(-1400, 3), "西": 0, "北": 0,
        }),
        NextHandExpectation(15, False, "東", streak=None, counts_streak=True),
    ]


def test_money_types() -> None:
    balance = read("期望:\n收支: 東 +2100 南 -1400/2 西 -700/3\n").expectations[0]
    assert isinstance(balance, BalanceExpectation)
    assert [type(v) for v in balance.balances.values()] == [int, int, Fraction]
    assert balance.balances["南"] == -700


def test_negated_expectations() -> None:
    expectations = read("期望:\n無 東 和 有效 7台\n無 本盤終止\n無 收支: 東 +100\n").expectations
    assert [e.negated for e in expectations] == [True, True, True]


# ---------------------------------------------------------------------------- names


def test_arbitrary_player_names() -> None:
    log = """\
玩家: 東=x).:-y. 南=%c 西=阿明 北=東尼
莊家: %c
開門: x).:-y.
插花: 內插 %c 2
%c 手牌: 一萬
紀錄:
x).:-y. 打 三萬
%c 碰 三萬
阿明打三萬
東尼 摸
東尼摸
西 舉發 %c 錯碰
西 弄亂 x).:-y. 手牌
期望:
%c 相公
無 x).:-y. 詐和
阿明 和 有效 3台
收支: x).:-y. +100 %c -100
下盤: 莊家 %c 連莊 1
"""
    incident = read(log)
    header = incident.header
    assert header.players == {"x).:-y.": "東", "%c": "南", "阿明": "西", "東尼": "北"}
    assert (header.dealer, header.open_seat, header.side_bets[0].seat) == ("南", "東", "南")
    assert incident.positions[0].seat == "南"
    acts = incident.acts
    assert [a.actor for a in acts] == ["東", "南", "西", "北", "北", "西", "西"]
    assert [a.verb for a in acts] == ["打", "碰", "打", "摸", "摸", "舉發", "弄亂"]
    assert (acts[5].target, acts[6].target) == ("南", "東")
    assert incident.expectations == [
        FindingExpectation(15, False, "南", "相公"),
        FindingExpectation(16, True, "東", "詐和"),
        WinExpectation(17, False, "西", valid=True, tai=3),
        BalanceExpectation(18, False, {"東": 100, "南": -100}),
        NextHandExpectation(19, False, "南", streak=1, counts_streak=True),
    ]


@pytest.mark.parametrize("name", ['"a"', "#show", "x#y", "(海底)"])
def test_names_with_comment_and_note_marks(name: str) -> None:
    # After = the declared name is taken whole; used after a number or an act it outranks
    # a comment.  (A line that starts with # is a comment line, whatever the names.)
    log = f"玩家: 東={name} 西=阿德  # 註解\n紀錄:\n11 阿德 打 七筒\n12 {name} 喊碰 七筒\n"
    log += f"13 西 舉發 {name} 錯碰\n期望:\n無 {name} 相公\n"
    incident = read(log)
    assert incident.header.players == {name: "東", "阿德": "西"}
    assert [(a.actor, a.verb, a.target) for a in incident.acts] == [
        ("西", "打", None), ("東", "喊碰", None), ("西", "舉發", "東"),
    ]
    assert incident.expectations == [FindingExpectation(7, True, "東", "相公")]


def test_a_note_may_hold_the_other_brackets() -> None:
    acts = read('紀錄:\n西 打 七筒 （"). finding(x).）\n西 打 七筒 (a（b）\n').acts
    assert [a.note for a in acts] == ['"). finding(x).', "a（b"]


def test_a_name_written_like_a_chair_stays_the_chair() -> None:
    # A player called 南 who sits at 西: where a chair may stand, 南 is the chair.
    assert read("玩家: 西=南\n紀錄:\n南 摸\n").acts[0].actor == "南"


# ---------------------------------------------------------------------------- comments, blanks


def test_comments_and_blank_lines() -> None:
    log = (
        "\n\n# 開頭的註解\n＃ 全形註解\n規則: tw16 # 註解\n\n\t\n紀錄: # 開始\n\n東 摸 #\n"
        "# 中間\n\n期望:\n繼續＃完\n"
    )
    incident = read(log)
    assert incident.header.lines == {"規則": 5}
    assert [(a.line, a.verb) for a in incident.acts] == [(10, "摸")]
    assert incident.expectations == [HandEndExpectation(14, False, ends=False)]


def test_no_final_newline_crlf_and_bom() -> None:
    assert read("紀錄:\n東 摸").acts[0].line == 2
    assert read("\ufeff紀錄:\r\n東 摸\r\n南 摸\r\n").acts[1].line == 3


# ---------------------------------------------------------------------------- errors

MESSAGE = re.compile(r"^第 (\d+) 行第 (\d+) 字：這裡應是")


def failure(log: str) -> LogError:
    with pytest.raises(LogError) as caught:
        read(log)
    return caught.value


def test_error_names_line_and_caret() -> None:
    err = failure("規則: tw16\n紀錄:\n10 東 打 三萬\n11 南 碰 十萬")
    assert (err.line, err.column) == (4, 8)
    message, source_line, caret = str(err).split("\n")
    assert MESSAGE.match(message) and message.startswith("第 4 行第 8 字：這裡應是牌名")
    assert "十萬" in message
    assert source_line == "11 南 碰 十萬"
    # Wide characters take two columns: "11 南 碰 " is 9 columns wide.
    assert caret == " " * 9 + "^"


def test_zero_is_no_tile() -> None:
    err = failure("紀錄:\n東 露牌 406p\n")
    assert (err.line, err.column) == (2, 7)  # the 0
    assert "0" in err.message and err.expected.startswith("牌名")


@pytest.mark.parametrize("word", ["0p", "十萬", "零筒", "8z", "9f", "三m"])
def test_words_that_are_no_tiles(word: str) -> None:
    err = failure(f"紀錄:\n東 打 {word}\n")
    assert (err.line, err.column) == (2, 5)
    assert err.expected == "牌名，例如 三萬 或 3m"


def test_missing_tile() -> None:
    err = failure("紀錄:\n東 摸\n東 打\n南 摸\n")
    assert (err.line, err.column) == (3, 4)
    assert err.message == "第 3 行第 4 字：這裡應是牌名，例如 三萬 或 3m"
    assert str(err).split("\n")[2] == " " * 5 + "^"


def test_garbage_act() -> None:
    err = failure("紀錄:\n東 跳舞 三萬\n")
    assert (err.line, err.column) == (2, 3)
    assert "動作" in err.expected and "跳舞" in err.message


def test_unknown_word_at_line_start() -> None:
    err = failure("紀錄:\n老李 打 三萬\n")
    assert (err.line, err.column) == (2, 1)
    assert "老李" in err.message and "玩家" in err.message
    err = failure("foo: 1\n")
    assert (err.line, err.column) == (1, 1) and "表頭欄位" in err.expected


def test_repeated_header_key() -> None:
    err = failure("莊家: 東\n底: 1\n庄家: 南\n")
    assert (err.line, err.column) == (3, 1) and "第 1 行" in err.message
    # 插花 may repeat.
    assert len(read("插花: 內插 東 1\n插花: 內插 南 2\n").header.side_bets) == 2


@pytest.mark.parametrize(
    ("log", "line", "column", "words"),
    [
        ("紀錄:\n東 打 三萬 四萬\n", 2, 8, "行尾"),
        ("紀錄:\n東 舉發 南 亂打\n", 2, 8, "違例名稱"),
        ("期望:\n南 亂說\n", 2, 3, "裁定種類"),
        ("期望:\n收支: 東 +1/0\n", 2, 7, "金額"),
        ("紀錄:\n東 補花 三萬\n", 2, 6, "花牌"),
        ("紀錄:\n東 暗杠 三萬 三萬\n", 2, 3, "暗杠"),
        ("東 門前: 吃 三萬\n", 1, 7, "吃"),
        ("紀錄:\n裁判 打 三萬\n", 2, 1, "座位"),
        ("紀錄:\n東 荒局\n", 2, 1, "牌局"),
        ("圈風: 中\n", 1, 5, "圈風"),
        ("玩家: 東=阿明 東=小華\n", 1, 10, "座位"),
        ("玩家: 東=阿明 南=阿明\n", 1, 12, "名字"),
        ("期望:\n收支: 東 +1 東 -1\n", 2, 10, "座位"),
        ("紀錄:\n東 打 三萬\n規則: tw16\n", 3, 1, "座位"),
        ("期望:\n東 和 有效 7\n", 2, 9, "台"),
    ],
)
def test_other_errors(log: str, line: int, column: int, words: str) -> None:
    err = failure(log)
    assert (err.line, err.column) == (line, column), str(err)
    assert words in err.message, str(err)
    assert MESSAGE.match(err.message)


def test_error_text_and_pickling() -> None:
    err = failure("紀錄:\n東　打　三萬　四萬\n")
    message, source_line, caret = str(err).split("\n")
    assert source_line == "東　打　三萬　四萬"
    assert display_width(caret) == display_width("東　打　三萬　") + 1
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.line, copy.column, str(copy)) == (err.line, err.column, str(err))
    assert caret_line("ab", 3) == "  ^"


def test_only_log_errors_escape() -> None:
    # Every prefix and random mutilations of real logs: a LogError or a reading, nothing else.
    rng = random.Random(16)
    logs = [EXAMPLE, RECORD, EXPECTATIONS, HEADER, POSITIONS]
    trials = [log[:n] for log in logs for n in range(0, len(log), 7)]
    for _ in range(300):
        log = rng.choice(logs)
        i, j = sorted(rng.sample(range(len(log)), 2))
        trials.append(log[:i] + rng.choice(["", "十", "）", "=", "0", "#", "\n", "東"]) + log[j:])
    for log in trials:
        try:
            read(log)
        except LogError as err:
            assert MESSAGE.match(err.message), err.message


# ---------------------------------------------------------------------------- size


def test_a_long_record() -> None:
    lines = ["紀錄:"] + [f"{n} {'東南西北'[n % 4]} 打 {n % 9 + 1}m" for n in range(1, 2001)]
    acts = read("\n".join(lines)).acts
    assert len(acts) == 2000 and acts[-1].seq == 2000 and acts[-1].tiles == (2000 % 9,)


def test_a_base_header_is_read_over() -> None:
    from adjudicator.language.incident import Header

    base = Header(profile="tw16-alt", dealer="南", streak=2, base=300, per_tai=100,
                  players={"阿明": "東", "小華": "南", "阿德": "西", "小美": "北"})
    assert read("連莊: 3\n").header.dealer is None  # no base: nothing carried
    incident = read("連莊: 3\n紀錄:\n1 小華 打 五筒\n", base=base)
    h = incident.header
    assert (h.profile, h.dealer, h.streak, h.base) == ("tw16-alt", "南", 3, 300)
    assert set(h.lines) == {"連莊"}  # only what the log itself states
    assert incident.acts[0].actor == "南"  # the base's names need no 玩家 line
    moved = read("玩家: 東=小華 南=阿明 西=阿德 北=小美\n", base=base).header.players
    assert moved == {"小華": "東", "阿明": "南", "阿德": "西", "小美": "北"}
    assert base.players["阿明"] == "東"  # the base itself is left as it was
