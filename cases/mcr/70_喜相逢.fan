# 國標.70 喜相逢 (1): 234m and 234p.  萬 筒 索 風 箭 all present: 國標.51 五門齊 (6).
# 中 completed by a discard: 箭刻 2 (a 明刻).  門前清 2.  Waits 中 or 東 (雙碰): no 獨聽.
# The 東 pair scores nothing.  6 + 2 + 2 + 1 = 11.
手牌: 234m 234p 789s 中中 東東
和牌: 中

期望:
五門齊 6
箭刻 2
門前清 2
喜相逢 1
合計 11
