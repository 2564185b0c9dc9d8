"""Where the project's non-Python parts live (the grammar, the ASP rules, the profiles)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammar" / "incident.lark"
ASP = ROOT / "asp"
PROFILES = ASP / "profiles"


def profile_names() -> list[str]:
    return sorted(p.stem for p in PROFILES.glob("*.lp"))


def profile_file(name: str) -> Path:
    """The file of profile ``name``; ``KeyError`` if there is none."""
    path = PROFILES / f"{name}.lp"
    if not path.is_file():
        raise KeyError(name)
    return path
