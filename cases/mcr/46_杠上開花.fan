# 國標.46 杠上開花 (8): won on the replacement tile after the 明杠 of 五萬; it leaves out
# 自摸.  The rest is 74_明杠: 花龍 8, 明杠 1, 單釣將 1, 無字 1.  8 + 8 + 1 + 1 + 1 = 19.
手牌: 123m 456p 789s 5s
和牌: 5s
門前: 明杠 五萬
情境: 杠上開花

期望:
花龍 8
杠上開花 8
明杠 1
單釣將 1
無字 1
合計 19
