# 002 on 國標.77: holding 12345 and winning on 3 is not 邊張 (it waits on 3 and 6).
# 三色三同順 8 (123m 123p 123s), 門前清 2, 平和 2; 345s beside 123s makes nothing.
# 8 + 2 + 2 = 12.
手牌: 123m 123p 12345s 55m
和牌: 3s

期望:
三色三同順 8
門前清 2
平和 2
合計 12
