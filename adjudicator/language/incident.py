"""The typed incident: what the reader makes of a log.  Plain data, no behaviour.

Names of acts, offences and finding kinds are the canonical Traditional words of
incident-language.md (``杠`` as in the clause ids, ``和`` for a win); the reader maps every
accepted spelling (槓, 胡, Simplified forms …) onto them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from adjudicator.language.seats import Seat
from adjudicator.language.tiles import Tile
from adjudicator.language.vocabulary import FINDING_KINDS, OFFENCES, VERBS

# The words of the game live in vocabulary.py; re-exported for the readers of these types.
__all__ = ["FINDING_KINDS", "OFFENCES", "VERBS"]

# A chair, the referee, the table, or a 外插 bettor by name (its only act: 影響行牌).
Actor = Seat | Literal["裁判", "牌局"] | str
Money = int | Fraction


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) set in front of a player.

    ``kind`` is 吃 碰 明杠 加杠 暗杠; ``tiles`` is the whole set as laid (3 or 4 tiles):
    ``碰 三萬`` is three 三萬, ``暗杠 白`` four 白, ``暗杠 五萬 五萬 五萬 六萬`` those four.
    """

    kind: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class Position:
    """What a player is seen to hold: one of 手牌 (concealed), 門前 (melds) or 花."""

    line: int
    seat: Seat
    kind: Literal["手牌", "門前", "花"]
    tiles: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()


@dataclass(frozen=True)
class Act:
    """One line of the record: ``[N] ACTOR ACT [TILES] [（note）]``.

    * ``tiles``: the tiles named after the act (for 吃 the discard taken; for 補花 the flower;
      for 暗杠 the one tile or the four laid; for 亮牌/露牌 all shown).
    * ``using``: 吃's two tiles from the hand.
    * ``replacement``: 補花 F 補 T's replacement tile.
    * ``note``: the text in （…）; ``海底`` and ``門前`` are canonical and have meaning.
    * ``target``: the chair named by 舉發 / 發現 / 弄亂 … 手牌.
    * ``what``: the offence of 舉發/自承/發現; ``牌牆``/``手牌`` for 弄亂; ``暗杠`` for 檢查.
    """

    seq: int
    line: int
    actor: Actor
    verb: str
    tiles: tuple[Tile, ...] = ()
    using: tuple[Tile, ...] = ()
    replacement: Tile | None = None
    note: str | None = None
    target: Seat | None = None
    what: str | None = None
    numbered: bool = field(default=True, compare=False)  # False: the line has no number


@dataclass(frozen=True)
class WallCount:
    """``牌牆: N`` inside the record: N drawable tiles are left at this point."""

    line: int
    count: int


RecordItem = Act | WallCount | Position


@dataclass(frozen=True)
class Bet:
    """插花: 外插 by an outsider (a fixed amount, or 底台: the host's own 底 and 台), or 內插
    by a player (in 底)."""

    line: int
    kind: Literal["外插", "內插"]
    amount: int | Literal["底台"]
    bettor: str | None = None
    # 插花時各家得表明接受與否: the chairs (of a match: the players) that refused the bet.
    refused: tuple[str, ...] = ()


@dataclass(frozen=True)
class SideBet(Bet):
    """A hand's 插花, on a chair."""

    seat: Seat = field(kw_only=True)


@dataclass
class Header:
    """The header of a log: the profile, the deal, the stakes, the players and the occasion."""

    profile: str = "tw16"
    round_wind: Seat = "東"
    dealer: Seat | None = None
    streak: int = 0
    shown_streak: int | None = None  # 示記; None means the same as streak
    open_seat: Seat | None = None  # 開門; None means the dealer's chair
    base: int | None = None  # 底
    per_tai: int | None = None  # 台
    players: dict[str, Seat] = field(default_factory=dict)  # name → chair
    side_bets: list[SideBet] = field(default_factory=list)
    wall: int | None = None  # 牌牆 when the record starts
    start: str | None = None  # 起點 as written; "開局" says the record begins at the deal
    # For reports and archives (JSON meta): 日期 場地 桌號 裁判 盤號, as written.
    date: str | None = None
    venue: str | None = None
    table: str | None = None
    referee: str | None = None
    hand: str | None = None
    # A match header's own keys (將 起莊 搬風 → title, chair, 每將/每圈), canonical; only
    # read(match_header=True) accepts them.
    match_keys: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # header key → source line

    def occasion(self) -> list[tuple[str, str, str]]:
        """(header word, meta key, value) of the occasion fields the header gives, in order."""
        return [(word, key, value) for word, key in OCCASION.items()
                if (value := getattr(self, key)) is not None]


# The header's words about the occasion (no bearing on the ruling) → Header field and the
# ruling JSON's meta key, which are spelt alike.
OCCASION = {"日期": "date", "場地": "venue", "桌號": "table", "裁判": "referee", "盤號": "hand"}


@dataclass(frozen=True)
class FindingExpectation:
    """期望: 東 相公 (or 無 東 相公): a finding the ruling must (not) make."""

    line: int
    negated: bool
    seat: Seat
    kind: str  # one of FINDING_KINDS


@dataclass(frozen=True)
class WinExpectation:
    """期望: 東 和 [有效|無效] [N 台]: a win and what it must be worth."""

    line: int
    negated: bool
    seat: Seat
    valid: bool | None  # None when the line does not say 有效/無效
    tai: int | None


@dataclass(frozen=True)
class HandEndExpectation:
    """期望: 本盤終止 / 繼續: whether the hand must end."""

    line: int
    negated: bool
    ends: bool  # 本盤終止 (True) or 繼續 (False)


@dataclass(frozen=True)
class BalanceExpectation:
    """期望: 收支: 東 +2100 …: the balances the ruling must give."""

    line: int
    negated: bool
    balances: dict[Seat, Money]


@dataclass(frozen=True)
class NextHandExpectation:
    """期望: 下盤: 莊家 東 [連莊 N] [不計連莊序]: who must deal next."""

    line: int
    negated: bool
    dealer: Seat
    streak: int | None
    counts_streak: bool  # False when the line says 不計連莊序


Expectation = (
    FindingExpectation
    | WinExpectation
    | HandEndExpectation
    | BalanceExpectation
    | NextHandExpectation
)


@dataclass
class Incident:
    """A log read and checked: header, positions before the record, the record, and
    the 期望 of a case."""

    header: Header = field(default_factory=Header)
    positions: list[Position] = field(default_factory=list)  # before the record
    record: list[RecordItem] = field(default_factory=list)
    expectations: list[Expectation] = field(default_factory=list)
    source: str = ""

    @property
    def acts(self) -> list[Act]:
        return [item for item in self.record if isinstance(item, Act)]

    @property
    def from_deal(self) -> bool:
        """The record begins at the deal: the header says 起點: 開局, or the first act is
        numbered 1 (a record that does not say so is a fragment)."""
        if self.header.start is not None:
            return self.header.start == "開局"
        acts = self.acts
        return bool(acts) and acts[0].numbered and acts[0].seq == 1

    @property
    def start_unknown(self) -> bool:
        """Whether the record leaves open where it starts: no 起點 and a first act without a
        number (a first act numbered 1 starts at the deal, a later number after it)."""
        acts = self.acts
        return self.header.start is None and bool(acts) and not acts[0].numbered
