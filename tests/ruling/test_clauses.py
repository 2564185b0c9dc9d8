"""Every clause id the rules cite is one of rulebook.md's (adjudicator/ruling/clauses.py)."""

from __future__ import annotations

import re

from adjudicator.rules.files import all_chapters
from adjudicator.ruling.clauses import CLAUSES

QUOTED = re.compile(r'"([^"]+)"')
CLAUSE_LIKE = re.compile(
    r"^(台\.\d+|禁制\.\d|錯杠\.|錯碰\.|錯打明牌\.|優先\.|罰則\.|平台\.|詐和\.|粵)")
# A rule head that names a clause: its last quoted word is the clause id.
CLAUSE_HEAD = re.compile(r"^\s*\w*_clause\([^:]*\"([^\"]+)\"\)\s*:-")


def test_every_cited_clause_is_known() -> None:
    unknown = set()
    for path in all_chapters():
        for line in path.read_text("utf-8").splitlines():
            code = line.split("%", 1)[0]
            for word in QUOTED.findall(code):
                if CLAUSE_LIKE.match(word) and word not in CLAUSES:
                    unknown.add((path.name, word))
            head = CLAUSE_HEAD.match(code)
            if head and head.group(1) not in CLAUSES:
                unknown.add((path.name, head.group(1)))
    assert not unknown


def test_the_rulebook_ids_are_all_listed() -> None:
    ids = {f"台.{n}" for n in range(1, 37)} | {f"禁制.{n}" for n in range(1, 9)}
    ids |= {f"優先.{n}" for n in range(1, 9)} | {"罰則.1", "罰則.2", "詐和.1", "詐和.2", "詐和.3"}
    ids |= {f"錯杠.暗.{n}" for n in (1, 2, 3)} | {f"錯杠.加.{n}" for n in range(4)}
    ids |= {f"錯杠.碰.{n}" for n in range(4)} | {"錯碰.1", "錯碰.2"}
    ids |= {f"錯打明牌.{n}" for n in range(1, 5)}
    assert ids <= set(CLAUSES)
