# 國標.60 圈風刻 (2): 碰 南 in the 南 round, the winner sitting 東 (so not 門風刻 too, and a
# wind pung that scores as 圈風刻 is not 幺九刻).  花龍 8, 單釣將 1 as in 59_箭刻.
# 8 + 2 + 1 = 11.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 碰 南
門風: 東
圈風: 南

期望:
花龍 8
圈風刻 2
單釣將 1
合計 11
