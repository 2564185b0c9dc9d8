"""``adjudicator score``: the 台 of one winning hand, or its 國標 番 (``--profile mcr``).

Tiles are written as in the incident language: ``三萬`` ``3萬`` ``3m`` ``紅中`` ``7z`` ``春``
``1f``, and runs ``一二三萬`` ``123m`` ``東東東`` ``555z``.  Bad input is refused with a
message in Chinese and exit status 2; a hand that is no win exits with status 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from adjudicator.language import tiles
from adjudicator.language.seats import SEAT_ALIASES, Seat
from adjudicator.language.tiles import TileError, parse_melds, parse_tiles

if TYPE_CHECKING:  # rich and the scorers load when the command runs, not on every CLI start
    from rich.console import Console

    from adjudicator.ruling import mcr
    from adjudicator.ruling.scoring import WinHand, WinScore

class ScoreFormat(StrEnum):
    text = "text"
    json = "json"


def _seat(value: str, what: str) -> Seat:
    key = value.strip().removesuffix("風").removesuffix("风")
    if key not in SEAT_ALIASES:
        raise TileError(f"{what}只能是 東、南、西、北，不是「{value}」")
    return SEAT_ALIASES[key]


# ---------------------------------------------------------------------------------------
# Output


def _text(result: WinScore, console: Console) -> None:
    from rich.table import Table

    if result.reading:
        console.print(f"牌型：{result.reading}（{result.wait_shape}）")
    table = Table(title="牌面台數")
    table.add_column("名堂")
    table.add_column("台", justify="right")
    table.add_column("條款")
    for name, tai, clause in result.patterns:
        table.add_row(name, str(tai), clause)
    table.add_row("合計", str(result.tai), "", style="bold")
    console.print(table)


def _json(result: WinScore) -> str:
    return json.dumps({
        "complete": result.complete, "tai": result.tai,
        "patterns": [{"name": n, "tai": t, "clause": c} for n, t, c in result.patterns],
        "reading": result.reading, "wait_shape": result.wait_shape,
        "problems": result.problems,
    }, ensure_ascii=False)


def _mcr_text(result: mcr.FanScore, console: Console) -> None:
    from rich.table import Table

    table = Table(title="國標番種")
    table.add_column("番種")
    table.add_column("番", justify="right")
    table.add_column("條款")
    table.add_column("不計")
    for row in result.rows:
        name = row.kind.name if row.count == 1 else f"{row.kind.name} ×{row.count}"
        table.add_row(name, str(row.fan), row.clause, "、".join(row.kind.not_counted))
    table.add_row("合計", str(result.fan), "", "", style="bold")
    console.print(table)


def _mcr_json(result: mcr.FanScore) -> str:
    from adjudicator.ruling import mcr

    return json.dumps({
        "profile": mcr.PROFILE, "complete": result.complete, "fan": result.fan,
        "fan_without_flowers": result.without_flowers, "minimum": mcr.MIN_FAN,
        "patterns": [{"name": r.kind.name, "fan": r.fan, "count": r.count, "clause": r.clause,
                      "not_counted": list(r.kind.not_counted)} for r in result.rows],
        "problems": result.problems,
    }, ensure_ascii=False)


def _score_mcr(hand: WinHand, fmt: ScoreFormat) -> None:
    """國標: the fans PyMahjongGB finds; exit 1 when no win or short of 起和."""
    from rich.console import Console

    from adjudicator.ruling import mcr

    found = mcr.problems(hand)
    if found:
        _refuse("；".join(found))
    result = mcr.score(hand)
    if fmt is ScoreFormat.json:
        typer.echo(_mcr_json(result))
    elif result.rows:
        _mcr_text(result, Console())
    if fmt is ScoreFormat.text and not result.complete:
        Console(stderr=True).print("不成和：" + "；".join(result.problems), markup=False)
    if not result.complete:
        raise typer.Exit(1)


def profile_refusal(profile: str) -> str | None:
    """Why one hand is not scored under ``profile`` (this command and the desk's
    /api/score), or None: the Taiwanese profiles and 國標 (mcr) are."""
    from adjudicator.rules.files import SCORE_ONLY
    from adjudicator.rules.rulesets import profile_family, score_profiles

    if profile not in score_profiles():
        return f"沒有「{profile}」這個規則組；可用：{'、'.join(score_profiles())}"
    if profile not in SCORE_ONLY and profile_family(profile).unit != "台":
        # The 番 of a Guangdong win come from its chapter inside a judgement; this
        # command scores only the Taiwanese 台 table and 國標.
        return (f"{profile} 的番數請寫成一手紀錄（規則: {profile}）以 adjudicator judge 計算；"
                "score 只計台灣十六張的台數與國標（mcr）番數")
    return None


def _refuse(message: str) -> NoReturn:
    from rich.console import Console

    Console(stderr=True).print(f"輸入錯誤：{message}", markup=False)
    raise typer.Exit(2)


# ---------------------------------------------------------------------------------------
# The command


def _build_hand(concealed: list[str], win: str | None, exposed: str, flowers: str,
                flags: dict[str, bool], chairs: dict[str, str | None],
                flower_win: str | None) -> WinHand:
    from adjudicator.ruling.scoring import FLOWER_WINS, WinHand

    flower_tiles = parse_tiles(flowers)
    if any(not tiles.is_flower(f) for f in flower_tiles):
        raise TileError("--flowers 只能列花牌：春夏秋冬梅蘭竹菊 或 1f–8f")
    if flower_win is not None and flower_win not in FLOWER_WINS:
        raise TileError(f"--flower-win 只能是 {' 或 '.join(FLOWER_WINS)}")
    winning = parse_tiles(win) if win else []
    if len(winning) > 1:
        raise TileError("--win 只能是一張牌")
    hand_tiles = parse_tiles(" ".join(concealed))
    if any(tiles.is_flower(t) for t in [*hand_tiles, *winning]):
        raise TileError("花牌請列在 --flowers，不要放在手牌或和牌")
    dealer = _seat(chairs["dealer"] or "東", "--dealer ")
    return WinHand(
        concealed=hand_tiles, winning_tile=winning[0] if winning else None,
        exposed=parse_melds(exposed), flowers=flower_tiles,
        seat=_seat(chairs["seat"] or "東", "--seat "), dealer=dealer,
        round_wind=_seat(chairs["round"] or "東", "--round "),
        open_seat=_seat(chairs["open"], "--open ") if chairs["open"] else dealer,
        flower_win=flower_win, **flags,  # type: ignore[arg-type]
    )


def _command() -> Callable[..., None]:
    def score_command(  # one option per fact of the win
        concealed: Annotated[list[str] | None, typer.Argument(
            help="暗牌，不含和牌：一二三萬 四五六筒 東東 … 或 123m 456p 11z …")] = None,
        win: Annotated[str | None, typer.Option(
            "--win", help="和牌（最後進的那張），例如 五筒 或 5p")] = None,
        exposed: Annotated[str, typer.Option(
            "--exposed", help="門前，以 / 分隔：\"碰 三萬 / 吃 四五六索 / 暗杠 白\"")] = "",
        flowers: Annotated[str, typer.Option(
            "--flowers", help="花牌：\"春 梅\" 或 \"1f 5f\"")] = "",
        self_drawn: Annotated[bool, typer.Option(
            "--self-drawn", help="自摸（和牌自己摸得）")] = False,
        seat: Annotated[str, typer.Option("--seat", help="和牌者的座位：東 南 西 北")] = "東",
        round_: Annotated[str, typer.Option("--round", help="圈風：東 南 西 北")] = "東",
        dealer: Annotated[str, typer.Option("--dealer", help="莊家的座位")] = "東",
        open_: Annotated[str | None, typer.Option(
            "--open", help="開門的座位（該盤東位、花牌 1 號），預設為莊家")] = None,
        robbed_kong: Annotated[bool, typer.Option(
            "--robbed-kong", help="搶杠：和他人加杠的那張牌（台.12）")] = False,
        kong_replacement: Annotated[bool, typer.Option(
            "--kong-replacement", help="杠上開花：和杠尾補牌（槓或補花後）（台.24）")] = False,
        last_tile: Annotated[bool, typer.Option(
            "--last-tile", help="海底撈月：摸海底牌而和（台.25）；國標：加 --self-drawn 為"
            "妙手回春，不加為和最後一張打出的牌（海底撈月）")] = False,
        fourth_tile: Annotated[bool, typer.Option(
            "--fourth-tile",
            help="和絕張：牌池與桌面已亮明三張後的第四張（只用於國標 mcr，國標.58）")] = False,
        tian_hu: Annotated[bool, typer.Option("--tian-hu", help="天和（台.33）")] = False,
        di_hu: Annotated[bool, typer.Option("--di-hu", help="地和（台.34）")] = False,
        ren_hu: Annotated[bool, typer.Option("--ren-hu", help="人和（台.35）")] = False,
        tian_ting: Annotated[bool, typer.Option(
            "--tian-ting", help="已宣告天聽且仍有效（台.31）")] = False,
        di_ting: Annotated[bool, typer.Option(
            "--di-ting", help="已宣告地聽且仍有效（台.32）")] = False,
        flower_win: Annotated[str | None, typer.Option(
            "--flower-win", help="花和：八仙過海 或 七搶一（台.29、台.30）")] = None,
        dealt_flower_win: Annotated[bool, typer.Option(
            "--dealt-flowers", help="配牌花和：起手配得花牌，摸第一張時花和（台.28）")] = False,
        profile: Annotated[str, typer.Option(
            "--profile",
            help="規則組：tw16（預設）、tw16-alt、tw16-online；mcr 為國標計番")] = "tw16",
        fmt: Annotated[ScoreFormat, typer.Option(
            "--format", "-f", help="輸出：text（表格）或 json")] = ScoreFormat.text,
    ) -> None:
        """計算一手和牌的台數（牌面台數，不含作莊與連莊拉莊），列出名堂與條款。

        --profile mcr 計國標番數：暗牌 13 張（不含和牌，每副門前少 3 張），列出番種、
        不計與合計；未達起和 8 番（花牌不計）為不成和。

        結束碼：0 已計台；1 不成和；2 輸入錯誤。
        """
        from rich.console import Console

        from adjudicator.rules.files import SCORE_ONLY
        from adjudicator.ruling.scoring import HAND_FLAGS, hand_problems, score

        if (why := profile_refusal(profile)) is not None:
            _refuse(why)
        options = locals()  # each flag option is named as its WinHand field
        flags = {name: options[name] for name in (*HAND_FLAGS, "fourth_tile")}
        chairs = {"seat": seat, "round": round_, "dealer": dealer, "open": open_}
        try:
            hand = _build_hand(concealed or [], win, exposed, flowers, flags, chairs, flower_win)
        except TileError as err:
            _refuse(str(err))
        if profile in SCORE_ONLY:  # 國標, the one score-only profile
            _score_mcr(hand, fmt)
            return
        problems = hand_problems(hand)
        if problems:
            _refuse("；".join(problems))
        result = score(hand, profile)
        if fmt is ScoreFormat.json:
            typer.echo(_json(result))
        elif result.complete:
            _text(result, Console())
        else:
            Console(stderr=True).print("不成和：" + "；".join(result.problems), markup=False)
        if not result.complete:
            raise typer.Exit(1)

    return score_command


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to ``app``."""
    app.command("score", no_args_is_help=True)(_command())
