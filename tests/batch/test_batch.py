"""The batch engine: the same rulings as the single-log judge, JSONL out, resume, errors."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.batch.run import run
from adjudicator.batch.sources import expand
from adjudicator.batch.work import judge_chunk
from adjudicator.cli.commands import app

ROOT = Path(__file__).resolve().parents[2]


def _outcome(line: dict) -> dict:
    return {k: v for k, v in line.items() if k != "ms"}


def test_batch_equals_single_over_the_case_corpus() -> None:
    items = [(i.name, i.text, i.error) for i in expand([str(ROOT / "cases")])
             if not i.name.endswith(".match")]  # a match is judged whole: test_match_batch
    assert len(items) > 200
    single = judge_chunk(items, None, {}, many=False)
    many: list[dict] = []
    for start in range(0, len(items), 40):
        many += judge_chunk(items[start:start + 40], None, {})
    assert [line["source"] for line in many] == [line["source"] for line in single]
    differ = [a["source"] for a, b in zip(single, many, strict=True) if _outcome(a) != _outcome(b)]
    assert differ == []
    assert sum("error" not in line for line in many) > 200


def test_each_chunk_of_the_case_corpus_is_solved_together() -> None:
    # A chunk that fails falls back to each log alone, with the same rulings: only the
    # time would show a chunk path broken for good logs, so its failing is tested here.
    from collections import defaultdict

    from adjudicator.language.errors import LogError
    from adjudicator.language.json_form import read_any
    from adjudicator.rules import engine
    from adjudicator.ruling.pipeline import Pipeline

    pipeline = Pipeline()
    groups: dict = defaultdict(list)
    for item in expand([str(ROOT / "cases")]):
        if item.text is None or item.name.endswith(".match"):
            continue
        try:
            ready = pipeline.prepare(read_any(item.text))
        except LogError:
            continue
        groups[ready.rules].append(ready.facts)
    assert sum(map(len, groups.values())) > 200
    for rules, facts in groups.items():
        for start in range(0, len(facts), 40):
            answers = engine.solve_many(facts[start:start + 40], rules.profile)
            assert len(answers) == len(facts[start:start + 40])


def test_a_bad_log_is_a_line_with_its_error_not_a_stop() -> None:
    good = (ROOT / "cases" / "calls" / "called_and_punged.case").read_text(encoding="utf-8")
    items = [("good", good, None), ("broken", "紀錄:\n1 東 打 十萬\n", None),
             ("missing", None, "沒有這個檔案"),
             ("no profile", "規則: nope\n紀錄:\n1 東 摸\n", None)]
    lines = judge_chunk(items, None, {})
    assert [line["source"] for line in lines] == ["good", "broken", "missing", "no profile"]
    assert lines[0]["status"] == "decided"
    assert "第 2 行" in lines[1]["error"]
    assert lines[2]["error"] == "沒有這個檔案"
    assert "nope" in lines[3]["error"]


def _corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("calls/called_and_punged.case", "calls/called_not_punged.case",
                 "golden/false_win_xianggong.log", "golden/contradiction.log"):
        src = ROOT / "cases" / name
        (folder / src.name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "bad.log").write_text("規則: tw16\n紀錄:\n1 東 吃\n", encoding="utf-8")
    return folder


def test_cli_writes_jsonl_and_a_summary_and_resumes(tmp_path: Path) -> None:
    folder = _corpus(tmp_path)
    jsonl = tmp_path / "more.jsonl"
    log = (folder / "called_and_punged.case").read_text(encoding="utf-8")
    jsonl.write_text(json.dumps({"name": "from-jsonl", "log": log}, ensure_ascii=False)
                     + "\nnot json\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["batch", str(folder), str(jsonl), "-o", str(out),
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 7
    by_source = {line["source"]: line for line in lines}
    assert by_source["from-jsonl"]["status"] == "decided"
    assert "error" in by_source[str(folder / "bad.log")]
    assert "error" in by_source[f"{jsonl}:2"]
    assert by_source[str(folder / "contradiction.log")]["status"] == "inconsistent"
    assert "裁決 7 份" in result.output and "error 2" in result.output
    # Interrupted: the last two lines lost (one cut in half); --resume judges only those.
    kept = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(kept[:5]) + "\n" + kept[5][:20], encoding="utf-8")
    result = runner.invoke(app, ["batch", str(folder), str(jsonl), "-o", str(out), "--resume",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "略過 5 份" in result.output and "裁決 2 份" in result.output
    again = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(line["source"] for line in again) == sorted(by_source)


def test_local_processes_give_the_in_process_lines(tmp_path: Path) -> None:
    items = list(expand([str(_corpus(tmp_path))]))
    alone: list[dict] = []
    pooled: list[dict] = []
    run(items, alone.append, workers=1)
    run(items, pooled.append, workers=2, chunk_size=2)
    key = lambda line: line["source"]  # noqa: E731
    assert sorted(map(_outcome, alone), key=key) == sorted(map(_outcome, pooled), key=key)
    # Each worker replaced after every chunk: fresh processes give the same lines.
    renewed: list[dict] = []
    run(items, renewed.append, workers=2, chunk_size=2, recycle=2)
    assert sorted(map(_outcome, alone), key=key) == sorted(map(_outcome, renewed), key=key)


# distributed patches exception pickling for the whole process once imported (tblib), which
# other tests then see: the cluster and the command that uses it live in a child process.
_DASK_RUN = """
import sys
from distributed import LocalCluster
from typer.testing import CliRunner
from adjudicator.cli.commands import app

with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                  dashboard_address=None) as cluster:
    result = CliRunner().invoke(app, ["batch", sys.argv[1], "-o", sys.argv[2],
                                      "--scheduler", cluster.scheduler_address])
assert result.exit_code == 0, result.output
"""


def test_a_dask_cluster_gives_the_local_lines(tmp_path: Path) -> None:
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("distributed is not installed (pip install -e '.[dask]')")
    folder = _corpus(tmp_path)
    # A whole match travels to a worker as one unit and comes back a line per hand.
    match = ROOT / "cases" / "matches" / "east_round.match"
    (folder / match.name).write_text(match.read_text(encoding="utf-8"), encoding="utf-8")
    here, there = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    result = CliRunner().invoke(app, ["batch", str(folder), "-o", str(here), "--workers", "1"])
    assert result.exit_code == 0, result.output
    subprocess.run([sys.executable, "-c", _DASK_RUN, str(folder), str(there)],
                   capture_output=True, text=True, timeout=300, check=True)
    local, remote = ([json.loads(x) for x in p.read_text("utf-8").splitlines()]
                     for p in (here, there))
    hands = [line for line in local if line.get("match")]
    assert len(hands) == 9 and hands[-1]["end"] is True
    assert len(remote) == len(local) == 5 + len(hands)
    key = lambda line: line["source"]  # noqa: E731
    assert sorted(map(_outcome, remote), key=key) == sorted(map(_outcome, local), key=key)


def test_diff_tells_a_citation_change_from_a_verdict_change() -> None:
    import dataclasses

    from adjudicator.committee.diff import compare
    from adjudicator.ruling.judge import judge_text

    ruling = judge_text((ROOT / "examples" / "wrong-pung-priority.log").read_text(encoding="utf-8"))
    assert ruling.findings
    cited = dataclasses.replace(ruling, findings=[
        dataclasses.replace(f, clauses=(*f.clauses, "罰則.1")) for f in ruling.findings])
    assert compare(ruling, cited) and not compare(ruling, cited, citations=False)
    fewer = dataclasses.replace(ruling, findings=ruling.findings[1:])
    assert compare(ruling, fewer, citations=False)
