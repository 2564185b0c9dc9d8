# 002 on 國標.74: drawing the fourth tile of a shown pung and kong-ing it is 明杠 as well.
# The hand of 74_明杠 with the kong made that way: the same 11.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 加杠 五萬

期望:
花龍 8
明杠 1
單釣將 1
無字 1
合計 11
