# 國標.45 海底撈月 (8): won on the discard after the wall's last tile (海底 without 自摸).
# The rest is 62_門前清: 花龍 8, 門前清 2, 平和 2.  8 + 8 + 2 + 2 = 20.
手牌: 123m 456p 789s 22s 67m
和牌: 5m
情境: 海底

期望:
花龍 8
海底撈月 8
門前清 2
平和 2
合計 20
