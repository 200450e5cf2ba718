"""Among the Stars: the numbers the source fixes, checked on the compiled game.

The rulebook lists no cards, but it fixes how many there are and how set-up
deals them: 116 locations, basic and special; 6 specials per player shuffled
into the deck; the basic cards marked 4 left out with three players; so that
four years of six turns deal exactly the deck (72 cards with three players,
96 with four). These tests count what the catalogue and the set-up give.
"""

from __future__ import annotations

from collections import Counter

import pytest

from compiler.engine import zone_play
from compiler.engine.formats import PositionModel, from_state, position_from_model
from compiler.engine.position import Position, Rules
from compiler.kernel.boards import global_
from tests import compiled


@pytest.fixture(scope="module")
def rules() -> Rules:
    return compiled.rules("among_the_stars")


def printed(rules: Rules, kind: str) -> Counter[str]:
    """Every card of a kind with its copies, by card id."""
    cards = rules.game.cards.cards
    return Counter({c.id: c.copies for c in rules.ruleset.cards()
                    if kind in cards[c.id].kinds})


def in_zone(pos: Position, name: str, seat: int = -1) -> tuple[str | None, ...]:
    z = zone_play.table(pos.game)[name]
    return tuple(c for pile in pos.state.zones.get(z.key(seat), ()) for c in pile)


def test_the_box_holds_116_locations_72_basic_and_44_special(rules: Rules) -> None:
    locations = printed(rules, "location") - printed(rules, "reactor")
    cards = rules.game.cards.cards
    special = sum(k for c, k in locations.items() if "special" in cards[c].features)
    marked = sum(k for c, k in locations.items() if cards[c].props["players"] == 4)
    assert (sum(locations.values()), special, marked) == (116, 44, 18)


def test_the_reactor_cards_are_4_main_2_vak_and_16_reactors(rules: Rules) -> None:
    assert printed(rules, "reactor") == Counter(
        {"main_reactor": 4, "vak_main_reactor": 2, "reactor_card": 16})


@pytest.mark.parametrize("players,deck", [(3, 72), (4, 96)])
def test_after_set_up_deck_and_hands_hold_four_years_of_six_turns(
        rules: Rules, players: int, deck: int) -> None:
    pos = rules.start(players, seed=5)
    dealt = sum(len(in_zone(pos, "hand", p)) for p in range(players))
    assert (dealt, len(in_zone(pos, "deck")) + dealt) == (6 * players, deck)
    assert len(in_zone(pos, "reactors")) == 16


def test_with_three_players_no_card_marked_4_is_dealt(rules: Rules) -> None:
    pos = rules.start(3, seed=5)
    cards = rules.game.cards.cards
    dealt = [c for c in in_zone(pos, "deck") + sum((in_zone(pos, "hand", p) for p in range(3)), ())
             if c is not None]
    assert not [c for c in dealt if cards[c].props["players"] == 4]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_player_has_one_race_and_the_vak_start_with_their_own_reactor(
        rules: Rules, seed: int) -> None:
    pos = rules.start(4, seed=seed)
    g = pos.game
    for p in range(4):
        (race,) = in_zone(pos, "race_token", p)
        assert race in ("vak", "humareen", "zehuti", "qualeen")
        card, _, _ = pos.state.board[global_(p, g.first_cell)]
        assert card == ("vak_main_reactor" if race == "vak" else "main_reactor")
        assert len(in_zone(pos, "secret_objective", p)) == (1 if race == "qualeen" else 0)
    assert len(in_zone(pos, "objectives")) == 4


def test_every_card_the_source_names_is_in_the_catalogue(rules: Rules) -> None:
    titles = {c.title for c in rules.ruleset.cards()}
    named = {"Turret", "Transport Platform", "Hologram Gallery", "Launch Platform",
             "Training Sector", "Communications Module", "Office Block", "Command Center",
             "Trade Center", "Shield Generator", "College of Alien Cultures",
             "Interstellar Resort", "Landing Pad", "Opera", "Research Outpost", "Restaurant",
             "Headquarters", "Trade Union Headquarters", "Stadium", "Life Support Systems",
             "Alien Temple", "Backup Reactor", "Accelerated Construction"}
    assert named <= titles, named - titles


@pytest.mark.parametrize("ruleset,players", [("among_the_stars", 3), ("among_the_stars_two", 2)])
def test_a_position_just_after_set_up_is_one_a_table_can_show(ruleset: str, players: int) -> None:
    """The main reactors are laid during set-up, which is nobody's turn: the first turn
    starts with no card "laid this turn", so its position file loads again."""
    rules = compiled.rules(ruleset)
    pos = rules.start(players, seed=3)
    assert pos.state.turn.placed is None and not pos.state.turn.pending
    model = from_state(rules, pos.state)
    again = position_from_model(rules, PositionModel.model_validate_json(model.model_dump_json()))
    assert [pos.notation(m) for m in pos.legal_moves()] == \
        [again.notation(m) for m in again.legal_moves()]
