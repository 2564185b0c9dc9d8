"""What the writer most likely meant, for a log that does not read.

A referee who types ``白版``, pastes ``打出三萬。`` from a word processor or writes ``底: 300元``
knows what they meant; the error should say it back.  Every guess here is drawn from the
vocabulary the reader itself accepts (tile words of tiles.py, acts of incident.py, chairs of
seats.py, the names the log declared), so a suggestion is always a word that would read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from adjudicator.language import tiles as tl
from adjudicator.language.incident import FINDING_KINDS, OFFENCES, VERBS
from adjudicator.language.seats import SEAT_ALIASES, SEATS

# Punctuation a word processor adds that the log language has no use for.
_PROSE_MARKS = "。．!！「」『』“”"
_UNITS = "元塊块圓圆"
_KONG_WORDS = frozenset({"杠", "槓"})
_RECORD_LINE = re.compile(r"^[ \t\u3000]*[紀記纪记][錄录][ \t\u3000]*[:：]?", re.MULTILINE)
_SEQ = re.compile(r"^[0-9０-９]+[.．、]?$")


def tile_words() -> tuple[str, ...]:
    """Every spelling of a single tile the reader accepts (names, aliases, 3m)."""
    return tuple(dict.fromkeys((*tl.NAMES, *tl.HONOUR_ALIASES, *tl.ASCII)))


# A slip of the pen is a word of a few characters: a longer "word" (a thousand tiles run
# together) is no misspelling of anything, and comparing it would cost its length squared.
LONGEST = 24  # characters


def distance(a: str, b: str, bound: int | None = None) -> int:
    """Edits (insert, delete, replace one character) that turn ``a`` into ``b``; with
    ``bound``, any count over it is reported as ``bound + 1``, and only the band of
    ``bound`` cells either side of the diagonal is computed (linear in the length)."""
    if bound is None:
        bound = max(len(a), len(b))
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    over = bound + 1
    before = [j if j <= bound else over for j in range(len(b) + 1)]
    for i, ca in enumerate(a, 1):
        low, high = max(1, i - bound), min(len(b), i + bound)
        now = [over] * (len(b) + 1)
        if i <= bound:
            now[0] = i
        for j in range(low, high + 1):
            now[j] = min(before[j] + 1, now[j - 1] + 1, before[j - 1] + (ca != b[j - 1]), over)
        if min(now) > bound:
            return over
        before = now
    return before[-1]


def nearest(word: str, vocabulary: Iterable[str]) -> str | None:
    """The word of ``vocabulary`` one small slip away from ``word``, if there is one.

    One edit is allowed for short words, two from five characters on; of equally near
    words the one of the same length wins (白版 → 白板, not 白), then the first listed.
    A word longer than ``LONGEST`` characters is no slip of the pen: no guess.
    """
    if not word or len(word) > LONGEST:
        return None
    allowed = 1 if len(word) < 5 else 2
    best: tuple[int, int, int, str] | None = None
    for n, candidate in enumerate(vocabulary):
        if candidate == word:
            return None  # the word is right; the fault is elsewhere
        if abs(len(candidate) - len(word)) > allowed:
            continue  # as many edits at least: too far, and not worth the count
        d = distance(word, candidate, allowed)
        if d > allowed or d >= max(len(word), len(candidate)):
            continue
        key = (d, abs(len(candidate) - len(word)), n, candidate)
        if best is None or key < best:
            best = key
    return None if best is None else best[3]


def word_at(line: str, column: int) -> str:
    """The blank-delimited word of ``line`` that holds character ``column`` (1-based)."""
    i = min(max(column - 1, 0), len(line))
    start = i
    while start > 0 and not line[start - 1].isspace():
        start -= 1
    end = i
    while end < len(line) and not line[end].isspace():
        end += 1
    return line[start:end]


def _verb_and_tile(word: str) -> tuple[str, str] | None:
    """``打出三萬`` → (打, 三萬): an act glued to its tile, the act slightly misspelt."""
    if len(word) > LONGEST:
        return None
    tiles = tile_words()
    for cut in range(len(word) - 1, 0, -1):
        head, tail = word[:cut], word[cut:]
        if tail not in tiles:
            continue
        verb = head if head in VERBS else nearest(head, VERBS)
        if verb is not None:
            return verb, tail
    return None


def _act_line(line: str) -> bool:
    """Does ``line`` read like a line of the record (``1 東 打 三萬``, ``東 摸``)?"""
    words = line.split()
    if words and _SEQ.match(words[0]):
        words = words[1:]
    return len(words) >= 2 and words[0] in SEAT_ALIASES and (
        words[1] in VERBS or any(words[1].startswith(v) for v in VERBS))


def _word_hint(word: str, names: Sequence[str]) -> str | None:
    if word in _KONG_WORDS:
        return ("杠 要寫明是哪一種：明杠（杠別人打出的牌）、加杠（在自己的碰上加一張）"
                "或 暗杠（自己摸齊四張）")
    if re.fullmatch(rf"[0-9０-９]+[{_UNITS}]", word):
        return f"數字後面不寫單位：寫「{word[:-1]}」"
    glued = _verb_and_tile(word)
    if glued is not None:
        return f"動作和牌之間空一格：寫「{glued[0]} {glued[1]}」"
    vocabulary = (*tile_words(), *VERBS, *OFFENCES, *FINDING_KINDS, *names)
    guess = nearest(word, vocabulary)
    if guess is not None:
        return f"是不是要寫「{guess}」？"
    return None


def hint(source: str, line: int, column: int, names: Sequence[str] = ()) -> str | None:
    """What the writer of ``source`` most likely meant at ``line``:``column``, or None."""
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    if not _RECORD_LINE.search("\n".join(lines[:line])) and _act_line(text):
        return f"第一手之前少了一行「紀錄:」（在第 {line} 行之前加上）"
    word = word_at(text, column)
    bare = word.strip(_PROSE_MARKS)
    found = _word_hint(bare, names) if bare else None
    if bare != word and any(ch in word for ch in _PROSE_MARKS):
        marks = "".join(dict.fromkeys(ch for ch in word if ch in _PROSE_MARKS))
        found = f"紀錄不用標點「{marks}」" + (f"；{found}" if found else f"：寫「{bare}」")
    return found


def unknown_name_hint(name: str, players: Mapping[str, str] | Sequence[str]) -> str:
    """What to do about a player's name the 玩家: line does not have.

    ``players`` maps each declared name to its chair (or just lists the names).  A name is
    guessed only when exactly one declared name is that near: 阿花 is as near 阿明 as 阿德.
    """
    names = list(players)
    near = [n for n in names if nearest(name, [n]) is not None]
    if len(near) == 1:
        return f"是不是要寫「{near[0]}」？"
    if names:
        declared = " ".join(f"{players[n]}={n}" if isinstance(players, Mapping) else n
                            for n in names)
        return f"「玩家:」行裡有 {declared}；也可以直接寫座位 {' '.join(SEATS)}"
    return f"寫座位 {' '.join(SEATS)}，或先在表頭寫「玩家: 東=阿明 南=小華 …」"
