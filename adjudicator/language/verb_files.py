"""The files made from the verb table (vocabulary.VERB_TABLE), and the command that writes
them: ``python -m adjudicator.language.verb_files``.

- asp/verb_class.lp: ``verb_class(Property, Verb)`` for every property of every verb;
- grammar/incident.lark: the act terminals, between its two "generated" marker lines, each
  spelling every verb of its group with the variant characters the reader maps back
  (vocabulary.canonical);
- language/incident.schema.json (shipped; docs/incident.schema.json links to it): the verbs
  an event may name.

tests/language/test_vocabulary.py fails when a file differs from what is made here.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

from adjudicator.language.vocabulary import (
    ACT_TERMINALS,
    CANONICAL_CHARS,
    KINDS,
    PROPERTIES,
    VERB_TABLE,
    kind_of,
    properties_of,
    terminal_of,
)

BEGIN = "// ---- acts, by what may follow them: generated from the verb table (python -m " \
        "adjudicator.language.verb_files)"
END = "// ---- end of the generated acts"


def verb_class_lp() -> str:
    """The text of asp/verb_class.lp."""
    lines = ["% Generated from adjudicator/language/vocabulary.py (python -m",
             "% adjudicator.language.verb_files): edit the verb table there, not here.",
             "% verb_class(Property, Verb): Verb (act/4's canonical word) has Property."]
    for name in PROPERTIES:
        line = ""
        for verb in (v for v in VERB_TABLE if name in properties_of(v)):
            fact = f'verb_class({name}, "{verb}").'
            if line and len(line) + 1 + len(fact) > 90:  # characters, not columns
                lines.append(line)
                line = ""
            line = f"{line} {fact}" if line else fact
        lines.append(line)
    return "\n".join(lines) + "\n"


def _variants() -> dict[str, str]:
    """Each canonical character and the characters the reader maps onto it."""
    out: dict[str, str] = {}
    for variant, canon in CANONICAL_CHARS.items():
        out[canon] = out.get(canon, canon) + variant
    return out


def spelling(word: str) -> str:
    """A regular expression for ``word`` in every accepted spelling (明杠 → 明[杠槓])."""
    variants = _variants()
    return "".join(f"[{variants[c]}]" if c in variants else re.escape(c) for c in word)


def _longer_first(verbs: list[str]) -> list[str]:
    """``verbs`` in table order, but each before any verb that begins it (觸及海內牌 before
    觸及): a regular expression takes the first alternative that matches."""
    ordered: list[str] = []
    for verb in verbs:
        at = next((k for k, u in enumerate(ordered) if verb.startswith(u)), len(ordered))
        ordered.insert(at, verb)
    return ordered


def act_terminals() -> str:
    """The grammar's act terminals, one line each, between the marker lines."""
    lines = [BEGIN]
    for terminal in ACT_TERMINALS:
        verbs = _longer_first([v for v in VERB_TABLE if terminal_of(v) == terminal])
        written = [spelling(v) for v in verbs]
        if len(written) == 1 and written[0] == verbs[0]:
            pattern = f'"{verbs[0]}"'
        else:
            pattern = "/" + "|".join(written) + "/"
        lines.append(f"{terminal}: {pattern}")
    lines.append(END)
    return "\n".join(lines)


def grammar_path() -> Path:
    return Path(str(files("adjudicator.grammar"))) / "incident.lark"


def verb_class_path() -> Path:
    return Path(str(files("adjudicator.asp"))) / "verb_class.lp"


def schema_path() -> Path:
    """The JSON form's schema, shipped in the package (docs/incident.schema.json links here)."""
    return Path(__file__).resolve().parent / "incident.schema.json"


def with_act_terminals(grammar: str) -> str:
    """The grammar text with its generated block made anew."""
    head, rest = grammar.split(BEGIN + "\n", 1)
    _, tail = rest.split(END + "\n", 1)
    return head + act_terminals() + "\n" + tail


def schema_verbs() -> dict[str, object]:
    """The schema's ``verb`` property: the verbs, and their kinds in its description."""
    by_kind = {k: [v for v in VERB_TABLE if kind_of(v) == k] for k in KINDS}
    described = "; ".join(f"{KINDS[k]}: {' '.join(vs)}" for k, vs in by_kind.items() if vs)
    return {"enum": list(VERB_TABLE),
            "description": f"the act's canonical word (杠 not 槓, 和 not 胡) — {described}"}


def with_schema_verbs(schema: str) -> str:
    data = json.loads(schema)
    data["$defs"]["event"]["properties"]["verb"] = schema_verbs()
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_all() -> None:
    verb_class_path().write_text(verb_class_lp(), encoding="utf-8")
    grammar = grammar_path()
    grammar.write_text(with_act_terminals(grammar.read_text(encoding="utf-8")),
                       encoding="utf-8")
    schema = schema_path()
    if schema.exists():
        schema.write_text(with_schema_verbs(schema.read_text(encoding="utf-8")),
                          encoding="utf-8")


if __name__ == "__main__":
    write_all()
