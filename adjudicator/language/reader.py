"""Reader: the text of an incident log → the typed ``Incident`` of incident.py.

``read`` works in three steps: Lark parses the text with grammar/incident.lark (LALR,
contextual lexer; the parser is built once, by ``parser()``); the Transformer below turns
the tree into the log as written (syntax.py), one method per grammar rule, checking
nothing; validate.py then checks names, tiles, counts and numbers in the order of the log
and builds the typed ``Incident``.  A record line Lark has read before in this process is
not read again: known_lines.py puts what Lark read then in its place.  Anything that does
not fit, whether to the grammar or to the meaning, is a ``LogError``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from importlib.resources import files
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark import __version__ as lark_version
from lark.exceptions import LarkError, UnexpectedInput
from lark.lexer import BasicLexer, ContextualLexer, Lexer, LexerState

from adjudicator import cache as disk
from adjudicator.language import known_lines
from adjudicator.language import syntax as sx
from adjudicator.language.errors import LogError, from_lark
from adjudicator.language.incident import Header, Incident
from adjudicator.language.validate import validate

# The grammar ships inside the package (adjudicator.grammar, the top-level grammar/ folder).
GRAMMAR = files("adjudicator.grammar") / "incident.lark"

# ---------------------------------------------------------------------------- the parser
#
# Player names are free text, so the grammar knows them only as whitespace-delimited NAME
# tokens.  The lexer below also recognises the names the header has declared so far when
# no space follows them (阿明打三萬) or when they start like a chair (東尼): wherever the
# parser state takes a NAME, a declared name wins over a shorter keyword.  The names of
# the log being read live in a context variable, so the one cached parser stays reentrant.

class _Declared:
    """The player names a log has declared so far, as its lexer learns them."""

    def __init__(self) -> None:
        self.names: list[str] = []  # longest first: 阿明明 is tried before 阿明
        self.firsts: set[str] = set()  # first characters, a cheap test before any search

    def reset(self, names: list[str]) -> None:
        """Back to knowing only ``names`` (before a log is read again from its start)."""
        self.names, self.firsts = [], set()
        for name in names:
            self.learn(name)

    def learn(self, name: str) -> None:
        self.names.append(name)
        self.names.sort(key=len, reverse=True)
        self.firsts.add(name[0])

    def at(self, text: str, pos: int) -> str | None:
        if pos >= len(text) or text[pos] not in self.firsts:
            return None
        return next((n for n in self.names if text.startswith(n, pos)), None)


_DECLARED: ContextVar[_Declared | None] = ContextVar("declared_player_names", default=None)
_SPACES = re.compile(r"[ \t\u3000\r]*")
_NAME_OUTRANKS = frozenset({"NAME", "COMMENT", "_NL"})


class _NameAwareBasicLexer(BasicLexer):
    def __init__(self, conf: Any, comparator: Any = None) -> None:
        super().__init__(conf, comparator)
        self._takes_names = any(t.name == "NAME" for t in self.terminals)

    def next_token(self, lex_state: LexerState, parser_state: Any = None) -> Token:
        # Skipping blanks with one small regex is cheaper than a round of the state's whole
        # alternation for each WS token, most of the tokens of a long record.
        text, ctr = lex_state.text.text, lex_state.line_ctr
        blank = _SPACES.match(text, ctr.char_pos).end()  # type: ignore[union-attr]
        if blank > ctr.char_pos:
            ctr.feed(text[ctr.char_pos:blank], test_newline=False)
        declared = _DECLARED.get()
        if declared is not None and self._takes_names:
            name = declared.at(text, ctr.char_pos)
            if name is not None and self._name_wins(lex_state, name):
                return self._name_token(lex_state, name)
        token = super().next_token(lex_state, parser_state)
        if token.type == "PLAYER_DEF" and declared is not None:
            declared.learn(token.value)
        return token

    def _name_wins(self, lex_state: LexerState, name: str) -> bool:
        # A declared name outranks the generic NAME and a comment (a player may be called
        # #show), but a chair or keyword at least as long keeps its meaning: a player
        # called 南 is still the chair 南 where a chair may stand.
        rival = self.match(lex_state.text, lex_state.line_ctr.char_pos)
        if rival is None or rival[1] in _NAME_OUTRANKS:
            return True
        return len(rival[0]) < len(name)

    def _name_token(self, lex_state: LexerState, name: str) -> Token:
        ctr = lex_state.line_ctr
        token = Token("NAME", name, ctr.char_pos, ctr.line, ctr.column)
        ctr.feed(name, test_newline=False)
        token.end_line, token.end_column, token.end_pos = ctr.line, ctr.column, ctr.char_pos
        lex_state.last_token = token
        return token


class _NameAwareContextualLexer(ContextualLexer):
    BasicLexer = _NameAwareBasicLexer


class _NameAwareLexer(Lexer):
    """The lexer handed to Lark as its documented ``lexer=`` class: the contextual lexer
    with name-aware states, made the first time it lexes, from the parse table's states
    (a lexer class is given only the terminals; the parser state holds the table)."""

    __future_interface__ = 2  # Lark passes the lexer and parser states to lex()

    def __init__(self, conf: Any) -> None:
        self.conf = conf
        self.contextual: _NameAwareContextualLexer | None = None

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        if self.contextual is None:
            table = parser_state.parse_conf.parse_table
            self.contextual = _NameAwareContextualLexer(
                self.conf, {state: list(actions) for state, actions in table.states.items()})
        return self.contextual.lex(lexer_state, parser_state)


@cache
def parser() -> Lark:
    """The Lark parser for grammar/incident.lark, built on first use.

    It applies the ``_Shape`` Transformer as it reduces (Lark's ``transformer=`` option,
    LALR only), so ``parse`` returns the log as written without building a tree first.
    """
    return _lark(GRAMMAR.read_text(encoding="utf-8"))


def _lark(grammar: str) -> Lark:
    options: dict[str, Any] = {
        "parser": "lalr", "lexer": _NameAwareLexer, "maybe_placeholders": True,
        "transformer": _Shape(visit_tokens=False)}
    # Building the LALR tables is most of a cold start's parsing: Lark's own cache= keeps
    # them in the user's cache folder under the grammar's hash (Lark checks it again on
    # loading, and rebuilds on a mismatch or a damaged file).
    name = f"lark-{disk.key(grammar, lark_version)}.pickle"
    stored = disk.path(name)
    if stored is None:
        return Lark(grammar, **options)
    if stored.exists():
        return Lark(grammar, cache=str(stored), **options)
    # Built into a file of this process's own, then renamed into place whole.
    part = stored.with_name(f".{name}.{os.getpid()}.part")
    made = Lark(grammar, cache=str(part), **options)
    try:
        os.replace(part, stored)
    except OSError:
        pass
    return made


def parse(text: str, declared: _Declared | None = None) -> sx.LogWritten:
    """``text`` as written, line by line (a newline is added at the end when missing).

    ``declared`` collects the player names the header declares, as the lexer meets them.
    The record's lines Lark has read before in this process are read from what it read
    (known_lines.py); Lark reads the rest, and the whole log again when anything fails,
    so every error is Lark's.
    """
    lark = parser()  # outside the try: a broken grammar is a bug, not a fault of the log
    declared = declared if declared is not None else _Declared()
    text = text if text.endswith("\n") else text + "\n"
    first = list(declared.names)
    try:
        written = known_lines.read(text, declared, lark,
                                   lambda blanked: _parse(lark, blanked, declared))
    except LarkError:
        written = None
    if written is not None:
        return written
    declared.reset(first)
    return _parse(lark, text, declared)


def parse_lark(text: str, declared: _Declared | None = None) -> sx.LogWritten:
    """``parse`` by Lark alone, every line (what the fast path is checked against)."""
    declared = declared if declared is not None else _Declared()
    return _parse(parser(), text if text.endswith("\n") else text + "\n", declared)


def _parse(lark: Lark, text: str, declared: _Declared) -> sx.LogWritten:
    context = _DECLARED.set(declared)
    try:
        return lark.parse(text)
    finally:
        _DECLARED.reset(context)


def decode(data: bytes) -> str:
    """A log's bytes as text; ``LogError`` pointing at the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        big5 = _as_big5(data)
        if big5 is not None:
            raise LogError(1, 1, "UTF-8 文字", big5.splitlines()[0] if big5 else "",
                           "這個檔案是 Big5 編碼，不是 UTF-8",
                           "用記事本「另存新檔」選 UTF-8，或 iconv -f big5 -t utf-8 舊檔 > 新檔"
                           ) from None
        # Lines counted as read() counts them (normalise_lines), on the text decoded so far.
        before = normalise_lines(data[:err.start].decode("utf-8", errors="replace") + "x")
        line = before.count("\n") + 1
        head = before[before.rfind("\n") + 1:-1]
        whole = normalise_lines(data.decode("utf-8", errors="replace")).split("\n")
        shown = whole[line - 1] if line <= len(whole) else ""
        raise LogError(line, len(head) + 1, "UTF-8 文字", shown,
                       "紀錄檔須以 UTF-8 存檔（此處的位元組不是 UTF-8）") from None


def normalise_lines(text: str) -> str:
    """``text`` with every line break ``str.splitlines`` knows (CR, CR LF, VT, FF, U+0085,
    U+2028 …) written as LF: the parser counts lines by LF, error messages and the report
    quote lines by ``splitlines``; one convention makes both name the same line."""
    if not _BREAKS.search(text):
        return text
    lines = text.splitlines()
    return "\n".join(lines) + ("\n" if text.splitlines(keepends=True)[-1:] != lines[-1:]
                               else "")


# Every line break str.splitlines knows other than LF.
_BREAKS = re.compile("[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
def _as_big5(data: bytes) -> str | None:
    """The text of ``data`` when it reads as Big5 (cp950) Chinese, else None."""
    try:
        text = data.decode("cp950")
    except UnicodeDecodeError:
        return None
    # Latin-1 bytes also decode as cp950 now and then; Big5 Chinese has CJK characters.
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return text if cjk >= 2 else None


def read(text: str, base: Header | None = None, *, match_header: bool = False) -> Incident:
    """Read an incident log.  Raises ``LogError`` for anything that cannot be read.

    ``base`` is a header the log starts from (a match's carried state: its players, stake,
    dealer …); what the log's own header states replaces it, key by key, and
    ``header.lines`` lists only the keys the log itself states.  Its players' names may be
    used in the log without a 玩家 line.  ``match_header``: the text is a match file's
    header (match/format.py), where the keys only a match has (將 起莊 搬風) may stand.
    """
    source = normalise_lines(text[1:] if text.startswith("\ufeff") else text)
    declared = _Declared()
    for name in (base.players if base is not None else ()):
        declared.learn(name)
    try:
        written = parse(source, declared)
    except UnexpectedInput as err:
        raise from_lark(err, source, declared.names) from None
    except LarkError as err:  # not expected from LALR, but no Lark error may escape
        raise LogError(1, 1, "可讀的紀錄", (source.splitlines() or [""])[0], str(err)) from None
    return validate(written, source, base, match_header=match_header)


# ---------------------------------------------------------------------------- the shape


@v_args(inline=True)
class _Shape(Transformer[Token, sx.LogWritten]):
    """The parse tree → the log as written: one method per rule or alias of the grammar,
    each taking that rule's children (None where an optional part is absent)."""

    # The rules without a method are the grammar's inlined helpers (_preamble, repetitions),
    # whose trees their parents take apart: with no default handler Lark builds those trees
    # directly, not through a call of Transformer.__default__ for each.
    __default__ = None  # type: ignore[assignment]

    def start(self, *parts: Any) -> sx.LogWritten:
        record = next((p for p in parts if isinstance(p, sx.Record)), None)
        expectations = next((p for p in parts if isinstance(p, sx.Expectations)), None)
        preamble = tuple(p for p in parts if not isinstance(p, sx.Record | sx.Expectations))
        return sx.LogWritten(preamble, record, expectations)

    # -- header

    def h_key(self, key: Token, value: Token | None) -> sx.KeyLine:
        return sx.KeyLine(key, value)

    # Every header line of one key and one value has the same parts; validate.py reads the
    # value by its key.
    h_profile = h_round = h_dealer = h_open = h_streak = h_shown = h_base = h_tai = h_key
    h_wall = h_text = h_title = h_start_seat = h_seat_change = h_key

    def player(self, seat: Token, name: Token) -> tuple[Token, Token]:
        return seat, name

    def h_players(self, key: Token, *players: tuple[Token, Token]) -> sx.PlayersLine:
        return sx.PlayersLine(key, players)

    def h_outside(self, key: Token, _outside: Token, bettor: Token, who: Token,
                  amount: Token, refused: tuple[Token, ...] | None) -> sx.SideBetLine:
        return sx.SideBetLine(key, "外插", who, amount, bettor, refused or ())

    def h_inside(self, key: Token, _inside: Token, who: Token, amount: Token,
                 refused: tuple[Token, ...] | None) -> sx.SideBetLine:
        return sx.SideBetLine(key, "內插", who, amount, refused=refused or ())

    def refused(self, _word: Token, *chairs: Token) -> tuple[Token, ...]:
        return chairs

    # -- positions

    def p_hand(self, who: Token, _word: Token, tiles: tuple[Token, ...]) -> sx.PositionLine:
        return sx.PositionLine(who, "手牌", tiles=tiles)

    def p_flowers(self, who: Token, _word: Token,
                  tiles: tuple[Token, ...] | None) -> sx.PositionLine:
        return sx.PositionLine(who, "花", tiles=tiles or ())

    def p_melds(self, who: Token, _word: Token, *melds: sx.MeldWritten) -> sx.PositionLine:
        return sx.PositionLine(who, "門前", melds=melds)

    def meld(self, kind: Token, *tiles: Token) -> sx.MeldWritten:
        return sx.MeldWritten(kind, tiles)

    def tiles(self, *tokens: Token) -> tuple[Token, ...]:
        return tokens

    # -- record

    def record(self, _key: Token, *lines: sx.RecordLine) -> sx.Record:
        return sx.Record(lines)

    def wall_line(self, _key: Token, count: Token) -> sx.WallLine:
        return sx.WallLine(count)

    def act_line(self, seq: Token | None, actor: Token, act: sx.ActWritten,
                 note: Token | None) -> sx.ActLine:
        return sx.ActLine(seq, actor, act, note)

    def exhaust_line(self, seq: Token | None, verb: Token, note: Token | None) -> sx.ActLine:
        return sx.ActLine(seq, None, sx.ActWritten(verb), note)

    def a_plain(self, verb: Token) -> sx.ActWritten:
        return sx.ActWritten(verb)

    def a_maybe(self, verb: Token, tile: Token | None) -> sx.ActWritten:
        return sx.ActWritten(verb, tile=tile)

    a_one = a_maybe  # the same parts; the grammar alone makes the tile required

    def a_many(self, verb: Token, tiles: tuple[Token, ...]) -> sx.ActWritten:
        return sx.ActWritten(verb, tiles=tiles)

    def a_claim(self, verb: Token, tile: Token, use: Token | None,
                using: tuple[Token, ...] | None) -> sx.ActWritten:
        return sx.ActWritten(verb, tile=tile, use=use, using=using)

    a_chow = a_claim  # 吃 T [用 A B]: the same parts as 碰 T [用 A B]

    def a_flower(self, verb: Token, tiles: tuple[Token, ...], _repl: Token | None,
                 replacement: Token | None) -> sx.ActWritten:
        return sx.ActWritten(verb, tiles=tiles, replacement=replacement)

    def a_disturb_wall(self, verb: Token, _wall: Token) -> sx.ActWritten:
        return sx.ActWritten(verb, what="牌牆")

    def a_disturb_hand(self, verb: Token, who: Token, _hand: Token) -> sx.ActWritten:
        return sx.ActWritten(verb, target=who, what="手牌")

    def a_inspect(self, verb: Token, _kong: Token) -> sx.ActWritten:
        return sx.ActWritten(verb, what="暗杠")

    def a_accuse(self, verb: Token, who: Token, offence: Token,
                 tiles: tuple[Token, ...] | None) -> sx.ActWritten:
        return sx.ActWritten(verb, target=who, offence=offence, tiles=tiles or ())

    def a_admit(self, verb: Token, offence: Token,
                tiles: tuple[Token, ...] | None) -> sx.ActWritten:
        return sx.ActWritten(verb, offence=offence, tiles=tiles or ())

    # -- expectations

    def expectations(self, _key: Token, *lines: sx.ExpectWritten) -> sx.Expectations:
        return sx.Expectations(lines)

    def expect_line(self, negation: Token | None, body: sx.ExpectWritten) -> sx.ExpectWritten:
        body.negated = negation is not None
        return body

    def e_finding(self, who: Token, kind: Token) -> sx.ExpectWritten:
        return sx.ExpectWritten("finding", who, who=who, word=kind)

    def e_win(self, who: Token, _win: Token, validity: Token | None, tai: Token | None,
              _tai_word: Token | None) -> sx.ExpectWritten:
        return sx.ExpectWritten("win", who, who=who, word=validity, number=tai)

    def e_ends(self, word: Token) -> sx.ExpectWritten:
        return sx.ExpectWritten("ends", word)

    def e_continues(self, word: Token) -> sx.ExpectWritten:
        return sx.ExpectWritten("continues", word)

    def e_balance(self, word: Token, *pairs: Token) -> sx.ExpectWritten:
        return sx.ExpectWritten("balance", word,
                                pairs=tuple(zip(pairs[::2], pairs[1::2], strict=True)))

    def e_next(self, word: Token, _dealer: Token, who: Token, _streak_word: Token | None,
               streak: Token | None, no_count: Token | None) -> sx.ExpectWritten:
        return sx.ExpectWritten("next", word, who=who, number=streak, word=no_count)

