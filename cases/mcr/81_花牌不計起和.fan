# 002 on 國標.81: flowers count after the win and not toward 起和.  Two melded kongs of
# different numbers (二萬, 三筒): 雙明杠 4; 斷幺 2; 四筒 alone: 單釣將 1; 345s 567s
# overlap, so no 連六.  7 番, and three flowers make 10 — still short of 8 without them:
# no win.
手牌: 345s 567s 4p
和牌: 4p
門前: 明杠 二萬 / 明杠 三筒
花牌: 春 夏 秋

期望:
雙明杠 4
斷幺 2
單釣將 1
花牌 ×3 3
合計 10
不成和
