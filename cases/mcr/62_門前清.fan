# 國標.62 門前清 (2): no 吃, 碰 or 明杠, and the win on another player's discard.
# 花龍 8 and 平和 2 as in 58_和絕張.  8 + 2 + 2 = 12.
手牌: 123m 456p 789s 22s 67m
和牌: 5m

期望:
花龍 8
門前清 2
平和 2
合計 12
