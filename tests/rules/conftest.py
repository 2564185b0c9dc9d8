"""What the tests of the cache folder share: a fresh folder of their own, and a way to
make this process forget what it remembers, so that its next judgement goes to the folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from adjudicator import cache
from adjudicator.language import reader
from adjudicator.rules import engine, incident_argument, program, signatures


def _forget() -> None:
    for remembered in (cache.folder, program.chapter, program._asked, signatures.of_file,
                       engine.declared, reader.parser, incident_argument.chapter,
                       incident_argument._transformed):
        remembered.cache_clear()


@pytest.fixture
def forget() -> Callable[[], None]:
    return _forget


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(where))
    _forget()
    yield where
    monkeypatch.undo()
    _forget()


@pytest.fixture
def not_worked_out(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Make the named functions fail if called: what follows must read the cache folder."""

    def unreachable(*_: object) -> None:
        raise AssertionError("the cache folder was not read")

    def patch(*places: tuple[object, str]) -> None:
        for module, name in places:
            monkeypatch.setattr(module, name, unreachable)

    return patch
