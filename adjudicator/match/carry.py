"""What a match carries from one hand to the next: the deal, the streak, the 圈, the seats.

The next dealer and streak come from the ruling (``next_hand``, derived in
asp/settlement/dealer.lp: 台.9, 荒局 or 平台.流局, 詐和.3, 包賠); here only the table's
bookkeeping around it (000/001 定莊, 搬風):

* the 圈 turns when the deal passes on and comes back to the 起莊位; after the 北風圈 the
  將 is over and the next hand starts a new 將 (東風, streak 0, a new 定莊);
* players change chairs by lot (搬風), so the new seating is written in the file (a hand's
  own 玩家 line); it is due at each new 將 (000: 次將起每將搬風) or, where the match header
  says ``搬風: 每圈`` (a club's choice the texts do not make), also at each new 圈.  The
  deal stays with the chairs: people move, the 起莊位 and the round-wind marker do not.

A hand may state what the match carries; a stated value that differs is used for that
hand (it is what the table played) and reported as a warning naming both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.language.errors import LogError
from adjudicator.language.incident import Header, Incident
from adjudicator.language.seats import SEATS, Seat
from adjudicator.match import side_bets
from adjudicator.match.format import BetChange, MatchBet, MatchHeader
from adjudicator.rules.rulesets import named_family
from adjudicator.ruling.model import NextHand, Ruling

WINDS: tuple[Seat, ...] = SEATS  # the round winds turn 東 → 南 → 西 → 北 as the chairs do


@dataclass(frozen=True)
class Deal:
    """Where a hand stands in the match, as it was played."""

    jiang: int  # 第幾將, from 1
    round_wind: Seat
    dealer: Seat
    streak: int
    start_dealer: Seat  # the 起莊位 of this 將
    seating: dict[Seat, str]  # chair → player
    round_clause: str | None = None  # the clause this hand's 圈 began by, when it turned here

    @property
    def dealer_name(self) -> str:
        return self.seating[self.dealer]


@dataclass(frozen=True)
class Carried:
    """What the match carries into a hand; a value is None where the hand before left it open."""

    jiang: int
    round_wind: Seat | None
    dealer: Seat | None
    streak: int | None
    start_dealer: Seat
    seating: dict[Seat, str]
    counts_streak: bool = True  # False: the hand before did not count toward the streak
    new_jiang: bool = False  # this hand opens a new 將: its dealer is a new 定莊
    seat_change_due: str | None = None  # why a 搬風 is due before this hand
    open: str | None = None  # why a value is open
    round_clause: str | None = None  # the clause the 圈 turned by before this hand
    bets: tuple[MatchBet, ...] = ()  # the side bets in force, by person (match/side_bets.py)
    lost: frozenset[str] = frozenset()  # who paid a 插花 stake on a win in the hand before


@dataclass(frozen=True)
class CarryWarning:
    hand: int
    key: str  # 莊家 連莊 圈風 玩家 搬風 插花
    message: str
    clause: str | None = None  # the clause a 插花 change out of time breaks


@dataclass
class Settled:
    """A hand's deal as played, and what the match says about how it was stated."""

    deal: Deal | None  # None: an open value the hand does not state (the carry stops)
    warnings: list[CarryWarning] = field(default_factory=list)
    stop: str | None = None
    bets: tuple[MatchBet, ...] = ()  # the side bets in force after this hand's changes


def start(header: MatchHeader) -> Carried:
    return Carried(jiang=1, round_wind=header.round_wind, dealer=header.dealer,
                   streak=header.streak, start_dealer=header.start_dealer,
                   seating=dict(header.seating), bets=tuple(header.side_bets))


def base_header(carried: Carried, header: MatchHeader) -> Header:
    """The header a hand starts from: the match's stake and bets, the carried deal."""
    chair = {name: seat for seat, name in carried.seating.items()}
    return Header(
        profile=header.profile, round_wind=carried.round_wind or "東",
        dealer=carried.dealer, streak=carried.streak or 0,
        base=header.base, per_tai=header.per_tai, players=dict(chair),
        side_bets=side_bets.on_chairs(carried.bets, carried.seating),
    )


def settle(carried: Carried, incident: Incident, hand: int,
           changes: tuple[BetChange, ...] = ()) -> Settled:
    """The hand's deal: the carried values, with what the hand itself states.

    Where the hand seats the players anew, the match's side bets move with their players
    (the incident's header is brought up to date; its own 插花 lines stay as read); its
    起插, 退插 and 轉插 lines change the bets in force when their time allows.
    """
    h = incident.header
    out = Settled(deal=None)
    seating = _seating(carried, incident, hand, out.warnings)
    if seating != carried.seating:
        own = h.side_bets[len(carried.bets):]
        h.side_bets = side_bets.on_chairs(carried.bets, seating) + own
    dealer_word = _both(carried.dealer, carried.seating)
    stated = h.lines
    for key, was, now in (("圈風", carried.round_wind, h.round_wind),
                          ("莊家", carried.dealer, h.dealer),
                          ("連莊", carried.streak, h.streak)):
        if key not in stated:
            if was is None:
                out.stop = (f"第{hand}盤：{key}未定（{carried.open or '前一盤未定'}）；"
                            f"此盤須寫明「{key}:」才能接著算")
                return out
            continue
        if was is None or was == now or (key == "莊家" and carried.new_jiang):
            continue  # an open value filled, the same value, or a new 將's 定莊 by dice
        shown_was = dealer_word if key == "莊家" else str(was)
        shown_now = _both(now, seating) if key == "莊家" else str(now)  # type: ignore[arg-type]
        out.warnings.append(CarryWarning(hand, key, (
            f"第{hand}盤第 {stated[key]} 行寫「{key}: {shown_now}」，本將接續前盤應是"
            f"「{key}: {shown_was}」；此盤依紀錄所寫裁決，下盤由此接續")))
    dealer = h.dealer or "東"
    start_dealer = dealer if carried.new_jiang and "莊家" in stated else carried.start_dealer
    turned = carried.round_clause if h.round_wind == carried.round_wind else None
    out.deal = Deal(carried.jiang, h.round_wind, dealer, h.streak, start_dealer, seating,
                    turned)
    when = side_bets.When(carried.jiang, h.round_wind, dealer, h.streak, start_dealer, seating,
                          carried.lost)
    out.bets, refused = side_bets.apply(carried.bets, when, incident, changes)
    out.warnings += [CarryWarning(hand, "插花", (
        f"第{hand}盤第 {r.line} 行：{r.message}（{r.clause}）；此項不生效，插花照原樣計"), r.clause)
        for r in refused]
    return out


def _both(seat: Seat | None, seating: dict[Seat, str]) -> str:
    return "?" if seat is None else f"{seat}（{seating.get(seat, '?')}）"


def _seating(carried: Carried, incident: Incident, hand: int,
             warnings: list[CarryWarning]) -> dict[Seat, str]:
    h = incident.header
    if "玩家" not in h.lines:
        if carried.seat_change_due:
            warnings.append(CarryWarning(hand, "搬風", (
                f"第{hand}盤：{carried.seat_change_due}，應搬風，但此盤未寫新座位（玩家:）；"
                "沿用原座位")))
        return carried.seating
    line = h.lines["玩家"]
    new = {seat: name for name, seat in h.players.items()}
    if len(new) != 4 or set(new.values()) != set(carried.seating.values()):
        source = incident.source.splitlines()
        raise LogError(line, 1, "本將四位玩家的新座位：玩家: 東=… 南=… 西=… 北=…",
                       source[line - 1] if line <= len(source) else "",
                       f"本將的玩家是 {'、'.join(carried.seating[s] for s in SEATS)}")
    if new == carried.seating:
        return new
    if carried.seat_change_due is None:
        warnings.append(CarryWarning(hand, "玩家", (
            f"第{hand}盤第 {line} 行換了座位（{_seats(new)}），但此時不是搬風的時點；"
            f"原座位是（{_seats(carried.seating)}）。此盤依紀錄所寫的座位")))
    elif carried.new_jiang and _same_order(new, carried.seating):
        warnings.append(CarryWarning(hand, "搬風", (
            f"第{hand}盤：新座位（{_seats(new)}）四人的相互順序與前一將（{_seats(carried.seating)}）"
            "完全相同；依搬風之規定應重搬")))
    return new


def _seats(seating: dict[Seat, str]) -> str:
    return " ".join(f"{s}={seating[s]}" for s in SEATS)


def _same_order(a: dict[Seat, str], b: dict[Seat, str]) -> bool:
    ring_a = [a[s] for s in SEATS]
    ring_b = [b[s] for s in SEATS]
    return any(ring_a[k:] + ring_a[:k] == ring_b for k in range(4))


# ---------------------------------------------------------------------- the next hand


def advance(deal: Deal, ruling: Ruling, seat_change: str,
            bets: tuple[MatchBet, ...] = ()) -> Carried:
    """What the match carries into the next hand after ``deal`` was ruled ``ruling`` (with
    ``bets`` in force)."""
    lost = side_bets.won_off(ruling, deal.seating)
    candidates, why_open = _next_hands(ruling)
    dealers = {n.dealer for n in candidates}
    streaks = {n.streak for n in candidates}
    turns = {_turn(deal, d, seat_change) for d in dealers}
    dealer = next(iter(dealers)) if len(dealers) == 1 else None
    streak = next(iter(streaks)) if len(streaks) == 1 else None
    turn = next(iter(turns)) if len(turns) == 1 else None
    counts = all(n.counts_streak for n in candidates)
    if turn is None:  # the 圈 (and perhaps the 將) is open with the dealer
        return Carried(deal.jiang, None, dealer, streak, deal.start_dealer, deal.seating,
                       counts, open=why_open, bets=bets, lost=lost)
    jiang, wind, new_jiang, due = turn
    open_ = why_open if None in (dealer, streak) else None
    # The 圈 turns by the family's own clause (000 定莊; 粵.風圈).
    clause = named_family(ruling.profile).round_clause if wind != deal.round_wind else None
    return Carried(jiang, wind, dealer, streak, deal.start_dealer, deal.seating, counts,
                   new_jiang, due, open_, clause, bets, lost)


def _next_hands(ruling: Ruling) -> tuple[list[NextHand], str]:
    """The next hand in every possibility, and why it is open when they differ."""
    if ruling.next_hand is not None:
        return [ruling.next_hand], ""
    candidates = [p.next_hand for u in ruling.uncertain for p in u.possibilities
                  if p.next_hand is not None]
    facts = "；".join(dict.fromkeys(u.fact for u in ruling.uncertain))
    if candidates:
        return candidates, f"前一盤的下盤視未定之事而定：{facts}"
    if ruling.uncertain:
        return [], f"前一盤未定：{facts}"
    return [], "前一盤的紀錄沒有結束該盤（無和牌、荒局或包賠），下盤莊家無從推得"


def _turn(deal: Deal, dealer: Seat, seat_change: str) -> tuple[int, Seat, bool, str | None]:
    """The 將, round wind, whether a new 將 begins and why a 搬風 is due, when ``dealer``
    deals next: the 圈 turns when the deal passes on to the 起莊位 (000 定莊)."""
    if dealer == deal.dealer or dealer != deal.start_dealer:
        return deal.jiang, deal.round_wind, False, None
    if deal.round_wind == WINDS[-1]:
        return deal.jiang + 1, WINDS[0], True, f"第{deal.jiang + 1}將開始"
    wind = WINDS[WINDS.index(deal.round_wind) + 1]
    due = f"{wind}風圈開始" if seat_change == "每圈" else None
    return deal.jiang, wind, False, due
