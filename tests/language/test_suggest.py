"""Errors that suggest the fix: what a new referee types, and what the error says back.

Each log is one a club referee actually produced on a first try (a typo, a paste from a
word processor, a unit after a number, 杠 without its kind, a missing 紀錄: line, commas
between players, a name not declared, a file saved as Big5).  The line, column and caret
stay as they were; the hint is the line after the caret.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.language import suggest
from adjudicator.language.errors import LogError
from adjudicator.language.incident import VERBS
from adjudicator.language.reader import decode, read

HEAD = "莊家: 東\n底: 300\n台: 100\n玩家: 東=阿明 南=小華 西=阿德 北=小美\n"


def failure(log: str) -> LogError:
    with pytest.raises(LogError) as caught:
        read(log)
    return caught.value


def lines(err: LogError) -> list[str]:
    return str(err).split("\n")


def test_a_misspelt_tile_suggests_the_tile() -> None:
    err = failure(HEAD + "紀錄:\n1 東 打 白版\n")
    assert (err.line, err.column) == (6, 8)
    message, source, caret, hint = lines(err)
    assert source == "1 東 打 白版" and caret == " " * 10 + "^"
    assert hint == "提示：是不是要寫「白板」？"


def test_a_word_processor_paste_suggests_the_log_form() -> None:
    err = failure(HEAD + "紀錄:\n1 東 打出三萬。\n")
    assert err.line == 6
    assert err.hint is not None
    assert "「。」" in err.hint and "「打 三萬」" in err.hint


def test_a_unit_after_a_number_suggests_the_number() -> None:
    err = failure("莊家: 東\n底: 300元\n")
    assert (err.line, err.column) == (2, 7)
    assert err.hint == "數字後面不寫單位：寫「300」"


def test_kong_without_its_kind_names_the_three_kinds() -> None:
    err = failure(HEAD + "紀錄:\n1 東 杠 三萬\n")
    assert (err.line, err.column) == (6, 5)
    assert err.hint is not None
    for kind in ("明杠", "加杠", "暗杠"):
        assert kind in err.hint
    # The list of acts this message gives must not offer 杠 alone while refusing it.
    assert " 杠 " not in err.expected and "明杠" in err.expected


def test_a_missing_record_line_is_named() -> None:
    err = failure(HEAD + "1 東 打 三萬\n2 南 摸\n")
    assert (err.line, err.column) == (5, 1)
    assert err.hint == "第一手之前少了一行「紀錄:」（在第 5 行之前加上）"


@pytest.mark.parametrize("players", ["東=阿明, 南=小華", "東=阿明，南=小華", "東=阿明、南=小華"])
def test_commas_between_players_are_refused_with_the_form(players: str) -> None:
    err = failure(f"莊家: 東\n玩家: {players}\n")
    assert err.line == 2
    assert lines(err)[1] == f"玩家: {players}"
    assert err.hint == "玩家之間用空格分開，例如「玩家: 東=阿明 南=小華」"
    # The caret is under the comma.
    assert lines(err)[2].endswith("^") and err.column == len("玩家: 東=阿明") + 1


def test_a_name_not_declared_lists_the_players() -> None:
    err = failure(HEAD + "紀錄:\n1 阿花 打 三萬\n")
    assert (err.line, err.column) == (6, 3)
    assert err.hint == ("「玩家:」行裡有 東=阿明 南=小華 西=阿德 北=小美；"
                        "也可以直接寫座位 東 南 西 北")


def test_a_near_name_is_guessed_only_when_one_is_near() -> None:
    err = failure("玩家: 東=阿明 南=小華\n紀錄:\n1 小花 打 三萬\n")
    assert err.hint == "是不是要寫「小華」？"


def test_a_big5_file_is_named_as_big5() -> None:
    data = (HEAD + "紀錄:\n1 東 打 三萬\n").encode("big5")
    with pytest.raises(LogError) as caught:
        decode(data)
    err = caught.value
    assert "Big5" in err.message and err.hint is not None and "UTF-8" in err.hint
    assert lines(err)[1] == "莊家: 東"  # the line is shown as the writer sees it


def test_suggestions_come_from_the_readers_vocabulary() -> None:
    # Every guess the module can make is a word the reader accepts.
    assert suggest.nearest("打出", VERBS) == "打"
    assert suggest.nearest("白版", suggest.tile_words()) == "白板"
    assert suggest.nearest("打", VERBS) is None  # right already
    for word in ("碰碰", "暗槓槓", "自摸摸"):
        guess = suggest.nearest(word, VERBS)
        assert guess is None or guess in VERBS
    assert "3m" in suggest.tile_words() and "白板" in suggest.tile_words()


def test_a_hint_survives_pickling() -> None:
    import pickle

    err = failure(HEAD + "紀錄:\n1 東 打 白版\n")
    copy = pickle.loads(pickle.dumps(err))
    assert str(copy) == str(err) and copy.hint == err.hint


def test_the_cli_prints_the_hint_and_exits_2(tmp_path) -> None:
    import subprocess
    import sys

    log = tmp_path / "d.log"
    log.write_text(HEAD + "紀錄:\n1 東 杠 三萬\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "judge", str(log)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "第 6 行第 5 字" in done.stderr and "提示：杠 要寫明是哪一種" in done.stderr


def _nearest_by_every_distance(word: str, vocabulary: list[str]) -> str | None:
    """nearest() as its docstring states it, counting the edits to every candidate."""
    if not word or word in vocabulary:
        return None
    allowed = 1 if len(word) < 5 else 2
    near = [(d, abs(len(c) - len(word)), n, c) for n, c in enumerate(vocabulary)
            if (d := suggest.distance(word, c)) <= allowed and d < max(len(word), len(c))]
    return min(near)[3] if near else None


_LETTERS = "一二三萬筒索東南白板中發打摸碰杠和x"


@given(st.text(_LETTERS, max_size=9),
       st.lists(st.text(_LETTERS, min_size=1, max_size=6), min_size=1, max_size=12))
def test_nearest_skips_only_words_too_far_to_be_the_answer(
        word: str, vocabulary: list[str]) -> None:
    # A word longer or shorter by more edits than allowed is passed over without counting
    # its edits (a mangled line can make a word of hundreds of characters).
    assert suggest.nearest(word, vocabulary) == _nearest_by_every_distance(word, vocabulary)


def test_a_line_glued_into_one_long_word_still_reads_as_an_error_with_its_place() -> None:
    err = failure(HEAD + "紀錄:\n1 東 打" + "三萬" * 300 + "\n")
    assert err.line == 6
