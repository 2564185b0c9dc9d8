# 國標.65 雙同刻 (2): 碰 五萬 and 碰 五筒, same number, two suits.  Four pungs: 國標.48 碰碰和
# (6).  Only 二 to 八: 斷幺 2 (不計 無字).  四筒 alone: 單釣將 1.  666s is one 暗刻 only.
# 6 + 2 + 2 + 1 = 11.
手牌: 666s 4p
和牌: 4p
門前: 碰 五萬 / 碰 五筒 / 碰 二索

期望:
碰碰和 6
雙同刻 2
斷幺 2
單釣將 1
合計 11
