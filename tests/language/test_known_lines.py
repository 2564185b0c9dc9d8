"""The reader's fast path (known_lines.py) reads every log as Lark alone reads it.

Lark alone is ``reader.parse_lark``; the reader's ``parse`` reads the record lines it has
seen before from what Lark read then.  Over the whole corpus (cases/, examples/, the bench
corpus, the long logs) and over mutated and hostile logs, both give the same log as
written, token for token with every position, the same Incident, and the same error.
Each text is read once before it is compared, so that its own lines are known too.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token
from lark.exceptions import LarkError

from adjudicator.language import known_lines, reader
from adjudicator.language.errors import LogError
from adjudicator.match.format import read_match
from adjudicator.simulation.game import simulate
from adjudicator.simulation.mutate import MUTATIONS, mutate
from adjudicator.simulation.writer import write

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from corpus import make_log as corpus_log  # noqa: E402
from judge import make_log as long_log  # noqa: E402
from judge import make_pung_log  # noqa: E402


def shape(value: Any) -> Any:
    """A log as written, every token with its type, text and every position."""
    if isinstance(value, Token):
        return (value.type, str(value), value.start_pos, value.line, value.column,
                value.end_line, value.end_column, value.end_pos)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                tuple(shape(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return tuple(shape(v) for v in value)
    return value


def outcome(read: Any, text: str) -> Any:
    try:
        return read(text)
    except LogError as err:
        return ("LogError", str(err), err.line, err.column)
    except LarkError as err:  # reader.parse of a text that is not one log (a match file)
        return ("LarkError", str(err))


def both_ways(text: str, monkeypatch: pytest.MonkeyPatch, read: Any = reader.read) -> None:
    """``text`` reads alike with the fast path and by Lark alone (as written and typed)."""
    outcome(read, text)  # its lines are known from now on
    fast_written = outcome(reader.parse, text)
    fast = outcome(read, text)
    with monkeypatch.context() as m:
        m.setattr(reader, "parse", reader.parse_lark)
        lark_written = outcome(reader.parse, text)
        lark = outcome(read, text)
    assert shape(fast_written) == shape(lark_written)
    assert fast == lark


def corpus() -> Iterator[tuple[str, str]]:
    for folder in ("cases", "examples"):
        for pattern in ("*.case", "*.log", "*.match"):
            for path in sorted((ROOT / folder).rglob(pattern)):
                yield str(path.relative_to(ROOT)), reader.decode(path.read_bytes())


CORPUS = list(corpus())


@pytest.mark.parametrize(("name", "text"), CORPUS, ids=[n for n, _ in CORPUS])
def test_every_file_of_the_corpus_reads_as_lark_reads_it(
        name: str, text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    both_ways(text, monkeypatch, read_match if name.endswith(".match") else reader.read)


def test_the_bench_corpus_and_the_long_logs_read_as_lark_reads_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [corpus_log(seed) for seed in range(300)]
    texts += [make(n) for n in (400, 2000) for make in (long_log, make_pung_log)]
    for text in texts:
        both_ways(text, monkeypatch)


def test_a_known_line_is_read_from_what_lark_read() -> None:
    """The fast path is taken: after one log, another with its lines reads them known
    (a different act number, another place in the file) without Lark seeing them."""
    reader.read("規則: tw16\n莊家: 東\n紀錄:\n1 東 打 三萬\n2 南 摸\n")
    seen: list[str] = []
    lark_parse = reader.parser().parse

    class Watching:
        def parse(self, text: str) -> Any:
            seen.append(text)
            return lark_parse(text)

    text = "規則: tw16\n莊家: 東\n# another log\n紀錄:\n17 東 打 三萬\n18 南 摸\n"
    written = known_lines.read(text, reader._Declared(), reader.parser(),  # noqa: SLF001
                               Watching().parse)
    assert written is not None and written.record is not None
    assert "三萬" not in seen[0] and "摸" not in seen[0]
    seq = written.record.lines[0].seq  # type: ignore[union-attr]
    assert (str(seq), seq.line, seq.column, seq.start_pos) == ("17", 5, 1, text.index("17"))


def test_a_fault_in_a_known_line_s_log_is_lark_s_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A known line where it cannot stand (before 紀錄:, or in 期望:) is Lark's error."""
    reader.read("規則: tw16\n紀錄:\n1 東 打 三萬\n")
    for text in ("規則: tw16\n1 東 打 三萬\n紀錄:\n1 東 打 三萬\n",
                 "規則: tw16\n紀錄:\n1 東 打 三萬\n期望:\n1 東 打 三萬\n",
                 "規則: tw16\n紀錄:\n紀錄:\n1 東 打 三萬\n",
                 "規則: tw16\n玩家: 東=東打 南=小華\n紀錄:\n1 東 打 三萬\n",
                 "規則: tw16\n紀錄:\n1 東 打 三萬\n2 東 打 三萬 用\n"):
        both_ways(text, monkeypatch)


# The mutation fuzz of the suite (tests/simulation/test_properties.py) and the hostile
# pieces of tests/robust/test_hostile_input.py, read both ways.
SEEDS = st.integers(min_value=0, max_value=10**6)
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


@FUZZ
@given(seed=SEEDS, kinds=st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3))
def test_mutated_logs_read_as_lark_reads_them(seed: int, kinds: list[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    clean = write(simulate(seed % 40))
    outcome(reader.read, clean)
    text, _ = mutate(clean, seed, tuple(kinds))
    both_ways(text, monkeypatch)


PIECES = st.sampled_from([
    "規則: tw16\n", "紀錄:\n", "期望:\n", "1 東 打 三萬\n", "東 摸\n",
    "2 南 碰 三萬 用 三萬 三萬\n",
    "玩家: 東=阿明 南=東打\n", "阿明 打 三萬\n", "3. 東打三萬\n", "１２ 東 打 三萬 (海底)\n",
    "#", "＃ x\n", "\n", "  ", "\u3000", "\t", "（", "）", "一萬" * 5, "3 東 補花 春 補 一萬\n",
    "4 東 自承 偷牌\n", "5 西 自摸\n", "荒局\n", "牌牆: 20\n", "東 手牌: 一萬 二萬\n",
])
LOGS = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=20).map(
    lambda parts: "規則: tw16\n莊家: 東\n紀錄:\n" + "".join(parts))


@FUZZ
@given(text=LOGS)
def test_hostile_logs_read_as_lark_reads_them(text: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    both_ways(text, monkeypatch)
