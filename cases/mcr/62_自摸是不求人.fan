# The other side of 國標.62: the same concealed hand won by drawing is not 門前清 (that needs
# a discard) but 國標.56 不求人 (4), which leaves out 自摸.  花龍 8 + 不求人 4 + 平和 2 = 14.
手牌: 123m 456p 789s 22s 67m
和牌: 5m
情境: 自摸

期望:
花龍 8
不求人 4
平和 2
合計 14
