"""``adjudicator batch``: judge many logs, one JSON ruling a line, a summary at the end."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from adjudicator.batch import CHUNK
from adjudicator.cli.options import Rules, Settings, fail, known_profile, run_rules, settings
from adjudicator.desk import RECYCLE

if TYPE_CHECKING:
    pass


def batch(
    paths: Annotated[list[str], typer.Argument(
        help="紀錄檔、將的紀錄檔（.match）、資料夾、萬用字元（如 'logs/**/*.log'）"
             "或 JSONL（每行一份紀錄）")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="寫入此 JSONL 檔（預設印到標準輸出）")] = None,
    resume: Annotated[bool, typer.Option(
        help="略過 -o 檔中已有的紀錄（中斷後接著做）")] = False,
    profile: Annotated[str | None, typer.Option(help="規則（覆蓋各紀錄的 規則:）")] = None,
    set_: Settings = None,
    rules: Rules = None,
    workers: Annotated[int | None, typer.Option(
        help="本機工作行程數（預設：所有核心；1 表示在本行程內）")] = None,
    scheduler: Annotated[str | None, typer.Option(
        help="改送到 Dask 分散式叢集，如 tcp://10.0.0.5:8786")] = None,
    chunk: Annotated[int, typer.Option(help="每次送給工作行程的紀錄數")] = CHUNK,
    recycle: Annotated[int, typer.Option(
        help="本機工作行程每裁決這麼多份紀錄就換新一個（由暖好的主行程再分出；"
             "記憶體不再增長；0：不換）")] = RECYCLE,
    summary_json: Annotated[Path | None, typer.Option(
        "--summary-json", help="另把摘要寫成 JSON 檔")] = None,
) -> None:
    """整批裁決：每份紀錄一行 JSON 裁決（ruling-json.md 加 source），最後印出摘要。

    .match 檔整將依序裁決，每盤一行（source 為「檔名#盤號」，另有 match、hand、deal、
    by_name、totals；最後一行 end 為 true）。無法讀或無法裁決的紀錄也是一行（含 error），
    不會中止整批。
    """
    from adjudicator.batch.matches import is_match, run_matches
    from adjudicator.batch.run import run
    from adjudicator.batch.sources import expand
    from adjudicator.batch.summary import Summary
    from adjudicator.cli.progress import bar

    known_profile(profile)
    house = run_rules(profile, rules)
    if resume and output is None:
        fail("--resume 需要 -o 輸出檔")
    if chunk < 1 or (workers is not None and workers < 1):
        fail("--chunk 與 --workers 須是正整數")
    if recycle < 0:
        fail("--recycle 須是 0 或正整數")
    run_settings = settings(set_)
    items = list(expand(paths))
    if not items:
        fail("找不到任何紀錄：" + "、".join(paths))
    done = _already_done(output) if resume and output is not None else set()
    todo = [i for i in items if i.name not in done]
    summary = Summary()
    sink = _open(output, append=resume)
    start = time.perf_counter()
    try:
        with bar(len(todo)) as advance:
            def on_line(line: dict[str, Any]) -> None:
                sink.write(json.dumps(line, ensure_ascii=False) + "\n")
                summary.add(line)
                if "match" not in line or line.get("end"):  # the bar counts files
                    advance(1)

            logs = [i for i in todo if not is_match(i)]
            run(logs, on_line, profile=profile, settings=run_settings, workers=workers,
                scheduler=scheduler, chunk_size=chunk, recycle=recycle, house=house)
            run_matches([i for i in todo if is_match(i)], on_line, profile=profile,
                        settings=run_settings, workers=workers, scheduler=scheduler,
                        house=house)
    finally:
        if sink is not sys.stdout:
            sink.close()
        else:
            sink.flush()
    seconds = time.perf_counter() - start
    if done:
        print(f"略過 {len(items) - len(todo)} 份已裁決的紀錄（{output}）", file=sys.stderr)
    for line in summary.lines(seconds):
        print(line, file=sys.stderr)
    if summary_json is not None:
        summary_json.write_text(json.dumps({**summary.to_dict(), "seconds": round(seconds, 3)},
                                           ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _already_done(output: Path) -> set[str]:
    """Sources OUT already has; a line cut off by an interruption is dropped from the file,
    and so are the lines of a match whose last line (``end``) is missing."""
    if not output.exists():
        return set()
    done: set[str] = set()
    read: list[tuple[str, dict[str, Any]]] = []
    for line in output.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
            done.add(data.get("match") if data.get("end") else data["source"])
            read.append((line, data))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
            continue
    kept = [line for line, data in read if "match" not in data or data["match"] in done]
    output.write_text("".join(k + "\n" for k in kept), encoding="utf-8")
    return done


def _open(output: Path | None, append: bool) -> IO[str]:
    if output is None:
        return sys.stdout
    try:
        return output.open("a" if append else "w", encoding="utf-8")
    except OSError as err:
        fail(f"無法寫入 {output}：{err}")
        raise  # not reached


def register(app: typer.Typer) -> None:
    app.command()(batch)
