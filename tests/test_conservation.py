"""Nothing is lost and nothing is invented: cards, credits and crystals in Among the Stars.

Among the Stars says where everything is (components.zones, components.bank):
every card is in the box, a deck, a hand, a chosen card, a station or the
discard pile; there are exactly 20 energy crystals, in the bank or on reactors,
and a crystal spent goes back to the bank; credits never run out, so they have
no bank to balance, but nobody ever pays more than they hold. Random games of
two, three and four players are played to their end, and after every decision
the table must still account for all of it. A position written from such a
game reads back as a whole table (engine/conservation.py), and so does a
player's view of it; a table that lost cards, like a deck empty in the first
year, is refused in words.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.engine import conservation, zone_json, zone_play, zones
from compiler.engine.formats import PositionError, PositionModel, from_state, position_from_model
from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from tests import compiled

# (ruleset, players, seed): one short game of each kind keeps the suite quick.
GAMES = [("among_the_stars_two", 2, 1), ("among_the_stars", 3, 2), ("among_the_stars", 4, 3)]
CRYSTALS = 20  # components.bank: "There are exactly 20 energy crystals"


@pytest.fixture(scope="module")
def played() -> dict[tuple[str, int, int], tuple[Rules, list[Position]]]:
    """Each game of GAMES played at random to its end: every position it went through."""
    out = {}
    for name, players, seed in GAMES:
        rules = compiled.rules(name)
        final, history = random_game(rules, players, seed)
        assert final.finished
        out[(name, players, seed)] = (rules, [p for _, p, _ in history.moves] + [final])
    return out


def where_the_cards_are(pos: Position) -> Counter[str]:
    """Every card on the table, counted: in the zones and laid in the stations."""
    seen: Counter[str] = Counter(card for card, _, _ in pos.state.board.values())
    for piles in pos.state.zones.values():
        for pile in piles:
            seen.update(c for c in pile if c is not None)
    return seen


@pytest.mark.parametrize("game", GAMES, ids=[f"{n}-{p}p" for n, p, _ in GAMES])
def test_every_card_is_somewhere_and_only_once(played: dict, game: tuple) -> None:
    rules, positions = played[game]
    printed = zone_json.copies(rules.table(game[1]).game)
    for pos in positions:
        assert where_the_cards_are(pos) == Counter(printed), pos.state.turn.number


@pytest.mark.parametrize("game", GAMES, ids=[f"{n}-{p}p" for n, p, _ in GAMES])
def test_the_box_keeps_what_the_set_up_left_there(played: dict, game: tuple) -> None:
    rules, positions = played[game]
    table = positions[0].rules
    home = zone_play.start_zone(table.game)
    left = conservation.left_at_setup(table, game[1])
    assert left is not None
    assert {zones.size(p.state, home.key()) for p in positions} == {left}


@pytest.mark.parametrize("game", GAMES, ids=[f"{n}-{p}p" for n, p, _ in GAMES])
def test_the_twenty_crystals_are_in_the_bank_or_on_reactors(played: dict, game: tuple) -> None:
    rules, positions = played[game]
    g = positions[0].game
    for pos in positions:
        st = pos.state
        on_cards = {cell: held.get("energy", 0) for cell, held in st.tile_res.items()}
        assert all(k >= 0 for k in on_cards.values())
        assert all(g.holds(st.board[cell][0], st.board[cell][1], "energy")
                   for cell, k in on_cards.items() if k)
        held = sum(r.get("energy", 0) for r in st.player_res)
        assert st.pool["energy"] >= 0
        assert st.pool["energy"] + sum(on_cards.values()) + held == CRYSTALS


@pytest.mark.parametrize("game", GAMES, ids=[f"{n}-{p}p" for n, p, _ in GAMES])
def test_nobody_ever_has_fewer_than_no_credits_or_points(played: dict, game: tuple) -> None:
    rules, positions = played[game]
    for pos in positions:
        for res in pos.state.player_res:
            assert res.get("credits", 0) >= 0 and res.get("points", 0) >= 0


@pytest.mark.parametrize("game", GAMES, ids=[f"{n}-{p}p" for n, p, _ in GAMES])
def test_a_position_of_the_game_and_each_players_view_read_back_as_whole_tables(
        played: dict, game: tuple) -> None:
    rules, positions = played[game]
    pos = positions[len(positions) // 3]
    written = from_state(pos.rules, pos.state)
    assert written.partial is None
    again = position_from_model(rules, PositionModel.model_validate_json(
        written.model_dump_json()))
    assert where_the_cards_are(again) == where_the_cards_are(pos)
    for seat in range(game[1]):
        view = pos.view(seat)
        model = PositionModel.model_validate_json(from_state(view.rules, view.state)
                                                  .model_dump_json())
        assert position_from_model(rules, model).state.view == seat


def year_one(players: int) -> tuple[Rules, dict]:
    """The position file of a game of Among the Stars in the first turn of year 1, once
    the first player has chosen a card."""
    rules = compiled.rules("among_the_stars")
    pos = rules.start(players, seed=4)
    pos = pos.apply(pos.legal_moves()[0])
    return rules, json.loads(from_state(pos.rules, pos.state).model_dump_json())


@pytest.mark.parametrize("players", [3, 4])
def test_a_deck_empty_in_the_first_year_is_refused(players: int) -> None:
    rules, data = year_one(players)
    in_deck = len(data["zones"]["deck"][0])
    data["zones"]["deck"] = [[]]
    del data["zones"]["box"]  # the cards left unsaid would be in the box
    with pytest.raises(PositionError) as e:
        position_from_model(rules, PositionModel.model_validate(data))
    [(path, message)] = e.value.problems
    assert path == "zones"
    assert f"{in_deck} are missing" in message
    assert "no rule of play puts any back there" in message


def test_a_deck_empty_in_the_first_year_is_refused_when_the_box_is_given_too() -> None:
    rules, data = year_one(3)
    data["zones"]["deck"] = [[]]
    with pytest.raises(PositionError, match="54 cards are in no zone"):
        position_from_model(rules, PositionModel.model_validate(data))


def test_unknown_cards_in_the_deck_account_for_it() -> None:
    rules, data = year_one(3)
    data["zones"]["deck"] = [[None] * len(data["zones"]["deck"][0])]
    del data["zones"]["box"]
    pos = position_from_model(rules, PositionModel.model_validate(data))
    assert zones.size(pos.state, zone_play.table(pos.game)["deck"].key()) == 54


def test_a_partial_table_leaves_the_cards_it_does_not_show_in_the_box() -> None:
    rules, data = year_one(3)
    data["zones"] = {"hand": data["zones"]["hand"], "chosen": data["zones"]["chosen"]}
    data["partial"] = True
    pos = position_from_model(rules, PositionModel.model_validate(data))
    assert pos.state.partial
    assert from_state(pos.rules, pos.state).partial is True


def test_the_command_line_refuses_a_table_that_lost_cards_in_words(tmp_path: Path) -> None:
    rules, data = year_one(4)
    data["zones"]["deck"] = [[]]
    del data["zones"]["box"]
    path = tmp_path / "empty_deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["moves", "among_the_stars", str(path)])
    assert result.exit_code == 2
    assert "this position cannot be on a table" in result.output
    assert "are missing" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("name,players", [("among_the_stars", 3), ("among_the_stars_two", 2)])
def test_the_table_as_the_set_up_leaves_it_reads_back(name: str, players: int) -> None:
    """Before the first turn every card is where the set-up put it: the position written
    then is a whole table."""
    rules = compiled.rules(name)
    pos = rules.start(players, seed=6)
    written = from_state(pos.rules, pos.state)
    assert written.turn.placed is None
    again = position_from_model(rules, PositionModel.model_validate_json(
        written.model_dump_json()))
    assert where_the_cards_are(again) == where_the_cards_are(pos)


def test_a_card_the_set_up_left_in_the_box_cannot_be_in_play() -> None:
    """With three players the cards marked 4 stay in the box (setup.deck): one found in
    the deck is a card too many in play."""
    rules, data = year_one(3)
    box = data["zones"]["box"][0]
    marked = next(c for c in box if c is not None and c.endswith("_4"))
    box.remove(marked)
    data["zones"]["deck"][0].append(marked)
    with pytest.raises(PositionError) as e:
        position_from_model(rules, PositionModel.model_validate(data))
    [(path, message)] = e.value.problems
    assert path == "zones.box"
    assert message.startswith("the box holds 46 cards, but the set-up leaves 47")
    assert message.endswith("1 card too many is in play")
