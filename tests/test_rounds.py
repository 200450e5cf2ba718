"""Rounds, game attributes, orders of play, `next turn` and steps each player takes.

The small game of `tests/rulesets/seasons`: three seasons of two turns; in every turn
each player, in the order of play (most points, then most coins, then seat order from
the active player), gains a point or saves a coin; at the end of each season the game
"plays in reverse" flips and the first in the order of play may take a bonus of 2
points, a decision made before the next season begins.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.formats import PositionModel, from_state, position_from_model
from compiler.engine.notation import Move
from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import parse_record, replay, write_record
from compiler.engine.scenario import run_example
from compiler.load import load_files, load_ruleset

SEASONS = Path(__file__).parent / "rulesets" / "seasons"


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(SEASONS))


def texts(pos: Position) -> list[str]:
    return [pos.notation(m) for m in pos.legal_moves()]


def where(pos: Position) -> tuple[int, int, int, str]:
    """(turn number, season, turn of the season, who decides)."""
    t = pos.state.turn
    return t.number, t.round, t.round_turn, pos.game.seat_id(t.actor)


def test_every_worked_example_of_the_seasons_holds(rules: Rules) -> None:
    for ex in rules.ruleset.examples:
        assert run_example(rules, ex).ok, (ex.id, run_example(rules, ex).failures)


def test_in_the_first_turn_everybody_acts_in_seat_order_from_the_active_player(
        rules: Rules) -> None:
    pos = rules.start(3, seed=1)
    assert where(pos) == (1, 1, 1, "ann")
    assert texts(pos) == ["ann: gain", "ann: save"]
    pos = pos.apply("ann: gain")
    assert where(pos) == (1, 1, 1, "bob")
    pos = pos.apply("bob: save")
    assert where(pos) == (1, 1, 1, "cy")
    pos = pos.apply("cy: gain")
    assert where(pos) == (2, 1, 2, "cy")  # Bob's turn: Cy has a point, Ann too, Bob a coin


def test_ties_on_points_go_to_coins_then_to_seat_order_from_the_active_player(
        rules: Rules) -> None:
    pos = rules.start(3, seed=1).apply("ann: gain; bob: save; cy: gain")
    # Bob is active: Ann and Cy have 1 point and no coin each; Cy sits next after Bob.
    assert [pos.game.seat_id(p) for p in pos.state.turn.queue] == ["cy", "ann", "bob"]


def test_the_order_is_fixed_when_the_step_begins(rules: Rules) -> None:
    pos = rules.start(3, seed=1).apply("ann: save")
    # Ann saved a coin: she now leads the order, but Bob and Cy still act after her.
    assert where(pos)[3] == "bob"
    assert [pos.game.seat_id(p) for p in pos.state.turn.queue] == ["bob", "cy"]


def test_a_player_cannot_act_before_their_place_in_the_order(rules: Rules) -> None:
    pos = rules.start(3, seed=1)
    ruling = pos.adjudicate("cy: gain")
    assert ruling.verdict == "ILLEGAL"
    breach = ruling.moves[0].breaches[0]
    assert breach.rule is not None and breach.rule.id == "main.order"
    assert breach.message == ("Cy takes step “Act” after Ann, who decides now (still to take "
                              "it, in order: Ann, Bob, Cy)")
    assert pos.adjudicate("gain").verdict == "LEGAL"  # without a seat: whoever decides now


def test_the_end_of_a_season_flips_the_game_and_waits_for_the_bonus(rules: Rules) -> None:
    pos = rules.start(3, seed=1).apply("ann: gain; bob: save; cy: gain; cy: save; ann: gain")
    ruling = pos.adjudicate("bob: save")
    said = [c.text for c in ruling.moves[0].consequences]
    # The order of play was fixed when the turn's step went round in it (Cy first), so
    # Cy is first in it at the end of the turn, though Ann has caught up since.
    assert said == ["Bob receives 1 coin", "the game plays in reverse",
                    "Cy may now take the bonus"]
    pos = pos.apply("bob: save")
    assert pos.state.turn.phase == "round_end" and pos.state.game_attrs == {"reversed": True}
    assert where(pos) == (2, 1, 2, "cy")  # still the second turn of the first season
    assert texts(pos) == ["cy: bonus", "cy: pass"]
    after = pos.apply("cy: bonus")
    assert after.scores()["cy"] == 3
    assert where(after) == (3, 2, 1, "cy")  # Cy's turn, and Cy leads the order
    declined = pos.apply("cy: pass")
    assert declined.scores()["cy"] == 1 and where(declined) == (3, 2, 1, "ann")


def test_three_seasons_of_two_turns_end_the_game_after_the_sixth_turn(rules: Rules) -> None:
    final, history = random_game(rules, 3, seed=5)
    assert final.finished
    assert (final.state.turn.number, final.state.turn.round) == (6, 3)
    assert sum(1 for _, _, m in history.moves if m.action in ("gain", "save")) == 18


@pytest.mark.parametrize("seed", range(8))
def test_records_with_seat_prefixes_replay_exactly(rules: Rules, seed: int) -> None:
    final, history = random_game(rules, 3, seed=seed)
    text = write_record(history, final)
    assert "1. ann: " in text
    again = replay(rules, parse_record(text))
    assert from_state(rules, again.state) == from_state(rules, final.state)
    assert write_record(history, final) == text


@pytest.mark.parametrize("seed", range(4))
def test_every_legal_move_reads_back_as_itself_with_its_seat(rules: Rules, seed: int) -> None:
    final, history = random_game(rules, 2 + seed % 2, seed=seed)
    for _, pos, _ in history.moves:
        for move in pos.legal_moves():
            text = pos.notation(move)
            back = pos.parse(text)
            assert back == move and pos.notation(back) == text
            # The seat is named wherever the decision is not simply the active player's.
            named = bool(pos.state.turn.queue) or pos.state.turn.actor != pos.state.turn.active
            assert back.seat == (pos.state.turn.actor if named else None)


@pytest.mark.parametrize("seed", range(4))
def test_positions_round_trip_through_json_mid_step_and_at_a_pause(rules: Rules,
                                                                  seed: int) -> None:
    final, history = random_game(rules, 3, seed=seed)
    phases = set()
    for _, pos, _ in history.moves:
        model = from_state(pos.rules, pos.state)
        again = position_from_model(rules, PositionModel.model_validate_json(
            model.model_dump_json(exclude_none=True)))
        assert from_state(again.rules, again.state) == model
        assert texts(again) == texts(pos)
        phases.add(pos.state.turn.phase)
    assert phases == {"step", "round_end"}


def test_a_position_says_who_waits_and_where_the_rounds_stand(rules: Rules) -> None:
    pos = rules.start(3, seed=1).apply("ann: gain")
    data = json.loads(from_state(rules, pos.state).model_dump_json(exclude_none=True))
    assert data["turn"]["waiting"] == ["bob", "cy"]
    assert data["game"] == {"round": 1, "turn": 1, "turns": 2, "attributes": {}}


def test_waiting_in_a_step_of_the_active_player_alone_is_refused(rules: Rules) -> None:
    from compiler.engine.formats import PositionError
    model = from_state(rules, rules.start(3, seed=1).state)
    model.game.round = 4  # type: ignore[union-attr]
    with pytest.raises(PositionError) as info:
        position_from_model(rules, model)
    assert ("game.round", "the game has 3 seasons, not 4") in info.value.problems


# --------------------------------------------------------------- next turn


def seasons_with(tmp_path: Path, old: str, new: str) -> Rules:
    for f in SEASONS.glob("*.rules"):
        text = f.read_text(encoding="utf-8")
        (tmp_path / f.name).write_text(text.replace(old, new), encoding="utf-8")
    return Rules(load_files(sorted(tmp_path.glob("*.rules")))[0])


def test_next_turn_to_the_leader_of_the_order(tmp_path: Path) -> None:
    rules = seasons_with(tmp_path, "        order play_order",
                         "        next turn to first(play_order)\n        order play_order")
    pos = rules.start(3, seed=1).apply("ann: gain; bob: gain; cy: save")
    # Ann and Bob have a point each; from Ann, the active player, Ann leads.
    assert pos.game.seat_id(pos.state.turn.active) == "ann"
    assert pos.state.turn.number == 2


# ------------------------------------------------------------- the checker


def errors(tmp_path: Path, old: str, new: str) -> list[str]:
    for f in SEASONS.glob("*.rules"):
        text = f.read_text(encoding="utf-8")
        (tmp_path / f.name).write_text(text.replace(old, new), encoding="utf-8")
    try:
        load_files(sorted(tmp_path.glob("*.rules")))
    except CompileError as e:
        return [f"{d.message}" + (f" | {d.hint}" if d.hint else "") for d in e.diagnostics]
    return []


def test_a_step_in_an_unknown_order_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    assert errors(tmp_path, "each player in play_order", "each player in play_ordr") == [
        "step `act` goes round in unknown order `play_ordr` | did you mean `play_order`?"]


def test_rounds_and_an_end_condition_cannot_both_end_the_game(tmp_path: Path) -> None:
    found = errors(tmp_path, "        stacks 1\n",
                   "        stacks 1\n        game ends after turn when count(stock) == 0\n")
    assert found == ["the game already ends with its last season (`round season`), so `game "
                     "ends after turn when` cannot end it too | drop one: rounds end the game "
                     "after the last turn of the last round"]


def test_the_round_number_is_read_not_set(tmp_path: Path) -> None:
    found = errors(tmp_path, "set game.reversed to not game.reversed",
                   "set game.season to 1")
    assert found == ["`game.season` is the number of the round, which the turns keep: rules "
                     "read it but do not set it"]


def test_an_unknown_game_attribute_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    found = errors(tmp_path, "set game.reversed to not game.reversed",
                   "set game.reverse to true")
    assert found == ["unknown game attribute `reverse` | did you mean `reversed`?"]


def test_seats_from_comes_last_in_an_order(tmp_path: Path) -> None:
    found = errors(tmp_path, "most it.points then most it.coin then seats from me",
                   "seats from me then most it.points")
    assert len(found) == 1 and found[0].startswith(
        "`seats from …` breaks the ties left by the measures, so it comes once, last")


def test_an_order_measures_each_player_by_a_number(tmp_path: Path) -> None:
    found = errors(tmp_path, "most it.points then most it.coin", "most it then most it.coin")
    assert len(found) == 1 and "a measure of the order `play_order` (`it` is each player)" \
        in found[0]


def test_a_game_has_one_kind_of_round(tmp_path: Path) -> None:
    found = errors(tmp_path, '        round season "season" { count 3  turns 2 }\n',
                   '        round season "season" { count 3  turns 2 }\n'
                   '        round year "year" { count 2  turns 3 }\n')
    assert found == ["a second kind of round, `year`: the turns are already grouped in `season` "
                     "| a game has one kind of round; count turns within it with a game "
                     "attribute"]


def test_a_moment_of_an_unknown_round_is_refused(tmp_path: Path) -> None:
    assert errors(tmp_path, "at end of round season", "at end of round seasons") == [
        "unknown round `seasons` | did you mean `season`?"]
