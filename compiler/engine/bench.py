"""`rulebook bench`: how fast the engine plays, judges and compiles.

Measured on random legal games (seeded, so runs compare, and played the way
`random_play` plays them, chance included): games per second,
the time per decision early and late in a game (late boards are bigger),
the time to adjudicate moves on a full board, and the time to compile the
ruleset from its files.
"""

from __future__ import annotations

import random
import statistics
import time

from compiler.engine.position import Position, Rules
from compiler.load import load_ruleset


def run_bench(name: str, games: int = 30, players: int = 4) -> dict[str, str]:
    t0 = time.perf_counter()
    ruleset = load_ruleset(name)
    rules = Rules(ruleset)
    compile_time = time.perf_counter() - t0

    early: list[float] = []
    late: list[float] = []
    full_board: Position | None = None
    t0 = time.perf_counter()
    decisions = 0
    for g in range(games):
        # The same driver as random play: chance (a die, a draw) is decided by the
        # seeded generator through `play`, as `rulebook play` does.
        rng = random.Random(g)
        pos, _ = Position.set_up(rules, players, seed=g, sampler=rng)
        total = pos.state.stock_size()
        while not pos.finished:
            t = time.perf_counter()
            moves = pos.legal_moves()
            pos, _ = pos.play(rng.choice(moves), chance=rng)
            spent = time.perf_counter() - t
            decisions += 1
            placed = len(pos.state.board)
            (early if placed <= total // 4 else late if placed >= 3 * total // 4 else []).append(
                spent)
            if not pos.finished and placed >= total - players:
                full_board = pos
    elapsed = time.perf_counter() - t0

    judged = []
    if full_board is not None:
        candidates = [full_board.notation(m) for m in full_board.legal_moves()][:20]
        # and some that are not legal: the same moves aimed far off the board
        candidates += [c.replace(",", "9,", 1) for c in candidates[:5]] + ["pass"]
        for text in candidates:
            t = time.perf_counter()
            full_board.adjudicate(text)
            judged.append(time.perf_counter() - t)

    def ms(xs: list[float]) -> str:
        if not xs:
            return "n/a"
        return f"median {statistics.median(xs) * 1000:.2f} ms, p95 " \
               f"{sorted(xs)[int(len(xs) * .95)] * 1000:.2f} ms ({len(xs)} samples)"

    return {
        "games": f"{games} random {players}-player games, {decisions} decisions",
        "games per second": f"{games / elapsed:.1f}",
        "decisions per second": f"{decisions / elapsed:.0f}",
        "time per decision, early (first quarter of tiles)": ms(early),
        "time per decision, late (last quarter of tiles)": ms(late),
        "adjudication on a full board": ms(judged),
        "compile time (parse, check, build tables)": f"{compile_time * 1000:.0f} ms",
    }
