"""Judging many logs: sources (folders, globs, JSONL), workers (local processes or Dask),
JSON Lines out, a summary."""

# Logs a worker judges in one clingo run (rules/multi.py).  A run's fixed cost is shared
# by its logs: on the bench corpus the rules' step took some 25 / 23 / 20 / 18 ms of CPU a
# log in chunks of 8 / 16 / 32 / 64.  Past 32 the gain is small against what a chunk
# costs when it fails together (each of its logs is judged again alone) and against the
# progress bar moving by whole chunks.
CHUNK = 32
