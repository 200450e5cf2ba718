"""Chance is an input: dice and random draws come with the move, and the record keeps them.

A small game: digging draws two gems at random from a limited bag, and a
gamble scores a die roll. Nothing is ever decided by the engine on its own
when a judge asks about a move; only random play samples outcomes, and its
records name every one.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import RecordError, parse_record, replay, write_record
from compiler.load import load_files

GAME = '''
ruleset gems {
    title "Gems"
    players 2 to 2
    seats ann "Ann", bob "Bob"
    chapters main
}
chapter main "Main" {
    rule main.board "Board" {
        lattice square
        edge field "field"
        match same
        area field "field" crosses field
        piece pawn "pawn"
        resource points "point" unlimited
        resource ruby "ruby" limit 3
        resource jade "jade" limit 1
        score is points
        supply by players { 2: pawn 1 }
        use tiles base
        stacks 1
        step act "Act": must one of dig, gamble
        game ends after turn when count(players where it.points >= 10) > 0
    }
    rule main.dig "Digging" {
        text """Draw two gems at random from the bag."""
        action dig "dig" {
            notation "dig"
            draw 2 from pool to me among ruby, jade
        }
    }
    rule main.gamble "Gambling" {
        text """Score what a six-sided die shows."""
        action gamble "gamble" {
            notation "gamble"
            give die(6) points to me
        }
    }
}
tiles base "Base" {
    tile s1 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s2 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
    tile s3 { face a [field, field, field, field] { field 0, 1, 2, 3 } }
}
'''


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    folder = tmp_path_factory.mktemp("gems")
    (folder / "gems.rules").write_text(textwrap.dedent(GAME), encoding="utf-8")
    return Rules(load_files([folder / "gems.rules"])[0])


@pytest.fixture
def start(rules: Rules) -> Position:
    return rules.start(2, stacks=[["s1", "s2", "s3"]])


def test_a_random_draw_needs_its_outcome(start: Position) -> None:
    ruling = start.adjudicate("dig")
    assert ruling.verdict == "ILLEGAL"
    [breach] = ruling.moves[0].breaches
    assert breach.code == "chance" and "ruby, jade" in breach.message


def test_with_its_outcome_the_draw_is_judged_and_recorded(start: Position) -> None:
    ruling = start.adjudicate("dig ! ruby jade")
    assert ruling.verdict == "LEGAL"
    assert ruling.moves[0].move == "dig ! ruby jade"
    after = start.apply("dig ! ruby jade")
    assert after.state.player_res[0] == {"ruby": 1, "jade": 1}
    assert after.state.pool == {"ruby": 2, "jade": 0}


def test_an_outcome_the_bag_cannot_give_is_refused(start: Position) -> None:
    for move in ("dig ! ruby opal", "dig ! jade jade"):
        ruling = start.adjudicate(move)
        assert ruling.verdict == "ILLEGAL", move
        assert ruling.moves[0].breaches[0].code == "chance"
    assert start.adjudicate("dig ! ruby ruby ruby").moves[0].breaches[0].message.endswith(
        "ruby left over")


def test_a_die_roll_is_an_outcome_too(start: Position) -> None:
    assert start.apply("gamble ! 4").scores()["ann"] == 4
    assert start.adjudicate("gamble ! 7").verdict == "ILLEGAL"
    assert start.adjudicate("gamble").moves[0].breaches[0].code == "chance"


def test_random_play_samples_chance_and_its_record_replays_exactly(rules: Rules) -> None:
    final, history = random_game(rules, 2, seed=5)
    text = write_record(history, final)
    assert "!" in text
    again = replay(rules, parse_record(text))
    assert again.scores() == final.scores()
    assert again.state.player_res == final.state.player_res


@pytest.fixture(scope="module")
def lucky_start(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """The same game, in which each player draws a gem while the game is set up."""
    folder = tmp_path_factory.mktemp("gems_start")
    text = textwrap.dedent(GAME).replace('''    rule main.gamble "Gambling" {''', '''    rule main.luck "A gem to start with" {
        text """Each player draws a gem before the first turn."""
        at start of game {
            for each p in players {
                draw 1 from pool to p among ruby, jade
            }
        }
    }
    rule main.gamble "Gambling" {''')
    (folder / "gems.rules").write_text(text, encoding="utf-8")
    return Rules(load_files([folder / "gems.rules"])[0])


def test_a_draw_while_the_game_is_set_up_is_played_and_recorded(lucky_start: Rules) -> None:
    final, history = random_game(lucky_start, 2, seed=3)
    text = write_record(history, final)
    assert '[Setup "' in text
    again = replay(lucky_start, parse_record(text))
    assert again.state.player_res == final.state.player_res


def test_a_set_up_draw_without_its_outcome_is_refused_in_words(lucky_start: Rules) -> None:
    final, history = random_game(lucky_start, 2, seed=3)
    text = "\n".join(line for line in write_record(history, final).splitlines()
                     if not line.startswith("[Setup"))
    with pytest.raises(RecordError) as info:
        replay(lucky_start, parse_record(text))
    assert "the set-up of the game leaves something to chance" in str(info.value)
    with pytest.raises(ValueError):
        lucky_start.start(2, stacks=[["s1", "s2", "s3"]])
    assert lucky_start.start(2, stacks=[["s1", "s2", "s3"]], setup=["ruby", "jade"]) \
        .state.pool == {"ruby": 2, "jade": 0}
