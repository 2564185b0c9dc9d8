"""Words for the reasons the rules derive, one TOML file per chapter family (words.py).

Each reason is an atom argument such as ``called_not_punged(3, "東", 12)``; its words only
say it.  They never add a conclusion the answer set does not hold.
"""

from __future__ import annotations

from clingo import SymbolType

from adjudicator.ruling.reasons.words import AssumptionWords, Context, Render, load
from adjudicator.ruling.terms import SymbolLike

__all__ = ["Context", "render", "render_assumption", "TEMPLATES", "ASSUMPTIONS"]

TEMPLATES: dict[str, Render]
ASSUMPTIONS: dict[str, AssumptionWords]
TEMPLATES, ASSUMPTIONS = load()


def render(ctx: Context, seat: str, why: SymbolLike) -> str:
    """One reason in words; an unknown reason is shown as the atom itself.

    ``as(Seat, Why)`` renders ``Why`` about another player than the finding's (a premise
    that is someone else's conclusion, e.g. the 優先 a 罰則.2 rests on).
    """
    if why.type == SymbolType.Function and why.name == "as" and len(why.arguments) == 2:
        return render(ctx, why.arguments[0].string, why.arguments[1])
    if why.type == SymbolType.Function and why.name in TEMPLATES:
        return TEMPLATES[why.name](ctx, seat, list(why.arguments))
    return str(why)


def render_assumption(ctx: Context, choice: SymbolLike, value: bool) -> str:
    """One way an open fact may be, in words; an unknown choice is shown as the atom."""
    words = ASSUMPTIONS.get(choice.name) if choice.type == SymbolType.Function else None
    if words is not None:
        return words(ctx, list(choice.arguments), value)
    return f"{choice}" if value else f"非 {choice}"
