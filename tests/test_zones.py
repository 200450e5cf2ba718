"""Zones: what a player may draw, what leaves a zone and where it goes.

Each test sets out a table (stacks, a deck, players' hands) as `State.zones`
holds it, piles bottom first, does one thing to it through `engine/zones.py`
and says what the table shows afterwards.
"""

from __future__ import annotations

import random

import pytest

from compiler.engine import zones
from compiler.engine.formats import from_state, to_state
from compiler.engine.position import Position, Rules
from compiler.engine.state import SET_ASIDE, STACKS, State
from compiler.engine.zones import Zone
from tests import compiled

DECK = Zone(2, "deck")
HAND = Zone(3, "hand", per_player=True, ordered=False)
TABLE = (Zone(0, "stacks", piles=2, visible="top"), Zone(1, "set_aside"), DECK, HAND)


def table(players: int = 3) -> State:
    st = State(players)
    zones.set_up(st, TABLE)
    return st


@pytest.fixture(scope="module")
def deluxe() -> Rules:
    return compiled.rules("trian_deluxe")


# ------------------------------------------------------------------ the stacks


def test_a_player_may_draw_the_top_tile_of_each_stack_once_each() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a", "b"), ("c", "b")])
    assert zones.tops(st, STACKS) == ["b"]
    zones.set_piles(st, STACKS, [("a", "b"), ("b", "c")])
    assert zones.tops(st, STACKS) == ["b", "c"]


def test_an_unknown_top_tile_could_be_any_tile_not_yet_seen_listed_in_order() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a",), (None,)])
    st.unknown = {"q": 1, "m": 1}
    assert zones.tops(st, STACKS) == ["a", "m", "q"]


def test_an_empty_stack_offers_nothing_and_the_others_still_do() -> None:
    st = table()
    zones.set_piles(st, STACKS, [(), ("x",)])
    assert zones.tops(st, STACKS) == ["x"]
    assert zones.size(st, STACKS) == 1


def test_a_tile_under_another_cannot_be_taken_from_the_top_and_nothing_changes() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a", "b"), ("c",)])
    before = dict(st.zones)
    assert not zones.take_top(st, STACKS, "a")
    assert st.zones == before


def test_taking_an_unknown_top_tile_says_which_tile_it_was() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a", None), ()])
    st.unknown = {"m": 1, "q": 1}
    assert zones.take_top(st, STACKS, "q")
    assert zones.piles(st, STACKS) == (("a",), ())
    assert st.unknown == {"m": 1}


def test_the_stock_counts_unknown_tiles_as_tiles_not_yet_seen() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a", None), (None,)])
    st.unknown = {"q": 1, "m": 1, "z": 1}
    assert zones.cards(st, STACKS) == ["a", "m", "q"]


def test_a_discarded_tile_leaves_the_stack_and_lies_set_aside_in_order() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a", "b"), ("c",)])
    for tile in ("b", "c"):
        assert zones.take_top(st, STACKS, tile)
        zones.put(st, SET_ASIDE, tile)
    assert st.stacks == [["a"], []]
    assert st.discarded == ["b", "c"]


# ------------------------------------------------------------------ any zone


def test_taking_a_card_the_zone_does_not_hold_is_refused_and_nothing_changes() -> None:
    st = table()
    zones.set_piles(st, DECK.key(), [("a", "b")])
    before = dict(st.zones)
    assert not zones.take(st, DECK.key(), "z")
    assert st.zones == before


def test_a_card_taken_from_the_middle_of_a_deck_is_its_highest_copy() -> None:
    st = table()
    zones.set_piles(st, DECK.key(), [("a", "b", "a", "c")])
    assert zones.take(st, DECK.key(), "a")
    assert zones.piles(st, DECK.key()) == (("a", "b", "c"),)


def test_a_card_nobody_saw_can_be_taken_only_while_it_is_unaccounted_for() -> None:
    st = table()
    zones.set_piles(st, DECK.key(), [(None, None)])
    st.unknown = {"spa": 2}
    assert zones.take(st, DECK.key(), "spa")
    assert st.unknown == {"spa": 1}
    assert not zones.take(st, DECK.key(), "lab")
    assert zones.take(st, DECK.key(), "spa")
    assert st.unknown == {}
    assert zones.piles(st, DECK.key()) == ((),)


def test_a_hand_is_kept_sorted_so_the_order_cards_came_in_is_no_fact() -> None:
    one, two = table(), table()
    for card in ("spa", "bar", "lab", "bar"):
        zones.put(one, HAND.key(0), card, ordered=HAND.ordered)
    for card in ("lab", "bar", "bar", "spa"):
        zones.put(two, HAND.key(0), card, ordered=HAND.ordered)
    assert zones.piles(one, HAND.key(0)) == (("bar", "bar", "lab", "spa"),)
    assert one.zones == two.zones


def test_dealing_gives_cards_one_at_a_time_from_the_top_up_to_what_is_left() -> None:
    st = table()
    zones.set_piles(st, DECK.key(), [("d", "c", "b", "a")])  # a on top
    assert zones.deal(st, DECK.key(), HAND.key(1), 3, ordered=False) == 3
    assert zones.piles(st, HAND.key(1)) == (("a", "b", "c"),)
    assert zones.piles(st, DECK.key()) == (("d",),)
    assert zones.deal(st, DECK.key(), HAND.key(2), 5, ordered=False) == 1
    assert zones.piles(st, HAND.key(2)) == (("d",),)
    assert zones.size(st, DECK.key()) == 0


def test_dealing_into_an_ordered_zone_puts_the_last_card_dealt_on_top() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("b", "a"), ("c",)])  # first stack: a on top
    assert zones.deal(st, STACKS, DECK.key(), 3) == 3
    assert zones.piles(st, DECK.key()) == (("a", "b", "c"),)


def test_passing_hands_one_seat_on_gives_each_player_the_hand_of_the_one_before() -> None:
    st = table(3)
    for seat, card in enumerate(("red", "blue", "green")):
        zones.put(st, HAND.key(seat), card)
    zones.rotate(st, HAND.index, 1)
    assert [zones.piles(st, HAND.key(p))[0] for p in range(3)] == \
        [("green",), ("red",), ("blue",)]
    zones.rotate(st, HAND.index, -1)
    assert [zones.piles(st, HAND.key(p))[0] for p in range(3)] == \
        [("red",), ("blue",), ("green",)]


def test_a_shuffle_is_decided_by_the_tables_random_source_alone() -> None:
    one, two = table(), table()
    for st in (one, two):
        zones.set_piles(st, STACKS, [tuple("abcdef"), tuple("ghij")])
        zones.shuffle(st, STACKS, random.Random(7))
    assert one.zones == two.zones
    assert sorted(c for p in zones.piles(one, STACKS) for c in p) == list("abcdefghij")
    assert [len(p) for p in zones.piles(one, STACKS)] == [5, 5]


def test_a_trial_move_on_a_clone_leaves_the_position_it_came_from_alone() -> None:
    st = table()
    zones.set_piles(st, STACKS, [("a", None), ()])
    st.unknown = {"q": 1}
    trial = st.clone()
    assert zones.take_top(trial, STACKS, "q")
    zones.put(trial, SET_ASIDE, "q")
    assert st.stacks == [["a", None], []] and st.unknown == {"q": 1}
    assert st.discarded == []
    assert trial.discarded == ["q"]


# ------------------------------------------------------------ the legacy zone


def test_every_game_has_the_stacks_and_the_tiles_set_aside_as_its_first_zones(
        deluxe: Rules) -> None:
    game = deluxe.game
    assert [(z.index, z.id) for z in game.zones[:2]] == [(0, "stacks"), (1, "set_aside")]
    assert game.stacks_zone is not None and game.stacks_zone.legacy
    assert game.zones[0].piles == game.stacks_zone.piles == 2


def test_the_stacks_are_dealt_round_from_the_shuffled_tiles_top_first(deluxe: Rules) -> None:
    pos = Position.start(deluxe, 4, seed=3)
    tiles = sorted(deluxe.game.catalogue.card_faces)
    random.Random(3).shuffle(tiles)
    first, second = pos.state.stacks
    assert list(reversed(first)) == tiles[0::2]
    assert list(reversed(second)) == tiles[1::2]


def test_a_position_file_lists_the_stacks_top_first_and_the_tiles_set_aside_in_order(
        deluxe: Rules) -> None:
    pos = Position.start(deluxe, 2, seed=1)
    model = from_state(deluxe, pos.state)
    (a, *rest), second = model.stacks
    model.stacks = [rest, second]
    model.discarded = [a]
    st = to_state(deluxe, model)
    assert st.discarded == [a]
    assert zones.piles(st, STACKS) == (tuple(reversed(rest)), tuple(reversed(second)))
    again = from_state(deluxe, st)
    assert (again.stacks, again.discarded) == (model.stacks, model.discarded)
