"""Random legal games: for tests, benchmarks and `rulebook play`.

Every choice is drawn from `random.Random(seed)`, and the shuffle from the same
seed, so a seed names a game exactly (and its record replays it without one:
the set-up's outcomes, each move's and the table's between moves are in it).

Random play never peeks: in a game where some zone keeps cards from a player,
each move is chosen from what the mover can see (their view, engine/views.py),
and only then played at the full table. A game whose zones are all public or
show only their tops (the tile stacks) lists its moves as it always has.

The loop is also `rulebook simulate`'s (engine/simulate.py): `choose` puts another
policy in every seat (drawing from the same generator, so a seed still names a game),
and `observe` sees each move carried out (a `Performed`, its ruling not written) — say,
to count the rules that applied — without a second copy of the loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from compiler.engine import zones
from compiler.engine.notation import Move
from compiler.engine.performed import Performed
from compiler.engine.position import IllegalMove, Position, Rules
from compiler.engine.records import History
from compiler.engine.state import STACKS
from compiler.engine.views import hides_anything


class RandomPlayStopped(RuntimeError):
    """A random game could not go on: the rules leave it stuck (said in words)."""


Chooser = Callable[[Position, Sequence[Move], random.Random], Move]


def random_game(rules: Rules, players: int, seed: int, max_decisions: int = 10_000, *,
                choose: Chooser | None = None, player: str = "random",
                observe: Callable[[Performed], None] | None = None
                ) -> tuple[Position, History]:
    """The game named by `seed`: every move drawn uniformly from the mover's legal moves,
    or by `choose(seen, moves, rng)` (`seen`: the position as the mover sees it), a policy
    named `player` where a stuck game is reported."""
    rng = random.Random(seed)
    # The shuffle comes from the seed alone; the set-up's own chance (a draw at the
    # start of the game) and every later one from `rng`, and the record keeps both.
    pos, chance = Position.set_up(rules.table(players), players, seed=seed, sampler=rng)
    stacks = [[c for c in reversed(s) if c is not None] for s in zones.piles(pos.state, STACKS)]
    seats = [pos.game.seat_id(i) for i in range(players)]
    history = History(start=pos, seats=seats, stacks=stacks, seed=seed, chance=chance)
    seen_by_mover = _seen(pos)
    for _ in range(max_decisions):
        if pos.finished:
            break
        seen = seen_by_mover(pos)
        moves = seen.listed_moves()  # each made only if drawn
        if not moves:
            raise RandomPlayStopped(f"no legal move and the game is not over (seed {seed}, "
                                    f"turn {pos.state.turn.number})")
        move = rng.choice(moves) if choose is None else choose(seen, moves, rng)
        try:  # the record needs no ruling: none is written (nor noted, unless observed)
            done = pos.perform(move, chance=rng, record=observe is not None)
        except IllegalMove as e:  # listed as legal, yet the rules cannot carry it out
            why = "; ".join(b.message for m in e.ruling.moves for b in m.breaches)
            raise RandomPlayStopped(f"{player} play stopped at turn {pos.state.turn.number} "
                                    f"(seed {seed}): `{pos.notation(move)}`: {why}") from None
        if observe is not None:
            observe(done)
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


def _seen(pos: Position) -> Callable[[Position], Position]:
    """Where a player's moves are listed and chosen: the mover's view where the game hides
    cards from some player, else the table itself (the same moves, for less work)."""
    if not hides_anything(pos.game):
        return lambda p: p
    return lambda p: p.view(p.active)
