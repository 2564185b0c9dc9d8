# 002 on 國標.58: 搶杠和不計和絕張.  The hand of 58_和絕張, won by robbing a kong on the last
# 五萬: 國標.47 搶杠和 (8) and no 和絕張.  Robbing is winning on another's tile, so 門前清
# stays.  花龍 8 + 搶杠和 8 + 門前清 2 + 平和 2 = 20.
手牌: 123m 456p 789s 22s 67m
和牌: 5m
情境: 搶杠 絕張

期望:
花龍 8
搶杠和 8
門前清 2
平和 2
合計 20
