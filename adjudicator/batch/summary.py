"""The end-of-run summary: counts by status, offences found, money moved, slowest logs."""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from adjudicator.ruling.model import money_json


def _money(value: int | str) -> Fraction:
    return Fraction(value)


@dataclass
class Summary:
    statuses: Counter[str] = field(default_factory=Counter)
    offences: Counter[str] = field(default_factory=Counter)
    moved: Fraction = Fraction(0)
    slowest: list[tuple[float, str]] = field(default_factory=list)  # a min-heap of the top
    errors: list[tuple[str, str]] = field(default_factory=list)
    keep: int = 5

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    def add(self, line: dict[str, Any]) -> None:
        if "error" in line:
            self.statuses["error"] += 1
            self.errors.append((line["source"], line["error"].splitlines()[0]))
            return
        self.statuses[line["status"]] += 1
        self.offences.update(f["kind"] for f in line["findings"])
        self.moved += sum((_money(p["amount"]) for p in line["payments"]), Fraction(0))
        entry = (float(line.get("ms", 0.0)), line["source"])
        if len(self.slowest) < self.keep:
            heapq.heappush(self.slowest, entry)
        else:
            heapq.heappushpop(self.slowest, entry)

    def to_dict(self) -> dict[str, Any]:
        return {
            "logs": self.total,
            "statuses": dict(self.statuses),
            "offences": dict(self.offences.most_common()),
            "money_moved": money_json(self.moved),
            "slowest": [{"source": s, "ms": ms} for ms, s in sorted(self.slowest, reverse=True)],
            "errors": [{"source": s, "error": e} for s, e in self.errors[:20]],
        }

    def lines(self, seconds: float) -> list[str]:
        rate = self.total / seconds if seconds > 0 else 0.0
        out = [f"裁決 {self.total} 份，{seconds:.1f} 秒（每秒 {rate:.1f} 份）",
               "狀態：" + "、".join(f"{k} {v}" for k, v in sorted(self.statuses.items()))]
        if self.offences:
            out.append("認定：" + "、".join(f"{k} {v}" for k, v in self.offences.most_common()))
        out.append(f"賠付總額：{money_json(self.moved)}")
        if self.slowest:
            out.append("最慢：" + "、".join(f"{s}（{ms:.0f} ms）"
                                         for ms, s in sorted(self.slowest, reverse=True)))
        for source, error in self.errors[:5]:
            out.append(f"錯誤：{source}：{error}")
        if len(self.errors) > 5:
            out.append(f"……另有 {len(self.errors) - 5} 份錯誤（見輸出的 error 行）")
        return out
