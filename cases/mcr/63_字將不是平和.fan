# The other side of 國標.63: the pair is 北, an honour, so four chows are no 平和.
# 花龍 8, 門前清 2, 單釣將 1 (北 waits alone).  234s beside 789s makes no 連六.
# Honours present: no 無字.  8 + 2 + 1 = 11.
手牌: 123m 456p 789s 234s 北
和牌: 北

期望:
花龍 8
門前清 2
單釣將 1
合計 11
