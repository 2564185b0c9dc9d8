"""pytest collects every cases/**/*.case as a test: the case passes when the ruling meets
every line of its 期望 block; a cases/**/*.refusal when its log is refused as its
``#! refused:`` line says (committee/refusals.py).  A cases/**/*.match (a whole match)
passes when its hands and its ledger meet its 將期望 block and each hand's own 期望 lines."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix in (".case", ".refusal"):
        return CaseFile.from_parent(parent, path=file_path)
    if file_path.suffix == ".match":
        return MatchFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):  # type: ignore[no-untyped-def]
        yield CaseItem.from_parent(self, name=self.path.stem)


class CaseItem(pytest.Item):
    def runtest(self) -> None:
        from adjudicator.committee.cases import run_case
        from adjudicator.committee.invariants import broken

        result = run_case(self.path)
        if not result.passed:
            raise CaseFailure(result.error or "\n".join(result.failures))
        if result.ruling is not None and (faults := broken(result.ruling)):
            raise CaseFailure("\n".join(faults))

    def repr_failure(self, excinfo, style=None):  # type: ignore[no-untyped-def,override]
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.path}:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):  # type: ignore[no-untyped-def]
        return self.path, 0, f"case {self.name}"


class MatchFile(pytest.File):
    def collect(self):  # type: ignore[no-untyped-def]
        yield MatchItem.from_parent(self, name=self.path.stem)


class MatchItem(CaseItem):
    def runtest(self) -> None:
        from adjudicator.committee.match_cases import run_match_case

        result = run_match_case(self.path)
        if not result.passed:
            raise CaseFailure(result.error or "\n".join(result.failures))

    def reportinfo(self):  # type: ignore[no-untyped-def]
        return self.path, 0, f"match {self.name}"


class CaseFailure(Exception):
    pass
