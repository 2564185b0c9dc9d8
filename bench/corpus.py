"""Generate realistic incident logs for the throughput benchmark and the batch tests.

A log is dealt from a shuffled wall (16 tiles each, flowers laid out and replaced), then
played turn by turn: draw, discard, now and then a pung of a discard by a player holding
the pair, a call left unmade (喊碰未碰), an admitted offence (偷牌), or a 自摸 declared on
an incomplete hand (詐和).  Every hand is stated in the positions, so the rules see what a
platform's dispute queue would send: 40–120 acts, hands known, some offences.

Run ``python bench/corpus.py OUT_DIR N`` to write N logs as ``OUT_DIR/g00000.log`` ….
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

NAMES = [f"{n}{s}" for s in ("萬", "筒", "索") for n in "一二三四五六七八九"]
NAMES += ["東", "南", "西", "北", "白", "發", "中"]
FLOWERS = ["春", "夏", "秋", "冬", "梅", "蘭", "竹", "菊"]
SEATS = ["東", "南", "西", "北"]


def _wall(rng: random.Random) -> list[str]:
    wall = [t for t in NAMES for _ in range(4)] + FLOWERS
    rng.shuffle(wall)
    return wall


def make_log(seed: int, n_acts: int | None = None) -> str:
    """One log of 40–120 acts; ``n_acts`` fixes the length instead (at most one wall's worth
    of play: longer records are bench/judge.py's)."""
    rng = random.Random(seed)
    target = n_acts if n_acts is not None else rng.randint(40, 120)
    wall = _wall(rng)
    dealer = rng.choice(SEATS)
    hands: dict[str, list[str]] = {s: [] for s in SEATS}
    flowers: dict[str, list[str]] = {s: [] for s in SEATS}
    order = SEATS[SEATS.index(dealer):] + SEATS[:SEATS.index(dealer)]
    for seat in order:
        while len(hands[seat]) < 16 + (seat == dealer):
            tile = wall.pop()
            (flowers if tile in FLOWERS else hands)[seat].append(tile)
    header = [
        "規則: tw16", f"莊家: {dealer}", f"連莊: {rng.choice([0, 0, 0, 1, 2])}",
        "底: 300", "台: 100", f"牌牆: {len(wall) - 16}",
    ]
    positions = [f"{s} 手牌: {' '.join(sorted(hands[s], key=NAMES.index))}" for s in SEATS]
    positions += [f"{s} 花: {' '.join(flowers[s])}" for s in SEATS if flowers[s]]
    acts: list[str] = []
    seat = dealer
    seq = 1
    drawn = True  # the dealer holds 17 after the deal: it starts by discarding

    def add(line: str) -> None:
        nonlocal seq
        acts.append(f"{seq} {line}")
        seq += 1

    while len(acts) < target:
        if len(wall) <= 20:
            break
        if not drawn:
            tile = wall.pop()
            add(f"{seat} 摸 {tile}")
            while tile in FLOWERS:
                replacement = wall.pop()
                add(f"{seat} 補花 {tile} 補 {replacement}")
                tile = replacement
            hands[seat].append(tile)
        drawn = False
        roll = rng.random()
        if roll < 0.01 and n_acts is None:
            add(f"{seat} 自摸")  # a declared win on an incomplete hand: 詐和
            break
        if roll < 0.03:
            add(f"{seat} 自承 偷牌")
        tile = rng.choice(hands[seat])
        hands[seat].remove(tile)
        add(f"{seat} 打 {tile}")
        claimers = [s for s in SEATS if s != seat and hands[s].count(tile) >= 2]
        if claimers and rng.random() < 0.5:
            claimer = claimers[0]
            add(f"{claimer} 碰 {tile}")
            hands[claimer].remove(tile)
            hands[claimer].remove(tile)
            out = rng.choice(hands[claimer])
            hands[claimer].remove(out)
            add(f"{claimer} 打 {out}")
            seat = SEATS[(SEATS.index(claimer) + 1) % 4]
            continue
        if rng.random() < 0.02:
            add(f"{SEATS[(SEATS.index(seat) + 2) % 4]} 喊碰 {tile}")
        seat = SEATS[(SEATS.index(seat) + 1) % 4]
    return "\n".join(header + [""] + positions + ["", "紀錄:"] + acts) + "\n"


def write_corpus(folder: Path, n: int, seed: int = 0) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        path = folder / f"g{i:05d}.log"
        if not path.exists():
            path.write_text(make_log(seed * 1_000_003 + i), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    write_corpus(Path(sys.argv[1]), int(sys.argv[2]))
