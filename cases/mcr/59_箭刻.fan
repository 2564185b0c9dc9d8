# 國標.59 箭刻 (2): 碰 紅中 (a dragon pung is 箭刻, not 幺九刻 as well).  123m 456p 789s:
# 國標.39 花龍 (8).  五索 waits alone as the pair: 國標.79 單釣將 (1).  A pung shown: no
# 門前清; an honour present: no 無字.  8 + 2 + 1 = 11.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 碰 紅中

期望:
花龍 8
箭刻 2
單釣將 1
合計 11
