"""dataclass_code.kept(): dataclasses made from kept code are the classes dataclasses makes,
and a later process compiles none of their methods again."""

from __future__ import annotations

import builtins
import dataclasses
import inspect
import marshal
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adjudicator import cache, dataclass_code
from adjudicator.dataclass_code import kept

METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


def _make() -> tuple[type, type]:
    @dataclass(frozen=True)
    class Frozen:
        a: int
        b: tuple[int, ...] = ()
        c: list[int] = field(default_factory=list, compare=False)
        d: str = field(default="x", kw_only=True)

    @dataclass
    class Plain:
        a: int
        b: Frozen | None = None

    return Frozen, Plain


def _code(cls: type) -> dict[str, Any]:
    return {name: getattr(cls, name).__code__ for name in METHODS
            if hasattr(getattr(cls, name, None), "__code__")}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    cache.folder.cache_clear()
    yield tmp_path
    monkeypatch.undo()
    cache.folder.cache_clear()


def test_the_classes_are_made_of_the_same_code(folder: Path) -> None:
    plain = _make()
    with kept():
        first = _make()
    with kept():
        again = _make()
    for made in (first, again):
        for cls, ours in zip(plain, made, strict=True):
            assert _code(ours) == _code(cls)
            assert str(inspect.signature(ours)) == str(inspect.signature(cls))
            assert ours.__init__.__annotations__ == cls.__init__.__annotations__
    frozen = again[0]
    assert frozen(1) == frozen(1, c=[2]) and hash(frozen(1)) == hash(plain[0](1))
    assert repr(frozen(1, (2,))) == repr(plain[0](1, (2,)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        frozen(1).a = 2  # type: ignore[misc]
    assert "exec" not in vars(dataclasses)


def test_a_later_process_compiles_nothing(folder: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with kept():
        _make()
    assert list(folder.glob("dataclass-code-*.marshal"))

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(builtins, "compile", refuse)
    with kept():
        _make()


def test_a_damaged_entry_is_made_again(folder: Path) -> None:
    with kept():
        _make()
    (entry,) = folder.glob("dataclass-code-*.marshal")
    entry.write_bytes(b"\x00 not marshal")
    with kept():
        frozen, _ = _make()
    assert frozen(1).a == 1
    assert entry.read_bytes() != b"\x00 not marshal"


def test_without_a_cache_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV, "")
    cache.folder.cache_clear()
    try:
        with kept():
            frozen, _ = _make()
        assert frozen(1) == frozen(1)
    finally:
        monkeypatch.undo()
        cache.folder.cache_clear()


def test_the_entry_does_not_grow_without_end(folder: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataclass_code, "LIMIT", 10)
    with kept():
        for n in range(3):  # a new text each time: three classes of a new field name
            dataclasses.make_dataclass(f"C{n}", [(f"f{n}", int)])
    with kept():
        _make()
    (entry,) = folder.glob("dataclass-code-*.marshal")
    texts = marshal.loads(entry.read_bytes())
    assert not any("f0" in text for text in texts)  # the first run's texts were let go
