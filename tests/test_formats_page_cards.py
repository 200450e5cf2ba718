"""The "Positions and records" page of a card game says what its positions carry.

A game of printed cards on boards of one's own writes cards by their ids, names each laid
card's board, and shows a sample table; its samples keep a pile on a few lines instead of a
column of `null`s. A tile game's page keeps its own words.
"""

from __future__ import annotations

import json

from compiler.engine.scenario import run_example
from compiler.rulebook.pages import RulesetPages, compact_json
from tests import compiled


def test_compact_json_reads_back_the_same_and_runs_a_pile_along_the_line() -> None:
    value = {"zones": {"box": [[None] * 30], "hand": {"red": ["c1", "c2"], "blue": []}},
             "tiles": [{"at": "0,0", "holds": {}}]}
    text = compact_json(value)
    assert json.loads(text) == value
    assert '"red": ["c1", "c2"]' in text
    assert all(len(line) <= 80 for line in text.splitlines())
    assert text.count("null") == 30 and sum("null" in line for line in text.splitlines()) == 3


def test_a_card_game_page_names_cards_boards_and_faces_down() -> None:
    rules = compiled.rules("among_the_stars")
    text = RulesetPages(rules, {}).formats_page().text
    first = rules.ruleset.cards()[0].id
    assert f"- card: a card id from the catalogue, e.g. `{first}`" in text
    assert "- cell: a position, `x,y` on the mover's own board, `blue/x,y` on another" in text
    assert 'names its `board` (a seat id, `"board": "red"`)' in text
    assert 'a card turned face down where it lies has `"face": "down"`' in text
    assert "in `view` ([A player's view](#a-players-view))" in text


def test_a_card_game_page_shows_the_richest_example_table_as_a_sample() -> None:
    rules = compiled.rules("among_the_stars")
    dealt = next(e for e in rules.ruleset.examples if e.id == "deck_three_players")
    text = RulesetPages(rules, {dealt.id: run_example(rules, dealt)}).formats_page().text
    sample = text.split('??? example "A position file"', 1)[1].split("```", 2)[1]
    position = json.loads(sample.removeprefix("json"))
    assert len(position["zones"]["deck"][0]) == 54
    assert {t["board"] for t in position["tiles"]} == {"red", "blue", "green"}


def test_a_tile_game_page_keeps_its_words() -> None:
    text = RulesetPages(compiled.rules("trian_deluxe"), {}).formats_page().text
    assert "- card: a tile id, e.g. `t17`" in text
    assert "Every player has a board of their own" not in text
