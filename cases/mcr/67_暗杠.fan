# 國標.67 暗杠 (2): a concealed kong of 二筒; it does not spoil 門前清 (2).  花龍 8; 五萬
# alone: 單釣將 1; no honours: 無字 1 (a kong and 一/九 present: no 平和, no 斷幺).
# 8 + 2 + 2 + 1 + 1 = 14.
手牌: 123m 456p 789s 5m
和牌: 5m
門前: 暗杠 二筒

期望:
花龍 8
暗杠 2
門前清 2
單釣將 1
無字 1
合計 14
