"""What the record leaves open costs what it changes: a possibility's ruling is not a whole
ruling built again (issue #13; bench/judge.py measures the speed, this counts the work)."""

from __future__ import annotations

from adjudicator.analysis import replay
from adjudicator.language import reader
from adjudicator.language.seats import SEATS, next_seat
from adjudicator.rules.engine import solve_open
from adjudicator.ruling import atoms as read_atoms
from adjudicator.ruling import judge as judge_module
from adjudicator.ruling.model import Reason
from adjudicator.ruling.reasons import render
from adjudicator.ruling.undetermined import Known, _difference

HEAD = "規則: tw16\n圈風: 東\n莊家: 東\n底: 300\n台: 100\n牌牆: 56\n\n紀錄:\n"
TILES = [f"{n}{suit}" for suit in ("萬", "筒", "索") for n in "一二三四五六七八九"]


def _log(turns: int) -> str:
    """Draws and discards, a call not followed by a pung every other turn (a finding), and
    every fifth turn a player owning up to 偷牌 (repeated, it is an open fact)."""
    lines: list[str] = []
    seat, seq = "東", 1
    for t in range(turns):
        tile = TILES[t % len(TILES)]
        lines += [f"{seq} {seat} 摸", f"{seq + 1} {seat} 打 {tile}"]
        seq += 2
        if t % 2 == 0:
            lines.append(f"{seq} {next_seat(next_seat(seat))} 喊碰 {tile}")
            seq += 1
        if t % 5 == 4:
            lines.append(f"{seq} {SEATS[t % 4]} 自承 偷牌")
            seq += 1
        seat = next_seat(seat)
    return HEAD + "\n".join(lines) + "\n"


def _nodes(reasons: tuple[Reason, ...]) -> int:
    return sum(1 + _nodes(r.premises) for r in reasons)


def test_each_reason_shown_is_worded_about_once_however_many_open_facts(monkeypatch) -> None:
    worded = 0

    def counting(*args: object) -> str:
        nonlocal worded
        worded += 1
        return render(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(read_atoms, "render", counting)
    r = judge_module.judge_text(_log(40))
    assert r.status == "undetermined" and len(r.uncertain) >= 4 and len(r.findings) >= 20
    shown = _nodes(tuple(x for f in r.findings for x in f.reasons))
    shown += _nodes(tuple(x for u in r.uncertain for p in u.possibilities
                          for f in p.findings for x in f.reasons))
    # Each reason the ruling shows, and each open fact, once (a whole ruling per possibility
    # worded every finding's reasons again: eight times as many here).
    assert worded <= shown + len(r.uncertain)


def test_a_possibility_built_with_the_decided_rulings_parts_adds_what_a_fresh_build_adds() -> None:
    incident = reader.read(_log(40))
    answer = solve_open(judge_module.facts_of(incident, replay.replay(incident), None), "tw16")
    shared = read_atoms._Builder(incident, "tw16")
    decided = shared(answer.atoms)
    known = Known.of(decided)
    assert answer.possibilities
    for held in answer.possibilities:
        fresh = read_atoms._ruling(incident, "tw16", held.atoms)
        assert (_difference(decided, known, shared(held.atoms, known), "")
                == _difference(decided, known, fresh, ""))
