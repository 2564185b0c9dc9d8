"""What a ruling must say about a simulated log, as a list of failure classes (empty: right).

Shared by tests/simulation and bench/simulate.py, so both count the same things.
"""

from __future__ import annotations

from typing import Any

from .faults import Fault
from .game import Game
from .tiles import SEATS

# Findings that accuse a player; 優先 names who lost a priority question and is no offence.
OFFENCES = {"相公", "詐和", "包賠", "代位賠付", "過水", "眼牌違規", "喊碰未碰", "強制復原",
            "禁制", "錯杠", "錯碰", "錯打明牌"}


def judge(text: str) -> dict[str, Any]:
    from adjudicator.ruling.judge import judge_text
    from adjudicator.ruling.model import to_dict

    return to_dict(judge_text(text))


def clean_failures(game: Game, ruling: dict[str, Any]) -> list[str]:
    """How the ruling on a clean game goes wrong: each failure as ``class: detail``."""
    out: list[str] = []
    if ruling["status"] != "decided":
        kinds = ",".join(sorted({p["kind"] for p in ruling["problems"]})) or "-"
        out.append(f"status {ruling['status']}: {kinds}")
    for f in ruling["findings"]:
        if f["kind"] in OFFENCES:
            out.append(f"false {f['kind']}: {f['seat']} at {f['at']}")
    balances = ruling["balances"]
    if sum(_money(v) for v in balances.values()) != 0:
        out.append("balances not zero-sum")
    r = game.result
    valid = [w for w in ruling["wins"] if w["valid"]]
    if r.winner is None:
        if valid:
            out.append("win where none was")
        if any(_money(v) for v in balances.values()):
            out.append("money moves on 荒局")
    else:
        seat = SEATS[r.winner]
        if not valid or valid[0]["seat"] != seat or valid[0]["at"] != r.act:
            out.append(f"winner: {[(w['seat'], w['at'], w['valid']) for w in ruling['wins']]}")
        else:
            payers = {SEATS[p] for p in r.payers}
            got = {s for s, v in balances.items() if _money(v) < 0}
            if _money(balances[seat]) <= 0 or got != payers:
                out.append(f"payers: expected {sorted(payers)} got {sorted(got)}")
            if r.how in ("和", "搶杠") and valid[0]["self_drawn"]:
                out.append("discard win read as self-drawn")
            if r.how == "自摸" and not valid[0]["self_drawn"]:
                out.append("self-draw read as a discard win")
    if not ruling["hand_ends"]:
        out.append("hand does not end")
    return out


def caught(fault: Fault, ruling: dict[str, Any]) -> bool:
    """Whether the ruling flags the injected fault with its kind at its act."""
    if fault.finding == "inconsistent":
        return ruling["status"] == "inconsistent" and any(
            p.get("at") == fault.act for p in ruling["problems"])
    return any(f["kind"] == fault.finding and f["at"] == fault.act
               and (fault.seat is None or f["seat"] == SEATS[fault.seat])
               for f in ruling["findings"])


def _money(v: int | str) -> float:
    if isinstance(v, int):
        return v
    num, _, den = str(v).partition("/")
    return int(num) / int(den or 1)
