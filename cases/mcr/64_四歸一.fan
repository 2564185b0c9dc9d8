# 國標.64 四歸一 (2): four 三萬 in the hand, none of them a kong (123m and 333m).  花龍 8,
# 門前清 2; no honours: 國標.76 無字 (1).  The hand waits on 3m or 5s (雙碰): no 獨聽.
# 333m is completed by a discard, so it is no 暗刻.  8 + 2 + 2 + 1 = 13.
手牌: 123m 456p 789s 33m 55s
和牌: 3m

期望:
花龍 8
門前清 2
四歸一 2
無字 1
合計 13
