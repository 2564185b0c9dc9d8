"""What every ruling must satisfy whatever the case: checked over the whole corpus.

* every finding names its clauses and its reasons (ruling-json.md);
* one fault, one offence: a count off by a fault judged under its own clause (缺張/逾張
  after a wrong set, an unchanged short hand) is never a second 相公 of its own, so a
  seat's later 相公 does not rest on a count alone once it is 相公 for something else.
"""

from __future__ import annotations

from adjudicator.ruling.model import Finding, Ruling

COUNT_CAUSES = ("缺張", "逾張")


def _count_only(f: Finding) -> bool:
    return bool(f.why) and all(any(c in why for c in COUNT_CAUSES) for why in f.why)


def broken(ruling: Ruling) -> list[str]:
    """The invariants ``ruling`` breaks, in words (empty: none)."""
    out = [f"{f.seat} {f.kind}（第 {f.at} 手）沒有條款或理由"
           for f in ruling.findings if not f.clauses or not f.why]
    by_seat: dict[str, list[Finding]] = {}
    for f in ruling.findings:
        if f.kind == "相公":
            by_seat.setdefault(f.seat, []).append(f)
    for seat, found in by_seat.items():
        first, *later = sorted(found, key=lambda f: f.at or 0)
        out += [f"{seat} 相公（第 {f.at} 手）只因張數不合，而 {seat} 自第 {first.at} 手"
                "已為他故相公：張數不合是原過失的附帶結果，不是另一次違規"
                for f in later if _count_only(f) and not _count_only(first)]
    return out
