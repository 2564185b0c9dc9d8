"""The match report: per hand the deal, verdict, wins, offences and money; the running ledger.

One dict (``to_dict``) holds what every format shows; JSON is that dict, text, Markdown,
HTML and the ledger CSV are rendered from it.  Money is exact: an integer, or "p/q".
"""

from __future__ import annotations

import csv
import html
import io
import json
from fractions import Fraction
from typing import Any

from adjudicator.language.errors import display_width
from adjudicator.language.seats import SEATS
from adjudicator.match.carry import Carried, Deal
from adjudicator.match.run import HandResult, MatchResult
from adjudicator.rules.rulesets import profile_label, rules_label
from adjudicator.ruling.model import STATUS_LEDGER, money_json, signed_money
from adjudicator.ruling.model import to_dict as ruling_dict

_STATUS = STATUS_LEDGER


def to_dict(result: MatchResult) -> dict[str, Any]:
    h = result.match.header
    return {
        "title": h.title,
        "profile": h.profile,
        # By which rules the hands were judged (the first hand's: one run, one rule set).
        "rules": next((x.ruling.rules.to_json() for x in result.hands
                       if x.ruling.rules is not None), None),
        "base": h.base,
        "per_tai": h.per_tai,
        "meta": dict(h.meta),
        "players": {s: h.seating[s] for s in SEATS},
        "start_dealer": h.start_dealer,
        "seat_change": h.seat_change,
        "side_bets": [{"kind": b.kind, "player": b.player, "amount": b.amount,
                       "bettor": b.bettor} for b in h.side_bets],
        "names": list(result.ledger.names),
        "hands": [_hand(x, result.ledger.names) for x in result.hands],
        "totals": _money(result.ledger.totals, result.ledger.names),
        "sum": money_json(result.ledger.total()),
        "next": _next(result.next) if result.stop is None else None,
        "stop": None if result.stop is None else {
            "hand": result.stop.hand, "kind": result.stop.kind, "message": result.stop.message},
        "warnings": [{"hand": w.hand, "key": w.key, "message": w.message,
                      **({"clause": w.clause} if w.clause else {})}
                     for w in result.warnings],
    }


def _money(amounts: dict[str, Fraction], names: list[str]) -> dict[str, int | str]:
    return {n: money_json(amounts.get(n, Fraction(0))) for n in names}


def _deal(d: Deal) -> dict[str, Any]:
    return {"jiang": d.jiang, "round_wind": d.round_wind, "dealer": d.dealer,
            "dealer_name": d.dealer_name, "streak": d.streak, "start_dealer": d.start_dealer,
            "seating": {s: d.seating[s] for s in SEATS}, "round_clause": d.round_clause}


def _next(c: Carried | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {"jiang": c.jiang, "round_wind": c.round_wind, "dealer": c.dealer,
            "dealer_name": None if c.dealer is None else c.seating[c.dealer],
            "streak": c.streak, "counts_streak": c.counts_streak,
            "seat_change_due": c.seat_change_due, "open": c.open}


def _hand(x: HandResult, names: list[str]) -> dict[str, Any]:
    r, seat = x.ruling, x.deal.seating
    return {
        "hand": x.number, "label": x.label, "line": x.line, **_deal(x.deal),
        "status": r.status, "hand_ends": r.hand_ends, "booked": x.booked,
        "findings": [{"kind": f.kind, "seat": f.seat, "player": seat[f.seat],
                      "clauses": list(f.clauses)} for f in r.findings],
        "wins": [{"seat": w.seat, "player": seat[w.seat], "valid": w.valid, "tai": w.tai,
                  "self_drawn": w.self_drawn, "from": w.from_seat,
                  # neither valid nor void: what it is waits on an open fact
                  "undetermined": not w.valid and not w.why and bool(w.open)}
                 for w in r.wins],
        "balances": _money(x.amounts, names) if x.booked else {},
        "totals": _money(x.totals, names) if x.booked else {},
        "next_hand": None if r.next_hand is None else {
            "dealer": r.next_hand.dealer, "dealer_name": seat[r.next_hand.dealer],
            "streak": r.next_hand.streak, "counts_streak": r.next_hand.counts_streak},
        "open": [f"{u.fact}：{u.changes}" for u in r.uncertain],
        "warnings": [w.message for w in x.warnings],
        "ruling": ruling_dict(r),
    }


def to_json(result: MatchResult) -> str:
    return json.dumps(to_dict(result), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------- words


def title_words(d: dict[str, Any]) -> str:
    head = f"將：{d['title']}" if d["title"] else "將"
    rules = rules_label(d["rules"]) if d.get("rules") else f"規則 {profile_label(d['profile'])}"
    parts = [head, rules]
    if d["base"] is not None:
        parts.append(f"底 {d['base']}")
    if d["per_tai"] is not None:
        parts.append(f"台 {d['per_tai']}")
    parts += [f"{k} {v}" for k, v in d["meta"].items()]
    return "　".join(parts)


def players_words(d: dict[str, Any]) -> str:
    seats = " ".join(f"{s}={n}" for s, n in d["players"].items())
    bets = "；".join(f"插花 {b['kind']} {b['bettor'] or b['player']}"
                    + (f" 押 {b['player']}" if b["bettor"] else "") + f" {b['amount']}"
                    for b in d["side_bets"])
    return f"玩家：{seats}　起莊 {d['start_dealer']}　搬風 {d['seat_change']}" + (
        f"　{bets}" if bets else "")


def _deal_line(x: dict[str, Any]) -> str:
    turned = f"（{x['round_clause']}：新一圈）" if x.get("round_clause") else ""
    return (f"第{x['jiang']}將 {x['round_wind']}風圈{turned}　莊家 {x['dealer']}"
            f"（{x['dealer_name']}） 連莊 {x['streak']}")


def verdict_words(x: dict[str, Any]) -> str:
    end = "本盤終止" if x["hand_ends"] else "繼續（紀錄未終止此盤）"
    return f"{_STATUS[x['status']]}；{end}"


def _exhausted(x: dict[str, Any]) -> bool:
    """A hand that ended with no win and no offence: the wall ran out (荒局)."""
    return x["hand_ends"] and not x["wins"] and not x["findings"]


def hand_summary(x: dict[str, Any], d: dict[str, Any]) -> str:
    """One hand in a line, as a scoring app shows it: who won how, for how many 台, and who
    collected or paid most; 荒局; or the offence and who paid for it."""
    parts = []
    valid = [w for w in x["wins"] if w["valid"]]
    if valid:
        parts.append("、".join(_win_words(w, x, d) for w in valid))
    elif _exhausted(x):
        parts.append("荒局，無人和牌")
    parts += [f"{f['player']} {f['kind']}" for f in x["findings"]]
    if not parts:
        parts.append(verdict_words(x))
    money = {n: Fraction(str(v)) for n, v in x["balances"].items()}
    gets = [f"{n} 收 {_amount(v)}" for n, v in money.items() if v > 0]
    pays = [f"{n} 付 {_amount(-v)}" for n, v in money.items() if v < 0]
    if gets or pays:
        parts.append("，".join([*gets, *pays]))
    if x["status"] != "decided":
        parts.append(_STATUS[x["status"]])
    return "；".join(parts)


def _amount(v: Fraction) -> str:
    from adjudicator.report.model import amount_words

    return amount_words(v)


def _win_words(w: dict[str, Any], x: dict[str, Any], d: dict[str, Any]) -> str:
    from adjudicator.report.model import unit_of

    unit = unit_of(d["profile"])  # 台, or 番 for a Guangdong match
    frm = x["seating"].get(w["from"], w["from"]) if w["from"] else ""
    how = "自摸" if w["self_drawn"] else (f"和 {frm} 的牌" if frm else "和")
    tai = "" if w["tai"] is None else f" {w['tai']} {unit}"
    return f"{w['player']} {how}{tai}"


def _wins(x: dict[str, Any], d: dict[str, Any]) -> str:
    from adjudicator.report.model import unit_of

    unit = unit_of(d["profile"])  # 台, or 番 for a Guangdong match
    out = []
    for w in x["wins"]:
        how = "自摸" if w["self_drawn"] else (f"和 {w['from']} 的牌" if w["from"] else "和")
        tai = "" if w["tai"] is None else f" {w['tai']}{unit}"
        state = "未定" if w["undetermined"] else "有效" if w["valid"] else "無效"
        out.append(f"{w['player']}（{w['seat']}）{how} {state}{tai}")
    return "、".join(out) or ("荒局，無人和牌" if _exhausted(x) else "無")


def _offences(x: dict[str, Any]) -> str:
    return "、".join(f"{f['player']}（{f['seat']}）{f['kind']}〔{'、'.join(f['clauses'])}〕"
                    for f in x["findings"]) or "無"


def _next_words(n: dict[str, Any] | None) -> str:
    if n is None:
        return "未定"
    text = f"莊家 {n['dealer']}（{n['dealer_name']}）連莊 {n['streak']}"
    return text if n["counts_streak"] else text + " 不計連莊序"


def hand_items(x: dict[str, Any], d: dict[str, Any]) -> list[str]:
    """One hand in words, a line each: the deal, verdict, wins, offences, money, next deal,
    what is open.  (Its warnings are shown apart, as warnings.)"""
    return [_deal_line(x), *(f"{key}：{value}" for key, value in _hand_items(x, d)
                             if key != "警告")]


def _amounts(amounts: dict[str, Any]) -> str:
    return " ".join(f"{n} {signed_money(v)}" for n, v in amounts.items())


def end_words(d: dict[str, Any]) -> list[str]:
    out = []
    if d["stop"]:
        out.append(f"停止：{d['stop']['message']}")
    n = d["next"]
    if n is not None and n["dealer"] is not None and n["round_wind"] is not None:
        due = f"（{n['seat_change_due']}，應搬風）" if n["seat_change_due"] else ""
        out.append(f"下一盤：第{n['jiang']}將 {n['round_wind']}風圈 莊家 {n['dealer']}"
                   f"（{n['dealer_name']}）連莊 {n['streak']}{due}")
    elif n is not None:
        out.append(f"下一盤：{n['open']}")
    return out


LEDGER_LEAD = 5  # the columns before the players' money: 盤 圈風 莊家 連莊 裁決
LEDGER_NOTE = "每格為本盤收支，括號內為累計"


def ledger_rows(d: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The ledger table: one row per hand (its deal, its verdict, each player's money in it
    and total after it), and the end.  The text, Markdown and HTML ledgers are this table."""
    names = d["names"]
    head = ["盤", "圈風", "莊家", "連莊", "裁決", *names]
    rows = []
    for x in d["hands"]:
        rows.append([str(x["hand"]), x["round_wind"], f"{x['dealer']} {x['dealer_name']}",
                     str(x["streak"]), _STATUS[x["status"]],
                     *[money_cell(x, n) for n in names]])
    rows.append(["終局", "", "", "", "",
                 *[signed_money(d["totals"][n]) for n in names]])
    return head, rows


def money_cell(x: dict[str, Any], name: str) -> str:
    """One player's money in a hand and their total after it: +600（+2800）; — when the
    hand was not booked."""
    if not x["booked"] or name not in x["totals"]:
        return "—"
    return f"{signed_money(x['balances'][name])}（{signed_money(x['totals'][name])}）"


# ---------------------------------------------------------------------- text


def text(result: MatchResult) -> str:
    d = to_dict(result)
    out = [title_words(d), players_words(d), ""]
    for x in d["hands"]:
        label = f"　{x['label']}" if x["label"] else ""
        out.append(f"第{x['hand']}盤{label}　{_deal_line(x)}")
        out += [f"  {key}：{value}" for key, value in _hand_items(x, d)]
        out.append("")
    head, rows = ledger_rows(d)
    out.append(f"帳目：{LEDGER_NOTE}")
    out += _aligned([head, *rows])
    out.append("")
    out += end_words(d)
    return "\n".join(out) + "\n"


def _hand_items(x: dict[str, Any], d: dict[str, Any]) -> list[tuple[str, str]]:
    """What the text and the Markdown say of one hand, as (heading, words)."""
    items = [("裁決", verdict_words(x)), ("和牌", _wins(x, d)), ("違規", _offences(x))]
    if x["booked"]:
        items += [("收支", _amounts(x["balances"])), ("累計", _amounts(x["totals"])),
                  ("下盤", _next_words(x["next_hand"]))]
    return items + [("未定", o) for o in x["open"]] + [("警告", w) for w in x["warnings"]]


def _aligned(table: list[list[str]]) -> list[str]:
    widths = [max(display_width(row[i]) for row in table) for i in range(len(table[0]))]
    return ["  ".join(cell + " " * (w - display_width(cell)) for cell, w in zip(row, widths,
                                                                               strict=True)).rstrip()
            for row in table]


# ---------------------------------------------------------------------- Markdown


def markdown(result: MatchResult) -> str:
    d = to_dict(result)
    out = [f"# {title_words(d)}", "", players_words(d), ""]
    for x in d["hands"]:
        label = f" {x['label']}" if x["label"] else ""
        out.append(f"## 第{x['hand']}盤{label}")
        out.append("")
        out.append(f"- {_deal_line(x)}")
        out += [f"- {'**警告**' if key == '警告' else key}：{value}"
                for key, value in _hand_items(x, d)]
        out.append("")
    head, rows = ledger_rows(d)
    out += ["## 帳目", "", LEDGER_NOTE, "", "| " + " | ".join(head) + " |",
            "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    out += [f"**{w}**" if w.startswith("停止") else w for w in end_words(d)]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- HTML

_CSS = """body{font-family:"Noto Sans CJK TC","Noto Sans TC",sans-serif;margin:2em;max-width:60em}
table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .6em;text-align:right}
td:nth-child(-n+5),th{text-align:center}.warn{color:#a40}.stop{color:#b00;font-weight:bold}
#chart{max-width:100%;height:auto}.note{color:#555}
.signatures{break-before:page;page-break-before:always}
.signatures ol{list-style:none;padding:0;display:grid;
grid-template-columns:repeat(2,1fr);gap:4em 2em}
.signatures li{border-top:1px solid #333;padding-top:.3em;margin-top:3em;text-align:center}
@page{size:A4;margin:12mm}
@media print{body{margin:0}}
@media screen and (max-width:720px){body{margin:10px;font-size:16px}
.scroll{overflow-x:auto}td,th{padding:.2em .3em}}"""


def signers(d: dict[str, Any]) -> list[str]:
    """Who signs the match: the referee, then each player in seat order."""
    referee = d["meta"].get("裁判", "")
    return [f"裁判（{referee}）" if referee else "裁判", *d["names"]]


def to_html(result: MatchResult) -> str:
    from adjudicator.report.html import VIEWPORT

    d = to_dict(result)
    e = html.escape
    out = ["<!DOCTYPE html>", f'<html lang="zh-Hant"><head><meta charset="utf-8">{VIEWPORT}',
           f"<title>{e(title_words(d))}</title><style>{_CSS}</style></head><body>",
           f"<h1>{e(title_words(d))}</h1>", f"<p>{e(players_words(d))}</p>"]
    for x in d["hands"]:
        label = f" {x['label']}" if x["label"] else ""
        out.append(f"<h2>第{x['hand']}盤{e(label)}：{e(hand_summary(x, d))}</h2><ul>")
        out += [f"<li>{e(i)}</li>" for i in hand_items(x, d)]
        out += [f'<li class="warn">警告：{e(w)}</li>' for w in x["warnings"]]
        out.append("</ul>")
    head, rows = ledger_rows(d)
    out.append(f'<h2>帳目</h2><p class="note">{LEDGER_NOTE}</p><div class="scroll">'
               '<table id="ledger" class="ledger"><thead><tr>'
               + "".join(f"<th>{e(c)}</th>" for c in head) + "</tr></thead><tbody>")
    out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows]
    out.append("</tbody></table></div>")
    out.append(chart_svg(d))
    out += [f'<p class="stop">{e(w)}</p>' if w.startswith("停止") else f"<p>{e(w)}</p>"
            for w in end_words(d)]
    names = "".join(f"<li>{e(who)}</li>" for who in signers(d))
    out.append(f'<section class="signatures"><h2>簽名</h2><p>{e(title_words(d))}</p>'
               f"<p>以上帳目經裁判與玩家確認無誤，簽名如下。</p><ol>{names}</ol></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")


def chart_svg(d: dict[str, Any]) -> str:
    """Each person's running total after each hand, as an inline SVG line chart (no script,
    no outside file): hands along, money up, a legend of the names in their colours."""
    booked = [x for x in d["hands"] if x["booked"]]
    if not booked:
        return ""
    names = d["names"]
    series = {n: [Fraction(0)] + [Fraction(str(x["totals"][n])) for x in booked] for n in names}
    top = max(max(v) for v in series.values())
    low = min(min(v) for v in series.values())
    span = (top - low) or Fraction(1)
    width, height, left, right, pad = 680, 260, 64, 16, 28
    step = Fraction(width - left - right, max(len(booked), 1))
    legend = 22 * ((len(names) + 3) // 4)

    def x(i: int) -> float:
        return float(left + i * step)

    def y(v: Fraction) -> float:
        return float(legend + pad + (top - v) / span * (height - legend - 2 * pad))

    esc = html.escape
    parts = [f'<line x1="{left}" x2="{width - right}" y1="{y(Fraction(0)):.1f}" '
             f'y2="{y(Fraction(0)):.1f}" stroke="#999" stroke-dasharray="4"/>']
    for v in sorted({top, low, Fraction(0)}):
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
                     f'font-size="11" fill="#555">{esc(signed_money(v))}</text>')
    for i, hand in enumerate(booked, start=1):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="middle" '
                     f'font-size="11" fill="#555">{hand["hand"]}</text>')
    for k, name in enumerate(names):
        colour = _COLOURS[k % len(_COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series[name]))
        parts.append(f'<polyline class="series" data-name="{esc(name)}" fill="none" '
                     f'stroke="{colour}" stroke-width="2" points="{points}">'
                     f"<title>{esc(name)} {esc(signed_money(series[name][-1]))}</title></polyline>")
        lx, ly = left + (k % 4) * 150, 16 + 22 * (k // 4)
        parts.append(f'<rect x="{lx}" y="{ly - 9}" width="14" height="4" fill="{colour}"/>'
                     f'<text x="{lx + 18}" y="{ly - 3}" font-size="12" fill="{colour}">'
                     f"{esc(name)} {esc(signed_money(series[name][-1]))}</text>")
    return (f'<h2>累計走勢</h2><svg id="chart" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            'role="img" '
            'aria-label="每人每盤後的累計（橫軸：盤；縱軸：累計）">' + "".join(parts) + "</svg>")


# ---------------------------------------------------------------------- CSV


def ledger_csv(result: MatchResult) -> str:
    """The ledger: per hand the deal, each person's money in that hand and total after it."""
    d = to_dict(result)
    names = d["names"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["盤", "將", "圈風", "莊家", "莊家玩家", "連莊",
                     *[f"{n} 收支" for n in names], *[f"{n} 累計" for n in names]])
    for x in d["hands"]:
        if not x["booked"]:
            continue
        writer.writerow([x["hand"], x["jiang"], x["round_wind"], x["dealer"], x["dealer_name"],
                         x["streak"], *[x["balances"][n] for n in names],
                         *[x["totals"][n] for n in names]])
    return buffer.getvalue()
