"""Random legal games: for tests, benchmarks and `rulebook play`.

Every choice is drawn from `random.Random(seed)`, and the shuffle from the same
seed, so a seed names a game exactly (and its record replays it without one).
"""

from __future__ import annotations

import random
from dataclasses import replace

from compiler.engine.position import Position, Rules
from compiler.engine.records import History


def random_game(rules: Rules, players: int, seed: int,
                max_decisions: int = 10_000) -> tuple[Position, History]:
    pos = rules.start(players, seed=seed)
    stacks = [[c for c in reversed(s) if c is not None] for s in pos.state.stacks]
    seats = [pos.game.seat_id(i) for i in range(players)]
    history = History(start=pos, seats=seats, stacks=stacks, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        if pos.finished:
            break
        moves = pos.legal_moves()
        if not moves:
            raise RuntimeError(f"no legal move and the game is not over (seed {seed}, turn "
                               f"{pos.state.turn.number})")
        move = rng.choice(moves)
        nxt, ruling = pos.play(move, chance=rng)
        if "!" in ruling.move:  # keep what chance decided, so the record replays exactly
            move = replace(move, chance=tuple(ruling.move.partition("!")[2].split()))
        history.add(pos, move)
        pos = nxt
    else:
        raise RuntimeError(f"the game did not end within {max_decisions} decisions (seed {seed})")
    return pos, history
