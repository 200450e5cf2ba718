"""A move refused because the piece cannot get there says what stopped it.

A ship's destination is chosen from a walk (`reach_sites`); when the walk
does not get there the ruling names the cause: too far, cut off by a
barrier, a tile it may not enter on every way there, or a place that stops
it first. The positions are the expansion's own worked examples.
"""

from __future__ import annotations

import pytest

from compiler.engine.formats import PositionModel
from compiler.engine.position import Rules
from compiler.engine.scenario import model_from_facts, position_from_model
from tests import compiled


@pytest.fixture(scope="module")
def conquest() -> Rules:
    return compiled.rules("trian_conquest")


def reasons(rules: Rules, example: str, move: str) -> list[str]:
    ex = next(e for e in rules.ruleset.examples if e.id == example)
    pos = position_from_model(rules, model_from_facts(rules, ex.given))
    [judged] = pos.adjudicate(move).moves
    assert judged.verdict == "ILLEGAL"
    return [b.detail or b.message for b in judged.breaches if b.code == "domain"]


def test_a_ship_four_tiles_away_is_told_the_distance_and_the_limit(conquest: Rules) -> None:
    assert reasons(conquest, "sail_four", "sail corvette@0,0:space to 4,0:space") == [
        "4,0:space is 4 moves from 0,0:space through outer space, more than 3"]


def test_the_far_side_of_a_cloud_is_out_of_every_way(conquest: Rules) -> None:
    assert reasons(conquest, "sail_split_tile", "sail corvette@0,0:space to 1,0:space2") == [
        "1,0:space2 cannot be reached from 0,0:space through outer space"]


def test_a_research_station_on_the_way_is_named_by_its_tile(conquest: Rules) -> None:
    assert reasons(conquest, "sail_station_corvette", "sail corvette@0,0:space to 2,0:space") == [
        "every way from 0,0:space to 2,0:space of at most 3 moves passes tile 1,0, which may "
        "not be entered: a station on tile 1,0 bars Xemh’s Corvette at 0,0:space (tile 1,0 "
        "holds Quuylto’s research station at 1,0:planet)"]


def test_a_tile_in_an_exmitters_field_is_itself_closed(conquest: Rules) -> None:
    assert reasons(conquest, "sail_into_field", "sail corvette@0,0:space to 2,0:space") == [
        "tile 2,0 may not be entered: tile 2,0 is in an exmitter's field (tile 3,0 has an "
        "exmitter and is among the tiles sharing an edge with tile 2,0)"]


def test_an_enemy_ship_in_sight_on_the_way_stops_the_flight(conquest: Rules) -> None:
    """Flying on past tile 1,0, in sight of K'Haarquar's Rogue, would skip the battle."""
    pos = position_from_model(conquest, PositionModel.model_validate({
        "ruleset": "trian_conquest",
        "players": [{"seat": "quuylto"}, {"seat": "xemh"}, {"seat": "khaarquar"}],
        "tiles": [{"at": "0,0", "tile": "t02", "face": "b"}, {"at": "1,0", "tile": "t04", "face": "a"},
                  {"at": "2,0", "tile": "t06", "face": "a"}, {"at": "1,-1", "tile": "t09", "face": "b"}],
        "pieces": [{"kind": "corvette", "owner": "xemh", "at": "0,0:space"},
                   {"kind": "rogue", "owner": "khaarquar", "at": "1,-1:space"}],
        "turn": {"number": 12, "player": "xemh", "step": "action", "placed": "2,0"}}))
    [judged] = pos.adjudicate("sail corvette@0,0:space to 2,0:space").moves
    assert [b.detail or b.message for b in judged.breaches if b.code == "domain"] == [
        "every way from 0,0:space to 2,0:space of at most 3 moves stops first at tile 1,0: "
        "1,0:space is among the places in sight of another player's ship (K'Haarquar’s Rogue at "
        "1,-1:space is among the enemy ships of Xemh’s Corvette at 0,0:space (1,0:space is among "
        "the places in sight of K'Haarquar’s Rogue at 1,-1:space (1,0:space is among the sites "
        "reachable from 1,-1:space in one move through outer space areas (on a tile a barrier "
        "splits, only the side reached))))"]
