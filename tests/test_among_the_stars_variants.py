"""Among the Stars' variants: the arithmetic each one fixes, checked by playing it out.

The source fixes how many cards each variant deals: two players draw a card
before every turn and so see 12 a year, the four-player deck of 96 lasting four
years; the aggressive variant adds 3 conflict cards per player before the
second year and plays 7 turns from then on (4 x 6 + 3 x 4 x 7 = 108 = 96 + 12);
all in one deals from 96 cards whatever the number of players; limited space
keeps every station inside its part of the table. A random game played to its
end must leave exactly the cards those numbers say.
"""

from __future__ import annotations

import random

import pytest

from compiler.engine import zone_play
from compiler.engine.position import Position
from compiler.kernel.boards import board_of, local
from tests import compiled


def played_out(name: str, players: int, seed: int = 3) -> Position:
    rules = compiled.rules(name)
    pos = rules.start(players, seed=seed)
    rng = random.Random(seed)
    while not pos.finished:
        pos, _ = pos.play(rng.choice(pos.legal_moves()), chance=rng)
    return pos


def in_zone(pos: Position, name: str, seat: int = -1) -> tuple[str | None, ...]:
    z = zone_play.table(pos.game)[name]
    return tuple(c for pile in pos.state.zones.get(z.key(seat), ()) for c in pile)


@pytest.mark.parametrize("name,players,left", [
    ("among_the_stars_two", 2, 0),
    ("among_the_stars_aggressive", 3, 0),
    ("among_the_stars_aggressive", 4, 0),
    ("among_the_stars_all_in_one", 3, 24),
    ("among_the_stars_two_aggressive", 2, 0),
])
def test_a_game_played_out_leaves_the_deck_the_variant_says(
        name: str, players: int, left: int) -> None:
    pos = played_out(name, players)
    assert len(in_zone(pos, "deck")) == left
    assert all(in_zone(pos, "hand", p) == () for p in range(players))


def test_aggressive_with_three_players_deals_nine_conflicts_and_returns_three() -> None:
    pos = played_out("among_the_stars_aggressive", 3)
    boxed = [c for c in in_zone(pos, "box") if pos.game.cards.cards[c].kinds == ("conflict",)
             or "conflict" in pos.game.cards.cards[c].kinds]
    assert len(boxed) == 3


def test_limited_space_keeps_every_station_within_its_own_five_by_four() -> None:
    pos = played_out("among_the_stars_limited_space", 4)
    cells = list(pos.state.board)
    assert {board_of(c) for c in cells} == {0, 1, 2, 3}
    for c in cells:
        x, y = local(c)
        assert -2 <= x <= 2 and 0 <= y <= 3, (board_of(c), x, y)


def test_a_position_in_the_aggressive_first_year_has_six_turns_and_a_later_year_seven() -> None:
    """The round's length is read for the round the position gives (`turns if game.year
    == 1 then 6 else 7`), not for whatever round the empty state had before."""
    from compiler.engine.formats import position_from_model
    from compiler.engine.scenario import model_from_facts
    rules = compiled.rules("among_the_stars_aggressive")
    examples = {e.id: e for e in rules.ruleset.examples}
    first = position_from_model(rules, model_from_facts(
        rules, examples["aggressive_conflicts_join_the_deck"].given))
    later = position_from_model(rules, model_from_facts(
        rules, examples["aggressive_seventh_turn"].given))
    assert (first.state.turn.round, first.state.turn.round_turns) == (1, 6)
    assert (later.state.turn.round, later.state.turn.round_turns) == (2, 7)
