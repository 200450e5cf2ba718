"""Chance outside moves is recorded: a record holds every shuffle, so it replays without its seed.

The small games of `tests/fixtures/card_table` (the deck is shuffled while the
game is set up) and `tests/fixtures/dealt_years` (shuffled again, and dealt, as
every year begins; a sale rolls a die). Each test sets out a table or plays a
game, writes or reads its record, and says what the record shows, as the
"Positions and records" page of the rulebook does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.engine import chance, zone_play
from compiler.engine.formats import from_state
from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import (
    Decision, Record, RecordError, parse_record, replay, with_table_decisions, write_record,
)
from compiler.engine.scenario import run_example
from compiler.load import load_files, load_ruleset
from tests import compiled

FIXTURES = Path(__file__).parent / "fixtures"
RULESETS = Path(__file__).parent / "rulesets"
SETUP = ["deck:c5,c6,c3,c1,c4,c2", "deck:c4,c3,c2,c5,c6,c1"]

# Two players of Dealt years: the set-up's two shuffles, the first year's two sales,
# Bob's ending it; then the table shuffles the deck for the second year.
RECORD = '''[Ruleset "dealt_years"]
[Players "ann bob"]
[Setup "deck:c5,c6,c3,c1,c4,c2 deck:c4,c3,c2,c5,c6,c1"]

1. sell c4 ! 1
2. sell c2 ! 1; {table}
3. sell c1 ! 2
4. sell c6 ! 1
'''


@pytest.fixture(scope="module")
def years() -> Rules:
    return Rules(load_ruleset(FIXTURES / "dealt_years"))


@pytest.fixture(scope="module")
def table() -> Rules:
    return Rules(load_ruleset(FIXTURES / "card_table"))


def zones_of(pos: Position) -> object:
    return from_state(pos.rules, pos.state).zones


def without_seed(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("[Seed"))


def after_first_year(years: Rules) -> Position:
    """Ann has sold c4 (the die showed 1); Bob is to make the last sale of the first year."""
    return years.start(2, setup=SETUP).apply("sell c4 ! 1")


# ----------------------------------------------------------------- set-up


def test_a_shuffle_at_the_set_up_is_in_the_setup_tag(table: Rules) -> None:
    final, history = random_game(table, 3, seed=4)
    text = write_record(history, final)
    [tag] = [line for line in text.splitlines() if line.startswith("[Setup ")]
    name, _, order = tag.removeprefix('[Setup "').removesuffix('"]').partition(":")
    assert name == "deck"
    assert sorted(order.split(",")) == [f"c{i}" for i in range(1, 9)]  # every card, once
    assert "[Stacks" not in text  # the cards start in the box: no stacks to describe


def test_the_set_up_deals_from_the_order_its_outcome_gives(years: Rules) -> None:
    pos = years.start(2, setup=SETUP)
    assert zones_of(pos) == {"box": [[]], "deck": [["c6", "c1"]],
                             "hand": {"ann": ["c3", "c4"], "bob": ["c2", "c5"]},
                             "discards": [[]]}


def test_a_seed_decides_the_set_up_when_no_outcome_is_given(years: Rules) -> None:
    assert zones_of(years.start(2, seed=9)) == zones_of(years.start(2, seed=9))
    pos, used = Position.set_up(years, 2, seed=9)
    assert len(used) == 2 and all(token.startswith("deck:") for token in used)
    assert zones_of(years.start(2, setup=list(used))) == zones_of(pos)


def test_a_set_up_that_needs_a_shuffle_is_refused_without_one(years: Rules) -> None:
    with pytest.raises(ValueError) as info:
        years.start(2)
    said = str(info.value)
    assert "the draw deck is shuffled: say what the shuffle gave, as `deck:` then its 6 " \
           "cards top first" in said
    assert "[Setup" in said and "after `!`" not in said


# ------------------------------------------------------- table decisions


def test_the_last_sale_of_a_year_needs_the_tables_shuffle_after_it(years: Rules) -> None:
    ruling = after_first_year(years).adjudicate("sell c2 ! 1")
    assert ruling.verdict == "ILLEGAL"
    [breach] = ruling.moves[0].breaches
    assert breach.code == "chance"
    assert breach.rule is not None and breach.rule.id == "play.year"  # the rule that shuffles
    assert breach.message.startswith("then, at the table, the draw deck is shuffled: say what "
                                     "the shuffle gave after `!`, as `deck:` then its 4 cards")


def test_with_the_tables_outcome_the_sale_is_judged_and_the_new_year_dealt(years: Rules) -> None:
    pos = after_first_year(years)
    ruling = pos.adjudicate("sell c2 ! 1 deck:c2,c1,c6,c4")
    assert ruling.verdict == "LEGAL"
    [move] = ruling.moves
    assert move.move == "sell c2 ! 1 deck:c2,c1,c6,c4"
    assert move.table_chance == ["deck:c2,c1,c6,c4"]  # the die roll is the sale's own
    texts = [c.text for c in move.consequences]
    assert "the draw deck is shuffled" in texts
    after = pos.apply("sell c2 ! 1 deck:c2,c1,c6,c4")
    assert zones_of(after)["hand"] == {"ann": ["c1", "c2", "c3"], "bob": ["c4", "c5", "c6"]}


def test_a_deal_at_the_start_of_a_year_is_a_table_decision_after_the_last_sale(
        years: Rules) -> None:
    final, history = random_game(years, 2, seed=5)
    lines = write_record(history, final).splitlines()
    [year_end] = [line for line in lines if line.startswith("2. ")]
    sale, table = year_end.removeprefix("2. ").split("; ")
    assert sale.startswith("sell ") and sale.count("!") == 1  # the sale's own die roll
    assert table.startswith("! deck:")  # the table's shuffle, a decision of its own
    assert all("; !" not in line for line in lines if not line.startswith("2. "))


@pytest.mark.parametrize("folder, players", [
    (FIXTURES / "dealt_years", 2), (FIXTURES / "dealt_years", 3),
    (FIXTURES / "card_table", 2), (FIXTURES / "card_table", 4),
    (RULESETS / "seasons", 3)])
@pytest.mark.parametrize("seed", range(6))
def test_a_record_of_random_play_replays_exactly_without_its_seed(
        folder: Path, players: int, seed: int) -> None:
    rules = Rules(load_ruleset(folder))
    final, history = random_game(rules, players, seed=seed)
    text = without_seed(write_record(history, final))
    again = replay(rules, parse_record(text))
    assert again.state.zones == final.state.zones
    assert again.state.player_res == final.state.player_res
    assert again.scores() == final.scores() and again.finished
    assert write_record(history, final) == write_record(history, final)  # one text per game


def test_a_tampered_table_outcome_is_refused_at_its_move(years: Rules) -> None:
    text = RECORD.format(table="! deck:c2,c1,c6,c9")
    with pytest.raises(RecordError) as info:
        replay(years, parse_record(text, "game.record"))
    d = info.value.diagnostic
    assert (d.file, d.line, d.code) == ("game.record", 6, "chance")
    assert d.message.startswith("turn 2, `sell c2 ! 1; ! deck:c2,c1,c6,c9`: then, at the "
                                "table, the draw deck is shuffled: the shuffle must give the 4 "
                                "cards of `deck`, each as often as it holds them, but c9 is not "
                                "in it and c4 is missing")
    assert "as a decision of its own" in d.message


def test_a_missing_table_outcome_is_refused_at_its_move(years: Rules) -> None:
    text = RECORD.format(table="").replace("; \n", "\n")
    with pytest.raises(RecordError) as info:
        replay(years, parse_record(text))
    d = info.value.diagnostic
    assert d.line == 6 and d.message.startswith("turn 2, `sell c2 ! 1`: then, at the table")


def test_the_table_decision_replays_into_the_second_year(years: Rules) -> None:
    pos = replay(years, parse_record(RECORD.format(table="! deck:c2,c1,c6,c4")))
    assert pos.finished
    assert pos.scores() == {"ann": 3, "bob": 2}


def test_a_sequence_of_moves_may_write_the_tables_outcome_as_in_a_record(years: Rules) -> None:
    pos = after_first_year(years)
    ruling = pos.adjudicate("sell c2 ! 1; ! deck:c2,c1,c6,c4; sell c1 ! 2")
    assert ruling.verdict == "LEGAL"
    assert [m.move for m in ruling.moves] == ["sell c2 ! 1 deck:c2,c1,c6,c4", "sell c1 ! 2"]
    assert pos.adjudicate("! deck:c2,c1,c6,c4").verdict == "UNREADABLE"  # after no move


def test_a_table_decision_before_any_move_is_refused(years: Rules) -> None:
    text = RECORD.format(table="! deck:c2,c1,c6,c4").replace("1. sell c4 ! 1", "1. ! 1")
    with pytest.raises(RecordError) as info:
        replay(years, parse_record(text))
    assert info.value.diagnostic.code == "table-decision"
    assert "[Setup" in info.value.diagnostic.message


def test_the_writer_and_the_reader_split_outcomes_alike() -> None:
    record = Record()
    for own in ((), ("1",), ("1", "red")):
        for table in ((), ("deck:c2,c1",), ("deck:c2,c1", "hand.ann:c3,c4")):
            entries = chance.table_entries("sell c2", own + table, len(table))
            assert len(entries) == 1 + bool(table)
            [read] = with_table_decisions(record, [Decision(e, 6, 4) for e in entries])
            joined = "sell c2" + (" ! " + " ".join(own + table) if own + table else "")
            assert read.text == joined


def test_the_older_chance_tag_is_still_read(years: Rules) -> None:
    text = RECORD.format(table="! deck:c2,c1,c6,c4").replace("[Setup", "[Chance")
    assert replay(years, parse_record(text)).scores() == {"ann": 3, "bob": 2}


# ------------------------------------------------------- shuffle outcomes


def test_a_shuffle_outcome_must_name_the_zone_and_hold_its_cards(years: Rules) -> None:
    pos = after_first_year(years)
    cases = {
        "sell c2 ! 1 hand.ann:c2,c1,c6,c4": "the outcome names `hand.ann`, but the zone "
                                            "shuffled here is `deck`",
        "sell c2 ! 1 2": "`2` is not the outcome of a shuffle",
        "sell c2 ! 1 deck:c2,c1,c6,c4,c4": "c4 is not in it",
        "sell c2 ! 1 deck:c2,c1": "c4, c6 are missing",
    }
    for move, said in cases.items():
        ruling = pos.adjudicate(move)
        assert ruling.verdict == "ILLEGAL", move
        assert said in ruling.moves[0].breaches[0].message, move
    assert zones_of(pos) == zones_of(after_first_year(years))  # a refused move changes nothing


def test_a_shuffle_in_a_moves_own_effects_is_among_its_own_outcomes(tmp_path: Path) -> None:
    """A variant where a sale also shuffles the discard pile: that shuffle comes before the
    die roll in the move's own outcomes, and the table's shuffle after both."""
    source = (FIXTURES / "dealt_years" / "dealt_years.rules").read_text(encoding="utf-8")
    source = source.replace("            move c to discards\n",
                            "            move c to discards\n            shuffle discards\n")
    source = source[:source.index("example first_deal")]
    (tmp_path / "dealt_years.rules").write_text(source, encoding="utf-8")
    rules = Rules(load_files([tmp_path / "dealt_years.rules"])[0])
    pos = rules.start(2, setup=SETUP).apply("sell c4 ! 1")  # one card on the pile: no outcome
    ruling = pos.adjudicate("sell c2 ! discards:c4,c2 1 deck:c4,c2,c6,c1")
    assert ruling.verdict == "LEGAL"
    assert ruling.moves[0].table_chance == ["deck:c4,c2,c6,c1"]
    final, history = random_game(rules, 2, seed=2)
    line = next(x for x in write_record(history, final).splitlines() if x.startswith("2. "))
    sale, table = line.removeprefix("2. ").split("; ")
    assert " ! discards:" in sale and table.startswith("! deck:")
    assert replay(rules, parse_record(write_record(history, final))).scores() == final.scores()


def test_a_players_zone_is_named_with_the_seat(table: Rules) -> None:
    hand = zone_play.table(table.game)["hand"].key(1)  # the second seat's hand
    assert chance.label(table.game, hand) == "hand.east"
    assert chance.token(table.game, hand, ["c2", None]) == "hand.east:c2,?"


# ---------------------------------------------------------- worked examples


def test_an_example_may_begin_at_the_set_up(years: Rules) -> None:
    results = {ex.id: run_example(years, ex) for ex in years.ruleset.examples}
    assert {k: r.failures for k, r in results.items()} == \
        {"first_deal": [], "two_left": [], "second_year": []}


def test_an_example_from_the_set_up_without_its_outcomes_says_what_to_give(
        years: Rules) -> None:
    ex = years.ruleset.examples[0].model_copy(deep=True)
    ex.given[0].args = [None, None]
    [failure] = run_example(years, ex).failures
    assert failure.startswith("the game cannot be set up as given: the set-up of the game "
                              "leaves something to chance: the draw deck is shuffled")


def test_an_example_from_the_set_up_says_nothing_of_turns_or_tiles(tmp_path: Path) -> None:
    source = (FIXTURES / "dealt_years" / "dealt_years.rules").read_text(encoding="utf-8")
    source = source.replace("        start seed 3\n",
                            "        start seed 3\n        turn 2 bob step act\n")
    (tmp_path / "dealt_years.rules").write_text(source, encoding="utf-8")
    with pytest.raises(CompileError) as info:
        load_files([tmp_path / "dealt_years.rules"])
    [d] = [d for d in info.value.diagnostics if d.severity == "error"]
    assert "an example that starts at the set-up says only who plays (`players`) and how the " \
           "stacks lie (`stacks`), not `turn`" in d.message


# ------------------------------------------------------------ Galaxy of Trian


def test_galaxy_of_trian_records_keep_their_chance_on_the_moves() -> None:
    rules = compiled.rules("trian_new_order")
    final, history = random_game(rules, 2, seed=11)
    text = write_record(history, final)
    assert "[Setup" not in text and "[Stacks" in text
    decisions = [d.strip() for line in text.splitlines() if line[:1].isdigit()
                 for d in line.partition(". ")[2].split(";")]
    assert any("!" in d for d in decisions)  # draws and rolls are the moves' own
    assert not any(d.startswith("!") for d in decisions)  # and no table decision
    assert not history.table


# ------------------------------------------------------------------ the book


def test_the_positions_and_records_page_explains_setup_and_table_decisions(
        years: Rules) -> None:
    from compiler.rulebook.pages import RulesetPages
    final, history = random_game(years, 3, seed=1)
    book = RulesetPages(years, {e.id: run_example(years, e) for e in years.ruleset.examples},
                        write_record(history, final))
    text = book.formats_page().text
    section = text[text.index("### Chance outside moves"):text.index("## Asking for a ruling")]
    assert "**`Setup`** lists what chance decided while the game was set up, in order" in section
    assert "A **table decision** is `!` followed by what chance decided once a move's turn " \
           "was over" in section
    assert "From the sample record below:\n\n```text\n[Setup \"deck:" in section
    assert "; ! deck:" in section  # the sample's own table decision, quoted
    assert "a record needs neither `Stacks` nor `Seed`" in text


def test_an_example_from_the_set_up_says_so_in_the_book(years: Rules) -> None:
    from compiler.rulebook.pages import RulesetPages
    results = {e.id: run_example(years, e) for e in years.ruleset.examples}
    book = RulesetPages(years, results)
    text = "\n".join(book.example_block(results["first_deal"]))
    assert "**From the set-up**, its chance deciding `deck:c5,c6,c3,c1,c4,c2`, " \
           "`deck:c4,c3,c2,c5,c6,c1`." in text
    assert "drawn from the seed 3" in "\n".join(book.example_block(results["two_left"]))
    assert "From the set-up" not in "\n".join(book.example_block(results["second_year"]))


def test_a_tile_game_without_shuffles_keeps_its_page() -> None:
    from compiler.rulebook.pages import RulesetPages
    deluxe = compiled.rules("trian_deluxe")
    text = RulesetPages(deluxe, {}).formats_page().text
    assert "### Chance outside moves" not in text
    assert "A record must say how the tiles lie (`Stacks`) or the seed" in text


# ------------------------------------------------------------- the command line


def test_the_command_line_plays_and_replays_a_game_with_shuffles(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from compiler.cli import app
    runner = CliRunner()
    folder = str(FIXTURES / "dealt_years")
    played = runner.invoke(app, ["play", folder, "--players", "3", "--seed", "2"])
    assert played.exit_code == 0, played.output
    assert "; ! deck:" in played.output and '[Setup "deck:' in played.output
    (tmp_path / "game.record").write_text(without_seed(played.output), encoding="utf-8")
    replayed = runner.invoke(app, ["replay", folder, str(tmp_path / "game.record")])
    assert replayed.exit_code == 0, replayed.output


def test_a_position_file_that_goes_on_into_chance_is_refused_in_words(tmp_path: Path) -> None:
    """Bob has nothing to sell at the end of the first year: the game goes on by itself to
    the table's shuffle, which a position file cannot say."""
    from typer.testing import CliRunner

    from compiler.cli import app
    (tmp_path / "pos.json").write_text(
        '{"ruleset": "dealt_years", "players": [{"seat": "ann"}, {"seat": "bob"}], '
        '"zones": {"hand": {"ann": ["c2"]}, "deck": [["c6", "c1", "c3"]], '
        '"discards": [["c4", "c5"]]}, "game": {"round": 1, "turn": 2}, '
        '"turn": {"number": 2, "player": "bob", "step": "act"}}', encoding="utf-8")
    result = CliRunner().invoke(app, ["moves", str(FIXTURES / "dealt_years"),
                                      str(tmp_path / "pos.json")])
    assert result.exit_code == 2
    words = " ".join(result.output.split())
    assert "the game goes on by itself to where chance decides" in words
    assert "the draw deck is shuffled" in words
