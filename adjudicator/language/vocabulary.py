"""The words of the game, once: acts (verbs) and what each is, offences and finding kinds.

Every verb is one row of ``VERB_TABLE``, read from language/verbs.toml: its grammar terminal
(what may follow it), what kind of act it is, and the properties the rules and the fact
builders ask of it (``PROPERTIES`` says what each means).  From the table are made (``python -m
adjudicator.language.verb_files``): asp/verb_class.lp (``verb_class(Property, Verb)``, the
only way a chapter asks what a verb is), the act terminals of grammar/incident.lark and the
verb list of docs/incident.schema.json; tests/language/test_vocabulary.py fails when one of
them drifts from here, and tests/style/test_private_verb_lists.py when a chapter or a module
keeps a list of verbs of its own.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files

# What a verb may be, by the name the rules read (verb_class(Name, Verb)) and Python reads
# (VERB_CLASSES[name]).  A verb with none of them is inert: it is recorded and reported,
# and wherever the rules look at the act just before or after another they look past it,
# so it changes no ruling (tests/rules/test_inert_verb.py).
PROPERTIES: dict[str, str] = {
    "move": "a move of its actor: it takes, lays out, discards or rearranges tiles, or "
            "decides on a tile (相公's next act and every chain over a seat's own acts "
            "count moves only; a call, an announcement or a reach is none)",
    "turn": "an act of its actor's turn: whoever made the latest holds the turn",
    "intake": "begins its actor's 打序 (a draw, or a claim of a discard)",
    "continues_turn": "lies within a 打序 and neither begins nor ends it (a kong from the "
                      "hand, a flower laid out, a kong-end draw)",
    "draw": "takes a tile from the wall or the kong end",
    "replacement": "draws from the kong end (補, and 補花 written with its 補 T)",
    "discard": "throws a tile into the sea",
    "offers_tile": "puts out a tile another may win on (a discard; a 加杠, robbed as 搶杠)",
    "claim": "takes another's discard into a laid-out pung or kong",
    "claim_or_chow": "takes another's discard into any laid-out set",
    "kong": "lays out a kong",
    "closed_kong": "lays out a kong made from its actor's own tiles",
    "lays_set": "lays out a set (the set's kind is the verb's word: 吃 碰 明杠 加杠 暗杠)",
    "lays_pung": "lays out a pung or a kong",
    "lays_flower": "lays a flower out (its replacement may be written with it: 補花 F 補 T)",
    "robs_flower": "takes another's flower (七搶一)",
    "flower": "an act on flowers: a family without flowers refuses it",
    "names_discard": "its tile, when written, names the discard it is about (the latest "
                     "discard of that tile)",
    "about_last_discard": "names no tile of a discard and is about the last discard before it",
    "pung_intent": "shows an intent to pung or kong a discard (意思表示: a call, the claim)",
    "chow_intent": "shows an intent to chow a discard (a call, the chow)",
    "win_intent": "shows an intent to win (a call, a declaration, the hand laid down)",
    "call_pung": "says one will pung or kong (喊) before doing it: 喊碰未碰 asks whether it "
                 "was carried out",
    "win": "declares a win, or lays it down",
    "declares_win": "declares a win in words (a 推倒 right after lays the same win down)",
    "lets_go": "lets the discard go: one who could win on it has passed it (過水)",
    "reach": "reaches for the wall (解釋.伸手過水 says whether that lets the discard go)",
    "touches_drawn": "handles the drawn tile (pressed to the hand or taken into the row)",
    "mishandles_drawn": "handles the drawn tile as 台.23 forbids before a 自摸 (pressed to the "
                        "hand, dropped in the sea, held below the table, knocking wall tiles "
                        "over, touching the sea on the way)",
    "cancels_ting": "changes a ready hand's tiles: a 天聽 or 地聽 stands no more",
    "ready": "declares a ready hand",
    "ting": "declares a ready hand that earns 台 (台.31, 台.32)",
    "shows": "shows tiles to claim with, or what a claim laid (they stay where they are)",
    "exposes": "shows a concealed tile by mishap (禁制)",
    "disturbs": "disturbs the wall or a hand",
    "restores": "puts a disturbance right",
    "exhausts": "the wall has run dry: the hand ends without a win",
    "report": "makes an offence known (舉發, 發現, 自承): the offence's chapter judges it",
    "accuses": "names an offender and its offence",
    "referee": "the referee (裁判) may write it",
}

# What kind of act a verb is, in a word: for the reader of the table and the schema's
# description of the verbs.
KINDS: dict[str, str] = {
    "draw": "a draw", "discard": "a discard", "claim": "a claim of a discard",
    "kong": "a kong", "flower": "an act on flowers", "win": "a win",
    "call": "a call, said before the act", "announcement": "an announcement",
    "handling": "a hand's touch on tiles, narrated", "showing": "tiles shown",
    "mishap": "a mishap or putting it right", "report": "a report of an offence",
    "referee": "the referee's act", "table": "the table's own event",
    "outsider": "an act of a 外插 bettor, who holds no chair (its actor is the bettor's name)",
}

# Every act of the record language (language/verbs.toml: a new verb is a row there):
# which terminal group takes its arguments, its kind, its properties.
VERB_TABLE: dict[str, tuple[str, str, str]] = {
    verb: (terminal, kind, properties) for verb, (terminal, kind, properties)
    in tomllib.loads((files(__package__) / "verbs.toml").read_text("utf-8")).items()}

VERBS: tuple[str, ...] = tuple(VERB_TABLE)

# The grammar's terminals that spell acts (grammar/incident.lark's generated "Acts" block),
# grouped by what may follow them: a new verb joins one, a verb of a new shape adds one
# here (and its alternative in the grammar's act rule).
ACT_TERMINALS: tuple[str, ...] = (
    "V_PLAIN", "V_MAYBE", "V_TILE", "V_SHOW", "EXHAUST", "REPL", "FLOWER", "CHOW", "PUNG",
    "KONG_OPEN", "KONG_ADD", "KONG_HIDDEN", "DISTURB", "INSPECT", "ACCUSE", "ADMIT")


def terminal_of(verb: str) -> str:
    return VERB_TABLE[verb][0]


def kind_of(verb: str) -> str:
    return VERB_TABLE[verb][1]


def properties_of(verb: str) -> frozenset[str]:
    return frozenset(VERB_TABLE[verb][2].split())


def inert(verb: str) -> bool:
    """A verb without properties: recorded, and looked past where the act just before or
    after another counts."""
    return not VERB_TABLE[verb][2].split()


def _check_table() -> None:
    for verb, (terminal, kind, _) in VERB_TABLE.items():
        unknown = properties_of(verb) - set(PROPERTIES)
        if terminal not in ACT_TERMINALS or kind not in KINDS or unknown:
            raise ValueError(f"vocabulary: {verb}: {terminal} {kind} {sorted(unknown)}")


_check_table()

# The verbs of each property, by its name: what Python asks (``verb in
# VERB_CLASSES["draw"]``), and asp/verb_class.lp states for the rules.
VERB_CLASSES: dict[str, frozenset[str]] = {
    name: frozenset(v for v in VERB_TABLE if name in properties_of(v)) for name in PROPERTIES}

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
CANONICAL_CHARS: dict[str, str] = {
    "槓": "杠", "胡": "和", "臺": "台",
    "弃": "棄", "补": "補", "抢": "搶", "触": "觸", "张": "張", "听": "聽", "换": "換",
    "复": "復", "乱": "亂", "检": "檢", "举": "舉", "发": "發", "现": "現", "过": "過",
    "错": "錯", "捡": "撿", "窥": "窺", "视": "視", "带": "帶", "诈": "詐", "赔": "賠",
    "违": "違", "规": "規", "强": "強", "优": "優", "门": "門", "墙": "牆", "无": "無",
    "将": "將", "于": "於", "内": "內", "动": "動", "响": "響",
}
_CANON = str.maketrans(CANONICAL_CHARS)


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
