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
    return list(_profile_names())


# Globbed once per process, as the chapters are: each judgement asks (~0.8 ms a glob).
@cache
def _profile_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in PROFILES.glob("*.lp")))


def profile_file(name: str) -> Path:
    """The file of profile ``name``; ``KeyError`` if there is none."""
    path = PROFILES / f"{name}.lp"
    if not path.is_file():
        raise KeyError(name)
    return path
