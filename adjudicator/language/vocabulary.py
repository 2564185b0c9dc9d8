"""The words of the game, once: acts (verbs), their classes, offences and finding kinds.

The grammar (grammar/incident.lark) spells the same words with their variants, the error
messages name some of them, and the rules read the classes as ``verb_class(Class, Verb)``
from asp/verb_class.lp, which this module writes (``python -m
adjudicator.language.vocabulary``); tests/language/test_vocabulary.py fails when any of
them drifts from here.
"""

from __future__ import annotations

from pathlib import Path

# Every act the record language has, by its canonical word (杠 not 槓, 和 not 胡).
VERBS: tuple[str, ...] = (
    "摸", "棄摸", "補花", "補", "打", "吃", "碰", "明杠", "加杠", "暗杠",
    "喊碰", "喊吃", "喊杠", "喊和", "亮牌", "伸手", "觸及", "入手", "靠張",
    "和", "搶花", "自摸", "推倒", "過", "聽", "天聽", "地聽", "眼牌", "換牌",
    "露牌", "弄亂", "檢查", "舉發", "自承", "發現", "復原", "荒局", "換杠",
    "帶牌走動", "透露",
)

# The grammar's terminals that spell acts (grammar/incident.lark, its "Acts" block), grouped
# by what may follow them: a new verb joins one, a verb of a new shape adds one here.
ACT_TERMINALS: tuple[str, ...] = (
    "V_PLAIN", "V_MAYBE", "V_TILE", "V_SHOW", "EXHAUST", "REPL", "FLOWER", "CHOW", "PUNG",
    "KONG_OPEN", "KONG_ADD", "KONG_HIDDEN", "DISTURB", "INSPECT", "ACCUSE", "ADMIT")

# Sets of verbs that rules and fact builders treat alike, by the name the rules use.
VERB_CLASSES: dict[str, tuple[str, ...]] = {
    # Taking another's discard into a laid-out pung or kong.
    "claim": ("碰", "明杠"),
    # Taking another's discard into any laid-out set.
    "claim_or_chow": ("吃", "碰", "明杠"),
    # Saying one will pung or kong (喊), before doing it.
    "call_pung": ("喊碰", "喊杠"),
    # Declaring a win.
    "win": ("和", "自摸", "推倒"),
    # Taking a tile from the wall or the kong end.
    "draw": ("摸", "補"),
    # Any kong.
    "kong": ("暗杠", "明杠", "加杠"),
    # A kong made from one's own tiles.
    "closed_kong": ("暗杠", "加杠"),
    # Declaring a ready hand.
    "ready": ("聽", "天聽", "地聽", "眼牌"),
    # The ready declarations that earn 台 (台.31, 台.32).
    "ting": ("天聽", "地聽"),
}

# What 舉發 / 自承 / 發現 may name.
OFFENCES: tuple[str, ...] = (
    "錯杠", "錯暗杠", "錯加杠", "錯碰杠", "錯碰", "錯打明牌", "缺張", "逾張",
    "錯吃碰杠", "偷牌", "花牌未補", "花牌打出", "錯位摸補", "搶摸", "吃碰未撿入",
    "吃入打出", "打出吃入", "窺視暗牌", "帶牌摸牌", "過水", "換牌", "眼牌未聽",
)

# The kinds of finding a ruling may contain (and an expectation may name), in the order a
# ruling lists them.
FINDING_KINDS: tuple[str, ...] = (
    "優先", "詐和", "包賠", "相公", "代位賠付", "錯杠", "錯碰", "錯打明牌",
    "過水", "眼牌違規", "禁制", "喊碰未碰", "強制復原",
)

# Simplified and variant characters of the closed vocabularies (acts, offences, kinds, keys)
# onto the canonical words above, which write 杠 and 和.
_CANON = str.maketrans({
    "槓": "杠", "胡": "和", "臺": "台",
    "弃": "棄", "补": "補", "抢": "搶", "触": "觸", "张": "張", "听": "聽", "换": "換",
    "复": "復", "乱": "亂", "检": "檢", "举": "舉", "发": "發", "现": "現", "过": "過",
    "错": "錯", "捡": "撿", "窥": "窺", "视": "視", "带": "帶", "诈": "詐", "赔": "賠",
    "违": "違", "规": "規", "强": "強", "优": "優", "门": "門", "墙": "牆", "无": "無",
    "将": "將", "动": "動",
})


def canonical(word: str) -> str:
    """The canonical spelling of an act, offence, kind or key word as the grammar read it."""
    return word.translate(_CANON)


# The header keys, by the grammar terminal that spells them (Simplified spellings included).
HEADER_KEYS: dict[str, str] = {
    "RULES": "規則", "ROUND": "圈風", "DEALER": "莊家", "STREAK": "連莊", "SHOWN": "示記",
    "OPEN": "開門", "BASE": "底", "TAI": "台", "PLAYERS": "玩家", "SIDEBET": "插花",
    "WALL": "牌牆", "START": "起點", "DATE": "日期", "VENUE": "場地", "DESK": "桌號",
    "REFEREE": "裁判", "HAND_NO": "盤號",
    "MATCH_TITLE": "將", "START_SEAT": "起莊", "SEAT_CHANGE": "搬風",
}
# The keys only a match header has (docs/match-format.md): its title, the 起莊位 and when
# players change chairs (每將 or 每圈, the grammar's CHANGE_WHEN).
MATCH_ONLY_KEYS: tuple[str, ...] = ("將", "起莊", "搬風")

# The words an error message offers as examples of a vocabulary, the most used first (the
# messages are built from these; each must be a word of its vocabulary).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "header": ("規則", "圈風", "莊家", "底", "台", "玩家"),
    "verb": ("摸", "打", "吃", "碰", "明杠", "和"),
    "offence": ("錯杠", "錯碰", "缺張", "逾張", "過水"),
    "finding": ("相公", "詐和", "包賠", "代位賠付", "優先"),
}
_OF = {"header": tuple(HEADER_KEYS.values()), "verb": VERBS, "offence": OFFENCES,
       "finding": FINDING_KINDS}
# The grammar terminals that spell each vocabulary.
TERMINALS: dict[str, tuple[str, ...]] = {
    "header": tuple(HEADER_KEYS), "verb": ACT_TERMINALS, "offence": ("OFFENCE",),
    "finding": ("KIND",)}
if any(set(words) - set(_OF[k]) for k, words in EXAMPLES.items()):
    raise ValueError("an example word is not in its vocabulary")


def examples(vocabulary: str, n: int | None = None, more: bool = False) -> str:
    """The first ``n`` example words of a vocabulary, spaced, with … when ``more``."""
    words = " ".join(EXAMPLES[vocabulary][:n])
    return f"{words} …" if more else words


def verbs_of(name: str) -> frozenset[str]:
    return frozenset(VERB_CLASSES[name])


def verb_class_lp() -> str:
    """The text of asp/verb_class.lp."""
    lines = ["% Generated from adjudicator/language/vocabulary.py (python -m",
             "% adjudicator.language.vocabulary): edit the classes there, not here.",
             "% verb_class(Class, Verb): Verb (act/4's canonical word) belongs to Class."]
    for name, verbs in VERB_CLASSES.items():
        lines.append(" ".join(f'verb_class({name}, "{v}").' for v in verbs))
    return "\n".join(lines) + "\n"


def verb_class_path() -> Path:
    from adjudicator.rules.files import ASP

    return ASP / "verb_class.lp"


if __name__ == "__main__":
    verb_class_path().write_text(verb_class_lp(), encoding="utf-8")
