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

from adjudicator.language.incident import Header
from adjudicator.rules.families import DEFAULT, Family, family_of_file, own_folders


def _folder(package: str) -> Path:
    return Path(str(files(package)))


ASP = _folder("adjudicator.asp")
PROFILES = ASP / "profiles"
# The chapters that are not rules of play but the frame every judgement loads.
PARAMS_LP = ASP / "params.lp"
INPUTS_LP = ASP / "inputs.lp"
SCORING_LP = ASP / "settlement" / "scoring.lp"
# The profile a log without a 規則: line is judged by.
DEFAULT_PROFILE: str = Header.profile


@cache
def chapters(family: Family = DEFAULT) -> tuple[Path, ...]:
    """Every rule chapter of ``family`` (load order is free): the Taiwanese family loads
    each .lp under asp/ except the profiles and the folders of other families; another
    family loads the frame it names and its own folder."""
    # Which folder a chapter is in, by its parts under asp/: asking ``folder in
    # p.parents`` made a Path of every parent of every file, four times the glob's cost.
    found = {p: p.relative_to(ASP).parts for p in ASP.rglob("*.lp")}
    every = {p: parts for p, parts in found.items() if not _under(parts, PROFILES.name)}
    if family.folder is None:
        others = own_folders()
        return tuple(sorted(p for p, parts in every.items()
                            if not any(_under(parts, f) for f in others)))
    own = family.folder
    return tuple(sorted(p for p, parts in every.items()
                        if _under(parts, own) or "/".join(parts) in family.shared))


def _under(parts: tuple[str, ...], folder: str) -> bool:
    """Whether a file of these parts under asp/ lies under asp/<folder>/ (at any depth)."""
    inner = tuple(folder.split("/"))
    return len(parts) > len(inner) and parts[:len(inner)] == inner


def profile_names() -> list[str]:
    """The rule profiles: the names a log's 規則: line or --profile may judge by."""
    return list(_profile_names())


# Globbed once per process, as the chapters are: each judgement asks (~0.8 ms a glob).
@cache
def _profile_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in PROFILES.glob("*.lp")))


def profile_family(name: str) -> Family:
    """The family of profile ``name``; ``KeyError`` if there is no such profile."""
    return family_of_file(profile_file(name))


TITLE = "%! title:"


@cache
def profile_title(name: str) -> str:
    """A profile's name in words (its file's ``%! title:`` line), the code if it has none."""
    try:
        text = profile_file(name).read_text(encoding="utf-8")
    except (KeyError, OSError):
        return name
    return next((line[len(TITLE):].strip() for line in text.splitlines()
                 if line.startswith(TITLE)), name)


def profile_label(name: str) -> str:
    """A profile as a page or report shows it: its title, the code beside it."""
    title = profile_title(name)
    return name if title == name else f"{title}（{name}）"


def named_family(name: str | None) -> Family:
    """The family of profile ``name``, or the Taiwanese one for a name no profile has
    (a log's own 規則: line, before the judge refuses it)."""
    try:
        return profile_family(name) if name else DEFAULT
    except KeyError:
        return DEFAULT


# 國標: the texts give a fan list and no rules of play, so it has no rule profile (and no
# family of its own) and only scores hands (adjudicator score --profile mcr; ruling/mcr.py).
SCORE_ONLY: tuple[str, ...] = ("mcr",)


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


def all_chapters() -> tuple[Path, ...]:
    """The chapters of every family (for checks that go over all the rules)."""
    return tuple(sorted(p for p in ASP.rglob("*.lp") if PROFILES not in p.parents))
