"""``adjudicator check``: judge case files and check their 期望: blocks, like a test runner.

Output as pytest gives it: a dot per case (``-v``: a line per case), the failures, and a
closing line ``N passed, M failed``.  ``--junit`` also writes JUnit XML for CI;
``--update`` rewrites the 期望 of failing cases from the current ruling, after showing the
unified diff and asking (``--yes`` does not ask).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from adjudicator.cli.options import Rules, fail, run_rules

if TYPE_CHECKING:
    from collections.abc import Iterator

    from adjudicator.committee.cases import CaseResult
    from adjudicator.committee.match_cases import MatchCaseResult
    from adjudicator.rules.rulesets import House

NO_CASES = 5  # pytest's exit status when nothing was selected


def check(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="案例檔或資料夾（預設 cases/；資料夾內找 *.case 與 *.match）")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="逐案一行列出結果")] = False,
    keyword: Annotated[str | None, typer.Option(
        "-k", metavar="EXPR",
        help="只跑名稱（路徑）含此字串的案例；可用 and、or、not 與括號，"
             "如 -k 'dealer and not online'")] = None,
    junit: Annotated[Path | None, typer.Option(
        "--junit", metavar="FILE", help="另寫一份 JUnit XML 報告到 FILE（供 CI 讀）")] = None,
    update: Annotated[bool, typer.Option(
        "--update", help="依目前裁決改寫未通過案例的 期望: 段落（先顯示差異並詢問）")] = False,
    yes: Annotated[bool, typer.Option(
        "--yes", "-y", help="配合 --update：不詢問，直接寫入")] = False,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", metavar="ID=VALUE",
        help="以此解釋點或參數裁決所有案例，如 解釋.八張窗=all（可重複；不可與 --update 併用）"
    )] = None,
    rules: Rules = None,
) -> None:
    """檢查案例：裁決每個 *.case（與整將的 *.match），逐條核對其 期望:，像測試工具一樣報告。

    結束碼：0 全部通過；1 有案例未通過；2 輸入有誤；5 沒有選到任何案例。
    """
    from adjudicator.committee.cases import (
        KeywordError,
        case_name,
        find_cases,
        keyword_matcher,
        missing,
    )
    from adjudicator.ruling.interpretations import SettingError, parse_settings

    paths = paths or [Path("cases")]
    try:
        settings = parse_settings(set_ or [])
        selected = keyword_matcher(keyword or "")
    except (SettingError, KeywordError) as err:
        fail(str(err))
    if update and (settings or rules):
        fail("--update 不能與 --set 或 --rules 併用：期望應依案例自身的規則寫成")
    house = run_rules(None, rules)
    if missing(paths):
        fail("找不到：" + "、".join(str(p) for p in missing(paths)))
    files = [f for f in find_cases(paths) if selected(case_name(f))]
    print(f"收集到 {len(files)} 個案例")
    if not files:
        print("0 passed, 0 failed")
        raise typer.Exit(NO_CASES)
    results, seconds = _run(files, settings, verbose, house)
    _report_failures([r for r in results if not r.passed])
    updated = _update([r for r in results if not r.passed], yes) if update else set()
    if junit is not None:
        _write_junit(junit, results, seconds)
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    raise typer.Exit(1 if failed > len(updated) else 0)


def _judged(files: list[Path], settings: dict[str, str],
            house: House | None = None) -> Iterator[CaseResult | MatchCaseResult]:
    """Each file's result in order: runs of plain cases on the batch engine (a chunk in one
    clingo run), a match case on its own."""
    from adjudicator.committee.cases import run_cases
    from adjudicator.committee.match_cases import run_match_case

    plain: list[Path] = []
    for path in files:
        if path.suffix != ".match":
            plain.append(path)
            continue
        yield from run_cases(plain, settings or None, house=house)
        plain = []
        yield run_match_case(path, settings or None, house)
    yield from run_cases(plain, settings or None, house=house)


def _run(files: list[Path], settings: dict[str, str], verbose: bool,
         house: House | None = None) -> tuple[list[CaseResult | MatchCaseResult], float]:
    """Judge every case, printing progress as pytest does; the results and the time taken."""
    from adjudicator.committee.cases import case_name

    start = time.perf_counter()
    results: list[CaseResult | MatchCaseResult] = []
    folder = None
    for result in _judged(files, settings, house):
        path = result.path
        results.append(result)
        mark = "." if result.passed else ("E" if result.error else "F")
        if verbose:
            word = {".": "PASSED", "F": "FAILED", "E": "ERROR"}[mark]
            print(f"{case_name(path)} {word}")
            continue
        here = case_name(path.parent)
        if here != folder:
            print(("\n" if folder is not None else "") + here + " ", end="")
            folder = here
        print(mark, end="", flush=True)
    if not verbose:
        print()
    return results, time.perf_counter() - start


def _report_failures(failed: list[CaseResult | MatchCaseResult]) -> None:
    from adjudicator.committee.cases import case_name

    if not failed:
        return
    print(_rule("=", " 未通過 "))
    for result in failed:
        print(_rule("_", f" {case_name(result.path)} "))
        for line in ([result.error] if result.error else result.failures):
            print(f"  {line}")


def _rule(char: str, title: str, width: int = 70) -> str:
    side = max(3, (width - len(title) * 2) // 2)
    return char * side + title + char * side


def _update(failed: list[CaseResult | MatchCaseResult], yes: bool) -> set[Path]:
    """Rewrite the 期望 of each failing case that has a ruling; the paths written."""
    import difflib

    from adjudicator.committee.cases import CaseResult, case_name

    written: set[Path] = set()
    if failed:
        print(_rule("=", " 更新 期望 "))
    for result in failed:
        name = case_name(result.path)
        if not isinstance(result, CaseResult):
            print(f"{name}：整將的 將期望 須逐盤手算，不自動改寫")
            continue
        if result.ruling is None or result.incident is None:
            print(f"{name}：無法裁決，不更新")
            continue
        new = _new_text(result)
        if new is None:
            continue
        old = result.path.read_bytes().decode("utf-8")
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True),
            fromfile=f"{name}（原）", tofile=f"{name}（更新）"))
        if yes or _confirm(f"寫入 {name}？"):
            result.path.write_bytes(new.encode("utf-8"))
            written.add(result.path)
            print(f"已寫入 {name}")
    if failed:
        print(f"已更新 {len(written)} 案的 期望")
    return written


def _new_text(result: CaseResult) -> str | None:
    """The case's text with its 期望 rewritten, checked to pass; None (and why) if not."""
    from adjudicator.committee.cases import case_name, check_expectations, updated_text
    from adjudicator.language import reader
    from adjudicator.language.errors import LogError

    assert result.ruling is not None
    raw = result.path.read_bytes().decode("utf-8")
    name = case_name(result.path)
    try:
        incident = reader.read(raw.replace("\r\n", "\n"))
        new = updated_text(raw, incident, result.ruling)
        again = reader.read(new.replace("\r\n", "\n"))
    except LogError as err:
        print(f"{name}：改寫後無法讀取，不更新：{err}")
        return None
    left = check_expectations(again.expectations, result.ruling)
    if left:
        print(f"{name}：改寫後仍有不符，不更新：" + "；".join(left))
        return None
    return new


def _confirm(question: str) -> bool:
    try:
        return typer.confirm(question, default=False)
    except typer.Abort:  # no answer (end of input): do not write
        print()
        return False


def _write_junit(target: Path, results: list[CaseResult | MatchCaseResult],
                 seconds: float) -> None:
    from xml.etree import ElementTree as ET

    from adjudicator.committee.cases import case_name

    failures = sum(bool(r.failures) and r.error is None for r in results)
    errors = sum(r.error is not None for r in results)
    counts = {"tests": str(len(results)), "failures": str(failures), "errors": str(errors),
              "skipped": "0", "time": f"{seconds:.3f}"}
    root = ET.Element("testsuites", {"name": "adjudicator check", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": "adjudicator.check", **counts})
    for r in results:
        name = case_name(r.path)
        folder, _, stem = name.rpartition("/")
        case = ET.SubElement(suite, "testcase", {
            "classname": folder.replace("/", ".") or ".", "name": Path(stem).stem,
            "file": name, "time": f"{r.seconds:.3f}"})
        if r.error is not None:
            ET.SubElement(case, "error", {"message": r.error.splitlines()[0],
                                          "type": "CaseError"}).text = r.error
        elif r.failures:
            ET.SubElement(case, "failure", {
                "message": f"{len(r.failures)}／{r.checked} 條期望不符",
                "type": "ExpectationFailure"}).text = "\n".join(r.failures)
    ET.indent(root)
    target.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(target, encoding="utf-8", xml_declaration=True)


def register(app: typer.Typer) -> None:
    app.command()(check)
