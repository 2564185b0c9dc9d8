"""Every ruling lists the 解釋 points it depends on (ruling-json.md, interpretations).

`adjudicator points --sweep cases` flips each point over the whole corpus and counts the
rulings that change without listing the flipped point; that figure is to stay 0.  The whole
sweep (27 flips × the corpus) takes minutes, too long for the suite, so this guard flips
the points on the cases where a dependency was once missing, each at the chapter that
reads the point, plus a case per point where the ruling does list it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.committee.diff import sweep

CASES = Path(__file__).resolve().parents[2] / "cases"

# (flip, cases): a ruling of each case changed under the flip without listing the point.
SAMPLE = [
    # Read in an open fact's possibility (包賠 after a report of unknown time, or of the
    # same cause again): the possibility lists the point, and so the ruling does.
    ({"解釋.包賠莊台": "no"}, ["reports/xianggong_causes_3.case",
                            "record/xianggong_same_cause_reported_again.case"]),
    ({"解釋.包賠下莊": "荒局"}, ["reports/xianggong_causes_3.case"]),
    # The general 過水 term with a reach before the win (asp/offences/passwater.lp; 優先.5
    # asks for the touch whatever the reading, cases/priority/p5_*).
    ({"解釋.伸手過水": "touch"}, ["offences/passwater/reach_then_win.case"]),
    # 錯杠.暗.3 with the wall count unknown (asp/offences/wrong_kong.lp).
    ({"解釋.末八張暗杠": "all_wins"}, ["wrong_kong/concealed_kong_ordinary_win.case",
                                    "wrong_kong/concealed_kong_other_tile_dealt_in.case"]),
]


@pytest.mark.parametrize(("flip", "names"), SAMPLE, ids=[next(iter(f)) for f, _ in SAMPLE])
def test_a_ruling_that_changes_under_a_point_lists_it(flip: dict[str, str],
                                                      names: list[str]) -> None:
    (report,) = sweep([CASES / n for n in names], [flip])
    assert [c.error for c in report.cases if c.error] == []
    changed = [c for c in report.cases if c.changes]
    # The flip does change these rulings (else the guard guards nothing) …
    assert changed, f"{flip} changes none of {names}"
    # … and each one lists the point.
    assert [c.name for c in changed if c.undeclared] == []
    assert all(next(iter(flip)) in c.depends_a + c.depends_b for c in changed)


# (flip, case): only the reading a possibility names changed, not what it rules: no change.
LABEL_ONLY = [({"解釋.相公二度": "listed"}, "reports/xianggong_causes_2.case"),
              ({"解釋.詐和牌面": "zero"}, "golden/hand_not_recorded.log"),
              ({"解釋.莊家被自摸": "no"}, "golden/hand_not_recorded.log")]


@pytest.mark.parametrize(("flip", "name"), LABEL_ONLY,
                         ids=[next(iter(f)) for f, _ in LABEL_ONLY])
def test_a_reading_named_but_ruling_the_same_is_no_change(flip: dict[str, str],
                                                          name: str) -> None:
    (report,) = sweep([CASES / name], [flip])
    (case,) = report.cases
    assert case.error is None and case.changes == []
    assert next(iter(flip)) in case.depends_a
