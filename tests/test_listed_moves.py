"""Random play draws from `Position.listed_moves()`, which makes a `Move` only for the
move drawn (engine/notation.py, `ListedMoves`). A seed must draw the same move as it
did from the full list, so at positions along random games the cheap listing must hold
the same moves as `legal_moves()`, index for index, whether read by index or in turn.
"""

from __future__ import annotations

import pytest

from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from compiler.engine.views import hides_anything
from compiler.load import RULES_DIR, load_ruleset

RULESETS = ["trian_deluxe", "trian_new_order", "among_the_stars"]
EVERY = 7  # one position in this many along the game


@pytest.mark.parametrize("name", RULESETS)
def test_cheap_listing_is_the_full_listing(name: str) -> None:
    rules = Rules(load_ruleset(RULES_DIR / name))
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
