# 002 on 國標.78: holding 45567 and winning on 6 is not 坎張 (it waits on 3 and 6).
# What is left is 平和 2, 門前清 2 and 喜相逢 1 (123m 123p): 5 番, short of 起和 (8):
# no win.
手牌: 123m 123p 45567s 88m
和牌: 6s

期望:
門前清 2
平和 2
喜相逢 1
合計 5
不成和
