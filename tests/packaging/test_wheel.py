"""The wheel carries everything a judgement needs: installed outside the source tree (no
``-e``), it judges the shipped example.  Slow (a venv and its dependencies), so it runs
once per suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str | Path, cwd: Path,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", timeout=600, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv, outside the tree, with the wheel built from this checkout."""
    work = tmp_path_factory.mktemp("wheel")
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist",
                 ROOT, cwd=work)
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("adjudicator-*.whl")
    venv.create(work / "venv", with_pip=True)
    python = work / "venv" / "bin" / "python"
    added = _run(python, "-m", "pip", "install", "-q", wheel, cwd=work)
    assert added.returncode == 0, added.stderr
    return work


def test_the_wheel_holds_the_rules_and_the_grammar(installed: Path) -> None:
    (wheel,) = (installed / "dist").glob("adjudicator-*.whl")
    listed = _run(sys.executable, "-m", "zipfile", "-l", wheel, cwd=installed).stdout
    for name in ("adjudicator/asp/core.lp", "adjudicator/asp/profiles/tw16.rules",
                 "adjudicator/asp/settlement/scoring.lp", "adjudicator/grammar/incident.lark",
                 "adjudicator/desk/static/desk.js", "adjudicator/desk/static/desk.css",
                 "adjudicator/desk/templates/desk.html", "adjudicator/desk/templates/page.html"):
        assert name in listed


def test_an_installed_copy_judges_the_example_away_from_the_source(installed: Path) -> None:
    example = installed / "example.log"
    example.write_text((ROOT / "examples" / "wrong-pung-priority.log").read_text("utf-8"),
                       encoding="utf-8")
    exe = installed / "venv" / "bin" / "adjudicator"
    # Cold, then from the cache the first run filled (the grammar's tables, the chapters'
    # analysis and #defined text, the tables of words), then with no cache: the same
    # ruling each time.
    cached = {"ADJUDICATOR_CACHE_DIR": str(installed / "cache")}
    runs = [_run(exe, "judge", example, "-f", "json", cwd=installed, env=env)
            for env in (cached, cached, {"ADJUDICATOR_CACHE_DIR": ""})]
    for done in runs:
        assert done.returncode == 0, done.stderr
        assert done.stdout == runs[0].stdout
    assert {p.name.split("-")[0] for p in (installed / "cache").iterdir()} == {
        "chapter", "signatures", "declared", "lark", "toml"}
    ruling = json.loads(runs[0].stdout)
    assert ruling["status"] == "decided"
    assert {(f["kind"], f["seat"]) for f in ruling["findings"]} >= {("優先", "北"), ("相公", "東")}
    where = _run(installed / "venv" / "bin" / "python", "-c",
                 "import adjudicator.rules.files as f; print(f.ASP)", cwd=installed).stdout
    assert str(installed / "venv") in where and str(ROOT) not in where


def test_an_installed_copy_scores_mcr_through_the_built_extension(installed: Path) -> None:
    # PyMahjongGB is a main dependency built from source: the fresh venv must have built it.
    exe = installed / "venv" / "bin" / "adjudicator"
    done = _run(exe, "score", "--profile", "mcr", "--format", "json", "123m", "456p", "789s",
                "22s", "67m", "--win", "5m", cwd=installed)
    assert done.returncode == 0, done.stderr
    # 花龍 8 + 門前清 2 + 平和 2 (cases/mcr/62_門前清.fan).
    assert json.loads(done.stdout)["fan"] == 12


def test_an_installed_copy_has_every_profile_and_takes_house_rules(installed: Path) -> None:
    exe = installed / "venv" / "bin" / "adjudicator"
    listed = _run(exe, "points", "-f", "json", cwd=installed)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["profiles"] == ["gd", "tw16", "tw16-alt", "tw16-online"]
    club = installed / "club.rules"
    club.write_text("名稱: 測試會\n依據: tw16-alt\n", encoding="utf-8")
    example = installed / "example.log"
    example.write_text((ROOT / "examples" / "wrong-pung-priority.log").read_text("utf-8"),
                       encoding="utf-8")
    done = _run(exe, "judge", example, "--rules", club, "-f", "json", cwd=installed)
    assert done.returncode == 0, done.stderr
    rules = json.loads(done.stdout)["rules"]
    assert rules["house"] == {"name": "測試會", "version": None, "extends": "tw16-alt"}
    assert rules["profile"] == "tw16-alt"
