"""How the package's modules import: no circles among them, and nothing private of the
standard library or of a library the package depends on (such names change without notice
between versions): no private module or name imported or read, no private keyword or
option (Lark's ``_plugins``) passed."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "adjudicator"
# Whose private names no module may use: the standard library's and those of the
# libraries pyproject.toml pins (by the name they are imported as).
GUARDED = frozenset(sys.stdlib_module_names) | {
    "clingo", "lark", "typer", "click", "rich", "pydantic", "fastapi", "fastapi_offline",
    "starlette", "uvicorn", "uvloop", "httptools", "sqlalchemy", "argon2", "itsdangerous",
    "asgi_csrf", "multipart", "MahjongGB", "dask", "distributed", "psycopg"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, at any depth (functions too: a lazy import is
    still a dependency), but those only a type checker runs."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        todo.extend(child for child in ast.iter_child_nodes(node) if not _type_checking(child))


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _targets(module: str, path: Path) -> set[str]:
    """The package modules ``module`` imports (``from pkg import sub`` imports pkg.sub)."""
    out: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
            continue
        base = _absolute(node, module, path.name == "__init__.py")
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            out.add(sub if sub in MODULES else base)
    return {t for t in out if t in MODULES and t != module}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_of_the_package_imports_itself_round_a_circle() -> None:
    graph = {module: _targets(module, path) for module, path in MODULES.items()}
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _guarded(dotted: str) -> bool:
    return dotted.split(".")[0] in GUARDED


def _private_uses(tree: ast.Module) -> Iterator[str]:
    """Private names of guarded modules a module imports or reads off them."""
    bound: set[str] = set()  # local names of guarded modules
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _guarded(alias.name):
                    if any(map(_private, alias.name.split("."))):
                        yield alias.name
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif node.module and not node.level and _guarded(node.module) and \
                node.module != "__future__":
            if any(map(_private, node.module.split("."))):
                yield node.module
            for alias in node.names:
                if _private(alias.name):
                    yield f"{node.module}.{alias.name}"
                bound.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and \
                isinstance(node.value, ast.Name) and node.value.id in bound:
            yield f"{node.value.id}.{node.attr}"


def _private_options(tree: ast.Module) -> Iterator[str]:
    """Private keywords a call passes (``f(_x=…)``) and private option names a dict
    literal spells (``{"_plugins": …}``, options handed to a library as a dict)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg and _private(node.arg):
            yield node.arg
        elif isinstance(node, ast.Dict):
            yield from (key.value for key in node.keys
                        if isinstance(key, ast.Constant) and isinstance(key.value, str)
                        and _private(key.value) and key.value[1:2].isalpha())


def _found(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted({*_private_uses(tree), *_private_options(tree)} - DOCUMENTED)


# Names that begin with an underscore and are documented public API all the same.
DOCUMENTED = frozenset({"os._exit"})

# The private uses still to be replaced, each by what public API lacks.  The list may only
# shrink: a use gone from its module must leave it too.
KNOWN = {
    # Typer 0.29 vendors click without its gettext and exposes no hook for its words
    # (usage prefix, help option, panel titles, the error panel).
    "adjudicator.cli.chinese": ["rich_utils._get_rich_console", "rich_utils._make_command_help",
                                "typer._click", "typer._click.formatting"],
}


def test_no_module_uses_a_private_name_of_the_standard_library_or_a_dependency() -> None:
    found = {module: _found(path) for module, path in MODULES.items()}
    assert {module: names for module, names in found.items() if names} == KNOWN


def test_the_check_sees_private_names_imported_or_read() -> None:
    text = ("import _sre\nfrom re import _parser\nimport re\nfrom clingo import ast\n"
            "re._compiler\nast._private\nfrom lark import __version__\nre.compile\n")
    assert sorted(_private_uses(ast.parse(text))) == ["_sre", "ast._private", "re._compiler",
                                                      "re._parser"]
    text = ("import typer\nfrom typer import _click\ntyper.Option('--a')\n"
            "Lark(g, _plugins={})\noptions = {'_plugins': {}, 'parser': 'lalr', '__x__': 1}\n")
    tree = ast.parse(text)
    assert sorted({*_private_uses(tree), *_private_options(tree)}) == ["_plugins", "typer._click"]
