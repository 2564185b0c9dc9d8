"""Tools for rule committees: judged cases, diffs between readings, coverage."""
