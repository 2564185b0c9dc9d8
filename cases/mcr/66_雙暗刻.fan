# 國標.66 雙暗刻 (2): 222s and 888s held concealed (the discard completes only the pair).
# 碰碰和 6, 斷幺 2, 單釣將 1 (五筒 alone).  7m 3p 2s 8s share no number: no 雙同刻.
# 6 + 2 + 2 + 1 = 11.
手牌: 222s 888s 5p
和牌: 5p
門前: 碰 七萬 / 碰 三筒

期望:
碰碰和 6
雙暗刻 2
斷幺 2
單釣將 1
合計 11
