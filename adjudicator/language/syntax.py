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
class KeyLine:
    """規則: tw16 / 莊家: 東 / 底: 300 / 日期: … / 將: …: a header key and its one value."""

    key: Token
    value: Token | None  # None only where the grammar lets it out (將: with no title)


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
    refused: tuple[Token, ...] = ()  # the chairs that did not accept the bet (不受 …)


HeaderLine = KeyLine | PlayersLine | SideBetLine

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
    """紀錄: the record's lines, in order."""

    lines: tuple[RecordLine, ...]


# ---------------------------------------------------------------------------- expectations


@dataclass(slots=True)
class ExpectWritten:
    """One line of 期望; each kind of expectation fills the parts it has.

    東 相公 (finding: who, word) · 東 和 [有效|無效] [N 台] (win: who, word, number) ·
    本盤終止 / 繼續 (ends / continues) · 收支: 東 +2100 … (balance: pairs) ·
    下盤: 莊家 東 [連莊 N] [不計連莊序] (next: who, number, word).
    """

    kind: str  # finding, win, ends, continues, balance or next
    first: Token  # the line's first word, whose line the expectation names
    who: Token | None = None
    word: Token | None = None  # the finding's kind, the win's validity, 不計連莊序
    number: Token | None = None  # the win's 台, the next hand's streak
    pairs: tuple[tuple[Token, Token], ...] = ()  # (chair, amount) of 收支
    negated: bool = False  # 無 before it


@dataclass(slots=True)
class Expectations:
    """期望: a case's expectation lines, in order."""

    lines: tuple[ExpectWritten, ...]


# ---------------------------------------------------------------------------- the whole log


@dataclass(slots=True)
class LogWritten:
    """Header and position lines in order, then the record and the expectations if any."""

    preamble: tuple[HeaderLine | PositionLine, ...]
    record: Record | None
    expectations: Expectations | None
