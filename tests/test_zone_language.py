"""Zones in the rules language, on the small card game of `tests/fixtures/card_table`.

Each test sets out a table (who holds which cards, what is in the deck), makes
a move or sets up a game, and says what the table shows afterwards, as the
card game's rulebook would; the last ones write rules wrongly and read the
error an author gets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine import zone_play, zones
from compiler.engine.formats import PositionError, PositionModel, from_state, to_state
from compiler.engine.position import Position, Rules
from compiler.engine.scenario import model_from_facts
from compiler.ir import model as m
from compiler.ir.english import English, Vocabulary
from compiler.load import load_files, load_ruleset

TABLE = Path(__file__).parent / "fixtures" / "card_table"
SOURCE = (TABLE / "card_table.rules").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(TABLE))


def position(rules: Rules, **zones_given: object) -> Position:
    """North to act on turn 3 of a two-player game, with these zones (by name: a shared
    zone as its cards top first, a player's as {seat: cards})."""
    held = {k: (v if isinstance(v, dict) else [v]) for k, v in zones_given.items()}
    model = PositionModel.model_validate({
        "ruleset": "card_table", "players": [{"seat": "north"}, {"seat": "east"}],
        "zones": held, "turn": {"number": 3, "player": "north", "step": "act"},
        "partial": True})  # the cards left unsaid are in the box
    return Position(rules, to_state(rules, model))


def key(rules: Rules, zone: str, seat: int = -1) -> tuple[int, int]:
    return zone_play.table(rules.game)[zone].key(seat)


def shown(rules: Rules, pos: Position) -> dict[str, object]:
    return from_state(rules, pos.state).zones or {}


# ------------------------------------------------------------------ set-up


def test_setting_up_deals_two_cards_to_each_player_from_the_shuffled_deck(rules: Rules) -> None:
    pos = Position.start(rules, players=3, seed=11)
    z = shown(rules, pos)
    assert z["box"] == [[]]
    assert {seat: len(cards) for seat, cards in z["hand"].items()} == \
        {"north": 2, "east": 2, "south": 2}
    assert len(z["deck"][0]) == 2
    every = sorted(z["deck"][0] + [c for cards in z["hand"].values() for c in cards])
    assert every == [f"c{i}" for i in range(1, 9)]  # every card, once


def test_the_same_seed_shuffles_the_deck_the_same_way(rules: Rules) -> None:
    a = shown(rules, Position.start(rules, players=2, seed=4))
    b = shown(rules, Position.start(rules, players=2, seed=4))
    assert a == b


# ---------------------------------------------------------------- playing


def test_a_card_picked_from_the_hand_lies_in_front_of_its_player(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1", "c2"], "east": ["c3"]}, deck=["c4"])
    after = pos.apply("pick c2")
    z = shown(rules, after)
    assert z["chosen"] == {"north": ["c2"], "east": []}
    assert z["hand"] == {"north": ["c3"], "east": ["c1"]}  # then the hands pass clockwise
    assert after.state.revealed == {key(rules, "chosen", 0)}  # turned face up


def test_a_card_not_in_the_hand_cannot_be_picked_and_nothing_changes(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"], "east": ["c3"]}, deck=["c4"])
    ruling = pos.adjudicate("pick c3")
    assert ruling.verdict == "ILLEGAL"
    breach = ruling.moves[0].breaches[0]
    assert breach.rule is not None and breach.rule.id == "play.pick"
    assert breach.message == "c3 is not among the cards in your hand"
    assert shown(rules, pos)["hand"] == {"north": ["c1"], "east": ["c3"]}


def test_selling_puts_the_card_on_top_of_the_discard_pile(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1", "c2"]}, deck=["c4"], discards=["c5"])
    after = pos.apply("sell c1")
    assert shown(rules, after)["discards"] == [["c1", "c5"]]
    assert after.state.player_res[0]["points"] == 1


def test_stashing_takes_the_top_card_of_the_deck(rules: Rules) -> None:
    pos = position(rules, deck=["c4", "c5"])
    ruling = pos.adjudicate("stash")
    assert ruling.verdict == "LEGAL"
    texts = [c.text for c in ruling.moves[0].consequences]
    assert texts[0] == "c4 goes from the draw deck to North's hand"
    assert "every player passes their hand 1 seat clockwise" in texts


def test_copies_of_a_card_are_one_choice_but_each_counts(rules: Rules) -> None:
    pos = position(rules, deck=["c4"])
    st = pos.state.clone()
    zones.set_piles(st, key(rules, "hand", 0), [("c1", "c2", "c2")])  # north's: c2 twice
    twice = Position(rules, st)
    picks = [mv.args for mv in twice.legal_moves() if mv.action == "pick"]
    assert picks == [(("c", "c1"),), (("c", "c2"),)]
    after = twice.apply("sell c2")
    assert zones.cards_top_first(after.state, key(rules, "hand", 1), False) == ["c1", "c2"]


def test_a_revealed_zone_turns_face_down_once_it_is_empty(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"], "east": ["c3"]}, chosen={"north": ["c2"]},
                   deck=["c4"])
    st = pos.state.clone()
    chosen = key(rules, "chosen", 0)
    st.revealed = frozenset({chosen})
    zone_play._emptied(st, chosen)
    assert st.revealed == {chosen}
    zones.take(st, chosen, "c2")
    zone_play._emptied(st, chosen)
    assert st.revealed == frozenset()


def test_dealing_more_cards_than_the_deck_holds_deals_what_there_is(rules: Rules) -> None:
    pos = Position.start(rules, players=4, seed=2)
    assert shown(rules, pos)["deck"] == [[]]
    assert sum(len(c) for c in shown(rules, pos)["hand"].values()) == 8


# -------------------------------------------------------------- positions


def test_a_position_round_trips_through_json(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c2", "c1"], "east": [None]}, deck=["c4", None],
                   discards=["c5"])
    first = from_state(rules, pos.state)
    again = from_state(rules, to_state(rules, PositionModel.model_validate_json(
        first.model_dump_json())))
    assert again == first
    assert first.zones["hand"]["north"] == ["c1", "c2"]  # a hand is kept sorted
    assert first.zones["box"] == [[None, None]]  # the cards said to be nowhere: c3 c6 c7 c8 less the two ?


def _problems(rules: Rules, held: dict[str, object]) -> list[tuple[str, str]]:
    model = PositionModel.model_validate({
        "ruleset": "card_table", "players": [{"seat": "north"}, {"seat": "east"}],
        "zones": held, "turn": {"number": 3, "player": "north", "step": "act"}})
    with pytest.raises(PositionError) as e:
        to_state(rules, model)
    return e.value.problems


def test_a_card_in_two_places_is_refused(rules: Rules) -> None:
    problems = _problems(rules, {"deck": [["c1"]], "hand": {"north": ["c1"]}})
    assert problems == [("zones", "c1 is in the draw deck and in North's hand, but the game "
                                  "has 1 copy of it")]


def test_a_misspelt_zone_gets_a_did_you_mean(rules: Rules) -> None:
    problems = _problems(rules, {"dek": [["c1"]]})
    assert problems == [("zones.dek", "there is no zone 'dek'; did you mean `deck`?")]


def test_a_players_zone_is_given_by_seat(rules: Rules) -> None:
    problems = _problems(rules, {"hand": [["c1"]]})
    assert problems[0][0] == "zones.hand"
    assert "give it by seat" in problems[0][1]


def test_an_unknown_card_is_refused_with_a_suggestion(rules: Rules) -> None:
    problems = _problems(rules, {"deck": [["c9", "c1"]]})
    assert problems[0][1].startswith("there is no card 'c9'")


def test_example_facts_say_what_a_zone_holds(rules: Rules) -> None:
    facts = [m.PositionFact(fact="players", args=["north", "east"]),
             m.PositionFact(fact="zone", args=["hand", "east", ["c3", None]]),
             m.PositionFact(fact="zone", args=["deck", None, ["c4"]])]
    model = model_from_facts(rules, facts)
    assert model.zones == {"hand": {"east": ["c3", None]}, "deck": [["c4"]]}


# ---------------------------------------------------------------- reading


def test_the_zone_statements_read_as_a_rulebook_says_them(rules: Rules) -> None:
    en = English(Vocabulary.of(rules.ruleset))
    said = [en.stmt(s) for d in rules.ruleset.all_decls() if isinstance(d, m.Trigger)
            for s in d.body]
    assert said == [
        "move the cards in the box to the draw deck",
        "shuffle the draw deck",
        "for each p of the players: deal 2 cards from the draw deck to p’s hand",
        "turn every chosen card face up",
        "every player passes their hand to the player 1 seat clockwise",
    ]


# ------------------------------------------------------------ wrong rules


def _errors(tmp_path: Path, old: str, new: str) -> list[str]:
    assert old in SOURCE
    folder = tmp_path / "card_table"
    folder.mkdir()
    (folder / "card_table.rules").write_text(SOURCE.replace(old, new), encoding="utf-8")
    with pytest.raises(CompileError) as e:
        load_files([folder / "card_table.rules"])
    return [f"{d.message} | {d.hint}" for d in e.value.diagnostics]


def test_a_players_zone_named_without_whose_asks_whose(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "choose c from cards in hand of me\n            move c to chosen",
                     "choose c from cards in hand\n            move c to chosen")
    assert errors == ["`hand` is each player's hand: whose? write `hand of p` | e.g. "
                      "`hand of me`"]


def test_a_card_with_no_zone_to_come_from_must_say_where(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "let top = first(cards in deck)",
                     "let top = first(cards where it != none)")
    assert errors == ["say where top is taken from: `move top from ZONE to …` | a card "
                      "chosen from `cards in ZONE` remembers its zone"]


def test_saying_where_the_card_comes_from_is_enough(tmp_path: Path) -> None:
    folder = tmp_path / "card_table"
    folder.mkdir()
    text = SOURCE.replace("let top = first(cards in deck)\n            move top to hand of me",
                          "move first(cards where it != none) from deck to hand of me")
    (folder / "card_table.rules").write_text(text, encoding="utf-8")
    load_files([folder / "card_table.rules"])


def test_cards_are_dealt_only_from_an_ordered_zone(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "deal 2 from deck to hand of p", "deal 2 from box to hand of p")
    assert errors == ["cards are dealt from the top of an ordered zone, and `box` is unordered "
                      "| move chosen cards instead: `move c from … to …`"]


def test_a_shared_zone_does_not_pass_round_the_table(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "rotate hand by 1", "rotate deck by 1")
    assert errors == ["`deck` is shared: only a zone each player has can pass from player to "
                      "player | None"]


def test_a_misspelt_zone_gets_a_did_you_mean_in_the_rules(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "reveal chosen", "reveal chosn")
    assert errors == ["unknown zone `chosn` | did you mean `chosen`?"]


def test_a_shared_zone_has_no_owner(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "move c to discards", "move c to discards of me")
    assert errors == ["`discards` is shared: there is one discard pile for the table, so no "
                      "`of` is needed | None"]


def test_in_random_games_every_card_is_in_exactly_one_zone(rules: Rules) -> None:
    from compiler.engine.random_play import random_game
    for seed in range(5):
        for players in (2, 3, 4):
            pos, _ = random_game(rules, players, seed)
            held = from_state(rules, pos.state).zones or {}
            cards: list[object] = []
            for value in held.values():
                for pile in (value.values() if isinstance(value, dict) else value):
                    cards += pile
            assert sorted(cards) == [f"c{i}" for i in range(1, 9)]  # type: ignore[type-var]


# --------------------------------------------------------------- notation


def _with_action(tmp_path: Path, action: str) -> Rules:
    folder = tmp_path / "card_table"
    folder.mkdir()
    text = SOURCE.replace("    rule play.end ", f"    rule play.swap \"Swapping\" {{\n{action}\n    }}\n\n    rule play.end ", 1)
    text = text.replace("must one of pick, sell, stash", "must one of pick, sell, stash, swap")
    (folder / "card_table.rules").write_text(text, encoding="utf-8")
    return Rules(load_files([folder / "card_table.rules"])[0])


SWAP = """
        action swap "give cards back" {
            notation "swap {c}[ returning {back}]"
            choose c from cards in hand of me
            choose some back from cards in chosen of me
            move c to chosen of me
            move back to hand of me
        }
"""


def test_an_optional_part_of_a_notation_is_written_only_when_it_says_something(
        tmp_path: Path) -> None:
    rules = _with_action(tmp_path, SWAP)
    pos = position(rules, hand={"north": ["c1"]}, chosen={"north": ["c2", "c3"]}, deck=["c4"])
    written = sorted(rules.notation.format(pos.state, mv) for mv in pos.legal_moves()
                     if mv.action == "swap")
    assert written == ["swap c1 returning c2", "swap c1 returning c2 c3",
                       "swap c1 returning c3"]
    for text in written:
        assert rules.notation.format(pos.state, rules.notation.parse(pos.state, text)) == text
    plain = rules.notation.parse(pos.state, "swap c1")
    assert plain.values == {"c": "c1", "back": ()}
    assert rules.notation.format(pos.state, plain) == "swap c1"
    assert rules.notation.parse(pos.state, "swap c1 returning -").values["back"] == ()


PLACE = """
        action swap "lay a card from the hand" {
            notation "lay {c} at {cell}"
            choose c from cards in hand of me
            choose cell from frontier
            lay c at cell
        }
"""


def test_a_card_laid_from_the_hand_leaves_the_hand_first_face_up(tmp_path: Path) -> None:
    rules = _with_action(tmp_path, PLACE)
    pos = position(rules, hand={"north": ["c1", "c2"], "east": ["c3"]}, deck=["c4"])
    lays = [rules.notation.format(pos.state, mv) for mv in pos.legal_moves()
            if mv.action == "swap"]
    assert lays and all(text.startswith(("lay c1 at", "lay c2 at")) for text in lays)
    after = pos.apply(lays[0])
    assert [(card, face, rot) for card, face, rot in after.state.board.values()] == \
        [("c1", "a", 0)]
    assert shown(rules, after)["hand"] == {"north": ["c3"], "east": ["c2"]}


def test_a_laid_card_reads_where_it_comes_from_only_when_written(tmp_path: Path) -> None:
    rules = _with_action(tmp_path, PLACE.replace("lay c at cell", "lay c from hand of me at cell"))
    en = English(Vocabulary.of(rules.ruleset))
    action = next(d for d in rules.ruleset.all_decls()
                  if isinstance(d, m.Action) and d.id == "swap")
    assert en.stmt(action.effects[0]) == "lay c from your hand at cell"
