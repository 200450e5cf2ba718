"""Random play draws from `Position.listed_moves()`, which makes a `Move` only for the
move drawn (engine/notation.py, `ListedMoves`). A seed must draw the same move as it
did from the full list, so at positions along random games the cheap listing must hold
the same moves as `legal_moves()`, index for index, whether read by index or in turn.
"""

from __future__ import annotations

import pytest

from compiler.engine.position import Position
from compiler.engine.random_play import random_game
from compiler.engine.views import hides_anything
from tests import compiled

RULESETS = ["trian_deluxe", "trian_new_order", "among_the_stars"]
EVERY = 7  # one position in this many along the game


@pytest.mark.parametrize("name", RULESETS)
def test_cheap_listing_is_the_full_listing(name: str) -> None:
    rules = compiled.rules(name)
    players = max(rules.ruleset.players_min, min(4, rules.ruleset.players_max))
    _, history = random_game(rules.table(players), players, seed=5)
    positions = [p for _, p, _ in history.moves[::EVERY]]
    if hides_anything(rules.game):  # random play lists the mover's moves in their view
        positions = [p.view(p.active) for p in positions]
    assert len(positions) > 5
    for pos in positions:
        listed = pos.listed_moves()
        full = Position(pos.rules, pos.state).legal_moves()  # listed afresh, in full
        assert len(listed) == len(full) > 0
        assert [listed[i] for i in range(len(listed))] == full
        assert list(listed) == full
        assert listed[-1] == full[-1] and listed[:3] == full[:3]
        with pytest.raises(IndexError):
            listed[len(full)]


def test_a_placement_is_found_in_its_run_and_no_other_is() -> None:
    """Tile placements are kept as their groups (`Placements`): each one listed is found
    where it was listed (so it is not checked again), and a placement moved to a cell or
    rotation that does not fit, or of another tile, is not."""
    from compiler.engine.actions import Placements

    rules = compiled.rules("trian_deluxe")
    _, history = random_game(rules.table(4), 4, seed=3)
    tried = 0
    for _, pos, move in history.moves[1::10]:
        if move.action != "lay_tile":
            continue
        fresh = Position(pos.rules, pos.state)
        moves = [m for m in fresh.legal_moves() if m.action == move.action]
        listing = fresh._listed()  # complete now
        assert any(isinstance(run, Placements) for _, _, run, _ in listing._runs)
        keys = {m.args for m in moves}
        for m in moves:
            assert listing.source(m.action, m.args) is not None
        for m in moves[:20]:
            for change in ({"rotation": 5}, {"cell": (99, 99)}, {"card": "nothing"}):
                args = tuple(sorted({**m.values, **change}.items()))
                if args not in keys:
                    assert listing.source(m.action, args) is None
                    tried += 1
    assert tried > 20
