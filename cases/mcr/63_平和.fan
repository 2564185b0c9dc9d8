# 國標.63 平和 (2): four chows and a pair of suited tiles; 002: 邊、坎、釣不影響平和.  Here
# 12s waits on 3s alone: 國標.77 邊張 (1), with 平和 kept.  123m 123p 123s: 國標.41 三色三同順
# (8, which leaves out 喜相逢).  門前清 2 (a discard).  無字 not counted beside 平和.
# 567p beside 123p makes nothing.  8 + 2 + 2 + 1 = 13.
手牌: 123m 123p 12s 567p 55m
和牌: 3s

期望:
三色三同順 8
門前清 2
平和 2
邊張 1
合計 13
