"""``adjudicator judge`` without typer (cli/judging.py) is the typer command by another
road: the same options, the same output, the same refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.cli.judging import LOG_HELP, OPTIONS, Format, plain

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "wrong-pung-priority.log"


def test_the_quick_path_knows_the_options_of_the_typer_command() -> None:
    command = typer.main.get_command(app).commands["judge"]  # type: ignore[attr-defined]
    params = {p.name: p for p in command.params}
    assert params.pop("log").help == LOG_HELP  # type: ignore[attr-defined]
    assert {name: (tuple(p.opts), p.help, p.multiple) for name, p in params.items()
            if name != "help"} == {o.name: (o.flags, o.help, o.many) for o in OPTIONS}


@pytest.mark.parametrize("args", [
    [], ["--help"], ["a.log", "-h"], ["a.log", "b.log"], ["a.log", "--"], ["a.log", "-x", "1"],
    ["a.log", "-f"], ["a.log", "-f", "yaml"], ["a.log", "-f", "json", "-f", "md"],
    ["a.log", "-o", "-"], ["a.log", "-fjson"], ["--format", "json"], [""],
])
def test_anything_but_a_plain_command_line_goes_to_typer(args: list[str]) -> None:
    assert plain(args) is None


def test_a_plain_command_line() -> None:
    assert plain(["a.log", "--format=md", "--set", "x=1", "--set=y=2", "-o", "out.md",
                  "--profile", "tw16"]) == {
        "log": Path("a.log"), "fmt": Format.md, "profile": "tw16", "set_": ["x=1", "y=2"],
        "output": Path("out.md"), "rules": None}
    assert plain(["-"]) == {"log": Path("-"), "fmt": None, "profile": None, "set_": None,
                            "output": None, "rules": None}
    assert plain(["a.log", "--rules", "club.rules"])["rules"] == Path("club.rules")


def _main(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    code = ("import sys\nfrom adjudicator.cli import main\n"
            f"sys.argv = ['adjudicator', 'judge', *{args!r}]\n"
            "try:\n    main()\nfinally:\n"
            "    print('typer' in sys.modules, file=sys.stderr)\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, timeout=120)


@pytest.mark.parametrize("args", [
    [str(LOG), "-f", "json"],
    [str(LOG), "--format=md", "--profile", "tw16-alt"],
    [str(LOG), "-f", "json", "--set", "解釋.攔和=first"],
    [str(LOG)],
    [str(LOG), "-o", "ruling.json"],
    [str(LOG), "--profile", "nope"],
    [str(LOG), "--set", "解釋.沒有這個=1"],
    [str(ROOT / "no-such.log")],
    [str(ROOT / "README.md")],
])
def test_the_quick_path_prints_what_typer_prints(args: list[str], tmp_path: Path) -> None:
    quick_dir, slow_dir = tmp_path / "quick", tmp_path / "typer"
    quick_dir.mkdir()
    slow_dir.mkdir()
    quick = _main(args, quick_dir)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(slow_dir)
        slow = CliRunner().invoke(app, ["judge", *args])
    assert quick.stderr.splitlines()[-1] == "False"  # typer never imported
    assert quick.returncode == slow.exit_code
    assert quick.stdout == slow.stdout
    said = "\n".join(quick.stderr.splitlines()[:-1])
    assert said.strip() == slow.stderr.strip()
    written = sorted(p.name for p in quick_dir.iterdir())
    assert written == sorted(p.name for p in slow_dir.iterdir())
    for name in written:
        assert (quick_dir / name).read_text("utf-8") == (slow_dir / name).read_text("utf-8")


def test_other_command_lines_still_reach_typer() -> None:
    done = _main(["--help"], ROOT)
    assert done.returncode == 0
    assert "用法" in done.stdout and done.stderr.splitlines()[-1] == "True"
    done = _main([str(LOG), "-f", "yaml"], ROOT)
    assert done.returncode == 2 and "yaml" in done.stderr
