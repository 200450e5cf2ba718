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


# ------------------------------------------------------------ records refused in words


def _record(rules: Rules, game) -> str:
    final, history = game
    return write_record(history, final)


def _refusal(rules: Rules, text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(rules, parse_record(text, "g.record"))
    return info.value


def test_a_position_given_as_a_record_says_so(rules: Rules, game) -> None:
    final, _ = game
    e = _refusal(rules, from_state(rules, final.state).model_dump_json(indent=2))
    assert "this is a position (JSON), not a record" in str(e)
    assert "_nl" not in str(e) and "rule needs an id" not in str(e)


@pytest.mark.parametrize("line,words", [
    ('[Seed "3"', "this tag has no closing `]`"),
    ("[Seed 3]", "a tag's value is in double quotes"),
    ("12 research", "a turn number is followed by a dot"),
    ("hello there", "each line of a record is a tag"),
])
def test_a_syntax_error_says_what_that_kind_of_line_looks_like(rules: Rules, game, line: str,
                                                              words: str) -> None:
    lines = _record(rules, game).splitlines()
    lines.insert(2, line)
    e = _refusal(rules, "\n".join(lines))
    assert e.diagnostic.line == 3 and words in e.diagnostic.message, str(e)


@pytest.mark.parametrize("tag,value,words", [
    ("Stacks", "t01 t99 | t02", "lists `t99`, which is not a tile of this game"),
    ("Stacks", "t01 t01 | t02", "lists t01 a second time"),
    ("Seed", "²", "is not a seed"),
    ("Players", "quuylto p²", "not 'p²'"),
    ("Result", "quuylto 1, xemh 2, khaarquar 3; winner khaarquar", "but the replay ends"),
    ("Result", "hello", "a result is written"),
])
def test_header_errors_point_at_the_tags_line(rules: Rules, game, tag: str, value: str,
                                              words: str) -> None:
    lines = _record(rules, game).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"[{tag} "))
    lines[at] = f'[{tag} "{value}"]'
    e = _refusal(rules, "\n".join(lines))
    assert e.diagnostic.line == at + 1 and words in e.diagnostic.message, str(e)


def test_an_unreadable_decision_in_a_record_is_not_called_illegal(rules: Rules, game) -> None:
    lines = [line for line in _record(rules, game).splitlines() if not line.startswith("2.")]
    lines = [line if not line.startswith("3.") else "2. xyzzy" for line in lines][:9]
    e = _refusal(rules, "\n".join(lines))
    assert e.diagnostic.code == "unreadable" and e.ruling.verdict == "UNREADABLE"


def test_a_record_that_says_neither_stacks_nor_seed_is_refused(rules: Rules, game) -> None:
    text = "\n".join(line for line in _record(rules, game).splitlines()
                     if not line.startswith(("[Stacks", "[Seed")))
    assert "neither how the tiles lie" in str(_refusal(rules, text))


# ------------------------------------------------------------ positions: state from the board


def _closed_system(**extra):
    """A planetary system at 0,0 closed in an earlier turn, nobody in control."""
    return _model(tiles=[{"at": "0,0", "tile": "t01", "face": "a", "rotation": 0},
                         {"at": "1,0", "tile": "t17", "face": "a", "rotation": 2},
                         {"at": "2,0", "tile": "t11", "face": "b", "rotation": 0}],
                  players=[{"seat": "quuylto"}, {"seat": "xemh"}, {"seat": "khaarquar"}],
                  **extra)


def test_an_area_closed_on_an_earlier_turn_is_settled_without_saying_so(rules: Rules) -> None:
    pos = position_from_model(rules, _closed_system())
    root = pos.game.site_area(pos.state, ((0, 0), "planet"))
    assert pos.state.area_attrs[root]["settled"] is True


def test_a_settled_flag_the_board_contradicts_is_refused(rules: Rules) -> None:
    with pytest.raises(PositionError) as info:
        position_from_model(rules, _closed_system(
            areas=[{"at": "0,0:planet", "attributes": {"settled": False}}]))
    assert any(path == "areas[0].attributes.settled" and "follows from the board" in msg
               for path, msg in info.value.problems), info.value.problems


def test_an_area_still_pending_keeps_what_the_file_says(rules: Rules) -> None:
    model = _closed_system(turn={"player": "xemh", "step": "check", "placed": "2,0",
                                 "pending": [{"step": "check", "trigger": "areas.check#1",
                                              "bindings": {"a": "0,0:planet"}}]})
    pos = position_from_model(rules, model)
    root = pos.game.site_area(pos.state, ((0, 0), "planet"))
    assert not pos.state.area_attrs.get(root, {}).get("settled")


# ------------------------------------------------------------ positions no table can show


@pytest.mark.parametrize("changes,where,words", [
    ({"pieces": [{"kind": "emissary", "owner": "quuylto", "at": "0,0:planet"},
                 {"kind": "emissary", "owner": "xemh", "at": "0,0:space"}]},
     "pieces[1]", "cannot be at 0,0:space"),
    ({"pieces": [{"kind": "emissary", "owner": "quuylto", "at": "0,0:planet"},
                 {"kind": "emissary", "owner": "xemh", "at": "0,0:planet"}]},
     "pieces[1]", "with the pieces around it"),
    ({"players": [{"seat": "quuylto", "supply": {"station": 8}}, {"seat": "xemh"}],
      "pieces": [{"kind": "emissary", "owner": "quuylto", "at": f"{x},0:planet"}
                 for x in range(1)] * 10},
     "players[0]", "the game gives 9"),
    ({"discarded": ["t01"]}, "discarded[0]", "is on the board"),
    ({"finished": True}, "finished", "the game is not over yet"),
    ({"turn": {"player": "xemh", "step": "action"}}, "turn.placed",
     "the tile laid this turn must be given"),
    ({"turn": {"player": "xemh", "step": "gather", "placed": "1,0"}}, "turn.placed",
     "no tile is laid yet"),
    ({"areas": [{"at": "0,0:planet", "attributes": {"controller": 3}}]},
     "areas[0].attributes.controller", "expected a seat id"),
    ({"areas": [{"at": "0,0:planet", "attributes": {"settled": "maybe"}}]},
     "areas[0].attributes.settled", "expected true or false"),
    ({"stacks": [["t05"]]}, "stacks", "played with 2 stacks"),
])
def test_more_positions_no_table_can_show(rules: Rules, changes, where, words) -> None:
    with pytest.raises(PositionError) as info:
        position_from_model(rules, _model(**changes))
    assert any(path == where and words in msg for path, msg in info.value.problems), \
        info.value.problems


@pytest.mark.parametrize("changes", [
    {"players": [{"seat": "quuylto", "resources": {"points": -3}}, {"seat": "xemh"}]},
    {"players": [{"seat": "quuylto", "resources": {"points": 10 ** 40}}, {"seat": "xemh"}]},
    {"turn": {"player": "xemh", "step": "tile", "grants": [{"actions": ["research"],
                                                           "remaining": 0}]}},
])
def test_negative_huge_and_used_up_counts_are_refused_by_the_schema(changes) -> None:
    from pydantic import ValidationError
    with pytest.raises(ValidationError):
        _model(**changes)


def test_a_text_for_a_number_attribute_is_refused(rules: Rules) -> None:
    with pytest.raises(PositionError) as info:
        position_from_model(rules, _closed_system(
            areas=[{"at": "0,0:planet", "attributes": {"settled": True}},
                   {"at": "2,0:nebula", "attributes": {"gathered": "abc"}}]))
    assert any("expected a whole number" in msg for _, msg in info.value.problems)
