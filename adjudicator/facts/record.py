"""Turn an incident (and its replay) into clingo facts.

Facts are built as ``clingo.Symbol`` values and handed to the solver through its backend,
never written as program text: whatever a player is called or a note says, it reaches the
rules only as a string constant.  The fact vocabulary is documented in ``asp/core.lp``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from clingo import Function, Number, String, Symbol, SymbolType

from adjudicator.analysis.replay import Timeline, stated_laid
from adjudicator.language.incident import Act, Incident, WallCount
from adjudicator.rules.rulesets import RuleSet, own_rules

Value = int | str | Symbol
Plain = tuple[str, tuple[Value, ...]]


# Facts remembered, at most: both tables below are emptied together when one is full, so a
# long-lived worker's memory stays flat.
LIMIT = 1 << 16


def fact(name: str, *args: Value) -> Symbol:
    sym = _MADE.get((name, args))
    return _fact(name, args) if sym is None else sym


# Making a Symbol is a call into clingo; a log's facts are drawn from a small
# vocabulary (act indexes, chairs, tiles, kinds) and recur within a log (what lies face up,
# before each act) and across the logs of a batch, so each fact is made once per process.
_MADE: dict[tuple[str, tuple[Value, ...]], Symbol] = {}


def _fact(name: str, args: tuple[Value, ...]) -> Symbol:
    sym = Function(name, [_term(a) for a in args])
    _remember(sym, (name, tuple(_plain_value(a) for a in args)))
    _MADE[(name, args)] = sym
    return sym


def _remember(sym: Symbol, made_of: Plain) -> None:
    if len(_PLAIN) >= LIMIT or len(_MADE) >= LIMIT or len(_BY_ID) >= LIMIT:
        _PLAIN.clear()
        _MADE.clear()
        _BY_ID.clear()
    _PLAIN[sym] = made_of


# What each fact was made of, by the fact object itself: most of a log's facts are the very
# objects _MADE keeps, and a look-up by identity is no call into clingo (a Symbol's own hash
# is).  The Symbol is kept with its values, so its id is not reused while it is there.
_BY_ID: dict[int, tuple[Symbol, Plain]] = {}


def plain_facts(facts: Sequence[Sequence[Symbol]]) -> list[list[Plain]]:
    """Each log's facts as ``plain`` values (the batch engine's rule selection reads them)."""
    out: list[list[Plain]] = []
    get = _BY_ID.get
    for group in facts:
        values: list[Plain] = []
        for sym in group:
            found = get(id(sym))
            if found is None or found[0] is not sym:
                made_of = plain(sym)
                if len(_BY_ID) >= LIMIT:
                    _BY_ID.clear()
                found = _BY_ID[id(sym)] = (sym, made_of)
            values.append(found[1])
        out.append(values)
    return out


def _plain_value(value: Value) -> Value:
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)  # a bool or an enum is its number to clingo
    return _value(value)


# What each fact was made of, by the fact.  The batch engine reads every fact's name and
# arguments to give it an incident argument; each read of a Symbol's name or arguments is
# a call into clingo, a look-up here is a hash.
_PLAIN: dict[Symbol, Plain] = {}


def plain(sym: Symbol) -> Plain:
    """The name and the arguments of ``sym`` as Python values: numbers as ints, strings as
    strs, other terms as Symbols."""
    found = _PLAIN.get(sym)
    if found is None:  # made elsewhere (a rule set's values, a hand's scoring), or forgotten
        found = (sym.name, tuple(_value(a) for a in sym.arguments))
        _remember(sym, found)
    return found


def _value(term: Symbol) -> Value:
    if term.type == SymbolType.Number:
        return term.number
    if term.type == SymbolType.String:
        return term.string
    return term


def term(value: Value) -> Symbol:
    """A fact argument as a Symbol (numbers and strings made once per process)."""
    return _term(value)


def _term(value: Value) -> Symbol:
    if isinstance(value, int | str):
        return _constant(value)
    return value


# Each Number/String is a call into clingo; a log's facts repeat a small vocabulary (act
# indexes, tiles, chairs, kinds), so each constant is made once per process.
@lru_cache(maxsize=1 << 16)
def _constant(value: int | str) -> Symbol:
    if isinstance(value, str):
        return String(value)
    return Number(int(value))


def header_facts(incident: Incident) -> Iterator[Symbol]:
    h = incident.header
    dealer = h.dealer or "東"
    yield fact("dealer", dealer)
    yield fact("round_wind", h.round_wind)
    yield fact("streak", h.streak)
    yield fact("shown_streak", h.streak if h.shown_streak is None else h.shown_streak)
    yield fact("open_seat", h.open_seat or dealer)
    if h.base is not None:
        yield fact("base", h.base)
    if h.per_tai is not None:
        yield fact("per_tai", h.per_tai)
    if h.wall is not None:
        yield fact("wall_start", h.wall)
    for bet in h.side_bets:
        yield fact("side_bet", bet.line, bet.kind, bet.seat, bet.amount)
        if bet.bettor is not None:
            # 外插: the outsider's name, a plain string constant (it may be anything).
            yield fact("side_bettor", bet.line, bet.bettor)
        for seat in bet.refused:
            yield fact("side_refused", bet.line, seat)


def act_facts(index: int, act: Act, laid: tuple[int, ...] = ()) -> Iterator[Symbol]:
    """``index`` is the act's place in the record (1, 2, …); ``seq`` its written number;
    ``laid`` what a 亮牌 right after a chow written without 用 says it laid (as 用 would)."""
    yield fact("act", index, act.seq, act.actor, act.verb)
    for k, tile in enumerate(act.tiles, 1):
        yield fact("act_tile", index, k, tile)
    for k, tile in enumerate(act.using or laid, 1):
        yield fact("act_using", index, k, tile)
    if act.replacement is not None:
        yield fact("act_replacement", index, act.replacement)
    if act.note is not None:
        yield fact("act_note", index, act.note)
    if act.target is not None:
        yield fact("act_target", index, act.target)
    if act.what is not None:
        yield fact("act_what", index, act.what)


def record_facts(incident: Incident) -> Iterator[Symbol]:
    index = 0
    stated = stated_laid(incident.acts)
    pending_wall: int | None = None
    # Each actor's latest act so far: the chapters walk a seat's own acts through
    # prev_own_act/2, one fact an act, instead of a chain for every seat at every act.
    latest: dict[str, int] = {}
    for item in incident.record:
        if isinstance(item, WallCount):
            pending_wall = item.count
        elif isinstance(item, Act):
            index += 1
            yield from act_facts(index, item, stated.get(index, ()) if item.verb == "吃" else ())
            before = latest.get(item.actor)
            if before is not None:
                yield fact("prev_own_act", index, before)
            latest[item.actor] = index
            if pending_wall is not None:
                yield fact("wall_stated", index, pending_wall)
                pending_wall = None
    yield fact("last_act", index)


def all_facts(incident: Incident, timeline: Timeline,
              rules: RuleSet | None = None) -> list[Symbol]:
    """The log's facts and its rule set's values (by default: its own profile's)."""
    out = list(header_facts(incident))
    out += record_facts(incident)
    out += (rules or own_rules(incident.header.profile)).facts()
    return out
