"""The sentence that closes every game: who won, with what, and how a tie was broken.

A judge reads it out, so it gives the winners' score on the first measure, the
runner-up's, and, when the first measure was a tie, the tie-break that settled
it with both sides' figures. A team game speaks of teams.
"""

from __future__ import annotations

from typing import Any

import pytest

from compiler.engine.formats import PositionModel, position_from_model
from compiler.engine.position import Rules
from tests import compiled


def final_note(rules: Rules, players: list[str], pieces: list[dict[str, str]] | None = None,
               tile: str = "t02", beside: dict[str, Any] | None = None, **extra: Any) -> str:
    """The winner's note when the game ends on a one-tile board (and the tile `beside` it,
    if given) with these players."""
    tiles = [{"at": "0,0", "tile": tile, "face": "b"}] + ([beside] if beside else [])
    model = PositionModel.model_validate({
        "ruleset": rules.ruleset.id,
        "players": [{"seat": s, **extra.get(s, {})} for s in players],
        "turn": {"number": 40, "player": players[-1], "step": "action",
                 "placed": tiles[-1]["at"]},
        "tiles": tiles, "pieces": pieces or []})
    _, effects = position_from_model(rules, model).end_game()
    return next(e.text for e in effects if e.kind == "winner")


@pytest.fixture(scope="module")
def teams() -> Rules:
    return compiled.rules("trian_teams")


def test_a_clear_winner_is_named_with_the_runner_up(rules: Rules) -> None:
    note = final_note(rules, ["quuylto", "xemh", "khaarquar"],
                      quuylto={"resources": {"points": 40}}, xemh={"resources": {"points": 54}})
    assert note == "Xemh wins with 54 victory points, against 40 for Quuylto"


def test_a_tie_broken_at_the_end_says_by_what(rules: Rules) -> None:
    # Xemh's emissary stays in an open nebula with an extractor, earning nothing. (It
    # stands on the tile beside the extractor's: none may stand on the extractor's own.)
    note = final_note(rules, ["quuylto", "xemh", "khaarquar"], tile="t27",
                      beside={"at": "1,0", "tile": "t04", "face": "b", "rotation": 0},
                      pieces=[{"kind": "emissary", "owner": "xemh", "at": "1,0:nebula"}],
                      quuylto={"resources": {"points": 54}}, xemh={"resources": {"points": 54}})
    assert note == ("Quuylto tied with Xemh on 54 victory points; Quuylto wins on most "
                    "emissaries left in supply (8 against 7)")


def test_a_tie_on_every_measure_is_a_shared_victory(rules: Rules) -> None:
    note = final_note(rules, ["quuylto", "xemh"],
                      quuylto={"resources": {"points": 20}}, xemh={"resources": {"points": 20}})
    assert note == "Quuylto and Xemh share the victory, tied on 20 victory points and on " \
                   "every tie-break"


def test_one_point_is_singular(rules: Rules) -> None:
    note = final_note(rules, ["quuylto", "xemh"], quuylto={"resources": {"points": 1}})
    assert note == "Quuylto wins with 1 victory point, against 0 for Xemh"


def test_a_team_wins_on_its_total(teams: Rules) -> None:
    note = final_note(teams, ["quuylto", "xemh", "khaarquar", "borfnaree"],
                      quuylto={"resources": {"points": 10}}, xemh={"resources": {"points": 12}},
                      khaarquar={"resources": {"points": 5}})
    assert note == ("Quuylto and K'Haarquar win with the points of Quuylto's team: 15, "
                    "against 12 for Xemh and Borf-Naree")
