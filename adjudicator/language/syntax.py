"""A log as written: what the grammar found, line by line, with every token kept.

The reader's Transformer (reader.py) turns Lark's parse tree into these nodes and checks
nothing; validate.py then reads them in the order of the log, resolves names and checks
what the grammar cannot (tile words, counts, numbers, who may do what), failing at the
token concerned.  Nothing here means anything yet: a seat is still a word, a tile a token.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token

# ---------------------------------------------------------------------------- header


@dataclass(slots=True)
class ProfileLine:
    """規則: P."""

    key: Token
    value: Token


@dataclass(slots=True)
class RoundLine:
    """圈風: 東."""

    key: Token
    value: Token


@dataclass(slots=True)
class ChairLine:
    """莊家: 東 / 開門: 阿明: a header field whose value is a chair."""

    key: Token
    who: Token
    field: str  # the Header attribute it sets


@dataclass(slots=True)
class NumberLine:
    """連莊: 2 / 底: 300 …: a header field whose value is a whole number."""

    key: Token
    value: Token
    field: str  # the Header attribute it sets


@dataclass(slots=True)
class TextLine:
    """日期: 2026-11-30 …: free text to the end of the line."""

    key: Token
    value: Token


@dataclass(slots=True)
class PlayersLine:
    """玩家: 東=阿明 南=小華 …, as (chair, name) pairs."""

    key: Token
    players: tuple[tuple[Token, Token], ...]


@dataclass(slots=True)
class SideBetLine:
    """插花: 外插 老王 東 100 / 插花: 內插 東 100."""

    key: Token
    kind: str  # 外插 or 內插
    who: Token
    amount: Token
    bettor: Token | None = None


@dataclass(slots=True)
class MatchKeyLine:
    """將: title / 起莊: 東 / 搬風: 每圈: the keys only a match header has."""

    key: Token
    value: Token | None  # None: 將: with no title


HeaderLine = (ProfileLine | RoundLine | ChairLine | NumberLine | TextLine | PlayersLine
              | SideBetLine | MatchKeyLine)

# ---------------------------------------------------------------------------- positions


@dataclass(slots=True)
class MeldWritten:
    """碰 三萬 / 吃 一二三萬: a laid set in a 門前 line."""

    kind: Token
    tiles: tuple[Token, ...]


@dataclass(slots=True)
class PositionLine:
    """東 手牌 / 東 花 / 東 門前: before the record the start, inside it a sighting."""

    who: Token
    kind: str  # 手牌, 花 or 門前
    tiles: tuple[Token, ...] = ()
    melds: tuple[MeldWritten, ...] = ()


# ---------------------------------------------------------------------------- record


@dataclass(slots=True)
class ActWritten:
    """What follows the actor on an act line; each shape of act fills the parts it has."""

    verb: Token
    tile: Token | None = None  # the one tile of 打 T, 摸 [T], 碰 T, 吃 T …
    tiles: tuple[Token, ...] = ()  # the tiles of 亮牌 …, 暗杠 …, 補花 …, 舉發 … [tiles]
    use: Token | None = None  # 用, before the tiles laid with a claimed one
    using: tuple[Token, ...] | None = None  # those tiles; None when no 用 is written
    replacement: Token | None = None  # 補花 F 補 T: the tile drawn in its place
    target: Token | None = None  # whom 舉發 names, whose hand 弄亂 disturbs
    offence: Token | None = None  # what 舉發 / 自承 names
    what: str | None = None  # the object a verb's shape fixes (弄亂 牌牆 → 牌牆)

    @property
    def flower_tokens(self) -> tuple[Token, ...]:
        """The tokens right after the verb, which 補花 and 搶花 must fill with flowers."""
        return self.tiles if self.tiles else (() if self.tile is None else (self.tile,))


@dataclass(slots=True)
class ActLine:
    """[N.] actor act [(note)]; a bare 荒局 line has no actor."""

    seq: Token | None
    actor: Token | None
    act: ActWritten
    note: Token | None


@dataclass(slots=True)
class WallLine:
    """牌牆: N inside the record."""

    count: Token


RecordLine = ActLine | WallLine | PositionLine


@dataclass(slots=True)
class Record:
    lines: tuple[RecordLine, ...]


# ---------------------------------------------------------------------------- expectations


@dataclass(slots=True)
class FindingWritten:
    """東 相公."""

    who: Token
    kind: Token

    @property
    def first(self) -> Token:
        return self.who


@dataclass(slots=True)
class WinWritten:
    """東 和 [有效|無效] [N 台]."""

    who: Token
    validity: Token | None
    tai: Token | None

    @property
    def first(self) -> Token:
        return self.who


@dataclass(slots=True)
class EndWritten:
    """本盤終止 (ends) / 繼續 (does not)."""

    word: Token
    ends: bool

    @property
    def first(self) -> Token:
        return self.word


@dataclass(slots=True)
class BalanceWritten:
    """收支: 東 +2100 南 -700 …, as (chair, amount) pairs."""

    word: Token
    pairs: tuple[tuple[Token, Token], ...]

    @property
    def first(self) -> Token:
        return self.word


@dataclass(slots=True)
class NextWritten:
    """下盤: 莊家 東 [連莊 N] [不計連莊序]."""

    word: Token
    who: Token
    streak: Token | None
    counts_streak: bool

    @property
    def first(self) -> Token:
        return self.word


ExpectationWritten = FindingWritten | WinWritten | EndWritten | BalanceWritten | NextWritten


@dataclass(slots=True)
class ExpectLine:
    negation: Token | None  # 無
    body: ExpectationWritten


@dataclass(slots=True)
class Expectations:
    lines: tuple[ExpectLine, ...]


# ---------------------------------------------------------------------------- the whole log


@dataclass(slots=True)
class LogWritten:
    """Header and position lines in order, then the record and the expectations if any."""

    preamble: tuple[HeaderLine | PositionLine, ...]
    record: Record | None
    expectations: Expectations | None
