"""What every reason module shares: the context words need, term values, and the merge.

Each chapter family keeps its words in its own module here (``TEMPLATES``: a reason
functor → its words; ``ASSUMPTIONS``: an open.lp choice atom → its words either way);
``merge`` joins them and refuses a functor given words twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from clingo import Symbol, SymbolType

from adjudicator.language import tiles as T
from adjudicator.language.incident import Act
from adjudicator.report.model import act_words

STAGE_WORDS = {
    0: "補牌前即時更正",
    1: "已補牌、未插入手牌",
    2: "補牌已插入手牌、尚未打牌",
    3: "已補牌並已打牌（既遂）",
}
FAMILY_WORDS = {"暗": "暗杠", "加": "加杠", "碰": "碰杠"}


class Context:
    """What the words need from the log: acts by their place in the record."""

    def __init__(self, acts: list[Act]) -> None:
        self.acts = acts

    def seq(self, index: int) -> int | None:
        return self.acts[index - 1].seq if 0 < index <= len(self.acts) else None

    def act_text(self, index: int) -> str:
        if not 0 < index <= len(self.acts):
            return "（紀錄外）"
        act = self.acts[index - 1]
        return f"第 {act.seq} 手「{act_words(act)}」"


def _value(sym: Symbol) -> int | str:
    if sym.type == SymbolType.Number:
        return sym.number
    if sym.type == SymbolType.String:
        return sym.string
    return str(sym)


def _tile(sym: Symbol) -> str:
    return T.name(sym.number)



Render = Callable[[Context, str, list[Symbol]], str]
AssumptionWords = Callable[[Context, list[Symbol], bool], str]

W = TypeVar("W")


def merge(parts: Iterable[Mapping[str, W]]) -> dict[str, W]:
    """One table from the modules' tables; a functor with words in two of them is an error
    (one of them would silently be lost)."""
    out: dict[str, W] = {}
    for part in parts:
        twice = sorted(out.keys() & part.keys())
        if twice:
            raise ValueError(f"reasons given words twice: {', '.join(twice)}")
        out.update(part)
    return out


def _actor(c: Context, index: int) -> str:
    return str(c.acts[index - 1].actor) if 0 < index <= len(c.acts) else "?"
