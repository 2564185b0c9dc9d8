# 國標.77 邊張 (1), 002's own example: 1233 winning on 3 is 邊張 (3s waits alone; the
# 123s 33s reading).  123m 123p 123s: 三色三同順 8; 平和 2 (pair 三索); 門前清 2.
# 8 + 2 + 2 + 1 = 13.
手牌: 123m 123p 567p 1233s
和牌: 3s

期望:
三色三同順 8
門前清 2
平和 2
邊張 1
合計 13
