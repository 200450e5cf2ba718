"""A ruleset whose end never comes while nobody can act: the engine says so, never hangs.

The market fixture ends when four stalls stand or the stock is empty. Written instead to
end only at 99 stalls, a game with two stalls dealt leaves both players with nothing to do
once they are built, turn after turn, and the end never comes.
"""

from pathlib import Path

import pytest

from compiler.engine.position import IllegalMove, Rules
from compiler.engine.random_play import RandomPlayStopped, random_game
from compiler.load import load_ruleset_dir

FIXTURE = Path(__file__).parent / "fixtures" / "bazaar" / "bazaar.rules"
ENDING = "game ends after turn when count(tiles) >= 4 or count(stock) == 0"


@pytest.fixture(scope="module")
def never_ending(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    text = FIXTURE.read_text(encoding="utf-8")
    assert ENDING in text
    folder = tmp_path_factory.mktemp("never_ending")
    (folder / "bazaar.rules").write_text(text.replace(ENDING, "game ends after turn when "
                                                      "count(tiles) >= 99"), encoding="utf-8")
    return Rules(load_ruleset_dir(folder))


def test_the_last_stall_built_leaves_the_game_stuck_and_the_move_is_refused_in_words(
        never_ending: Rules) -> None:
    pos = never_ending.start(2, stacks=[["well", "bakery"]])
    pos, _ = pos.play("well front at 0,0 r0")
    ruling = pos.adjudicate("bakery front at 0,-1 r0")
    assert ruling.verdict == "ILLEGAL"
    assert "the game is stuck" in ruling.render()
    assert "nobody able to do anything legal" in ruling.render()
    with pytest.raises(IllegalMove):
        pos.play("bakery front at 0,-1 r0")
    assert len(pos.state.board) == 1  # the refused move changed nothing


def test_random_play_stops_with_the_reason_rather_than_running_forever(
        never_ending: Rules) -> None:
    with pytest.raises(RandomPlayStopped, match="the game is stuck"):
        random_game(never_ending, 2, seed=1)
