"""Run the rules: load asp/, add the facts through clingo's backend, solve, return atoms."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import clingo

from .paths import ASP, profile_file


# Every file in asp/ is a chapter (profiles live in asp/profiles/); rules do not depend on
# load order, so a new chapter is a new file.
def chapters() -> list[Path]:
    return sorted(ASP.glob("*.lp"))


class EngineError(RuntimeError):
    """The rules themselves failed (a bug in asp/, not in the log)."""


def _silent(_code: clingo.MessageCode, _message: str) -> None:
    # Atoms a chapter reads but no fact supplies are normal (a log without 插花 …).
    return None


def chapter_files(profile: str) -> list[Path]:
    return [profile_file(profile), *chapters()]


def solve(facts: Iterable[clingo.Symbol], profile: str,
          files: Sequence[Path] | None = None) -> list[clingo.Symbol]:
    """The shown atoms of the one answer set the rules give for these facts."""
    ctl = clingo.Control(["--warn=none"], logger=_silent)
    for path in files if files is not None else chapter_files(profile):
        ctl.load(str(path))
    with ctl.backend() as backend:
        for sym in facts:
            backend.add_rule([backend.add_atom(sym)])
    ctl.ground([("base", [])])
    models: list[list[clingo.Symbol]] = []
    result = ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    if not result.satisfiable or not models:
        raise EngineError("the rules have no answer set for this log")
    return models[-1]
