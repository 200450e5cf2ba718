"""Game records and position files: round trips, strictness, refusals that change nothing."""

from __future__ import annotations

import json

import pytest

from compiler.engine.formats import (
    PositionError, PositionModel, from_state, position_from_model, position_schema,
)
from compiler.engine.position import IllegalMove, Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import RecordError, parse_record, replay, write_record


@pytest.fixture(scope="module")
def game(rules: Rules):
    return random_game(rules, 3, seed=11)


def test_a_record_replays_to_the_same_position(rules: Rules, game) -> None:
    final, history = game
    text = write_record(history, final)
    again = replay(rules, parse_record(text))
    assert again.finished and again.scores() == final.scores()
    assert again.state.board == final.state.board
    assert from_state(rules, again.state) == from_state(rules, final.state)


def test_records_name_every_random_outcome(rules: Rules, game) -> None:
    final, history = game
    text = write_record(history, final)
    assert '[Stacks "' in text and '[Players "quuylto xemh khaarquar"]' in text
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    assert " at 0,0 r" in first  # the tile, face, position and turn are all written


def test_replay_upto_stops_after_that_many_turns(rules: Rules, game) -> None:
    final, history = game
    pos = replay(rules, parse_record(write_record(history, final)), upto=10)
    assert len(pos.state.board) == 10


def test_an_illegal_line_is_refused_with_its_place_and_ruling(rules: Rules, game) -> None:
    final, history = game
    lines = write_record(history, final).splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("3. "))
    lines[i] = "3. " + lines[i][3:].split(";")[0] + "; emissary 0,0:space"
    with pytest.raises(RecordError) as info:
        replay(rules, parse_record("\n".join(lines), "bad.record"))
    d = info.value.diagnostic
    assert (d.file, d.line) == ("bad.record", i + 1)
    assert info.value.ruling is not None and info.value.ruling.verdict == "ILLEGAL"


def test_a_wrong_turn_number_is_refused(rules: Rules, game) -> None:
    final, history = game
    text = write_record(history, final).replace("\n2. ", "\n7. ", 1)
    with pytest.raises(RecordError) as info:
        replay(rules, parse_record(text))
    assert "turn 7" in str(info.value)


def test_a_record_with_a_syntax_error_points_at_it(rules: Rules) -> None:
    with pytest.raises(RecordError) as info:
        parse_record('[Ruleset "trian_deluxe"\n1. research\n', "x.record")
    assert info.value.diagnostic.line == 1


def test_position_json_round_trip(rules: Rules, game) -> None:
    final, history = game
    for _, pos, _ in history.moves[::25]:
        model = from_state(rules, pos.state)
        again = position_from_model(rules, PositionModel.model_validate_json(model.model_dump_json()))
        assert from_state(rules, again.state) == model
        assert [pos.notation(m) for m in pos.legal_moves()] == \
            [again.notation(m) for m in again.legal_moves()]


def test_the_schema_is_json_schema(rules: Rules) -> None:
    schema = position_schema()
    assert schema["title"] == "Position"
    assert "tiles" in schema["properties"] and "turn" in schema["properties"]
    json.dumps(schema)


def _model(**changes):
    base = {
        "ruleset": "trian_deluxe",
        "players": [{"seat": "quuylto"}, {"seat": "xemh"}],
        "tiles": [{"at": "0,0", "tile": "t01", "face": "a", "rotation": 0},
                  {"at": "1,0", "tile": "t03", "face": "a", "rotation": 1}],
        "turn": {"player": "xemh", "step": "tile"},
    }
    base.update(changes)
    return PositionModel.model_validate(base)


def test_a_valid_position_loads(rules: Rules) -> None:
    pos = position_from_model(rules, _model())
    assert len(pos.state.board) == 2


@pytest.mark.parametrize("changes,where,words", [
    ({"tiles": [{"at": "0,0", "tile": "t01", "face": "a", "rotation": 0},
                {"at": "1,0", "tile": "t03", "face": "a", "rotation": 0}]},
     "tiles[1]", "edges do not match"),
    ({"tiles": [{"at": "0,0", "tile": "t01", "face": "a", "rotation": 0},
                {"at": "4,4", "tile": "t03", "face": "a", "rotation": 1}]},
     "tiles[1].at", "does not touch"),
    ({"tiles": [{"at": "0,0", "tile": "t99", "face": "a", "rotation": 0}]}, "tiles[0].tile",
     "no tile 't99'"),
    ({"pieces": [{"kind": "emissary", "owner": "xemh", "at": "0,0:moon"}]}, "pieces[0].at",
     "has no site `moon`"),
    ({"pieces": [{"kind": "station", "owner": "xemh", "at": "0,0:planet"}]}, "pieces[0]",
     "stands only on its owner's emissary"),
    ({"players": [{"seat": "quuylto", "supply": {"emissary": 3}}, {"seat": "xemh"}]},
     "players[0].supply.emissary", "the game gives 9"),
    ({"players": [{"seat": "quuylto", "resources": {"mineral": 101}}, {"seat": "xemh"}]},
     "pool", "there are only 100"),
    ({"turn": {"player": "nobody", "step": "tile"}}, "turn.player", "no seat 'nobody'"),
])
def test_impossible_positions_are_refused_with_the_place(rules: Rules, changes, where, words):
    with pytest.raises(PositionError) as info:
        position_from_model(rules, _model(**changes))
    assert any(path == where and words in msg for path, msg in info.value.problems), \
        info.value.problems


def test_a_refused_move_changes_nothing(rules: Rules, game) -> None:
    final, history = game
    _, pos, _ = history.moves[40]
    before = from_state(rules, pos.state)
    with pytest.raises(IllegalMove) as info:
        pos.apply("emissary 0,0:space")
    assert info.value.ruling.verdict == "ILLEGAL"
    assert from_state(rules, pos.state) == before
    # and a sequence whose second move is illegal leaves the position as it was
    legal = pos.notation(pos.legal_moves()[0])
    with pytest.raises(IllegalMove):
        pos.apply(f"{legal}; emissary 0,0:space; research")
    assert from_state(rules, pos.state) == before


def test_every_legal_move_round_trips_through_notation(rules: Rules, game) -> None:
    final, history = game
    for _, pos, _ in history.moves[::7]:
        for move in pos.legal_moves():
            assert pos.parse(pos.notation(move)) == move
