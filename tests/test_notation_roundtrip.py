"""Every legal move's notation reads back as the same move, in every ruleset.

Moves are written by one function and read by another; a record replays only if
the two agree on every move a table can make. Here random games of every ruleset
(and of the test rulesets with steps each player takes, whose moves name their seat,
and with a board per player, whose moves name cells on the mover's board)
are sampled, and at each sampled position every legal move is written, read back,
and written again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.engine.random_play import random_game
from compiler.load import RULES_DIR
from tests import compiled

RULESETS = sorted(p for p in RULES_DIR.iterdir() if (p / "ruleset.rules").exists()
                  or any(p.glob("*.rules")))
SEASONS = Path(__file__).parent / "rulesets" / "seasons"
OUTPOSTS = Path(__file__).parent / "rulesets" / "outposts"  # a board per player
SEALED = Path(__file__).parent / "rulesets" / "sealed_picks"  # choices made at once


@pytest.mark.parametrize("folder", [*RULESETS, SEASONS, OUTPOSTS, SEALED], ids=lambda p: p.name)
def test_every_legal_move_reads_back_as_itself(folder: Path) -> None:
    rules = compiled.rules_at(folder)
    players = rules.ruleset.players_min
    final, history = random_game(rules, players, seed=3)
    sampled = history.moves[::max(1, len(history.moves) // 12)]
    assert sampled
    for _, pos, _ in sampled:
        for move in pos.legal_moves():
            text = pos.notation(move)
            back = pos.parse(text)
            assert back == move, (text, back, move)
            assert pos.notation(back) == text
