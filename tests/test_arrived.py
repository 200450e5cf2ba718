"""`it.arrived`: a piece put or moved where it stands during this turn.

New Order lets a ship jump from a teleport "on your next turn": with a trade
outpost's extra actions a ship could otherwise fly onto the teleport and jump
in one turn. A position file carries what arrived this turn, so a judge can
set the moment up without replaying it.
"""

from __future__ import annotations

import pytest

from compiler.engine.formats import PositionError, PositionModel, from_state, position_from_model
from compiler.engine.position import Position, Rules
from compiler.engine.scenario import run_example
from tests import compiled


@pytest.fixture(scope="module")
def new_order() -> Rules:
    return compiled.rules("trian_new_order")


def after_the_flight(rules: Rules) -> Position:
    """Arvori's emissary reached a trade outpost; the Corvette then flew onto the teleport."""
    ex = next(e for e in rules.ruleset.examples if e.id == "jump_not_on_arrival")
    result = run_example(rules, ex)
    assert result.before is not None
    moves = "t10 b at 2,0 r0; emissary 2,0:outpost; sail corvette@1,0:space to 0,0:space"
    after = result.before.apply(moves)
    assert after is not None
    return after


def test_a_ship_that_flew_onto_the_teleport_this_turn_may_not_jump(new_order: Rules) -> None:
    pos = after_the_flight(new_order)
    (mv,) = pos.adjudicate("jump corvette@0,0:space to 2,0:space").moves
    assert mv.verdict == "ILLEGAL"
    assert mv.breaches[0].rule and mv.breaches[0].rule.id == "exploration.move.jump"
    assert "later turn" in mv.breaches[0].message


def test_the_position_file_keeps_what_arrived_this_turn(new_order: Rules) -> None:
    pos = after_the_flight(new_order)
    model = from_state(new_order, pos.state)
    assert model.turn.arrived == ["emissary@2,0:outpost", "corvette@0,0:space"]
    again = position_from_model(new_order, PositionModel.model_validate_json(
        model.model_dump_json()))
    assert again.adjudicate("jump corvette@0,0:space to 2,0:space").verdict == "ILLEGAL"
    # The same table, but the Corvette stood there before the turn began: it may jump.
    model.turn.arrived = ["emissary@2,0:outpost"]
    earlier = position_from_model(new_order, model)
    assert earlier.adjudicate("jump corvette@0,0:space to 2,0:space").verdict == "LEGAL"


def test_an_arrival_that_names_no_piece_is_refused_with_its_path(new_order: Rules) -> None:
    model = from_state(new_order, after_the_flight(new_order).state)
    model.turn.arrived = ["rogue@0,0:space", "corvette"]
    with pytest.raises(PositionError) as refused:
        position_from_model(new_order, model)
    problems = dict(refused.value.problems)
    assert "there is no rogue at 0,0:space" in problems["turn.arrived[0]"]
    assert "kind@x,y:site" in problems["turn.arrived[1]"]
