# 國標.57 雙明杠 (4): two melded kongs; 不計 明杠 for either.  明杠 二萬 and 明杠 二筒 are
# also 國標.65 雙同刻 (2: two pungs of the same number in two suits); no 一/九 or honour
# anywhere: 國標.68 斷幺 (2, 不計 無字).  345s 678s are six running tiles: 國標.71 連六
# (1).  四筒 waits alone, as the pair: 國標.79 單釣將 (1).  Melds shown, so no 門前清.
# 4 + 2 + 2 + 1 + 1 = 10 ≥ 8.
手牌: 345s 678s 4p
和牌: 4p
門前: 明杠 二萬 / 明杠 二筒

期望:
雙明杠 4
雙同刻 2
斷幺 2
連六 1
單釣將 1
合計 10
