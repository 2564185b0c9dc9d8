"""Reader: the text of an incident log → the typed ``Incident`` of incident.py.

``read`` parses with grammar/incident.lark (Lark LALR, contextual lexer; built once, on
first use) and turns the tree into dataclasses: canonical words for acts, offences and
kinds, Traditional seat characters, tiles as ints, player names resolved to chairs.
Anything that does not fit, whether to the grammar or to the meaning, is a ``LogError``.
"""

from __future__ import annotations

import os
import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from importlib.resources import files
from typing import Any, NoReturn, cast

from lark import Lark, Token, Tree
from lark import __version__ as lark_version
from lark.exceptions import LarkError, UnexpectedInput
from lark.lexer import BasicLexer, ContextualLexer, LexerState

from adjudicator import cache as disk
from adjudicator.language import suggest
from adjudicator.language import tiles as tl
from adjudicator.language.errors import SEAT_WORDS, TILE_WORDS, LogError, from_lark
from adjudicator.language.incident import (
    FINDING_KINDS,
    OCCASION,
    OFFENCES,
    VERBS,
    Act,
    Actor,
    BalanceExpectation,
    Expectation,
    FindingExpectation,
    HandEndExpectation,
    Header,
    Incident,
    Meld,
    Money,
    NextHandExpectation,
    Position,
    SideBet,
    WallCount,
    WinExpectation,
)
from adjudicator.language.seats import SEAT_ALIASES, Seat
from adjudicator.language.vocabulary import HEADER_KEYS

# The grammar ships inside the package (adjudicator.grammar, the top-level grammar/ folder).
GRAMMAR = files("adjudicator.grammar") / "incident.lark"

# Simplified and variant characters of the closed vocabularies (acts, offences, kinds, keys)
# onto the canonical words of incident.py, which write 杠 and 和.
_CANON = str.maketrans({
    "槓": "杠", "胡": "和", "臺": "台",
    "弃": "棄", "补": "補", "抢": "搶", "触": "觸", "张": "張", "听": "聽", "换": "換",
    "复": "復", "乱": "亂", "检": "檢", "举": "舉", "发": "發", "现": "現", "过": "過",
    "错": "錯", "捡": "撿", "窥": "窺", "视": "視", "带": "帶", "诈": "詐", "赔": "賠",
    "违": "違", "规": "規", "强": "強", "优": "優", "门": "門", "墙": "牆", "无": "無",
})

# Free-text header keys and the Header field each fills.
_TEXT_FIELDS = {"起點": "start", **OCCASION}
_REPEATABLE_KEYS = frozenset({"插花"})
# Marks a word processor puts between list items; a name never ends with one.
_LIST_MARKS = frozenset(",，、;；")

_MELD_SIZES = {"吃": (3,), "碰": (1, 3), "明杠": (1, 4), "加杠": (1, 4), "暗杠": (1, 4)}
_MELD_FULL = {"碰": 3, "明杠": 4, "加杠": 4, "暗杠": 4}
_MEANINGFUL_NOTES = frozenset({"海底", "門前"})
_FLOWER_VERBS = frozenset({"補花", "搶花"})
_REFEREE_VERBS = frozenset({"發現", "檢查"})

# Tile words already read (一二三萬 → (0, 1, 2)); only words that are tiles get in.
_EXPANDED: dict[str, tuple[int, ...]] = {}

# Larger numbers belong to no table (and clingo integers are 32-bit).
MAX_NUMBER = 10**9
MAX_DIGITS = len(str(MAX_NUMBER))


def canonical(word: str) -> str:
    """The canonical (incident.py) spelling of an act, offence, kind or key word."""
    return word.translate(_CANON)


# ---------------------------------------------------------------------------- the parser
#
# Player names are free text, so the grammar knows them only as whitespace-delimited NAME
# tokens.  The lexer below also recognises the names the header has declared so far when
# no space follows them (阿明打三萬) or when they start like a chair (東尼): wherever the
# parser state takes a NAME, a declared name wins over a shorter keyword.  The names of
# the log being read live in a context variable, so the one cached parser stays reentrant.

class _Declared:
    """The player names a log has declared so far, as its lexer learns them."""

    def __init__(self) -> None:
        self.names: list[str] = []  # longest first: 阿明明 is tried before 阿明
        self.firsts: set[str] = set()  # first characters, a cheap test before any search

    def learn(self, name: str) -> None:
        self.names.append(name)
        self.names.sort(key=len, reverse=True)
        self.firsts.add(name[0])

    def at(self, text: str, pos: int) -> str | None:
        if pos >= len(text) or text[pos] not in self.firsts:
            return None
        return next((n for n in self.names if text.startswith(n, pos)), None)


_DECLARED: ContextVar[_Declared | None] = ContextVar("declared_player_names", default=None)
_SPACES = re.compile(r"[ \t\u3000\r]*")
_NAME_OUTRANKS = frozenset({"NAME", "COMMENT", "_NL"})


class _NameAwareBasicLexer(BasicLexer):
    def __init__(self, conf: Any, comparator: Any = None) -> None:
        super().__init__(conf, comparator)
        self._takes_names = any(t.name == "NAME" for t in self.terminals)

    def next_token(self, lex_state: LexerState, parser_state: Any = None) -> Token:
        # Skipping blanks with one small regex is cheaper than a round of the state's whole
        # alternation for each WS token: a third of the lexing time on a long record.
        text, ctr = lex_state.text.text, lex_state.line_ctr
        blank = _SPACES.match(text, ctr.char_pos).end()  # type: ignore[union-attr]
        if blank > ctr.char_pos:
            ctr.feed(text[ctr.char_pos:blank], test_newline=False)
        declared = _DECLARED.get()
        if declared is not None and self._takes_names:
            name = declared.at(text, ctr.char_pos)
            if name is not None and self._name_wins(lex_state, name):
                return self._name_token(lex_state, name)
        token = super().next_token(lex_state, parser_state)
        if token.type == "PLAYER_DEF" and declared is not None:
            declared.learn(token.value)
        return token

    def _name_wins(self, lex_state: LexerState, name: str) -> bool:
        # A declared name outranks the generic NAME and a comment (a player may be called
        # #show), but a chair or keyword at least as long keeps its meaning: a player
        # called 南 is still the chair 南 where a chair may stand.
        rival = self.match(lex_state.text, lex_state.line_ctr.char_pos)
        if rival is None or rival[1] in _NAME_OUTRANKS:
            return True
        return len(rival[0]) < len(name)

    def _name_token(self, lex_state: LexerState, name: str) -> Token:
        ctr = lex_state.line_ctr
        token = Token("NAME", name, ctr.char_pos, ctr.line, ctr.column)
        ctr.feed(name, test_newline=False)
        token.end_line, token.end_column, token.end_pos = ctr.line, ctr.column, ctr.char_pos
        lex_state.last_token = token
        return token


class _NameAwareContextualLexer(ContextualLexer):
    BasicLexer = _NameAwareBasicLexer


@cache
def parser() -> Lark:
    """The Lark parser for grammar/incident.lark, built on first use."""
    grammar = GRAMMAR.read_text(encoding="utf-8")
    options: dict[str, Any] = {
        "parser": "lalr", "lexer": "contextual", "maybe_placeholders": True,
        "_plugins": {"ContextualLexer": _NameAwareContextualLexer}}
    # Building the LALR tables costs ~70 ms a process; they are kept in the user's cache
    # folder under the grammar's hash (Lark checks it again on loading, and rebuilds on
    # a mismatch or a damaged file).
    name = f"lark-{disk.key(grammar, lark_version)}.pickle"
    stored = disk.path(name)
    if stored is None:
        return Lark(grammar, **options)
    if stored.exists():
        return Lark(grammar, cache=str(stored), **options)
    # Built into a file of this process's own, then renamed into place whole.
    part = stored.with_name(f".{name}.{os.getpid()}.part")
    made = Lark(grammar, cache=str(part), **options)
    try:
        os.replace(part, stored)
    except OSError:
        pass
    return made


def parse_tree(text: str, declared: _Declared | None = None) -> Tree:
    """The raw parse tree of ``text`` (a newline is added at the end when missing).

    ``declared`` collects the player names the header declares, as the lexer meets them.
    """
    lark = parser()  # outside the try: a broken grammar is a bug, not a fault of the log
    context = _DECLARED.set(declared if declared is not None else _Declared())
    try:
        return lark.parse(text if text.endswith("\n") else text + "\n")
    finally:
        _DECLARED.reset(context)


def decode(data: bytes) -> str:
    """A log's bytes as text; ``LogError`` pointing at the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        big5 = _as_big5(data)
        if big5 is not None:
            raise LogError(1, 1, "UTF-8 文字", big5.splitlines()[0] if big5 else "",
                           "這個檔案是 Big5 編碼，不是 UTF-8",
                           "用記事本「另存新檔」選 UTF-8，或 iconv -f big5 -t utf-8 舊檔 > 新檔"
                           ) from None
        # Lines counted as read() counts them (normalise_lines), on the text decoded so far.
        before = normalise_lines(data[:err.start].decode("utf-8", errors="replace") + "x")
        line = before.count("\n") + 1
        head = before[before.rfind("\n") + 1:-1]
        whole = normalise_lines(data.decode("utf-8", errors="replace")).split("\n")
        shown = whole[line - 1] if line <= len(whole) else ""
        raise LogError(line, len(head) + 1, "UTF-8 文字", shown,
                       "紀錄檔須以 UTF-8 存檔（此處的位元組不是 UTF-8）") from None


def normalise_lines(text: str) -> str:
    """``text`` with every line break ``str.splitlines`` knows (CR, CR LF, VT, FF, U+0085,
    U+2028 …) written as LF: the parser counts lines by LF, error messages and the report
    quote lines by ``splitlines``; one convention makes both name the same line."""
    if not _BREAKS.search(text):
        return text
    lines = text.splitlines()
    return "\n".join(lines) + ("\n" if text.splitlines(keepends=True)[-1:] != lines[-1:]
                               else "")


# Every line break str.splitlines knows other than LF.
_BREAKS = re.compile("[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
def _as_big5(data: bytes) -> str | None:
    """The text of ``data`` when it reads as Big5 (cp950) Chinese, else None."""
    try:
        text = data.decode("cp950")
    except UnicodeDecodeError:
        return None
    # Latin-1 bytes also decode as cp950 now and then; Big5 Chinese has CJK characters.
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return text if cjk >= 2 else None


def read(text: str, base: Header | None = None) -> Incident:
    """Read an incident log.  Raises ``LogError`` for anything that cannot be read.

    ``base`` is a header the log starts from (a match's carried state: its players, stake,
    dealer …); what the log's own header states replaces it, key by key, and
    ``header.lines`` lists only the keys the log itself states.  Its players' names may be
    used in the log without a 玩家 line.
    """
    source = normalise_lines(text[1:] if text.startswith("\ufeff") else text)
    declared = _Declared()
    for name in (base.players if base is not None else ()):
        declared.learn(name)
    try:
        tree = parse_tree(source, declared)
    except UnexpectedInput as err:
        raise from_lark(err, source, declared.names) from None
    except LarkError as err:  # not expected from LALR, but no Lark error may escape
        raise LogError(1, 1, "可讀的紀錄", _line(source, 1), str(err)) from None
    builder = _Builder(source, base)
    incident = builder.build(tree)
    if not (builder.in_record or incident.positions or incident.header.lines
            or incident.expectations):
        # A log of blank and comment lines only: nothing to judge (the CLI and an
        # in-process caller get the same refusal).
        raise LogError(1, 1, "表頭（如 莊家: 東）或「紀錄:」段落", _line(source, 1),
                       "紀錄是空的：只有空白行或註解")
    return incident


def _line(source: str, number: int) -> str:
    lines = source.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


# ---------------------------------------------------------------------------- the builder


@dataclass
class _ActParts:
    """What an act's subtree says, before the line adds seq, actor and note."""

    verb: str
    tiles: tuple[tl.Tile, ...] = ()
    using: tuple[tl.Tile, ...] = ()
    replacement: tl.Tile | None = None
    target: Seat | None = None
    what: str | None = None


@dataclass
class _Builder:
    source: str
    base: Header | None = None
    incident: Incident = field(init=False)
    lines: list[str] = field(init=False)  # the source lines, for error messages
    last_seq: int = 0  # the sequence number of the act before, for lines without one
    in_record: bool = False  # positions before 紀錄: are the start, inside it sightings

    def __post_init__(self) -> None:
        self.incident = Incident(source=self.source)
        if self.base is not None:
            self.incident.header = replace(
                self.base, players=dict(self.base.players),
                side_bets=list(self.base.side_bets), lines={},
                start=None, hand=None)  # each hand states its own start and number
        self.lines = self.source.splitlines()

    # -- plumbing

    def fail(
        self, token: Token, expected: str, detail: str | None = None, shift: int = 0,
        hint: str | None = None,
    ) -> NoReturn:
        line = token.line or 1
        source_line = self.lines[line - 1] if line <= len(self.lines) else ""
        raise LogError(line, (token.column or 1) + shift, expected, source_line, detail, hint)

    def number(self, token: Token, text: str | None = None) -> int:
        """A whole number as written; one no table needs (≥ 10⁹) is refused, not passed on
        to the solver, whose integers are 32-bit."""
        written = text if text is not None else token.value
        # Checked on the digits before converting: int() refuses numbers of more than
        # 4,300 digits with a ValueError of its own.
        if len(written.strip().lstrip("0")) > MAX_DIGITS:
            self.fail(token, f"小於 {MAX_NUMBER:,} 的數字", "這個數字太大")
        value = int(written)
        if abs(value) >= MAX_NUMBER:
            self.fail(token, f"小於 {MAX_NUMBER:,} 的數字", f"「{value}」太大")
        return value

    def build(self, tree: Tree) -> Incident:
        # Names first, so a position or key may use a name declared on a later header line.
        for child in tree.children:
            if isinstance(child, Tree) and child.data == "h_players":
                self.h_players(child)
        for child in tree.children:
            if isinstance(child, Tree) and child.data != "h_players":
                self.dispatch(child)
        return self.incident

    def dispatch(self, tree: Tree) -> None:
        getattr(self, tree.data)(tree)  # one method per rule or alias of the grammar

    # -- words

    def who(self, token: Token) -> Seat:
        """The chair a SEAT or NAME token stands for."""
        if token.type == "SEAT":
            return SEAT_ALIASES[token.value]
        seat = self.incident.header.players.get(token.value)
        if seat is None:
            self.fail(token, SEAT_WORDS, f"「{token.value}」不在「玩家:」行裡",
                      hint=suggest.unknown_name_hint(token.value, self.incident.header.players))
        return seat

    def actor(self, token: Token) -> Actor:
        if token.type in ("SEAT", "NAME"):
            return self.who(token)
        return "裁判" if token.type == "REFEREE" else "牌局"

    def tiles(self, tree: Tree | None) -> tuple[tl.Tile, ...]:
        if tree is None:
            return ()
        return tuple(t for token in tree.children for t in self.expand(cast(Token, token)))

    def tile(self, token: Token | None) -> tl.Tile | None:
        if token is None:
            return None
        found = self.expand(token)
        if len(found) != 1:
            self.fail(token, "一張牌", f"「{token.value}」是 {len(found)} 張")
        return found[0]

    def expand(self, token: Token) -> tuple[tl.Tile, ...]:
        """The tiles one token names: 三萬 → (2,); 一二三萬 → (0, 1, 2); 東 → (27,)."""
        found = _EXPANDED.get(token.value)
        if found is None:
            found = self.expand_new(token)
            _EXPANDED[token.value] = found  # a small vocabulary, read again and again
        return found

    def expand_new(self, token: Token) -> tuple[tl.Tile, ...]:
        if token.type == "HONOUR":
            return (tl.HONOUR_ALIASES[token.value],)
        if token.type == "UNKNOWN":
            return (tl.UNKNOWN,)
        suit = _fold(token.value[-1])
        return tuple(self.numbered(token, i, ch, suit) for i, ch in enumerate(token.value[:-1]))

    def numbered(self, token: Token, index: int, numeral: str, suit: str) -> tl.Tile:
        code = _fold(numeral) + suit
        try:
            return tl.parse_one(code)
        except ValueError:
            self.fail(token, TILE_WORDS, _why_no_tile(numeral, suit), shift=index)

    def only_flowers(self, tokens: list[Token]) -> None:
        for token in tokens:
            for tile in self.expand(token):
                if tile != tl.UNKNOWN and not tl.is_flower(tile):
                    self.fail(token, "花牌，例如 春 梅 或 1f", f"「{tl.name(tile)}」不是花牌")

    # -- header

    def header_key(self, token: Token) -> str:
        key = HEADER_KEYS[token.type]
        lines = self.incident.header.lines
        if key in lines and key not in _REPEATABLE_KEYS:
            self.fail(token, "另一個表頭欄位", f"「{key}」第 {lines[key]} 行已經寫過，每欄只寫一次")
        lines.setdefault(key, token.line or 0)
        return key

    def h_profile(self, tree: Tree) -> None:
        key, value = cast(list[Token], tree.children)
        self.header_key(key)
        self.incident.header.profile = value.value

    def h_round(self, tree: Tree) -> None:
        key, value = cast(list[Token], tree.children)
        self.header_key(key)
        self.incident.header.round_wind = SEAT_ALIASES[value.value[0]]

    def h_dealer(self, tree: Tree) -> None:
        self.header_key(cast(Token, tree.children[0]))
        self.incident.header.dealer = self.who(cast(Token, tree.children[1]))

    def h_open(self, tree: Tree) -> None:
        self.header_key(cast(Token, tree.children[0]))
        self.incident.header.open_seat = self.who(cast(Token, tree.children[1]))

    def h_streak(self, tree: Tree) -> None:
        self.incident.header.streak = self.header_int(tree)

    def h_shown(self, tree: Tree) -> None:
        self.incident.header.shown_streak = self.header_int(tree)

    def h_base(self, tree: Tree) -> None:
        self.incident.header.base = self.header_int(tree)

    def h_tai(self, tree: Tree) -> None:
        self.incident.header.per_tai = self.header_int(tree)

    def h_wall(self, tree: Tree) -> None:
        self.incident.header.wall = self.header_int(tree)

    def h_text(self, tree: Tree) -> None:
        key_token, value = cast(list[Token], tree.children)
        key = self.header_key(key_token)
        text = value.value.strip()
        if key == "起點" and text == "开局":
            text = "開局"  # the Simplified spelling; any other start is a fragment
        setattr(self.incident.header, _TEXT_FIELDS[key], text)

    def header_int(self, tree: Tree) -> int:
        key, value = cast(list[Token], tree.children)
        self.header_key(key)
        return self.number(value)

    def h_players(self, tree: Tree) -> None:
        self.header_key(cast(Token, tree.children[0]))
        players = self.incident.header.players
        players.clear()  # the log's own 玩家 line replaces a base header's seating
        for player in cast(list[Tree], tree.children[1:]):
            seat_token, name_token = cast(list[Token], player.children)
            seat, name = SEAT_ALIASES[seat_token.value], name_token.value
            if name[-1] in _LIST_MARKS:
                self.fail(name_token, "玩家名", f"「{name}」的「{name[-1]}」不是名字的一部分",
                          shift=len(name) - 1,
                          hint="玩家之間用空格分開，例如「玩家: 東=阿明 南=小華」")
            if seat in players.values():
                self.fail(seat_token, "另一個座位", f"「{seat}」已經有玩家了")
            if name in players:
                self.fail(name_token, "另一個名字", f"「{name}」已經坐在「{players[name]}」")
            players[name] = seat

    def h_outside(self, tree: Tree) -> None:
        key, _, bettor, who, amount = tree.children
        self.header_key(cast(Token, key))
        self.incident.header.side_bets.append(SideBet(
            line=cast(Token, key).line or 0, kind="外插", seat=self.who(cast(Token, who)),
            amount=self.number(cast(Token, amount)), bettor=cast(Token, bettor).value,
        ))

    def h_inside(self, tree: Tree) -> None:
        key, _, who, amount = tree.children
        self.header_key(cast(Token, key))
        self.incident.header.side_bets.append(SideBet(
            line=cast(Token, key).line or 0, kind="內插", seat=self.who(cast(Token, who)),
            amount=self.number(cast(Token, amount)),
        ))

    # -- positions (before the record they are the start; inside it, what was seen)

    def position(self, tree: Tree, kind: str, **parts: Any) -> None:
        who = cast(Token, tree.children[0])
        item = Position(line=who.line or 0, seat=self.who(who), kind=kind, **parts)
        target = self.incident.record if self.in_record else self.incident.positions
        target.append(item)

    def p_hand(self, tree: Tree) -> None:
        self.position(tree, "手牌", tiles=self.tiles(cast(Tree, tree.children[2])))

    def p_flowers(self, tree: Tree) -> None:
        found = cast(Tree | None, tree.children[2])
        self.only_flowers(cast(list[Token], found.children) if found else [])
        self.position(tree, "花", tiles=self.tiles(found))

    def p_melds(self, tree: Tree) -> None:
        melds = tuple(self.meld(cast(Tree, m)) for m in tree.children[2:])
        self.position(tree, "門前", melds=melds)

    def meld(self, tree: Tree) -> Meld:
        kind_token, *tile_tokens = cast(list[Token], tree.children)
        kind = canonical(kind_token.value)
        laid = [t for token in tile_tokens for t in self.expand(token)]
        if len(laid) not in _MELD_SIZES[kind]:
            sizes = " 或 ".join(str(n) for n in _MELD_SIZES[kind])
            self.fail(kind_token, f"{kind} 的 {sizes} 張牌", f"寫了 {len(laid)} 張")
        if len(laid) == 1:
            laid *= _MELD_FULL[kind]  # 碰 三萬 is three 三萬, 暗杠 白 four 白
        return Meld(kind=kind, tiles=tuple(laid))

    # -- record

    def record(self, tree: Tree) -> None:
        self.in_record = True
        for child in tree.children:
            if isinstance(child, Tree):
                self.dispatch(child)

    def wall_line(self, tree: Tree) -> None:
        _, count = cast(list[Token], tree.children)
        self.incident.record.append(WallCount(line=count.line or 0, count=self.number(count)))

    def act_line(self, tree: Tree) -> None:
        seq, actor_token, act_tree, note = tree.children
        actor = self.actor(cast(Token, actor_token))
        parts = self.act(cast(Tree, act_tree))
        self.check_actor(cast(Token, actor_token), actor, parts.verb)
        first = cast(Token, seq if seq is not None else actor_token)
        self.add_act(first, cast(Token | None, seq), actor, parts, cast(Token | None, note))

    def exhaust_line(self, tree: Tree) -> None:
        seq, verb, note = cast(list[Token | None], tree.children)
        first = seq if seq is not None else cast(Token, verb)
        self.add_act(first, seq, "牌局", _ActParts("荒局"), note)

    def add_act(self, first: Token, seq: Token | None, actor: Actor, parts: _ActParts,
                note: Token | None) -> None:
        # Numbers are kept as written even when they fall: the judge reports that.
        number = (self.number(seq, seq.value.rstrip(".．、")) if seq is not None
                  else self.last_seq + 1)
        self.last_seq = number
        self.incident.record.append(Act(
            seq=number, line=first.line or 0, actor=actor, verb=parts.verb, tiles=parts.tiles,
            using=parts.using, replacement=parts.replacement, note=_note(note),
            target=parts.target, what=parts.what, numbered=seq is not None,
        ))

    def check_actor(self, token: Token, actor: Actor, verb: str) -> None:
        # The spec names 裁判 only as the actor of 發現 (and turning the kongs over for 檢查
        # is the referee's too); 牌局 only runs dry, and only 牌局 runs dry.
        if actor == "裁判" and verb not in _REFEREE_VERBS:
            self.fail(token, SEAT_WORDS, "裁判 只能寫「發現」或「檢查」")
        if actor == "牌局" and verb != "荒局":
            self.fail(token, SEAT_WORDS, "牌局 只能寫「荒局」")
        if verb == "荒局" and actor != "牌局":
            self.fail(token, "牌局", "荒局 的主詞是 牌局（也可以只寫 荒局）")

    def act(self, tree: Tree) -> _ActParts:
        verb_token = cast(Token, tree.children[0])
        parts = getattr(self, tree.data)(tree, canonical(verb_token.value))
        assert parts.verb in VERBS, parts.verb  # the grammar and _CANON must agree
        if parts.verb in _FLOWER_VERBS:
            self.only_flowers(_tile_tokens(tree))
        return cast(_ActParts, parts)

    def a_plain(self, tree: Tree, verb: str) -> _ActParts:
        return _ActParts(verb)

    def a_maybe(self, tree: Tree, verb: str) -> _ActParts:
        found = self.tile(cast(Token | None, tree.children[1]))
        return _ActParts(verb, tiles=() if found is None else (found,))

    def a_one(self, tree: Tree, verb: str) -> _ActParts:
        return _ActParts(verb, tiles=(cast(tl.Tile, self.tile(cast(Token, tree.children[1]))),))

    def a_many(self, tree: Tree, verb: str) -> _ActParts:
        shown = self.tiles(cast(Tree, tree.children[1]))
        if verb == "暗杠" and len(shown) not in (1, 4):
            self.fail(cast(Token, tree.children[0]), "暗杠 的 1 或 4 張牌", f"寫了 {len(shown)} 張")
        return _ActParts(verb, tiles=shown)

    def a_flower(self, tree: Tree, verb: str) -> _ActParts:
        _, laid, _, replacement = tree.children
        return _ActParts(verb, tiles=self.tiles(cast(Tree, laid)),
                         replacement=self.tile(cast(Token | None, replacement)))

    def a_claim(self, tree: Tree, verb: str) -> _ActParts:
        """碰 T [用 A B] / 明杠 T [用 A B C]: the tiles laid with the claimed one, as laid."""
        _, taken, use, using_tree = tree.children
        using = self.tiles(cast(Tree | None, using_tree))
        wanted = 2 if verb == "碰" else 3
        if using_tree is not None and len(using) != wanted:
            self.fail(cast(Token, use), f"用 後面的 {wanted} 張牌", f"寫了 {len(using)} 張")
        return _ActParts(verb, tiles=(cast(tl.Tile, self.tile(cast(Token, taken))),), using=using)

    def a_chow(self, tree: Tree, verb: str) -> _ActParts:
        _, taken, use, using_tree = tree.children
        using = self.tiles(cast(Tree | None, using_tree))
        if using_tree is not None and len(using) != 2:
            self.fail(cast(Token, use), "用 後面的兩張牌", f"寫了 {len(using)} 張")
        return _ActParts(verb, tiles=(cast(tl.Tile, self.tile(cast(Token, taken))),), using=using)

    def a_disturb_wall(self, tree: Tree, verb: str) -> _ActParts:
        return _ActParts(verb, what="牌牆")

    def a_disturb_hand(self, tree: Tree, verb: str) -> _ActParts:
        return _ActParts(verb, target=self.who(cast(Token, tree.children[1])), what="手牌")

    def a_inspect(self, tree: Tree, verb: str) -> _ActParts:
        return _ActParts(verb, what="暗杠")

    def a_accuse(self, tree: Tree, verb: str) -> _ActParts:
        _, who, offence, found = tree.children
        return _ActParts(verb, target=self.who(cast(Token, who)),
                         what=_offence(cast(Token, offence)), tiles=self.tiles(cast(Tree, found)))

    def a_admit(self, tree: Tree, verb: str) -> _ActParts:
        _, offence, found = tree.children
        return _ActParts(verb, what=_offence(cast(Token, offence)),
                         tiles=self.tiles(cast(Tree, found)))

    # -- expectations

    def expectations(self, tree: Tree) -> None:
        for line in tree.children:
            if isinstance(line, Tree):
                negation, body = line.children
                expectation = self.expect(cast(Tree, body), negated=negation is not None)
                self.incident.expectations.append(expectation)

    def expect(self, tree: Tree, negated: bool) -> Expectation:
        line = cast(Token, tree.children[0]).line or 0  # every expectation starts with a word
        return cast(Expectation, getattr(self, tree.data)(tree, line, negated))

    def e_finding(self, tree: Tree, line: int, negated: bool) -> FindingExpectation:
        who, kind = tree.children
        word = canonical(cast(Token, kind).value)
        assert word in FINDING_KINDS, word
        return FindingExpectation(line, negated, self.who(cast(Token, who)), word)

    def e_win(self, tree: Tree, line: int, negated: bool) -> WinExpectation:
        who, _, validity, tai, _ = tree.children
        valid = None if validity is None else canonical(cast(Token, validity).value) == "有效"
        count = None if tai is None else self.number(cast(Token, tai))
        return WinExpectation(line, negated, self.who(cast(Token, who)), valid, count)

    def e_ends(self, tree: Tree, line: int, negated: bool) -> HandEndExpectation:
        return HandEndExpectation(line, negated, ends=True)

    def e_continues(self, tree: Tree, line: int, negated: bool) -> HandEndExpectation:
        return HandEndExpectation(line, negated, ends=False)

    def e_balance(self, tree: Tree, line: int, negated: bool) -> BalanceExpectation:
        balances: dict[Seat, Money] = {}
        pairs = tree.children[1:]
        for who, amount in zip(pairs[::2], pairs[1::2], strict=True):
            seat = self.who(cast(Token, who))
            if seat in balances:
                self.fail(cast(Token, who), "另一個座位", f"「{seat}」的收支已經寫過")
            balances[seat] = self.money(cast(Token, amount))
        return BalanceExpectation(line, negated, balances)

    def money(self, token: Token) -> Money:
        if any(len(part.lstrip("0")) > MAX_DIGITS
               for part in re.split(r"[^0-9０-９]+", token.value)):
            self.fail(token, "金額，例如 -700 或 -700/3", "這個數字太大")
        try:
            return _money(token.value)
        except ZeroDivisionError:
            self.fail(token, "金額，例如 -700 或 -700/3", "分母不能是 0")

    def e_next(self, tree: Tree, line: int, negated: bool) -> NextHandExpectation:
        _, _, who, _, streak, no_count = tree.children
        return NextHandExpectation(
            line, negated, self.who(cast(Token, who)),
            streak=None if streak is None else self.number(cast(Token, streak)),
            counts_streak=no_count is None,
        )


# ---------------------------------------------------------------------------- helpers


def _fold(ch: str) -> str:
    """Full-width digits and letters to ASCII (３ → 3, ｍ → m); other characters as they are."""
    return unicodedata.normalize("NFKC", ch) if "\uff10" <= ch <= "\uff5a" else ch


def _why_no_tile(numeral: str, suit: str) -> str:
    word = f"{numeral}{suit}"
    if _fold(numeral) == "0" or numeral in "零〇":
        return f"「{word}」不是牌：0 不是牌的數字"
    if numeral == "十":
        return f"「{word}」不是牌：數字只能是 一 到 九"
    if suit in "mps" and not _fold(numeral).isdigit():
        return f"「{word}」不是牌：m p s 前面寫阿拉伯數字，例如 3m，或寫 三萬"
    if suit == "z":
        return f"「{word}」不是牌：字牌只有 1z 到 7z"
    if suit == "f":
        return f"「{word}」不是牌：花牌只有 1f 到 8f"
    return f"「{word}」不是牌"


def _offence(token: Token) -> str:
    word = canonical(token.value)
    assert word in OFFENCES, word
    return word


def _note(token: Token | None) -> str | None:
    if token is None:
        return None
    text = token.value[1:-1].strip()
    return canonical(text) if canonical(text) in _MEANINGFUL_NOTES else text


def money(text: str) -> Money:
    """An amount as a 收支 line writes it (+2100, -700, -700/3): exact."""
    return _money(text)


def _money(text: str) -> Money:
    sign = -1 if text[0] in "-－−" else 1
    digits = text.lstrip("+-＋－−")
    numerator, _, denominator = digits.replace("／", "/").partition("/")
    if not denominator:
        return sign * int(numerator)
    value = Fraction(sign * int(numerator), int(denominator))
    return int(value) if value.denominator == 1 else value


def _tile_tokens(act: Tree) -> list[Token]:
    """The tile tokens right after an act's verb (補花 F …, 搶花 F)."""
    child = act.children[1]
    return cast(list[Token], child.children) if isinstance(child, Tree) else [cast(Token, child)]
