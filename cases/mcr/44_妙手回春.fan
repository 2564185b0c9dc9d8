# 國標.44 妙手回春 (8): won by drawing the wall's last tile; it leaves out 自摸.  Drawn with
# nothing shown: 不求人 4 (not 門前清).  花龍 8, 平和 2.  8 + 8 + 4 + 2 = 22.
手牌: 123m 456p 789s 22s 67m
和牌: 5m
情境: 海底 自摸

期望:
花龍 8
妙手回春 8
不求人 4
平和 2
合計 22
