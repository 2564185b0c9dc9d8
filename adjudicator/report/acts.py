"""An act as the record language writes it: the words a reason and a report quote.

Apart from report/model.py so that judging (ruling/reasons) quotes acts without loading
the report's model, which a JSON ruling never builds.
"""

from __future__ import annotations

from adjudicator.language import tiles as T
from adjudicator.language.incident import Act


def act_words(act: Act) -> str:
    """An act as the record language writes it, without its sequence number."""
    parts: list[str] = [str(act.actor), act.verb]
    if act.target is not None:
        parts.append(act.target)
    if act.what is not None:
        parts.append(act.what)
    if act.tiles:
        parts.append(T.names(act.tiles))
    if act.using:
        parts += ["用", T.names(act.using)]
    if act.replacement is not None:
        parts += ["補", T.name(act.replacement)]
    text = " ".join(parts)
    return text + (f"（{act.note}）" if act.note else "")
