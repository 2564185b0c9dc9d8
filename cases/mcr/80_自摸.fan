# 國標.80 自摸 (1): the hand of 59_箭刻, drawn.  A pung is shown, so it is not 不求人.
# 8 + 2 + 1 + 1 = 12.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 碰 紅中
情境: 自摸

期望:
花龍 8
箭刻 2
單釣將 1
自摸 1
合計 12
