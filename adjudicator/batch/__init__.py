"""Judging many logs: sources (folders, globs, JSONL), workers (local processes or Dask),
JSON Lines out, a summary."""

# Logs a worker judges in one clingo run (rules/engine.py's solve_many).  A run's fixed
# cost is shared by its logs, less and less a log as chunks grow (docs/speed.md).  Past 32
# the gain is small against what a chunk costs when it fails together (each of its logs is
# judged again alone) and against the progress bar moving by whole chunks.
CHUNK = 32
