"""插花 over a match: when a lasting side bet may begin, end or move (001 插花).

A hand of a match may write ``起插: 外插 老王 小華 50`` (a 插花 line that lasts from this hand
on), ``退插: 老王`` (the bet of that bettor, or a 內插 player's own, ends here) and ``轉插: 老王
阿德`` (the outsider moves its bet to another host).  Only the match knows when a hand is
played — its 將, 圈, dealer and streak, and what the hand before took from whom — so the
timing the text sets is judged here:

* 插花.內插: a 內插 begins by the 西風圈's first deal (西風起莊, 含) and is not withdrawn
  before its 將 ends;
* 插花.外插: an 外插 begins when the dealer is on no streak (非連莊), and is withdrawn only
  when the dealer is on no streak and its stake was just won off (插花注被和去: in the hand
  before, the bettor paid its stake on a win);
* 插花.轉插: an 外插 moves to another host only when its stake was just won off;
* 插花.一圈: an 外插 begins or moves only while at least one 圈 of the 將 is left;
* a 內插 of two 底 or more (飄, 飛) 得視同外插: it may begin or end by either rule.

A change out of time does not take effect — the bet stays as it was — and the match warns,
naming the clause (key 插花).  "如內插無明顯失利則次一將不得退插" has no measure of 明顯失利
in the text and is not judged: a 內插 from an earlier 將 may be withdrawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from adjudicator.language.errors import LogError
from adjudicator.language.incident import Incident, SideBet
from adjudicator.language.seats import SEAT_ALIASES, SEATS, Seat
from adjudicator.match.format import BetChange, MatchBet
from adjudicator.ruling.model import Ruling


@dataclass(frozen=True)
class When:
    """Where a hand stands in its 將, as far as the bets' timing asks."""

    jiang: int
    round_wind: Seat
    dealer: Seat
    streak: int
    start_dealer: Seat
    seating: dict[Seat, str]
    lost: frozenset[str]  # who paid a 插花 stake on a win in the hand before (被和去)


@dataclass(frozen=True)
class Refusal:
    line: int
    clause: str
    message: str


def on_chairs(bets: Iterable[MatchBet], seating: dict[Seat, str]) -> list[SideBet]:
    """The match's lasting bets on the chairs their players sit in."""
    chair = {name: seat for seat, name in seating.items()}
    return [SideBet(b.line, b.kind, b.amount, b.bettor,
                    tuple(chair[p] for p in b.refused if p in chair), seat=chair[b.player])
            for b in bets if b.player in chair]


def won_off(ruling: Ruling, seating: dict[Seat, str]) -> frozenset[str]:
    """Who paid a 插花 stake on a win in this hand (not on a 詐和 or a 包賠), by name."""
    return frozenset(seating.get(p.frm, p.frm)  # type: ignore[call-overload]
                     for p in ruling.payments
                     if p.basis == "插花" and not {"詐和.2", "包賠"} & set(p.clauses))


def apply(lasting: tuple[MatchBet, ...], when: When, incident: Incident,
          changes: tuple[BetChange, ...]) -> tuple[tuple[MatchBet, ...], list[Refusal]]:
    """The lasting bets after this hand's changes, and the changes refused.  The hand's own
    bets (its header) are brought in line: a 起插 refused is not in force in this hand, a
    withdrawal or a move is in force from this hand on."""
    h = incident.header
    kept = list(lasting)
    this = h.side_bets[:len(lasting)]  # the lasting bets on chairs, in the same order
    own = h.side_bets[len(lasting):]
    refused: list[Refusal] = []
    for change in changes:
        if change.kind == "起插":
            bet = next(b for b in own if b.line == change.line)
            own.remove(bet)
            why = _start_refused(bet.kind, bet.amount, when)
            if why:
                refused.append(Refusal(change.line, *why))
                continue
            kept.append(MatchBet(bet.line, bet.kind, bet.amount, bet.bettor,
                                 tuple(when.seating[s] for s in bet.refused),
                                 player=when.seating[bet.seat], since=when.jiang))
            this.append(bet)
            continue
        k = _find(kept, change, when)
        bet = kept[k]
        if change.kind == "退插":
            why = _end_refused(bet, when)
            if why:
                refused.append(Refusal(change.line, *why))
                continue
            del kept[k], this[k]
        else:
            host = _player(change.to or "", change, when)
            why = _move_refused(bet, when)
            if why:
                refused.append(Refusal(change.line, *why))
                continue
            chair = {name: seat for seat, name in when.seating.items()}
            kept[k] = replace(bet, player=host)
            this[k] = replace(this[k], seat=chair[host])
    h.side_bets = this + own
    return tuple(kept), refused


def _find(bets: list[MatchBet], change: BetChange, when: When) -> int:
    """The lasting bet a 退插 or 轉插 names: an outsider's by its name, a 內插 by its player."""
    who = change.who
    name = when.seating.get(SEAT_ALIASES[who], who) if who in SEAT_ALIASES else who
    for k, bet in enumerate(bets):
        own = bet.kind == "內插" and bet.player == name and change.kind == "退插"
        if bet.bettor == who or own:
            return k
    expected = "外插者的名字" if change.kind == "轉插" else "外插者的名字，或內插者（名字或座位）"
    raise LogError(change.line, 1, expected, "", f"「{who}」沒有在本將進行中的插花")


def _player(who: str, change: BetChange, when: When) -> str:
    if who in SEAT_ALIASES:
        return when.seating[SEAT_ALIASES[who]]
    if who not in when.seating.values():
        raise LogError(change.line, 1, "新的主家（座位或本將的玩家名）", "",
                       f"「{who}」不是座位，也不是本將的玩家")
    return who


def _one_round_left(when: When) -> bool:
    """At least one 圈 of the 將 is left, this hand included: not past the 北風圈's first deal."""
    return when.round_wind != SEATS[-1] or when.dealer == when.start_dealer


def _by_west_deal(when: When) -> bool:
    """By the 西風圈's first deal (西風起莊, 含): the 東 and 南 圈, or the 西風圈's first dealer."""
    at = SEATS.index(when.round_wind)
    return at < 2 or (at == 2 and when.dealer == when.start_dealer)


def _outside_start(when: When) -> tuple[str, str] | None:
    if when.streak > 0:
        return "插花.外插", f"莊家連莊中（連莊 {when.streak}），外插只能在非連莊時起插"
    if not _one_round_left(when):
        return "插花.一圈", "這一將剩下的牌局已不到一圈，外插不得起插"
    return None


def _start_refused(kind: str, amount: int | str, when: When) -> tuple[str, str] | None:
    if kind == "外插":
        return _outside_start(when)
    if _by_west_deal(when):
        return None
    # 飄、飛 (two 底 or more) may begin as an 外插 does.
    if isinstance(amount, int) and amount >= 2 and _outside_start(when) is None:
        return None
    return "插花.內插", "已過西風圈起莊，內插不得起插"


def _outside_end(bet: MatchBet, when: When) -> tuple[str, str] | None:
    who = bet.bettor or bet.player
    if when.streak > 0:
        return "插花.外插", f"莊家連莊中（連莊 {when.streak}），不得退插"
    if who not in when.lost:
        return "插花.外插", f"{who} 的插花注上一盤沒有被和去，不得退插"
    return None


def _end_refused(bet: MatchBet, when: When) -> tuple[str, str] | None:
    if bet.kind == "外插":
        return _outside_end(bet, when)
    if bet.since < when.jiang:
        return None
    if isinstance(bet.amount, int) and bet.amount >= 2 and _outside_end(bet, when) is None:
        return None
    return "插花.內插", f"{bet.player} 的內插在這一將打完以前不得退插"


def _move_refused(bet: MatchBet, when: When) -> tuple[str, str] | None:
    if bet.bettor not in when.lost:
        return "插花.轉插", f"{bet.bettor} 的插花注上一盤沒有被和去，不得轉插"
    if not _one_round_left(when):
        return "插花.一圈", "這一將剩下的牌局已不到一圈，不得轉插"
    return None
