"""The report's sections in words, once: their titles, the line that says what a section
lists, what stands when it lists nothing, and its table's column heads.

The terminal, Markdown and HTML renderers each lay the sections out their own way but
read their words here, so a heading renamed is renamed in every format.
"""

from __future__ import annotations

from dataclasses import dataclass

# A table's column counted in the win's unit (台, or 粵's 番) is named by it.
UNIT = "{unit}"


@dataclass(frozen=True)
class Section:
    title: str
    intro: str = ""  # the line under the title saying what the items are
    empty: str = ""  # what stands instead when there is nothing to list
    columns: tuple[str, ...] = ()  # the heads of the section's table

    def head(self, unit: str = "台") -> list[str]:
        """The column heads, the unit column named by ``unit``."""
        return [unit if column == UNIT else column for column in self.columns]


REPORT = Section("裁決報告")
VERDICT = Section("結論")
TIMELINE = Section("經過", "◆ 裁決所在之手　◇ 理由所依之手　⚠ 相互矛盾之行",
                   columns=("行", "手", "紀錄", "裁決"))
FINDINGS = Section("認定與理由", empty="無違規認定。")
WINS = Section("和牌")
# A win's patterns: a table inside the win, under no heading of its own.
PATTERNS = Section("", columns=("牌型", UNIT, "條款"))
PAYMENTS = Section("賠付", empty="無賠付。",
                   columns=("付", "收", "金額", UNIT, "事由", "代誰付", "條款", "手"))
BALANCES = Section("收支")
HAND = Section("本盤與下盤")
INTERPRETATIONS = Section("所依解釋", columns=("解釋點", "問題", "所採讀法"))
UNCERTAIN = Section("待查明", "以下結論只在某些情形成立；請向牌桌查明所列事實。")
# Under one possibility of an open fact: what then follows besides the decided ruling.
THEN_PAYMENTS = Section("此時另有賠付")
THEN_BALANCES = Section("此時收支")
PROBLEMS = Section("紀錄矛盾", "下列各行不可能同時為真；裁決只就其餘部分作成。",
                   columns=("行", "紀錄"))
GLOSSARY = Section("引用條款", columns=("條款", "大意"))
SIGNATURES = Section("簽名", "以上裁決經宣讀，簽名者確認已知悉。")
