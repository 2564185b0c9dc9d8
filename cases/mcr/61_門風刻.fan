# 國標.61 門風刻 (2): 碰 西 by the player whose seat wind is 西, in the 東 round.  花龍 8,
# 單釣將 1 as in 59_箭刻.  8 + 2 + 1 = 11.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 碰 西
門風: 西
圈風: 東

期望:
花龍 8
門風刻 2
單釣將 1
合計 11
