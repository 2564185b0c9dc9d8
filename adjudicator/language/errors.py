"""Errors in an incident log, told the way a referee reads them.

Every fault ``read`` finds, whether Lark's (the text does not fit the grammar) or the
reader's (十萬 is no tile, a name nobody declared), becomes one ``LogError``: line, column,
what belonged there in plain words, the line itself and a caret under the fault.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable
from importlib.resources import files
from typing import Any, NamedTuple

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_parser_state import ParserState

from adjudicator.cache import read_toml
from adjudicator.language.vocabulary import TERMINALS, examples


class LogError(Exception):
    """A log that cannot be read.  ``str()`` is the whole message the CLI prints."""

    def __init__(
        self,
        line: int,
        column: int,
        expected: str,
        source_line: str = "",
        detail: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.line = line
        self.column = column
        self.expected = expected  # what belonged here, in plain words
        self.source_line = source_line
        self.detail = detail  # why what is there does not do, when the reader knows
        self.hint = hint  # what the writer most likely meant (suggest.py), when guessable
        super().__init__(self.message)

    def __reduce__(
        self,
    ) -> tuple[type[LogError], tuple[int, int, str, str, str | None, str | None]]:
        # Batch runs ship exceptions between processes; the default pickling would call
        # __init__ with the message alone.
        return (type(self), (self.line, self.column, self.expected, self.source_line,
                             self.detail, self.hint))

    @property
    def message(self) -> str:
        text = f"第 {self.line} 行第 {self.column} 字：這裡應是{self.expected}"
        return f"{text}；{self.detail}" if self.detail else text

    def __str__(self) -> str:
        shown = self.source_line.replace("\t", " ")
        text = f"{self.message}\n{shown}\n{caret_line(shown, self.column)}"
        return f"{text}\n提示：{self.hint}" if self.hint else text


def display_width(text: str) -> int:
    """Terminal columns: CJK and full-width characters take two, combining marks none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def caret_line(source_line: str, column: int) -> str:
    """A ``^`` under character ``column`` (1-based) of ``source_line`` as a terminal shows it."""
    return " " * display_width(source_line[: max(column - 1, 0)]) + "^"


class _Kind(NamedTuple):
    """A kind of word the grammar has: when to name it, which terminals it covers, words."""

    trigger: frozenset[str]  # named when any of these terminals could come next
    covers: frozenset[str]  # and then these are accounted for
    short: str  # in a list of several kinds
    long: str  # when it is the only kind


def _kind(row: dict[str, Any]) -> _Kind:
    """A row of expected.toml (whose head says what its fields mean)."""
    trigger = row["when"].split()
    vocabulary = row.get("vocabulary")
    if vocabulary is not None:
        word = row["word"]
        return _Kind(frozenset(trigger), frozenset(TERMINALS[vocabulary]),
                     f"{word}（{examples(vocabulary, row.get('listed'), more=True)}）",
                     f"{word}，例如 {examples(vocabulary)}")
    short = row["short"]
    long = f"{short}，例如 {row['example']}" if "example" in row else row.get("long", short)
    return _Kind(frozenset(trigger), frozenset(row.get("covers", row["when"]).split()),
                 short, long)


# The kinds of word of grammar/incident.lark, most useful first (expected.toml; its parse is
# kept in the cache folder, so a cold start imports no tomllib).
_KINDS: tuple[_Kind, ...] = tuple(
    _kind(row) for row in read_toml(
        (files(__package__) / "expected.toml").read_text(encoding="utf-8"))["kind"])


def _alone(terminal: str) -> str:
    """The words for the kind ``terminal`` is named by, when it is the only one."""
    return next(kind.long for kind in _KINDS if terminal in kind.trigger)


TILE_WORDS = _alone("TILE_RUN")
SEAT_WORDS = _alone("SEAT")


def describe_expected(terminals: Iterable[str]) -> str:
    """Plain words for a set of grammar terminals the parser would have taken."""
    left = set(terminals)
    kinds: list[_Kind] = []
    for kind in _KINDS:
        if kind.trigger & left:
            kinds.append(kind)
            left -= kind.covers
    if not kinds:
        return "別的寫法"
    if len(kinds) == 1:
        return kinds[0].long
    shorts = [kind.short for kind in kinds[:3]]
    return "、".join(shorts[:-1]) + " 或 " + shorts[-1]


def _found_text(err: UnexpectedInput, source: str) -> str | None:
    """The word that stopped the parser, to show the referee what was read instead."""
    if isinstance(err, UnexpectedToken):
        if err.token.type in ("_NL", "$END"):
            return None  # the line ended early: the caret already shows where
        return str(err.token).strip() or None
    if isinstance(err, UnexpectedCharacters):
        return source[err.pos_in_stream] if 0 <= err.pos_in_stream < len(source) else None
    return None


def acceptable(err: UnexpectedInput) -> set[str]:
    """The terminals that could really have come where the parse failed."""
    if isinstance(err, UnexpectedToken):
        fallback = set(err.expected)
    elif isinstance(err, UnexpectedCharacters):
        fallback = set(err.allowed or ())
    else:
        fallback = set(getattr(err, "expected", ()) or ())
    state = getattr(err, "state", None)
    if not isinstance(state, ParserState):
        return fallback
    return _shiftable(state) or fallback


def _shiftable(state: ParserState) -> set[str]:
    # LALR merges states, so a state's table row can name words that no line could have
    # there (用 after 喊碰 南).  Feeding each candidate to a copy of the parser state keeps
    # only the words that would really be taken.
    found = set()
    for name in state.parse_conf.states[state.position]:
        if not name.isupper():  # nonterminals are lower case in the grammar
            continue
        trial = state.copy(deepcopy_values=False)
        try:
            trial.feed_token(Token(name, ""), is_end=name == "$END")
        except UnexpectedInput:
            continue
        found.add(name)
    return found


def _undeclared_name(err: UnexpectedInput, names: Collection[str]) -> tuple[Token, set[str]] | None:
    """The NAME just read, when it names no player, and what could have stood there.

    A word the grammar does not know is read as a name (``foo`` at the start of a line,
    ``跳舞 三萬``), so the parse fails one word later.  The fault is the unknown word.
    """
    state = getattr(err, "state", None)
    if not isinstance(state, ParserState) or len(state.state_stack) < 2 or not state.value_stack:
        return None
    token = state.value_stack[-1]
    if not isinstance(token, Token) or token.type != "NAME" or token.value in names:
        return None
    before = ParserState(state.parse_conf, state.lexer, state.state_stack[:-1],
                         state.value_stack[:-1])
    return token, _shiftable(before)


def shortened(word: str, most: int = 20) -> str:
    """``word`` as an error quotes it: a run of hundreds of characters cut to its start."""
    return word if len(word) <= most else word[:most] + "…"


def from_lark(err: UnexpectedInput, source: str, names: Collection[str] = ()) -> LogError:
    """Turn any Lark parse failure into a LogError with the line it happened on.

    ``names`` are the players the log declared: other NAME tokens are blamed themselves.
    """
    # Only a log that fails needs the guesses (and their regexes): not imported before.
    from adjudicator.language import suggest

    lines = source.splitlines() or [""]
    names = list(names)
    blamed = _undeclared_name(err, names)
    if blamed is not None:
        token, could = blamed
        line = min(token.line or 1, len(lines))
        column = token.column or 1
        detail = f"「{shortened(token.value)}」不是這裡能寫的詞，也不在「玩家:」行裡"
        found_hint = suggest.hint(source, line, column, names)
        if found_hint is None and could & {"SEAT", "NAME"}:
            found_hint = suggest.unknown_name_hint(token.value, names)
        return LogError(line, column, describe_expected(could), lines[line - 1], detail,
                        found_hint)
    line = err.line if isinstance(err.line, int) and err.line > 0 else len(lines)
    line = min(line, len(lines))
    column = err.column if isinstance(err.column, int) and err.column > 0 else 1
    found = _found_text(err, source)
    detail = f"寫的是「{shortened(found)}」" if found else None
    return LogError(line, column, describe_expected(acceptable(err)), lines[line - 1], detail,
                    suggest.hint(source, line, column, names))
