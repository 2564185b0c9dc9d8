# 國標.58 和絕張 (4): the winning 五萬 is the last of its kind (three already shown).
# 123m 456p 789s in three suits: 國標.39 花龍 (8).  Four chows and a suited pair:
# 國標.63 平和 (2, 不計 無字).  Nothing shown, won on a discard: 國標.62 門前清 (2).
# 67m waits on 5m and 8m: no 獨聽, so no 邊/坎/釣.  8 + 4 + 2 + 2 = 16.
手牌: 123m 456p 789s 22s 67m
和牌: 5m
情境: 絕張

期望:
花龍 8
和絕張 4
門前清 2
平和 2
合計 16
