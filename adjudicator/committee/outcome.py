"""How a case file fared, and what every kind of case (a hand's, a refusal's, a match's)
shares: why a case could not be judged, and the settings a case file gives itself."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.language.errors import LogError
from adjudicator.language.incident import Incident
from adjudicator.rules.engine import EngineError
from adjudicator.ruling.model import Ruling


@dataclass
class Outcome:
    """How one case file fared (a hand's or a refusal's: CaseResult; a match's:
    match_cases.py)."""

    path: Path
    failures: list[str] = field(default_factory=list)
    error: str | None = None  # the file itself could not be judged
    checked: int = 0
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.error is None and not self.failures


@dataclass
class CaseResult(Outcome):
    ruling: Ruling | None = None
    incident: Incident | None = None


# What can keep a case from being judged: its log (unreadable, unparsable), the rules, or
# a bug.  The case tools report it against the case and go on with the others.
UNJUDGED = Exception


def unjudged_why(err: Exception) -> str:
    """Why a case could not be judged, as the case tools print it."""
    if isinstance(err, (LogError, OSError, UnicodeDecodeError)):
        return str(err)
    if isinstance(err, EngineError):
        return f"無法裁決：{err}"
    where = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    place = f"（{Path(where.filename).name}:{where.lineno}）" if where else ""
    return f"內部錯誤{place}：{type(err).__name__}: {err}"


# A case that holds under a reading its profile does not take names it on a comment line
# "#! set: 解釋.獨聽=shape" (the log language has no such header: it is the case's frame).
CASE_SET = "#! set:"


def case_settings(text: str) -> dict[str, str]:
    """The interpretation points or parameters a case file sets for itself."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith(CASE_SET):
            for item in line[len(CASE_SET):].split():
                key, _, value = item.partition("=")
                out[key] = value
    return out
