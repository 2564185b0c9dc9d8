"""Judging many logs: sources (folders, globs, JSONL), workers (local processes or Dask),
JSON Lines out, a summary."""
