"""The command line's own words in Chinese: usage, help panels, and the errors of parsing.

typer 0.29 vendors its own click (typer._click) without gettext, so its words cannot be
swapped through a message catalogue.  They live in three places, each replaced here once,
before the app runs: the fixed strings of typer.rich_utils (panel titles, [預設], [必填]),
the usage prefix of the help formatter, and the error panel, whose English message is
matched against the few forms click produces and said again in Chinese.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import re
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from typer import _click
from typer._click.formatting import HelpFormatter

# rich and typer.rich_utils (with markdown_it) load only when typer prints help or
# an error: a command that runs does not need them.  Their words are put in place the
# moment typer imports rich_utils (_RichUtilsFinder).
RICH_UTILS = "typer.rich_utils"

HELP_TEXT = "顯示這份說明後結束。"
# Rich folds help at the console's width; a pipe has none and rich would take 80.
PIPE_WIDTH = 120

# A pattern and the Chinese of its match; re compiles a pattern (and keeps it) only when
# an error is shown, which a command that runs never does.
_Rule = tuple[str, Callable[[re.Match[str]], str]]


def _mean(extra: str | None) -> str:
    """「你是不是要用 …」 for click's "Did you mean …?" tail, or nothing."""
    if not extra:
        return ""
    words = re.findall(r"'([^']+)'|(--?[\w-]+)", extra)
    named = "、".join(a or b for a, b in words) or extra
    return f"；是不是要用 {named}？"


def _quoted(text: str) -> str:
    return "、".join(re.findall(r"'([^']*)'", text)) or text


# English message of the vendored click → Chinese.  Anything unmatched is shown as it is:
# better an English line than a lost one.
_RULES: tuple[_Rule, ...] = (
    (r"No such option: (\S+?)(?:\s+(?:Did you mean (.+?)\?|\(Possible options?: "
     r"(.+?)\)))?$",
     lambda m: f"沒有 {m[1]} 這個選項{_mean(m[2] or m[3])}"),
    (r"Option '(.+?)' requires an argument\.?",
     lambda m: f"選項 {m[1]} 後面要寫一個值"),
    (r"Option '(.+?)' requires (\d+) arguments\.?",
     lambda m: f"選項 {m[1]} 後面要寫 {m[2]} 個值"),
    (r"Missing argument '(.+?)'\.?(.*)",
     lambda m: f"少了參數 {m[1]}（見 --help）"),
    (r"Missing option '(.+?)'\.?(.*)",
     lambda m: f"少了選項 {m[1]}"),
    (r"No such command '(.+?)'\.?(?:\s*Did you mean (.+?)\?)?$",
     lambda m: f"沒有「{m[1]}」這個指令{_mean(m[2])}"),
    (r"Missing command\.?", lambda m: "少了指令（judge、check、score …）"),
    (r"Invalid value for (.+?): (?:Value error, )?'(.*?)' is not one of (.+?)\.?$",
     lambda m: f"{_quoted(m[1])} 不能是「{m[2]}」，只能是 {_quoted(m[3])}"),
    (r"(?s)Invalid value for (.+?): (.+)$",
     lambda m: f"{_quoted(m[1])} 的值不對：{_value_words(m[2])}"),
    (r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)",
     lambda m: f"多寫了參數：{m[1]}"),
    (r"Option '(.+?)' does not take a value\.?",
     lambda m: f"選項 {m[1]} 後面不寫值"),
)


def _value_words(text: str) -> str:
    found = re.match(r"'(.*?)' is not a valid (integer|float)", text)
    if found:
        return f"「{found[1]}」不是數字"
    found = re.match(r"(?:File|Path|Directory) '(.*?)' does not exist", text)
    if found:
        return f"沒有「{found[1]}」這個檔案或資料夾"
    return text


def translate(message: str) -> str:
    """The Chinese of one of click's usage messages (unknown forms come back unchanged)."""
    for pattern, words in _RULES:
        found = re.match(pattern, message.strip())
        if found:
            return words(found)
    return message


def _usage(text: str) -> str:
    return (text.replace("Usage:", "用法：").replace("[OPTIONS]", "[選項]")
            .replace("COMMAND [ARGS]...", "指令 [參數]..."))


def _format_error(error: _click.ClickException) -> None:
    from rich.markup import escape
    from rich.panel import Panel
    from rich.text import Text
    from typer import rich_utils

    if type(error).__name__ == "NoArgsIsHelpError":
        return
    console = rich_utils._get_rich_console(stderr=True)
    ctx: _click.Context | None = getattr(error, "ctx", None)
    if ctx is not None:
        console.print(Text(_usage(ctx.get_usage())), style=rich_utils.STYLE_USAGE_COMMAND)
        console.print(f"說明請看 {escape(ctx.command_path)} --help",
                      style=rich_utils.STYLE_ERRORS_SUGGESTION)
    console.print(Panel(escape(translate(error.format_message())), title="錯誤",
                        border_style=rich_utils.STYLE_ERRORS_PANEL_BORDER, title_align="left"))


def _write_usage(original: Callable[..., None]) -> Callable[..., None]:
    def write_usage(self: HelpFormatter, prog: str, args: str = "",
                    prefix: str | None = None) -> None:
        original(self, prog, _usage(args), "用法： " if prefix is None else prefix)
    return write_usage


def _help_option(original: Callable[..., Any]) -> Callable[..., Any]:
    def get_help_option(self: _click.Command, ctx: _click.Context) -> Any:
        option = original(self, ctx)
        if option is not None:
            option.help = HELP_TEXT
        return option
    return get_help_option


def _folded_help(original: Callable[..., Any]) -> Callable[..., Any]:
    # A command's summary in the commands panel is cut with "…" where it meets the edge:
    # Chinese has no spaces to wrap at, so fold it instead.
    def make_command_help(**kwargs: Any) -> Any:
        from rich.text import Text

        text = original(**kwargs)
        if isinstance(text, Text):
            text.overflow = "fold"
        return text
    return make_command_help


_DONE: list[bool] = []


def install() -> None:
    """Put the Chinese words in place (once per process)."""
    if _DONE:
        return
    _DONE.append(True)
    HelpFormatter.write_usage = _write_usage(HelpFormatter.write_usage)  # type: ignore[method-assign]
    _click.Command.get_help_option = _help_option(  # type: ignore[method-assign]
        _click.Command.get_help_option)
    if RICH_UTILS in sys.modules:
        _words(sys.modules[RICH_UTILS])
    else:
        sys.meta_path.insert(0, _RichUtilsFinder())


def _words(rich_utils: ModuleType) -> None:
    rich_utils.ARGUMENTS_PANEL_TITLE = "參數"
    rich_utils.OPTIONS_PANEL_TITLE = "選項"
    rich_utils.COMMANDS_PANEL_TITLE = "指令"
    rich_utils.ERRORS_PANEL_TITLE = "錯誤"
    rich_utils.DEFAULT_STRING = "[預設：{}]"
    rich_utils.REQUIRED_LONG_STRING = "[必填]"
    rich_utils.ENVVAR_STRING = "[環境變數：{}]"
    rich_utils.ABORTED_TEXT = "已中止。"
    rich_utils.DEPRECATED_STRING = "（已停用）"
    rich_utils.RICH_HELP = "說明請看 [blue]{command_path} {help_option}[/]"
    if rich_utils.MAX_WIDTH is None and not sys.stdout.isatty() and "COLUMNS" not in os.environ:
        rich_utils.MAX_WIDTH = PIPE_WIDTH
    rich_utils.rich_format_error = _format_error
    rich_utils._make_command_help = _folded_help(rich_utils._make_command_help)


class _RichUtilsFinder(importlib.abc.MetaPathFinder):
    """Finds typer.rich_utils as the path finder does, and puts the words in once it has
    run (then steps aside)."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name != RICH_UTILS:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _words(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec
