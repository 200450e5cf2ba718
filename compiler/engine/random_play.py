"""Random legal games: for tests, benchmarks and `rulebook play`.

Every choice is drawn from `random.Random(seed)`, and the shuffle from the same
seed, so a seed names a game exactly (and its record replays it without one:
the set-up's outcomes, each move's and the table's between moves are in it).

Random play never peeks: in a game where some zone keeps cards from a player,
each move is chosen from what the mover can see (their view, engine/views.py),
and only then played at the full table. A game whose zones are all public or
show only their tops (the tile stacks) lists its moves as it always has.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from compiler.engine import zones
from compiler.engine.notation import Move
from compiler.engine.position import IllegalMove, Position, Rules
from compiler.engine.records import History
from compiler.engine.state import STACKS
from compiler.engine.views import hides_anything


class RandomPlayStopped(RuntimeError):
    """A random game could not go on: the rules leave it stuck (said in words)."""


def random_game(rules: Rules, players: int, seed: int,
                max_decisions: int = 10_000) -> tuple[Position, History]:
    rng = random.Random(seed)
    # The shuffle comes from the seed alone; the set-up's own chance (a draw at the
    # start of the game) and every later one from `rng`, and the record keeps both.
    pos, chance = Position.set_up(rules.table(players), players, seed=seed, sampler=rng)
    stacks = [[c for c in reversed(s) if c is not None] for s in zones.piles(pos.state, STACKS)]
    seats = [pos.game.seat_id(i) for i in range(players)]
    history = History(start=pos, seats=seats, stacks=stacks, seed=seed, chance=chance)
    choices = _choices(pos)
    for _ in range(max_decisions):
        if pos.finished:
            break
        moves = choices(pos)
        if not moves:
            raise RandomPlayStopped(f"no legal move and the game is not over (seed {seed}, "
                                    f"turn {pos.state.turn.number})")
        move = rng.choice(moves)
        try:  # the record needs no ruling: none is written
            done = pos.perform(move, chance=rng)
        except IllegalMove as e:  # listed as legal, yet the rules cannot carry it out
            why = "; ".join(b.message for m in e.ruling.moves for b in m.breaches)
            raise RandomPlayStopped(f"random play stopped at turn {pos.state.turn.number} "
                                    f"(seed {seed}): `{pos.notation(move)}`: {why}") from None
        if done.chance:  # keep what chance decided, so the record replays exactly
            move = replace(move, chance=done.chance)
        # The last outcomes may be the table's (a deal once the round is over): the record
        # writes them as a decision of their own after the move.
        history.add(pos, move, table=len(done.table_chance))
        pos = done.after
    else:
        raise RandomPlayStopped(f"the game did not end within {max_decisions} decisions "
                                f"(seed {seed})")
    return pos, history


def _choices(pos: Position) -> Callable[[Position], list[Move]]:
    """How the moves a random player chooses from are listed: from the mover's view where
    the game hides cards from some player, else from the table itself (the same list, for
    less work)."""
    if not hides_anything(pos.game):
        return Position.legal_moves
    return lambda p: p.view(p.active).legal_moves()
