"""The command line's own messages are Chinese like the rest, and --help is not cut."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.cli.chinese import translate

ROOT = Path(__file__).resolve().parents[2]
LOG = "cases/golden/priority_substitute.log"


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH")}
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**environment, **env})


def test_unknown_option_is_said_in_chinese_with_the_near_one() -> None:
    done = _cli("judge", "--fromat", "json", LOG)
    assert done.returncode == 2
    assert "沒有 --fromat 這個選項；是不是要用 --format？" in done.stderr
    assert "用法：" in done.stderr and "judge [選項]" in done.stderr
    assert "No such option" not in done.stderr and "Usage" not in done.stderr


def test_missing_argument_and_missing_value() -> None:
    done = _cli("judge")
    assert done.returncode == 2 and "少了參數 log" in done.stderr
    done = _cli("judge", LOG, "-f")
    assert done.returncode == 2 and "選項 -f 後面要寫一個值" in done.stderr


def test_bad_choice_and_unknown_command() -> None:
    done = _cli("judge", LOG, "-f", "docx")
    assert done.returncode == 2
    assert "不能是「docx」，只能是 text、json、md、html、pdf" in done.stderr
    done = _cli("judg", LOG)
    assert done.returncode == 2 and "沒有「judg」這個指令；是不是要用 judge？" in done.stderr


def test_help_is_chinese_and_not_cut_when_piped() -> None:
    done = _cli("--help")
    assert done.returncode == 0
    out = done.stdout
    for word in ("用法：", "選項", "指令", "顯示這份說明後結束。"):
        assert word in out
    assert "…" not in out and "Show this message" not in out
    # Every command's summary is there whole, on one line.
    assert "條款涵蓋：列出每個條款編號及裁決引用它的案例，並列出沒有案例涵蓋的條款。" in out
    judge = _cli("judge", "--help").stdout
    assert "[預設：" in judge or "[必填]" in judge
    assert "Arguments" not in judge and "Options" not in judge


@pytest.mark.parametrize(("english", "chinese"), [
    ("Got unexpected extra argument (x)", "多寫了參數：x"),
    ("Missing command.", "少了指令（judge、check、score …）"),
    ("Something click may add later", "Something click may add later"),
])
def test_translate(english: str, chinese: str) -> None:
    assert translate(english) == chinese


def test_judging_to_json_does_not_load_rich() -> None:
    # Cold start: rich (with markdown_it) loads only when typer prints help or an error.
    code = ("import sys\nfrom adjudicator.cli import main\n"
            f"sys.argv = ['adjudicator', 'judge', {LOG!r}, '-f', 'json']\n"
            "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code\n"
            "print(sorted(m for m in ('rich', 'typer.rich_utils', 'markdown_it')"
            " if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_app_of_a_command_line_holds_the_command_it_names() -> None:
    from typer.main import get_command

    from adjudicator.cli.commands import MODULES, build

    every = get_command(build())
    assert sorted(every.commands) == sorted(MODULES)  # type: ignore[attr-defined]
    for name, module in MODULES.items():
        alone = get_command(build([name, "--help"]))
        assert name in alone.commands  # type: ignore[attr-defined]
        assert {MODULES[n] for n in alone.commands} == {module}  # type: ignore[attr-defined]
    assert sorted(get_command(build(["judg"])).commands) == sorted(MODULES)  # type: ignore[attr-defined]
