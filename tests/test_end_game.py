"""Ending a game on demand (`Position.end_game()`, a worked example's `end game`).

The end of a game is scored once. Asked to end a game that is already over, the
engine refuses in words rather than scoring it a second time; asked to end a game
whose end needs chance that nothing gives, it says so rather than failing with a
traceback, and a worked example that does this fails with that reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.engine.position import GameEndRefused, Position, Rules
from compiler.engine.random_play import random_game
from compiler.engine.scenario import run_example
from compiler.load import load_ruleset

TABLE = Path(__file__).parent / "fixtures" / "card_table"
SOURCE = (TABLE / "card_table.rules").read_text(encoding="utf-8")

# At the end the discard pile is shuffled back into the deck: the end calls on chance.
SHUFFLED_END = '''
    rule play.tidy "Tidying up" {
        text """
        When the game ends, shuffle the discard pile into the deck.
        """
        at end of game {
            move cards in discards to deck
            shuffle deck
        }
    }
'''

ENDED_EXAMPLE = '''
example shuffled_at_the_end "The deck is shuffled when the game ends" {
    illustrates play.tidy
    given {
        players north, east
        turn 3 north step act
        zone hand north [c1]
        zone deck [c2, c3]
        zone discards [c4]
    }
    end game
    expect points north 0
}
'''


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(TABLE))


@pytest.fixture(scope="module")
def shuffled_end(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    folder = tmp_path_factory.mktemp("shuffled_end")
    source = SOURCE.replace('    rule play.over "', SHUFFLED_END + '    rule play.over "', 1)
    (folder / "card_table.rules").write_text(source + ENDED_EXAMPLE, encoding="utf-8")
    return Rules(load_ruleset(folder))


def test_a_game_that_is_over_is_not_scored_again(rules: Rules) -> None:
    final, _ = random_game(rules, 2, seed=3)
    assert final.finished
    with pytest.raises(GameEndRefused, match="the game is already over .*rule .*“The end of "
                                             "the game”.*scored once.*score it twice"):
        final.end_game()
    scores = final.scores()
    with pytest.raises(GameEndRefused):
        final.end_game()
    assert final.finished and final.scores() == scores  # nothing was scored again


def test_ending_a_game_runs_its_end_once(rules: Rules) -> None:
    pos = Position.start(rules, players=2, seed=5)
    ended, effects = pos.end_game()
    assert ended.finished and not pos.finished
    assert [e.kind for e in effects].count("winner") == 1


def test_an_end_that_shuffles_is_refused_in_words(shuffled_end: Rules) -> None:
    pos = Position.start(shuffled_end, players=2, seed=5)
    with pytest.raises(GameEndRefused, match="the end of the game leaves something to chance "
                                             r"\(rule .*“Tidying up”\).*nothing here says"):
        pos.end_game()


def test_a_worked_example_ending_a_game_that_shuffles_fails_with_the_reason(
        shuffled_end: Rules) -> None:
    example = next(ex for ex in shuffled_end.ruleset.examples if ex.id == "shuffled_at_the_end")
    result = run_example(shuffled_end, example)
    assert not result.ok
    assert result.failures[0].startswith("the game cannot be ended here: the end of the game "
                                         "leaves something to chance")
