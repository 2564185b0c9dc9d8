"""What a worker does with a chunk of items: judge each, return one output line per item.

Module-level functions of plain arguments, so that local worker processes and Dask
workers can both run them.  An error in one log is that log's line, never the chunk's end.
"""

from __future__ import annotations

import time
from typing import Any

Line = dict[str, Any]


def judge_one(name: str, text: str | None, error: str | None, profile: str | None,
              settings: dict[str, str]) -> Line:
    """The output line of one log: ``source`` and the ruling (ruling-json.md), or ``error``."""
    from adjudicator.language.errors import LogError
    from adjudicator.language.json_form import FormError, read_any
    from adjudicator.ruling.judge import judge
    from adjudicator.ruling.model import to_dict

    if error is not None or text is None:
        return {"source": name, "error": error or "沒有內容"}
    start = time.perf_counter()
    try:
        ruling = judge(read_any(text), profile=profile, settings=settings)
    except (LogError, FormError) as err:
        return {"source": name, "error": str(err)}
    except Exception as err:  # a bug in one judgement must not end the run; it is reported
        return {"source": name, "error": f"內部錯誤（{type(err).__name__}）：{err}"}
    return {"source": name, **to_dict(ruling), "ms": round((time.perf_counter() - start) * 1000, 1)}


def judge_chunk(items: list[tuple[str, str | None, str | None]], profile: str | None,
                settings: dict[str, str]) -> list[Line]:
    return [judge_one(name, text, error, profile, settings) for name, text, error in items]
