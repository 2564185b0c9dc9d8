"""The second pass of reading: a log as written (syntax.py) → the typed ``Incident``.

The grammar has settled the shape of every line; what it cannot know is checked here, in
the order of the log, each fault a ``LogError`` at its token: whether a name was declared
(and which chair it sits in), whether a word is a tile, how many tiles a set takes, whether
a number is in range, who may do what, a header key written twice.  Words become their
canonical forms (杠, 和), chairs their Traditional characters, tiles ints.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import NoReturn

from lark import Token

from adjudicator.language import syntax as sx
from adjudicator.language import tiles as tl
from adjudicator.language.errors import SEAT_WORDS, TILE_WORDS, LogError
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
from adjudicator.language.vocabulary import (
    HEADER_KEYS,
    MATCH_ONLY_KEYS,
    VERB_CLASSES,
    canonical,
    kind_of,
)

# The Header field each header key fills, by how its value is read.
_CHAIR_FIELDS = {"莊家": "dealer", "開門": "open_seat"}
_NUMBER_FIELDS = {"連莊": "streak", "示記": "shown_streak", "底": "base", "台": "per_tai",
                  "牌牆": "wall"}
_TEXT_FIELDS = {"起點": "start", **OCCASION}
_REPEATABLE_KEYS = frozenset({"插花"})
# Marks a word processor puts between list items; a name never ends with one.
_LIST_MARKS = frozenset(",，、;；")

# A laid set is written whole, or (all but a chow) as its one tile once.
_MELD_SIZES = {kind: (n,) if kind == "吃" else (1, n) for kind, n in tl.MELD_SIZE.items()}
# How many tiles 用 lays with a claimed one, and the words asking for them.
_USING = {"吃": (2, "用 後面的兩張牌"), "碰": (2, "用 後面的 2 張牌"),
          "明杠": (3, "用 後面的 3 張牌")}
_MEANINGFUL_NOTES = frozenset({"海底", "門前"})
_FLOWER_VERBS = VERB_CLASSES["flower"]
_REFEREE_VERBS = VERB_CLASSES["referee"]

# Tile words already read (一二三萬 → (0, 1, 2)); only words that are tiles get in.
_EXPANDED: dict[str, tuple[int, ...]] = {}

# Larger numbers belong to no table (and clingo integers are 32-bit).
MAX_NUMBER = 10**9
MAX_DIGITS = len(str(MAX_NUMBER))


def validate(written: sx.LogWritten, source: str, base: Header | None = None, *,
             match_header: bool = False) -> Incident:
    """The Incident a log as written states; ``LogError`` at the first fault in log order.

    ``base`` and ``match_header`` are as ``reader.read`` takes them.
    """
    incident = _Validator(source, base, match_header).incident_of(written)
    if not (written.record or incident.positions or incident.header.lines
            or incident.expectations):
        # A log of blank and comment lines only: nothing to judge (the CLI and an
        # in-process caller get the same refusal).
        raise LogError(1, 1, "表頭（如 莊家: 東）或「紀錄:」段落", _line(source, 1),
                       "紀錄是空的：只有空白行或註解")
    return incident


def money(text: str) -> Money:
    """An amount as a 收支 line writes it (+2100, -700, -700/3): exact."""
    sign = -1 if text[0] in "-－−" else 1
    digits = text.lstrip("+-＋－−")
    numerator, _, denominator = digits.replace("／", "/").partition("/")
    if not denominator:
        return sign * int(numerator)
    value = Fraction(sign * int(numerator), int(denominator))
    return int(value) if value.denominator == 1 else value


def _line(source: str, number: int) -> str:
    lines = source.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


@dataclass
class _ActParts:
    """What an act says, before the line adds seq, actor and note."""

    verb: str
    tiles: tuple[tl.Tile, ...] = ()
    using: tuple[tl.Tile, ...] = ()
    replacement: tl.Tile | None = None
    target: Seat | None = None
    what: str | None = None


@dataclass
class _Validator:
    source: str
    base: Header | None = None
    match_header: bool = False
    incident: Incident = field(init=False)
    last_seq: int = 0  # the sequence number of the act before, for lines without one
    in_record: bool = False  # positions before 紀錄: are the start, inside it sightings

    def __post_init__(self) -> None:
        self.incident = Incident(source=self.source)
        if self.base is not None:
            self.incident.header = replace(
                self.base, players=dict(self.base.players),
                side_bets=list(self.base.side_bets), lines={},
                start=None, hand=None)  # each hand states its own start and number

    def incident_of(self, written: sx.LogWritten) -> Incident:
        # Names first, so a position or key may use a name declared on a later header line.
        for line in written.preamble:
            if isinstance(line, sx.PlayersLine):
                self.players(line)
        for line in written.preamble:
            if isinstance(line, sx.PositionLine):
                self.position(line)
            elif not isinstance(line, sx.PlayersLine):
                self.header_line(line)
        if written.record is not None:
            self.record(written.record)
        if written.expectations is not None:
            for expect in written.expectations.lines:
                self.incident.expectations.append(self.expectation(expect))
        return self.incident

    # -- plumbing

    def fail(
        self, token: Token, expected: str, detail: str | None = None, shift: int = 0,
        hint: str | None = None,
    ) -> NoReturn:
        line = token.line or 1
        lines = self.source.splitlines()  # only when failing: most logs never do
        source_line = lines[line - 1] if line <= len(lines) else ""
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

    def money(self, token: Token) -> Money:
        if any(len(part.lstrip("0")) > MAX_DIGITS
               for part in re.split(r"[^0-9０-９]+", token.value)):
            self.fail(token, "金額，例如 -700 或 -700/3", "這個數字太大")
        try:
            return money(token.value)
        except ZeroDivisionError:
            self.fail(token, "金額，例如 -700 或 -700/3", "分母不能是 0")

    # -- words

    def who(self, token: Token) -> Seat:
        """The chair a SEAT or NAME token stands for."""
        if token.type == "SEAT":
            return SEAT_ALIASES[token.value]
        seat = self.incident.header.players.get(token.value)
        if seat is None:
            from adjudicator.language import suggest  # a failing log's guesses only

            self.fail(token, SEAT_WORDS, f"「{token.value}」不在「玩家:」行裡",
                      hint=suggest.unknown_name_hint(token.value, self.incident.header.players))
        return seat

    def actor(self, token: Token) -> Actor:
        if token.type == "NAME" and token.value not in self.incident.header.players \
                and token.value in self.outsiders():
            return token.value  # a 外插 bettor, who holds no chair
        if token.type in ("SEAT", "NAME"):
            return self.who(token)
        return "裁判" if token.type == "REFEREE" else "牌局"

    def tiles(self, tokens: tuple[Token, ...]) -> tuple[tl.Tile, ...]:
        # Most acts name no tile list or one word: no generator for those (a read's hot path).
        if len(tokens) <= 1:
            return self.expand(tokens[0]) if tokens else ()
        return tuple(t for token in tokens for t in self.expand(token))

    def tile(self, token: Token) -> tl.Tile:
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

    def only_flowers(self, tokens: tuple[Token, ...]) -> None:
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

    def header_line(self, line: sx.KeyLine | sx.SideBetLine) -> None:
        header = self.incident.header
        key = self.header_key(line.key)
        if isinstance(line, sx.SideBetLine):
            seat = self.who(line.who)
            refused = tuple(self.who(t) for t in line.refused)
            for token, chair in zip(line.refused, refused, strict=True):
                if chair == seat:
                    self.fail(token, "他家的座位", f"{chair} 是這注的主家，不能不受自己的注")
            header.side_bets.append(SideBet(
                line=line.key.line or 0, kind=line.kind, seat=seat,
                amount="底台" if line.amount.type == "STAKE_TABLE" else self.number(line.amount),
                bettor=None if line.bettor is None else line.bettor.value,
                refused=refused,
            ))
        elif key in MATCH_ONLY_KEYS:
            header.match_keys[key] = self.match_key(key, line)
        elif line.value is not None:  # the grammar requires a value for every other key
            self.header_value(key, line.value)

    def header_value(self, key: str, value: Token) -> None:
        header = self.incident.header
        if key == "規則":
            header.profile = value.value
        elif key == "圈風":
            header.round_wind = SEAT_ALIASES[value.value[0]]
        elif key in _CHAIR_FIELDS:
            setattr(header, _CHAIR_FIELDS[key], self.who(value))
        elif key in _NUMBER_FIELDS:
            setattr(header, _NUMBER_FIELDS[key], self.number(value))
        else:
            text = value.value.strip()
            if key == "起點" and text == "开局":
                text = "開局"  # the Simplified spelling; any other start is a fragment
            setattr(header, _TEXT_FIELDS[key], text)

    def match_key(self, key: str, line: sx.KeyLine) -> str:
        if not self.match_header:
            self.fail(line.key, "本盤的表頭欄位", f"「{key}」只寫在將頭（.match 檔第一盤之前）")
        value = line.value
        if value is None:  # 將: with no title
            return ""
        if key == "起莊" and value.type != "SEAT":
            self.fail(value, "座位（東 南 西 北）", "起莊 是該將首盤莊家的座位")
        if key == "起莊":
            return SEAT_ALIASES[value.value]
        return canonical(value.value) if key == "搬風" else value.value.strip()

    def players(self, line: sx.PlayersLine) -> None:
        self.header_key(line.key)
        players = self.incident.header.players
        players.clear()  # the log's own 玩家 line replaces a base header's seating
        for seat_token, name_token in line.players:
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

    # -- positions (before the record they are the start; inside it, what was seen)

    def position(self, line: sx.PositionLine) -> None:
        if line.kind == "花":
            self.only_flowers(line.tiles)
        tiles = self.tiles(line.tiles)
        melds = tuple(self.meld(m) for m in line.melds)
        item = Position(line=line.who.line or 0, seat=self.who(line.who), kind=line.kind,
                        tiles=tiles, melds=melds)
        target = self.incident.record if self.in_record else self.incident.positions
        target.append(item)

    def meld(self, meld: sx.MeldWritten) -> Meld:
        kind = canonical(meld.kind.value)
        laid = list(self.tiles(meld.tiles))
        if len(laid) not in _MELD_SIZES[kind]:
            sizes = " 或 ".join(str(n) for n in _MELD_SIZES[kind])
            self.fail(meld.kind, f"{kind} 的 {sizes} 張牌", f"寫了 {len(laid)} 張")
        if len(laid) == 1:
            laid *= tl.MELD_SIZE[kind]  # 碰 三萬 is three 三萬, 暗杠 白 four 白
        return Meld(kind=kind, tiles=tuple(laid))

    # -- record

    def record(self, record: sx.Record) -> None:
        self.in_record = True
        for line in record.lines:
            match line:
                case sx.ActLine():
                    self.act_line(line)
                case sx.WallLine(count=count):
                    self.incident.record.append(
                        WallCount(line=count.line or 0, count=self.number(count)))
                case sx.PositionLine():
                    self.position(line)

    def act_line(self, line: sx.ActLine) -> None:
        if line.actor is None:  # a bare 荒局
            actor: Actor = "牌局"
            parts = _ActParts("荒局")
        else:
            actor = self.actor(line.actor)
            parts = self.act(line.act)
            self.check_actor(line.actor, actor, parts.verb)
        seq = line.seq
        first = seq if seq is not None else (line.actor or line.act.verb)
        # Numbers are kept as written even when they fall: the judge reports that.
        number = (self.number(seq, seq.value.rstrip(".．、")) if seq is not None
                  else self.last_seq + 1)
        self.last_seq = number
        self.incident.record.append(Act(
            seq=number, line=first.line or 0, actor=actor, verb=parts.verb, tiles=parts.tiles,
            using=parts.using, replacement=parts.replacement, note=_note(line.note),
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
        # 插花.影響: only an outsider (a 外插 bettor) sways the play from beside the table,
        # and an outsider does nothing else at it.
        outsider = actor in self.outsiders() and actor not in SEAT_ALIASES.values()
        if kind_of(verb) == "outsider" and not outsider:
            names = "、".join(sorted(self.outsiders())) or "（此盤沒有外插）"
            self.fail(token, f"外插者的名字：{names}",
                      f"「{verb}」的主詞是「插花: 外插」行寫的外插者")
        if outsider and kind_of(verb) != "outsider":
            words = "、".join(v for v in VERBS if kind_of(v) == "outsider")
            self.fail(token, SEAT_WORDS, f"外插者 {actor} 不在桌上，只能寫「{words}」")

    def outsiders(self) -> set[str]:
        """The names of this hand's 外插 bettors (the 插花 lines read so far)."""
        return {b.bettor for b in self.incident.header.side_bets if b.bettor is not None}

    def act(self, act: sx.ActWritten) -> _ActParts:
        verb = canonical(act.verb.value)
        assert verb in VERBS, verb  # the grammar and the canonical map must agree
        target = None if act.target is None else self.who(act.target)
        what = act.what if act.offence is None else _offence(act.offence)
        tiles = self.tiles(act.tiles)
        if verb == "暗杠" and len(tiles) not in (1, 4):
            self.fail(act.verb, "暗杠 的 1 或 4 張牌", f"寫了 {len(tiles)} 張")
        using: tuple[tl.Tile, ...] = ()
        if act.using is not None and act.use is not None:
            using = self.tiles(act.using)
            wanted, expected = _USING[verb]
            if len(using) != wanted:
                self.fail(act.use, expected, f"寫了 {len(using)} 張")
        if act.tile is not None:
            tiles = (self.tile(act.tile),)
        replacement = None if act.replacement is None else self.tile(act.replacement)
        if verb in _FLOWER_VERBS:
            self.only_flowers(act.flower_tokens)
        return _ActParts(verb, tiles=tiles, using=using, replacement=replacement,
                         target=target, what=what)

    # -- expectations

    def expectation(self, line: sx.ExpectWritten) -> Expectation:
        at, negated = line.first.line or 0, line.negated
        if line.kind in ("ends", "continues"):
            return HandEndExpectation(at, negated, ends=line.kind == "ends")
        if line.kind == "balance":
            balances: dict[Seat, Money] = {}
            for who, amount in line.pairs:
                seat = self.who(who)
                if seat in balances:
                    self.fail(who, "另一個座位", f"「{seat}」的收支已經寫過")
                balances[seat] = self.money(amount)
            return BalanceExpectation(at, negated, balances)
        assert line.who is not None  # the grammar writes a chair in the other three
        if line.kind == "finding":
            word = canonical(line.word.value) if line.word is not None else ""
            assert word in FINDING_KINDS, word
            return FindingExpectation(at, negated, self.who(line.who), word)
        if line.kind == "win":  # the 台 is checked before the name, as written before
            valid = None if line.word is None else canonical(line.word.value) == "有效"
            tai = None if line.number is None else self.number(line.number)
            return WinExpectation(at, negated, self.who(line.who), valid, tai)
        dealer = self.who(line.who)
        return NextHandExpectation(
            at, negated, dealer, streak=None if line.number is None else self.number(line.number),
            counts_streak=line.word is None)


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
