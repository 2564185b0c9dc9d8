"""Reading a ``.match`` file (docs/match-format.md): the match header, the hands, the
expectations of a match case.

The match header is incident-language header lines, read by the incident reader (the one
source of truth for those words), which also knows the keys only a match has (將 起莊 搬風)
when told it reads a match header; this module says which keys belong to the match as a
whole and what they default to.  Each hand is kept as
text, with blank lines before it so that the reader's line numbers are the file's: it is
read once the match knows the state it starts from (carry.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, cast

from adjudicator.language import reader
from adjudicator.language.errors import SEAT_WORDS, LogError
from adjudicator.language.incident import OCCASION, Bet, Money
from adjudicator.language.seats import SEAT_ALIASES, Seat
from adjudicator.language.validate import money
from adjudicator.language.vocabulary import MATCH_ONLY_KEYS

_BLANK = r"[ \t\u3000]"
_TAIL = rf"{_BLANK}*(?:[#＃].*)?$"  # blanks and an optional comment to the end of the line
_HAND = re.compile(rf"^{_BLANK}*第{_BLANK}*([0-9０-９]+){_BLANK}*[盤盘]{_BLANK}*[:：]?"
                   rf"{_BLANK}*([^#＃]*?){_TAIL}")
_DASHES = re.compile(rf"^{_BLANK}*-{{3,}}{_TAIL}")
_EXPECT = re.compile(rf"^{_BLANK}*[將将]期望{_BLANK}*[:：]?{_TAIL}")
# A hand's own lines about the match's side bets (插花.內插, 插花.外插, 插花.轉插): 起插 is a
# 插花 line that lasts from this hand on; 退插 names whose bet ends here; 轉插 moves an
# outsider's bet to another host.  Only a match has them: the hand reader never sees them.
_BET_START = re.compile(rf"^({_BLANK}*)起插(?={_BLANK}*[:：])")
_BET_END = re.compile(rf"^{_BLANK}*退插{_BLANK}*[:：]?{_BLANK}*([^#＃\s]+){_TAIL}")
_BET_MOVE = re.compile(rf"^{_BLANK}*[轉转]插{_BLANK}*[:：]?{_BLANK}*([^#＃\s]+)"
                       rf"{_BLANK}+([^#＃\s]+){_TAIL}")
# The incident-language header keys that belong to the match as a whole (the occasion's
# words once for all hands; 盤號 names each hand instead).
MATCH_KEYS = frozenset({"規則", "圈風", "莊家", "連莊", "底", "台", "玩家", "插花",
                        *MATCH_ONLY_KEYS, *(word for word in OCCASION if word != "盤號")})
SeatChange = Literal["每將", "每圈"]


@dataclass(frozen=True)
class MatchBet(Bet):
    """A side bet that lasts the match; it rides on a person, whichever chair they move to."""

    player: str = field(kw_only=True)
    since: int = field(default=1, kw_only=True)  # the 將 it began in (插花.內插: 不得退插)


@dataclass
class MatchHeader:
    title: str | None = None
    profile: str = "tw16"
    base: int | None = None
    per_tai: int | None = None
    seating: dict[Seat, str] = field(default_factory=dict)  # chair → name, at the start
    round_wind: Seat = "東"
    dealer: Seat = "東"  # the first hand's dealer
    streak: int = 0
    start_dealer: Seat = "東"  # 起莊位: where the 圈 turns (default: the first dealer)
    seat_change: SeatChange = "每將"
    side_bets: list[MatchBet] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)  # 日期 場地 桌號 裁判
    lines: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class BetChange:
    """A hand's 起插, 退插 or 轉插 line: who (the bettor's name, or a 內插 player by name or
    chair) and, for 轉插, the new host."""

    line: int
    kind: Literal["起插", "退插", "轉插"]
    who: str = ""  # 起插: empty (the bet is the 插花 line read at this line)
    to: str | None = None


@dataclass(frozen=True)
class HandText:
    number: int
    line: int  # the line that opens it (第N盤: or ---)
    label: str  # what follows 第N盤: on that line
    text: str  # the hand's own lines, after as many blank lines as come before them
    bet_changes: tuple[BetChange, ...] = ()


@dataclass(frozen=True)
class LedgerExpectation:
    line: int
    hand: int | None  # None: at the end (終局)
    totals: dict[str, Money]


@dataclass(frozen=True)
class DealExpectation:
    line: int
    hand: int | None  # None: the hand after the last (下一盤)
    round_wind: Seat | None
    dealer: str | None  # a chair or a player's name
    streak: int | None


@dataclass(frozen=True)
class WarningExpectation:
    line: int
    hand: int
    key: str  # the header key the warning is about (莊家, 連莊, 圈風, 玩家, 搬風)


@dataclass(frozen=True)
class StopExpectation:
    line: int
    hand: int


MatchExpectation = LedgerExpectation | DealExpectation | WarningExpectation | StopExpectation
WARNING_KEYS = ("莊家", "連莊", "圈風", "玩家", "搬風", "插花")


@dataclass
class Match:
    header: MatchHeader
    hands: list[HandText]
    expectations: list[MatchExpectation]
    source: str


def read_match(text: str) -> Match:
    """Read a match file; ``LogError`` (with the file's line) for anything that does not fit."""
    source = text[1:] if text.startswith("\ufeff") else text
    lines = source.splitlines()
    expect = next((i for i, line in enumerate(lines) if _EXPECT.match(line)), None)
    end = expect if expect is not None else len(lines)
    starts = [i for i, line in enumerate(lines[:end]) if _HAND.match(line) or _DASHES.match(line)]
    header_end = starts[0] if starts else end
    header = _header(lines, header_end)
    hands = _hands(lines, starts, end)
    if not hands:
        _fail(lines, max(header_end - 1, 0), "第1盤:", "將裡沒有任何一盤")
    expectations = [] if expect is None else _expectations(lines, expect, header)
    return Match(header, hands, expectations, source)


def _fail(lines: list[str], index: int, expected: str, detail: str | None = None,
          column: int = 1) -> None:
    raise LogError(index + 1, column, expected, lines[index] if index < len(lines) else "",
                   detail)


# ---------------------------------------------------------------------- the header


def _header(lines: list[str], end: int) -> MatchHeader:
    header = MatchHeader()
    incident = reader.read("\n".join(lines[:end]), match_header=True)
    h = incident.header
    for key, line in sorted(h.lines.items(), key=lambda item: item[1]):
        if key not in MATCH_KEYS:
            _fail(lines, line - 1, "將頭欄位（規則 底 台 玩家 插花 圈風 莊家 連莊 起莊 搬風…）",
                  f"「{key}」屬於各盤，寫在該盤裡")
        header.lines[key] = line
    for item in (*incident.positions, *incident.record):
        _fail(lines, item.line - 1, "將頭欄位", "手牌與紀錄屬於各盤：先寫 第1盤:")
    if len(h.players) != 4:
        line = h.lines.get("玩家", 1) - 1
        _fail(lines, line, "玩家: 東=… 南=… 西=… 北=…", "將頭須寫明四位玩家（分帳按人名）")
    header.title = h.match_keys.get("將") or None
    header.meta = {word: value for word, _, value in
                   sorted(h.occasion(), key=lambda row: h.lines[row[0]])}
    header.seat_change = cast(SeatChange, h.match_keys.get("搬風", header.seat_change))
    header.start_dealer = cast(Seat, h.match_keys.get("起莊", header.start_dealer))
    header.profile, header.base, header.per_tai = h.profile, h.base, h.per_tai
    header.seating = {seat: name for name, seat in h.players.items()}
    header.round_wind, header.streak = h.round_wind, h.streak
    if h.dealer is not None:
        header.dealer = h.dealer
    elif "起莊" in header.lines:
        header.dealer = header.start_dealer  # a sheet that starts with the 將 starts at 起莊
    if "起莊" not in header.lines:
        header.start_dealer = header.dealer
    header.side_bets = [MatchBet(b.line, b.kind, b.amount, b.bettor,
                                 tuple(header.seating[s] for s in b.refused if s in header.seating),
                                 player=header.seating[b.seat])
                        for b in h.side_bets]
    return header


# ---------------------------------------------------------------------- the hands


def _hands(lines: list[str], starts: list[int], end: int) -> list[HandText]:
    hands: list[HandText] = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else end
        marker = _HAND.match(lines[start])
        number = len(hands) + 1
        label = ""
        if marker is not None:
            written = int(marker.group(1))
            if written != number:
                _fail(lines, start, f"第{number}盤", f"盤號要依序：這裡是第 {number} 盤",
                      lines[start].find("第") + 1)
            label = marker.group(2).strip()
        own, changes = _bet_changes(lines, start + 1, stop)
        text = "\n" * (start + 1) + "\n".join(own) + "\n"
        hands.append(HandText(number, start + 1, label, text, changes))
    return hands


def _bet_changes(lines: list[str], first: int,
                 stop: int) -> tuple[list[str], tuple[BetChange, ...]]:
    """The hand's lines for the reader, and its 起插 / 退插 / 轉插 lines: a 起插 line is read as
    the 插花 line it is (the same length: columns stay the file's), the others as blank."""
    own: list[str] = []
    changes: list[BetChange] = []
    for i in range(first, stop):
        line = lines[i]
        if (m := _BET_START.match(line)) is not None:
            changes.append(BetChange(i + 1, "起插"))
            line = m.group(1) + "插花" + line[m.end():]
        elif (m := _BET_END.match(line)) is not None:
            changes.append(BetChange(i + 1, "退插", m.group(1)))
            line = ""
        elif (m := _BET_MOVE.match(line)) is not None:
            changes.append(BetChange(i + 1, "轉插", m.group(1), m.group(2)))
            line = ""
        own.append(line)
    return own, tuple(changes)


# ---------------------------------------------------------------------- expectations

_AMOUNT = re.compile(r"^[+\-＋－−]?[0-9０-９]+([/／][0-9０-９]+)?$")
_AFTER = re.compile(r"^第([0-9０-９]+)[盤盘]後$")
_OF = re.compile(r"^第([0-9０-９]+)[盤盘]$")
_STOP = re.compile(r"^停於第([0-9０-９]+)[盤盘]$")


def _expectations(lines: list[str], head: int, header: MatchHeader) -> list[MatchExpectation]:
    names = set(header.seating.values())
    out: list[MatchExpectation] = []
    for i in range(head + 1, len(lines)):
        body = re.split(r"[#＃]", lines[i], maxsplit=1)[0]
        words = body.replace("：", " ").replace(":", " ").split()
        if words:
            out.append(_expectation(lines, i, words, names))
    return out


def _expectation(lines: list[str], i: int, words: list[str],
                 names: set[str]) -> MatchExpectation:
    first, rest = words[0], words[1:]
    after = _AFTER.match(first)
    if after is not None or first == "終局":
        hand = None if after is None else int(after.group(1))
        return LedgerExpectation(i + 1, hand, _totals(lines, i, rest))
    stop = _STOP.match(first)
    if stop is not None and not rest:
        return StopExpectation(i + 1, int(stop.group(1)))
    if first in ("下一盤", "下一盘"):
        return _deal(lines, i, None, rest, names)
    of = _OF.match(first)
    if of is None:
        _fail(lines, i, "第N盤後: 名字 金額…、終局: …、第N盤 莊家 …、第N盤 警告 …、"
              "下一盤 莊家 … 或 停於第N盤")
    hand = int(of.group(1))  # type: ignore[union-attr]
    if len(rest) == 2 and rest[0] == "警告":
        if rest[1] not in WARNING_KEYS:
            _fail(lines, i, "、".join(WARNING_KEYS), "警告 後寫它關於哪一欄")
        return WarningExpectation(i + 1, hand, rest[1])
    return _deal(lines, i, hand, rest, names)


def _deal(lines: list[str], i: int, hand: int | None, rest: list[str],
          names: set[str]) -> DealExpectation:
    values: dict[str, str] = {}
    if not rest or len(rest) % 2:
        _fail(lines, i, "圈風 W、莊家 座位或名字、連莊 N（成對）")
    for key, value in zip(rest[::2], rest[1::2], strict=True):
        key = key.replace("庄", "莊").replace("连", "連").replace("风", "風")
        if key not in ("圈風", "莊家", "連莊") or key in values:
            _fail(lines, i, "圈風、莊家 或 連莊", f"「{key}」")
        values[key] = value
    wind = values.get("圈風")
    if wind is not None and wind[0] not in SEAT_ALIASES:
        _fail(lines, i, "風（東 南 西 北）", f"「{wind}」")
    dealer = values.get("莊家")
    if dealer is not None and dealer not in SEAT_ALIASES and dealer not in names:
        _fail(lines, i, SEAT_WORDS, f"「{dealer}」不是座位，也不是本將的玩家")
    streak = values.get("連莊")
    if streak is not None and not streak.isdigit():
        _fail(lines, i, "連莊的數字", f"「{streak}」")
    return DealExpectation(
        i + 1, hand, None if wind is None else SEAT_ALIASES[wind[0]],
        None if dealer is None else SEAT_ALIASES.get(dealer, dealer),
        None if streak is None else int(streak))


def _totals(lines: list[str], i: int, words: list[str]) -> dict[str, Money]:
    if not words or len(words) % 2:
        _fail(lines, i, "名字 金額 成對，例如 阿明 +1200 小華 -400")
    out: dict[str, Money] = {}
    for name, amount in zip(words[::2], words[1::2], strict=True):
        if not _AMOUNT.match(amount):
            _fail(lines, i, "金額，例如 +1200 或 -700/3", f"「{amount}」")
        if name in out:
            _fail(lines, i, "另一個名字", f"「{name}」已經寫過")
        out[name] = money(amount)
    return out


