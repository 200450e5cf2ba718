"""What a judge reads at the end of a game of Among the Stars: every gift says what gave it.

The final scoring gives points for the deferred effects of cards, for empty reactors,
for credits and for objectives. Each consequence must say which card or count it comes
from, in the game's own words (its card kinds, its board's title, its cards' phrases),
never "2 tiles of Red" or a bare "Red receives 5 victory points".
"""

from __future__ import annotations

import re

import pytest

from compiler.engine.position import Rules
from compiler.engine.random_play import random_game
from tests import compiled


@pytest.fixture(scope="module")
def rules() -> Rules:
    return compiled.rules("among_the_stars")


@pytest.fixture(scope="module")
def final_scoring(rules: Rules) -> list[str]:
    """The consequences of the last move of a seeded game: the final scoring."""
    _, history = random_game(rules, 3, seed=3)
    _, before, move = history.moves[-1]
    ruling = before.adjudicate(before.notation(move))
    texts = [c.text for mv in ruling.moves for c in mv.consequences]
    return texts[texts.index("the game ends"):]


def test_empty_reactors_are_counted_as_reactors_of_a_station(final_scoring: list[str]) -> None:
    empty = [t for t in final_scoring if "hold" in t and "(" not in t]
    assert empty and all(re.fullmatch(
        r"\w+ receives \d+ victory points?: \d+ reactors? in \w+’s station that holds? no "
        r"energy crystals", t) for t in empty), empty
    assert not any("tiles of" in t for t in final_scoring)


def test_a_deferred_effect_names_its_card(final_scoring: list[str]) -> None:
    deferred = [t for t in final_scoring if "(the end-of-game effect of the " in t]
    assert deferred, final_scoring
    assert all(re.match(r"\w+ receives \d+ victory points? \(the end-of-game effect of the "
                        r"[A-Z][\w' -]+ at (\w+/)?-?\d+,-?\d+\)", t) for t in deferred), deferred


def test_an_objective_says_which_card_brings_its_points(final_scoring: list[str]) -> None:
    objectives = [t for t in final_scoring if " brings " in t and "(" not in t]
    assert objectives, final_scoring
    assert all(re.fullmatch(r"\w+ receives (\d+) victory points: the [A-Z][\w ]+ brings \1 "
                            r"points", t) for t in objectives), objectives


def test_no_reading_repeats_its_amount_or_shows_bare_ones(final_scoring: list[str]) -> None:
    for text in final_scoring:
        amount = re.match(r"\w+ receives (\d+ victory points?)", text)
        assert not (amount and text.endswith(f": {amount.group(1)}")), text
        assert "1 + 1" not in text, text


def test_a_count_of_types_reads_by_the_definitions_title(final_scoring: list[str]) -> None:
    humareen = [t for t in final_scoring if "Humareen" in t]
    assert humareen == ["Green receives 15 victory points (what the Humareen brings Green at "
                        "the end of the game): 5 location types in the station of Green × (5 "
                        "location types in the station of Green + 1) ÷ 2 = 15"]


def test_a_point_printed_on_a_card_says_the_card(rules: Rules) -> None:
    """Building: 'Red receives 3 victory points: the Consulate brings 3 points when built',
    the amount passed down through the effect that gives it."""
    _, history = random_game(rules, 3, seed=1)
    _, before, move = next(m for m in history.moves
                           if before_notation(m).startswith("red: build "))
    texts = [c.text for mv in before.adjudicate(before.notation(move)).moves
             for c in mv.consequences]
    gift = next(t for t in texts if t.startswith("Red receives"))
    assert re.fullmatch(r"Red receives (\d+) victory points?: the [A-Z][\w' -]+ brings \1 "
                        r"points? when built", gift), texts


def before_notation(entry: tuple) -> str:
    _, pos, move = entry
    return pos.notation(move)
