"""Timing source trees in turn: the shared part of the benches that take --reference.

Each round runs a child program once per tree, in a new process with the tree first on
the path (outside any source tree, so that the tree under test is the package imported);
the child prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def arguments(description: str, n: int, n_help: str) -> argparse.Namespace:
    """N, --rounds and --reference, as every such bench takes them."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("n", nargs="?", type=int, default=n, help=n_help)
    parser.add_argument("--rounds", type=int, default=3, help="processes per tree (3)")
    parser.add_argument("--reference", type=Path, help="another source tree to time too")
    return parser.parse_args()


def trees(args: argparse.Namespace) -> dict[str, Path]:
    """This tree, and the reference when one is given, by the names the benches print."""
    out = {"this tree": ROOT}
    if args.reference is not None:
        out["reference"] = args.reference.resolve()
    return out


def in_turn(code: str, chosen: dict[str, Path], rounds: int,
            *argv: str) -> dict[str, list[dict]]:
    """Each tree's JSON lines from ``code`` (given ``argv``), a round at a time, the trees
    in turn so that load falls on all alike."""
    rows: dict[str, list[dict]] = {name: [] for name in chosen}
    for _ in range(rounds):
        for name, tree in chosen.items():
            rows[name].append(run(code, tree, *argv))
    return rows


def run(code: str, tree: Path, *argv: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                          text=True, env=env, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    return json.loads(proc.stdout)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
