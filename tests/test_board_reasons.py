"""Refusals whose reason is a distance or a payment, read aloud.

A judge at the table says how far apart two tiles are and what the rule
allows, or which hut cannot pay what the move takes from it; not the formula
the rule is written in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.engine.formats import PositionModel, position_from_model
from compiler.engine.position import Position, Rules
from compiler.load import load_files

OUTPOSTS = Path(__file__).parent / "rulesets" / "outposts" / "outposts.rules"

SIGNALS = '''
    rule camp.signal "Signals" {
        text """A player may signal between two tiles at most two steps apart."""
        action signal "signal" {
            notation "signal {a} {b}"
            choose a from tiles of me
            choose b from tiles
            require distance(a, b) <= 2
            give 1 points to me
        }
    }

    rule camp.end "The end" {'''


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """Outposts with one more action: a signal between two tiles near each other."""
    source = OUTPOSTS.read_text(encoding="utf-8")
    source = source.replace('\n    rule camp.end "The end" {', SIGNALS, 1)
    source = source.replace("must one of build, burn, clear", "must one of build, burn, clear, "
                                                             "signal")
    path = tmp_path_factory.mktemp("signals") / "outposts.rules"
    path.write_text(source, encoding="utf-8")
    return Rules(load_files([path])[0])


@pytest.fixture(scope="module")
def camp(rules: Rules) -> Position:
    """Red's camp: a row of four cards, the hut at 1,0 holding 1 wood, the hut at 0,1 two."""
    tiles = [("t1", "red", "0,0", {}), ("hut1", "red", "1,0", {"wood": 1}),
             ("t2", "red", "2,0", {}), ("t3", "red", "3,0", {}),
             ("hut2", "red", "0,1", {"wood": 2}), ("t4", "blue", "0,0", {})]
    return position_from_model(rules, PositionModel.model_validate({
        "format": "rulebook-position", "ruleset": "outposts",
        "players": [{"seat": "red"}, {"seat": "blue"}],
        "tiles": [{"board": b, "at": at, "tile": t, "face": "front", "holds": h}
                  for t, b, at, h in tiles],
        "stacks": [["t5", "t6"]], "turn": {"number": 4, "player": "red", "step": "act"}}))


def reasons(pos: Position, move: str) -> list[str]:
    ruling = pos.adjudicate(move)
    assert ruling.verdict == "ILLEGAL"
    return [b.message for mv in ruling.moves for b in mv.breaches]


def test_a_signal_too_far_says_how_many_steps_apart_the_tiles_are(camp: Position) -> None:
    assert reasons(camp, "signal 0,0 3,0") == [
        "the Plot at 0,0 is 3 edge steps from the Plot at 3,0, not at most 2"]


def test_a_signal_to_another_camp_says_no_path_joins_the_tiles(camp: Position) -> None:
    assert reasons(camp, "signal 0,0 blue/0,0") == ["no path of laid tiles joins 0,0 and blue/0,0"]


def test_burning_more_wood_than_a_hut_holds_names_the_hut(camp: Position) -> None:
    assert reasons(camp, "burn 1,0 1,0") == [
        "the Hut at 1,0 holds 1 wood, but the payment takes 2 from it"]


def test_burning_from_a_tile_that_holds_no_wood_names_it(camp: Position) -> None:
    assert reasons(camp, "burn 2,0 1,0") == ["the Plot at 2,0 holds no wood"]


def test_burning_from_another_camp_says_whose_tiles_may_pay(camp: Position) -> None:
    assert reasons(camp, "burn 1,0 blue/0,0") == ["the Plot at blue/0,0 is not among your tiles"]


def test_burning_the_wrong_amount_says_how_much_the_rule_takes(camp: Position) -> None:
    assert reasons(camp, "burn 0,1 0,1 1,0") == [
        "the payment takes 3 wood, but the rule takes 2 wood"]
