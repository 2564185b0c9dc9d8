"""Record lines Lark has read before, read again without Lark: the fast path of reader.py.

A line of the record means the same wherever it stands in a record: the grammar's
``_record_line`` is one line, the parser is in the same place at every line's start, and
the lexer depends only on that place and on the player names declared.  So a line whose
text (its act number aside) Lark has read once reads again to the same tokens, moved to
where the line now stands.  Nothing here knows the language: every line is read first by
Lark, inside a whole log, and only what Lark read is remembered.

How a log is read: the record's lines already known are blanked out (each replaced by a
comment of the same length, so every other token keeps its line, column and offset), Lark
reads what is left — the header, the positions, the lines not known yet, the
expectations — and the known lines are put back in their places.  Whatever goes wrong,
the log is read again by Lark alone, which gives the error (``None`` from ``read``).

The act number is left out of a line's key: the terminals that read digits take any run of
digits alike, so ``12 東 打 三萬`` reads as ``7 東 打 三萬`` does, with another number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import NamedTuple, Protocol

from lark import Lark, Token

from adjudicator.language import syntax as sx

# Distinct lines remembered, at most: the table is cleared when full (bounded memory).
LIMIT = 1 << 14

_BLANKS = "[ \t\u3000]*"
_DIGITS = re.compile(f"{_BLANKS}[0-9０-９]+")
# A line that is only blanks and a comment: not a record line (the line end swallows it).
_EMPTY = re.compile(f"{_BLANKS}(?:[#＃].*)?")


class Names(Protocol):
    names: list[str]


class _Sections(NamedTuple):
    record: re.Pattern[str]  # the record's key line (紀錄: alone on its line)
    expect: re.Pattern[str]  # an expectation section's start
    players: re.Pattern[str]  # the header's players line (玩家: …)
    player: re.Pattern[str]  # one chair = name on it, the name its group


@cache
def _sections(lark: Lark) -> _Sections:
    """The lines the fast path looks for, from the grammar's own terminals: the names are
    known before Lark reads the header (and checked after)."""
    def term(name: str) -> str:
        return lark.get_terminal(name).pattern.to_regexp()

    record = re.compile(f"{_BLANKS}(?:{term('RECORD')}){_BLANKS}(?:{term('_COLON')})?"
                        f"{_BLANKS}(?:[#＃].*)?")
    player = re.compile(f"(?:{term('SEAT')}){_BLANKS}(?:{term('_EQ')}){_BLANKS}"
                        f"({term('PLAYER_DEF')})")
    return _Sections(record, re.compile(f"{_BLANKS}(?:{term('EXPECT')})"),
                     re.compile(f"{_BLANKS}(?:{term('PLAYERS')})"), player)


class _Known:
    """A line as Lark read it: its act line, where the line began, and the length of its
    act number's digits (0: none)."""

    __slots__ = ("line", "start", "digits")

    def __init__(self, line: sx.ActLine, start: int, digits: int) -> None:
        self.line, self.start, self.digits = line, start, digits


# (the text before the act number, the text after it, whether there is one; the names)
Key = tuple[str, str, bool, frozenset[str]]
_KNOWN: dict[Key, _Known] = {}


def _key(text: str, names: frozenset[str]) -> tuple[Key, int, int]:
    """A line's key (its text less the digits of its act number, and the names declared),
    where those digits end in the line and how many there are (0: no number)."""
    found = _DIGITS.match(text)
    if found is None:
        return (text, "", False, names), 0, 0
    cut = found.end()
    digits = len(found.group().lstrip(" \t\u3000"))
    return (text[:cut - digits], text[cut:], True, names), cut, digits


def _moved(known: _Known, start: int, cut: int, number: str, line: int) -> sx.ActLine:
    """The known act line as it reads at ``start`` (the line's offset), on line ``line``,
    with the act number's digits ``number``."""
    shift = start - known.start
    after = len(number) - known.digits  # every token after the number moves by this much
    seq_at = cut - len(number)

    def move(t: Token | None) -> Token | None:
        if t is None:
            return None
        offset = shift + after
        return Token(t.type, t.value, t.start_pos + offset, line, t.column + after,
                     line, t.end_column + after, t.end_pos + offset)

    def many(ts: tuple[Token, ...] | None) -> tuple[Token, ...] | None:
        return None if ts is None else tuple(map(move, ts))  # type: ignore[arg-type]

    old = known.line
    seq = None
    if old.seq is not None:
        value = number + old.seq.value[known.digits:]
        seq = Token(old.seq.type, value, start + seq_at, line, seq_at + 1, line,
                    seq_at + 1 + len(value), start + seq_at + len(value))
    a = old.act
    act = sx.ActWritten(move(a.verb), move(a.tile), many(a.tiles), move(a.use),  # type: ignore[arg-type]
                        many(a.using), move(a.replacement), move(a.target), move(a.offence),
                        a.what)
    return sx.ActLine(seq, move(old.actor), act, move(old.note))


def _first(line: sx.RecordLine) -> Token:
    """The first token of a record line (its line number is the line's)."""
    if isinstance(line, sx.ActLine):
        return line.seq or line.actor or line.act.verb
    return line.count if isinstance(line, sx.WallLine) else line.who


def read(text: str, declared: Names, lark: Lark,
         parse: Callable[[str], sx.LogWritten]) -> sx.LogWritten | None:
    """The log as written, its known record lines read without Lark and the rest by
    ``parse`` (Lark, learning names into ``declared``); None when Lark alone must read it.

    ``text`` ends with a newline.
    """
    sections = _sections(lark)
    record_key, expect_key = sections.record, sections.expect
    lines = text.split("\n")
    names = set(declared.names)
    region = None
    for i, line in enumerate(lines):
        if sections.players.match(line):
            names.update(sections.player.findall(line))
        elif record_key.fullmatch(line):
            region = i + 1
            break
    if region is None:
        return None
    frozen = frozenset(names)
    starts = [0] * len(lines)
    at = 0
    for i, line in enumerate(lines):
        starts[i] = at
        at += len(line) + 1
    found: dict[int, sx.ActLine] = {}  # line index → act line, for the known lines
    unknown: dict[int, tuple[Key, int, int]] = {}  # line index → key, for lines Lark reads
    blanked = lines[:]
    for i in range(region, len(lines)):
        line = lines[i]
        if expect_key.match(line):
            break
        if _EMPTY.fullmatch(line):
            continue
        key, cut, digits = _key(line, frozen)
        known = _KNOWN.get(key)
        if known is None:
            unknown[i] = (key, cut, digits)
            continue
        found[i] = _moved(known, starts[i], cut, line[cut - digits:cut], i + 1)
        blanked[i] = "#" * len(line)
    written = parse("\n".join(blanked) if found else text)
    if frozenset(declared.names) != frozen:
        return None  # the names guessed were not those Lark learnt: read it all again
    if not found and not unknown:
        return written
    if written.record is None:
        return None
    _remember(written.record.lines, unknown, starts)
    if not found:
        return written
    merged: list[sx.RecordLine] = []
    pending = sorted(found.items())
    k = 0
    for rl in written.record.lines:
        index = (_first(rl).line or 0) - 1
        while k < len(pending) and pending[k][0] < index:
            merged.append(pending[k][1])
            k += 1
        merged.append(rl)
    merged.extend(line for _, line in pending[k:])
    return sx.LogWritten(written.preamble, sx.Record(tuple(merged)), written.expectations)


def _remember(read_lines: tuple[sx.RecordLine, ...],
              unknown: dict[int, tuple[Key, int, int]], starts: list[int]) -> None:
    """Keep the act lines Lark has just read, each under its key."""
    for rl in read_lines:
        if not isinstance(rl, sx.ActLine):
            continue
        index = (_first(rl).line or 0) - 1
        entry = unknown.get(index)
        if entry is None:
            continue
        key, cut, digits = entry
        # The act number must be the run of digits the key leaves out, read as one token.
        if digits and (rl.seq is None or rl.seq.start_pos != starts[index] + cut - digits
                       or len(rl.seq.value) < digits):
            continue
        if len(_KNOWN) >= LIMIT:
            _KNOWN.clear()
        _KNOWN[key] = _Known(rl, starts[index], digits)
