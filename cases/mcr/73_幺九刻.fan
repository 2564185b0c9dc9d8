# 國標.73 幺九刻 (1): 碰 北, a wind that is neither the seat's nor the round's.  花龍 8,
# 單釣將 1.  8 + 1 + 1 = 10.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 碰 北

期望:
花龍 8
幺九刻 1
單釣將 1
合計 10
