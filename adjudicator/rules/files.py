"""Where the rule chapters and the profiles are: data shipped inside the package.

In the source tree they are the top-level folders ``asp/`` and ``grammar/``; the wheel
carries them as ``adjudicator.asp`` and ``adjudicator.grammar`` (pyproject.toml maps them),
so an installed copy needs no source tree.  clingo reads files by path, and a package
installed from a wheel lies on disk, so a path is what we hand out.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


def _folder(package: str) -> Path:
    return Path(str(files(package)))


ASP = _folder("adjudicator.asp")
PROFILES = ASP / "profiles"
# The chapters that are not rules of play but the frame every judgement loads.
PARAMS_LP = ASP / "params.lp"
INPUTS_LP = ASP / "inputs.lp"
SCORING_LP = ASP / "settlement" / "scoring.lp"


@cache
def chapters() -> tuple[Path, ...]:
    """Every rule chapter: each .lp under asp/ except the profiles (load order is free)."""
    return tuple(sorted(p for p in ASP.rglob("*.lp") if PROFILES not in p.parents))


def profile_names() -> list[str]:
    """The rule profiles: the names a log's 規則: line or --profile may judge by."""
    return sorted(p.stem for p in PROFILES.glob("*.lp"))


# The family of each profile.  Rulings compare only within a family: a Taiwanese log is
# not a Guangdong or a 國標 one.
FAMILIES: dict[str, str] = {
    "tw16": "tw16", "tw16-alt": "tw16", "tw16-online": "tw16",
    # 國標: the texts give a fan list and no rules of play, so it has no rule profile and
    # only scores hands (adjudicator score --profile mcr; ruling/mcr.py).
    "mcr": "mcr",
}
SCORE_ONLY: tuple[str, ...] = ("mcr",)


def family_of(profile: str) -> str:
    """The family of ``profile``; ``KeyError`` if there is no such profile."""
    return FAMILIES[profile]


def score_profiles() -> list[str]:
    """The names ``adjudicator score --profile`` takes: the rule profiles and the score-only."""
    return [*profile_names(), *SCORE_ONLY]


def not_judged(profile: str) -> str | None:
    """Why a log under ``profile`` cannot be judged although the name is known, or None."""
    if profile in SCORE_ONLY:
        return (f"{profile}（國標）只計番，沒有裁決規則（規則原文只有番種表）；"
                f"計番請用 adjudicator score --profile {profile}")
    return None


def profile_file(name: str) -> Path:
    """The file of profile ``name``; ``KeyError`` if there is none."""
    path = PROFILES / f"{name}.lp"
    if not path.is_file():
        raise KeyError(name)
    return path
