"""Import the "record v1" JSON of taiwan-mahjong-coach (its docs/RECORD_FORMAT.md).

Written from the published format, not from that program's code.  A ``seat`` record is one
player's view of a hand: its own 16 tiles after flowers, everyone's flowers, and the events
in order (``p`` the player 0–3, ``a`` the action).  It becomes the JSON form of an incident:
the dealer is chair 東 and the others follow in play order ((p + 1) % 4 is the 下家).  Only
the recorder's hand is known, so only it is stated; the others' tiles stay unknown, which
the rules treat as open facts where they matter.

A ``full`` record stores a shuffle seed and commands that only that program's engine can
replay, so it is refused.  Events that cannot have happened (a tile the recorder does not
hold, a fifth copy of a tile, a chow not from the 上家, a claim with no discard to claim)
are refused naming the event's index.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.language import tiles as tl
from adjudicator.language.form_format import FORMAT as FORM
from adjudicator.language.form_format import VERSION as FORM_VERSION
from adjudicator.language.form_format import FormError
from adjudicator.language.seats import SEATS

FORMAT = "taiwan-mahjong-coach.record"
VERSION = 1
N_TILES_TOTAL = 144  # 136 playing tiles and 8 flowers
N_DEALT = 16

# record v1 numbers 31–33 中 發 白; ours number them 白 發 中.
_DRAGONS = {31: 33, 32: 32, 33: 31}
# Events after which the next draw comes from the kong end (a replacement, 補).
_REPLACED_AFTER = frozenset({"kan", "concealed", "added", "flower"})


def tile(number: Any, where: str) -> int:
    """Our tile for a record v1 tile number."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 41:
        raise FormError(where, f"牌號應是 0–41 的整數，而非 {number!r}")
    return _DRAGONS.get(number, number)


def _name(number: Any, where: str) -> str:
    return tl.name(tile(number, where))


def to_form(record: dict[str, Any]) -> dict[str, Any]:
    """The JSON form (language/json_form.py) of a record v1 object."""
    if record.get("version") != VERSION:
        raise FormError("version",
                        f"只支援 {FORMAT} 第 {VERSION} 版，而非 {record.get('version')!r}")
    perspective = record.get("perspective")
    if perspective == "full":
        raise FormError("perspective", "「full」紀錄只存洗牌種子與指令，須以原程式的引擎重播才知"
                        "牌序；請改匯出「seat」紀錄（一位玩家視角的事件）")
    if perspective != "seat":
        raise FormError("perspective", f"應是 \"seat\"，而非 {perspective!r}")
    return _Import(record).form()


class _Import:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        options = record.get("options") or {}
        if not isinstance(options, dict):
            raise FormError("options", "應是 JSON 物件")
        self.options = options
        self.dealer = self._player(options.get("dealer", 0), "options.dealer")
        self.recorder = self._player(record.get("seat", 0), "seat")
        self.seen: Counter[int] = Counter()  # playing tiles known to be out of the wall
        self.hand: Counter[int] = Counter()  # the recorder's concealed tiles

    def _player(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
            raise FormError(where, f"玩家應是 0–3，而非 {value!r}")
        return value

    def chair(self, player: int) -> str:
        return SEATS[(player - self.dealer) % 4]

    def see(self, number: int, where: str) -> None:
        """A tile became known; a fifth copy of a playing tile cannot have happened."""
        if number < tl.N_PLAYING:
            self.seen[number] += 1
            if self.seen[number] > 4:
                raise FormError(where, f"第五張「{tl.name(number)}」：一種牌只有四張")
        elif self.seen[number]:
            raise FormError(where, f"第二張「{tl.name(number)}」：每張花牌只有一張")
        else:
            self.seen[number] += 1

    def take(self, player: int, number: int, where: str) -> None:
        """The recorder's tile leaves its hand; it must be there."""
        if player != self.recorder:
            return
        if self.hand[number] <= 0:
            raise FormError(where, f"紀錄者手中沒有「{tl.name(number)}」")
        self.hand[number] -= 1

    def form(self) -> dict[str, Any]:
        start = self.record.get("start") or {}
        if not isinstance(start, dict):
            raise FormError("start", "應是 JSON 物件")
        hand = [tile(n, f"start.hand[{i}]") for i, n in enumerate(start.get("hand", []))]
        flowers: dict[int, list[int]] = {self.recorder: [
            tile(n, f"start.flowers[{i}]") for i, n in enumerate(start.get("flowers", []))]}
        for key, numbers in (start.get("otherFlowers") or {}).items():
            player = self._player(int(key) if str(key).isdigit() else key, f"otherFlowers.{key}")
            flowers[player] = [tile(n, f"start.otherFlowers.{key}") for n in numbers]
        for i, t in enumerate(hand):
            self.see(t, f"start.hand[{i}]")
            self.hand[t] += 1
        for player, laid in flowers.items():
            for t in laid:
                if not tl.is_flower(t):
                    raise FormError(f"start.flowers（玩家 {player}）", f"「{tl.name(t)}」不是花牌")
                self.see(t, f"start.flowers（玩家 {player}）")
        reserve = self.options.get("reserve", 16)
        n_flowers = sum(len(f) for f in flowers.values())
        header: dict[str, Any] = {
            "profile": "tw16",
            "round_wind": SEATS[self.options.get("roundWind", 0) % 4],
            "dealer": "東",
            "streak": int(self.options.get("streak", 0)),
            # Dealt 16 each and a replacement for every flower laid out at the start; the
            # kept tiles (reserve) are not drawable.
            "wall": N_TILES_TOTAL - reserve - 4 * N_DEALT - n_flowers,
        }
        positions: list[dict[str, Any]] = [
            {"seat": self.chair(self.recorder), "kind": "手牌",
             "tiles": [tl.name(t) for t in hand]}]
        positions += [{"seat": self.chair(p), "kind": "花", "tiles": [tl.name(t) for t in laid]}
                      for p, laid in sorted(flowers.items()) if laid]
        return {"format": FORM, "version": FORM_VERSION, "header": header,
                "positions": positions, "events": self.events()}

    def events(self) -> list[dict[str, Any]]:
        raw = self.record.get("events", [])
        if not isinstance(raw, list):
            raise FormError("events", "應是 JSON 陣列")
        out: list[dict[str, Any]] = []
        last_discard: tuple[int, int] | None = None  # (player, tile) still claimable
        replacement_due = False
        for i, ev in enumerate(raw):
            where = f"events[{i}]"
            if not isinstance(ev, dict):
                raise FormError(where, "應是 JSON 物件")
            player = self._player(ev.get("p"), f"{where}.p")
            action = ev.get("a")
            seat = self.chair(player)
            act: dict[str, Any] = {"seq": i + 1, "actor": seat}
            if action == "draw":
                act["verb"] = "補" if replacement_due else "摸"
                if ev.get("tile") is not None:
                    t = tile(ev["tile"], f"{where}.tile")
                    self.see(t, where)
                    if player == self.recorder:
                        self.hand[t] += 1
                    act["tiles"] = [tl.name(t)]
                replacement_due = False
                last_discard = None
            elif action == "discard":
                t = tile(ev.get("tile"), f"{where}.tile")
                self.take(player, t, where)
                if player != self.recorder:
                    self.see(t, where)
                act.update(verb="打", tiles=[tl.name(t)])
                last_discard = (player, t)
            elif action in ("chi", "pon", "kan"):
                act.update(self._claim(player, action, ev, last_discard, where))
                last_discard = None
                replacement_due = action == "kan"
            elif action in ("concealed", "added"):
                t = tile(ev.get("tile"), f"{where}.tile")
                for _ in range(4 if action == "concealed" else 1):
                    self.take(player, t, where)
                    if player != self.recorder:
                        self.see(t, where)
                act.update(verb="暗杠" if action == "concealed" else "加杠", tiles=[tl.name(t)])
                replacement_due = True
            elif action == "flower":
                t = tile(ev.get("tile"), f"{where}.tile")
                if not tl.is_flower(t):
                    raise FormError(where, f"「{tl.name(t)}」不是花牌")
                self.take(player, t, where)
                if player != self.recorder:
                    self.see(t, where)
                act.update(verb="補花", tiles=[tl.name(t)])
                replacement_due = True
            elif action == "ron":
                if last_discard is None:
                    raise FormError(where, "和：前面沒有可和的打出牌")
                act.update(verb="和", tiles=[tl.name(last_discard[1])])
            elif action == "tsumo":
                act["verb"] = "自摸"
            else:
                raise FormError(f"{where}.a", f"不認得的事件 {action!r}")
            out.append(act)
        return out

    def _claim(self, player: int, action: str, ev: dict[str, Any],
               last: tuple[int, int] | None, where: str) -> dict[str, Any]:
        if last is None:
            raise FormError(where, f"{action}：前面沒有可吃碰杠的打出牌")
        frm, taken = last
        if frm == player:
            raise FormError(where, f"{action}：不能吃碰杠自己打出的牌")
        used = [tile(n, f"{where}.tiles") for n in ev.get("tiles", [])]
        if action == "chi":
            if (frm + 1) % 4 != player:
                raise FormError(where, "吃只能吃上家打出的牌")
            run = sorted([taken, *used])
            if len(used) != 2 or not all(tl.is_suited(t) for t in run) \
                    or tl.suit_of(run[0]) != tl.suit_of(run[2]) \
                    or run != list(range(run[0], run[0] + 3)):
                raise FormError(where, "吃：所用兩張與所吃的牌不成順子")
        elif len(used) != (2 if action == "pon" else 3) or any(t != taken for t in used):
            raise FormError(where, f"{action}：所用的牌應是 {2 if action == 'pon' else 3} 張"
                            f"「{tl.name(taken)}」")
        for t in used:
            self.take(player, t, where)
            if player != self.recorder:
                self.see(t, where)
        verb = {"chi": "吃", "pon": "碰", "kan": "明杠"}[action]
        out: dict[str, Any] = {"verb": verb, "tiles": [tl.name(taken)]}
        if action == "chi":
            out["using"] = [tl.name(t) for t in used]
        return out
