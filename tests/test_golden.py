"""Golden playthroughs: for each ruleset, a seeded game with the number of legal moves at
every decision and the move taken, kept in `tests/golden/` and compared move by move.

A change to the engine or to a rule that alters what is legal anywhere in these games
shows up here as a diff naming the first decision that differs. When the change is
intended, regenerate the files with `RULEBOOK_GOLDEN=update pytest tests/test_golden.py`
and review the diff in version control.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests import compiled

GOLDEN = Path(__file__).parent / "golden"
PLAYERS = {"trian_teams_3v3": 6, "trian_teams": 4, "trian_six": 5,
           "among_the_stars_two": 2, "among_the_stars_two_aggressive": 2}
DECISIONS = 120


def playthrough(name: str) -> str:
    rules = compiled.rules(name)
    players = PLAYERS.get(name, 3)
    pos = rules.start(players, seed=11)
    rng = random.Random(11)
    lines = [f"# {name}, {players} players, seed 11: decision, turn, legal moves, move taken"]
    for i in range(DECISIONS):
        if pos.finished:
            break
        moves = pos.legal_moves()
        turn = pos.state.turn.number
        pos, ruling = pos.play(rng.choice(moves), chance=rng)
        lines.append(f"{i + 1} t{turn} {len(moves)} {ruling.move}")
    lines.append(f"# scores after: {' '.join(f'{k}={v}' for k, v in pos.scores().items())}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", compiled.names())
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = playthrough(name)
    if os.environ.get("RULEBOOK_GOLDEN") == "update" or not path.exists():
        path.write_text(text, encoding="utf-8")
        if os.environ.get("RULEBOOK_GOLDEN") != "update":
            pytest.fail(f"{path.name} was missing and has been written; commit it")
        return
    want = path.read_text(encoding="utf-8").splitlines()
    got = text.splitlines()
    for i, (a, b) in enumerate(zip(want, got)):
        assert a == b, f"{path.name}, line {i + 1}: expected\n  {a}\nbut the engine now gives\n  {b}"
    assert len(want) == len(got), f"{path.name}: {len(want)} lines expected, {len(got)} now"
