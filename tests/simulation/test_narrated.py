"""Clean games written with the narration referees use (simulation/narrate.py): 推倒, 亮牌,
靠張 and 入手, wins without their tile, 搶杠 written as a bare 和, records without numbers.

The clean-game property over 200 of them: never accused, never `inconsistent`, the
simulator's winner, payers and balances.  They are judged in chunks by the batch engine
(its rulings are the single path's: tests/batch), to keep this suite's share small;
``python bench/simulate.py --narrated --games N --faults 0 --mutations 0`` runs the same
check at scale (docs/rule-texts.md).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from adjudicator.language.reader import read
from adjudicator.ruling.model import to_dict
from adjudicator.ruling.pipeline import Pipeline
from adjudicator.simulation.check import clean_failures
from adjudicator.simulation.game import Act, Game, simulate
from adjudicator.simulation.narrate import narrate
from adjudicator.simulation.writer import write

SEEDS = range(200)
CHUNK = 50
# Seeds whose hand ends in 搶杠 (rare: about 3 in 1,000 games).
ROBBED = (202, 1329, 1338)
# Seeds whose winner, 全求 on a single tile, shows its hand with the won tile: a pair.
SHOWN_PAIR = (718, 1028)


def _judged(games: list[Game]) -> list[tuple[Game, dict[str, Any]]]:
    out = []
    for k in range(0, len(games), CHUNK):
        part = games[k:k + CHUNK]
        for game, (ruling, _) in zip(part, Pipeline().judge_many([read(write(g)) for g in part]),
                                     strict=True):
            assert not isinstance(ruling, Exception), (game.seed, ruling)
            out.append((game, to_dict(ruling)))
    return out


@lru_cache(maxsize=1)
def _narrated() -> tuple[tuple[Game, dict[str, Any]], ...]:
    return tuple(_judged([narrate(simulate(seed)) for seed in SEEDS]))


def test_narrated_clean_games_are_judged_right() -> None:
    wrong = {g.seed: fails for g, r in _narrated() if (fails := clean_failures(g, r))}
    assert wrong == {}


def test_the_narration_is_there_to_judge() -> None:
    """Each narration occurs often enough in the 200 for the property to hold over it."""
    acts = [a for g, _ in _narrated() for a in g.lines if isinstance(a, Act)]
    verbs = [a.verb for a in acts]
    assert verbs.count("推倒") >= 50 and verbs.count("亮牌") >= 50
    assert verbs.count("靠張") >= 100 and verbs.count("入手") >= 100
    assert sum(1 for a in acts if a.verb in ("和", "自摸") and not a.tiles) >= 30
    assert sum(1 for g, _ in _narrated() if not g.numbered) >= 30


def _bare_robbing_win(game: Game) -> Game:
    """The 搶杠 written as a referee often does: `和` with no tile, right after the 加杠."""
    lines = list(game.lines)
    for i, line in enumerate(lines):
        if isinstance(line, Act) and line.verb == "和" and i and \
                isinstance(lines[i - 1], Act) and lines[i - 1].verb == "加杠":
            lines[i] = replace(line, tiles=())
    return replace(game, lines=lines)


@pytest.mark.parametrize("seed", ROBBED)
def test_a_bare_win_after_an_added_kong_robs_the_kong(seed: int) -> None:
    game = _bare_robbing_win(narrate(simulate(seed)))
    assert game.result.how == "搶杠"
    assert not any(isinstance(a, Act) and a.verb == "和" and a.tiles for a in game.lines)
    ((_, ruling),) = _judged([game])
    assert clean_failures(game, ruling) == []


@pytest.mark.parametrize("seed", SHOWN_PAIR)
def test_a_winners_hand_shown_as_a_pair_is_no_pair_shown_to_pung(seed: int) -> None:
    """`和`, then `亮牌 T T` of the single tile held and the won one: the hand laid down,
    not a pair shown for the discard (喊碰未碰's 強制復原, cases/calls/win_hand_*)."""
    game = narrate(simulate(seed))
    lines = game.lines
    assert any(isinstance(a, Act) and a.verb == "亮牌" and len(a.tiles) == 2
               and a.tiles[0] == a.tiles[1] and isinstance(b, Act) and b.seat == a.seat
               and b.verb == "和" for b, a in zip(lines, lines[1:], strict=False))
    ((_, ruling),) = _judged([game])
    assert clean_failures(game, ruling) == []
