"""Choices made at once, on the small card game of `tests/rulesets/sealed_picks`.

Every turn each player, at the same time, lays a card from their hand face down and bids
0, 1 or 2 in secret (`each player at once`, `player attribute bid: int secret`); when
the last has picked, the picked cards are turned face up and every bid scores. Then the
active player may call for tribute: every other player offers a point or nothing, in
secret (`grant must tribute to each … at once then apply tribute_paid(me)`), and when
the last has answered, the offers are paid.

The rules are checked so that nothing a player does while choosing shows: the tests at
the end break that rule one way at a time and read the checker's error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compiler.diagnostics import CompileError
from compiler.engine.formats import PositionError, PositionModel, from_state, position_from_model
from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import parse_record, replay, write_record
from compiler.engine.scenario import run_example
from compiler.engine.simultaneous import unseen_attributes
from compiler.ir import model as m
from compiler.load import load_files, load_ruleset

FOLDER = Path(__file__).parent / "rulesets" / "sealed_picks"
SOURCE = (FOLDER / "sealed_picks.rules").read_text(encoding="utf-8")
RED, BLUE, GREEN = 0, 1, 2


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(FOLDER))


def table(rules: Rules, step: str = "pick", **extra: Any) -> Position:
    """Red's first turn of a three-player game: Red holds c1 c2, Blue c3 c4, Green c5 c6;
    Blue has 2 points and Green 1."""
    data: dict[str, Any] = {
        "ruleset": "sealed_picks",
        "players": [{"seat": "red"}, {"seat": "blue", "resources": {"points": 2}},
                    {"seat": "green", "resources": {"points": 1}}],
        "zones": {"hand": {"red": ["c1", "c2"], "blue": ["c3", "c4"],
                           "green": ["c5", "c6"]}},
        "turn": {"number": 1, "player": "red", "step": step}}
    data.update(extra)
    return position_from_model(rules, PositionModel.model_validate(data))


def seats(pos: Position, which: Any) -> list[str]:
    return [pos.game.seat_id(p) for p in which]


def breach(pos: Position, moves: str) -> tuple[str | None, str]:
    ruling = pos.adjudicate(moves)
    assert ruling.verdict == "ILLEGAL"
    b = ruling.moves[-1].breaches[0]
    return (b.rule.id if b.rule else None), b.message


def test_every_worked_example_of_the_sealed_picks_holds(rules: Rules) -> None:
    for ex in rules.ruleset.examples:
        result = run_example(rules, ex)
        assert result.ok, (ex.id, result.failures)


# ------------------------------------------------------------------ picking at once


def test_blue_may_pick_before_red(rules: Rules) -> None:
    pos = table(rules)
    assert pos.game.seat_id(pos.state.turn.actor) == "red"  # first in seat order
    after = pos.apply("blue: pick c3 bid 2")
    assert seats(after, after.state.turn.queue) == ["red", "green"]
    assert from_state(rules, after.state).zones["chosen"]["blue"] == ["c3"]
    assert after.state.player_attrs[BLUE]["bid"] == 2


def test_the_situation_names_no_first_player_while_everyone_picks(rules: Rules) -> None:
    """Anyone still to pick may pick first: the judge's header says who is still to choose,
    not "Red to play"."""
    pos = table(rules)
    assert pos.situation().said() == (
        "turn 1, step “Pick”: every player chooses at once (still to choose: Red, Blue, Green)")
    ruling = pos.adjudicate("blue: pick c3 bid 2")
    assert ruling.render().splitlines()[1] == (
        "  position: turn 1, step “Pick”: every player chooses at once "
        "(still to choose: Red, Blue, Green)")
    assert ruling.after is not None and ruling.after.still_to_choose == ["Red", "Green"]


def test_a_seat_cannot_pick_twice(rules: Rules) -> None:
    pos = table(rules).apply("blue: pick c3 bid 2")
    assert breach(pos, "blue: pick c4 bid 1") == (
        "play.steps", "Blue has already chosen in step “Pick” this turn: everyone chooses "
                      "once, at the same time (still to choose: Red, Green)")


def test_a_refused_second_pick_changes_nothing(rules: Rules) -> None:
    pos = table(rules).apply("blue: pick c3 bid 2")
    before = from_state(rules, pos.state)
    pos.adjudicate("blue: pick c4 bid 1")
    assert from_state(rules, pos.state) == before


def test_legal_moves_are_those_of_the_first_seat_still_to_pick(rules: Rules) -> None:
    pos = table(rules).apply("red: pick c1 bid 0")
    moves = [pos.notation(m) for m in pos.legal_moves()]
    assert moves[0] == "blue: pick c3 bid 0" and all(m.startswith("blue: ") for m in moves)
    assert "pass" not in moves  # everyone must pick


def test_the_picks_may_come_in_any_order_with_the_same_outcome(rules: Rules) -> None:
    a = table(rules).apply("red: pick c1 bid 1; blue: pick c3 bid 2; green: pick c5 bid 0")
    b = table(rules).apply("green: pick c5 bid 0; red: pick c1 bid 1; blue: pick c3 bid 2")
    assert from_state(rules, a.state) == from_state(rules, b.state)
    assert a.scores() == {"red": 1, "blue": 4, "green": 1}


@pytest.mark.parametrize("seed", range(4))
def test_records_replay_exactly_whatever_the_order_of_the_picks(rules: Rules, seed: int) -> None:
    final, history = random_game(rules, 3, seed=seed)
    text = write_record(history, final)
    assert "1. red: pick " in text
    again = replay(rules, parse_record(text))
    assert from_state(rules, again.state) == from_state(rules, final.state)
    # The first turn's picks given the other way round: the same game.
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    picks = first[3:].split("; ")
    turned = "1. " + "; ".join(reversed(picks[:3])) + "".join("; " + x for x in picks[3:])
    again = replay(rules, parse_record(text.replace(first, turned)))
    assert from_state(rules, again.state) == from_state(rules, final.state)


# ------------------------------------------------------------------ secrets


def test_the_bid_stays_hidden_until_everyone_has_chosen(rules: Rules) -> None:
    pos = table(rules).apply("blue: pick c3 bid 2; green: pick c5 bid 1")
    assert pos.state.hidden_attrs == {(BLUE, "bid"), (GREEN, "bid")}
    assert unseen_attributes(pos.state, RED) == {(BLUE, "bid"), (GREEN, "bid")}
    assert unseen_attributes(pos.state, BLUE) == {(GREEN, "bid")}
    assert unseen_attributes(pos.state, None) == frozenset()  # a judge sees everything
    ruling = pos.adjudicate("red: pick c1 bid 0")
    said = [c.text for c in ruling.moves[0].consequences]
    assert said[:5] == ["c1 goes from Red's hand to Red's picked card", "Red bids 0",
                        "now shown: Red bids 0", "now shown: Blue bids 2",
                        "now shown: Green bids 1"]
    assert pos.apply("red: pick c1 bid 0").state.hidden_attrs == frozenset()


def test_positions_carry_the_hidden_bids(rules: Rules) -> None:
    pos = table(rules).apply("blue: pick c3 bid 2")
    written = from_state(rules, pos.state)
    assert written.players[BLUE].hidden == ["bid"] and written.players[RED].hidden is None
    again = position_from_model(rules, written)
    assert again.state.hidden_attrs == {(BLUE, "bid")}
    # Nothing hidden, nothing written: every other position file reads as it always has.
    assert '"hidden"' not in from_state(rules, table(rules).state).model_dump_json(
        exclude_none=True)


def test_a_position_cannot_hide_an_attribute_that_is_not_secret(rules: Rules) -> None:
    with pytest.raises(PositionError) as e:
        table(rules, players=[{"seat": "red", "hidden": ["bid", "points", "offr"]},
                              {"seat": "blue"}, {"seat": "green"}])
    problems = dict(e.value.problems)
    assert "players[0].hidden[1]" in problems and "players[0].hidden[2]" in problems
    assert "did you mean" in problems["players[0].hidden[2]"]


# ------------------------------------------------------------------ tribute: grants to each


def test_calling_for_tribute_asks_everyone_else_in_seat_order(rules: Rules) -> None:
    pos = table(rules, step="call")
    ruling = pos.adjudicate("red: call")
    assert [c.text for c in ruling.moves[0].consequences] == [
        "Blue and Green must now offer tribute, each in secret"]
    after = pos.apply("red: call")
    assert pos.game.seat_id(after.state.turn.actor) == "blue"
    assert [after.notation(m) for m in after.legal_moves()] == ["blue: offer 0", "blue: offer 1"]


def test_green_may_answer_before_blue_and_then_runs_after_the_last(rules: Rules) -> None:
    pos = table(rules, step="call").apply("red: call; green: offer 1")
    assert pos.scores() == {"red": 0, "blue": 2, "green": 1}  # nothing paid yet
    assert pos.state.hidden_attrs == {(GREEN, "offer")}
    ruling = pos.adjudicate("blue: offer 0")
    said = [c.text for c in ruling.moves[0].consequences]
    assert said[:4] == ["Blue offers 0 points", "now shown: Blue offers 0 points",
                        "now shown: Green offers 1 point", "Red receives 1 point from Green"]
    assert pos.apply("blue: offer 0").scores() == {"red": 1, "blue": 2, "green": 0}


def test_the_situation_of_a_tribute_names_those_who_answer_at_once(rules: Rules) -> None:
    pos = table(rules, step="call").apply("red: call; green: offer 1")
    said = pos.situation().said()
    assert said.endswith(": Blue and Green choose at once (still to choose: Blue)"), said
    assert said.startswith("turn 1 (Red’s turn), step "), said


def test_a_player_cannot_answer_the_tribute_twice(rules: Rules) -> None:
    pos = table(rules, step="call").apply("red: call; green: offer 1")
    assert breach(pos, "green: offer 0") == (
        "play.tribute", "Green has already chosen: everyone chooses once, in secret (still "
                        "to choose: Blue)")


def test_a_position_between_two_answers_keeps_what_follows(rules: Rules) -> None:
    pos = table(rules, step="call").apply("red: call; green: offer 1")
    written = from_state(rules, pos.state)
    assert [(g.grant, g.players, g.me, g.then) for g in written.turn.groups or []] == [
        ("play.tribute#1", ["blue", "green"], "red", ["red"])]
    assert written.players[GREEN].hidden == ["offer"]
    again = position_from_model(rules, written)
    assert from_state(rules, again.state) == written
    assert again.apply("blue: offer 0").scores() == {"red": 1, "blue": 2, "green": 0}


def test_what_follows_reads_the_values_kept_when_the_grants_were_made(rules: Rules) -> None:
    # The caller was kept when the tribute was called: a position that says Blue called
    # (though Red is the active player now) pays Blue, not whoever is `me` when it ends.
    written = from_state(rules, table(rules, step="call").apply("red: call").state)
    data = written.model_dump(exclude_none=True)
    data["turn"]["groups"][0]["players"] = ["green"]
    data["turn"]["groups"][0]["then"] = ["blue"]
    data["turn"]["grants"] = [g for g in data["turn"]["grants"] if g["player"] == "green"]
    pos = position_from_model(rules, PositionModel.model_validate(data))
    assert pos.apply("green: offer 1").scores() == {"red": 0, "blue": 3, "green": 0}


def test_a_position_naming_no_such_grant_is_refused(rules: Rules) -> None:
    written = from_state(rules, table(rules, step="call").apply("red: call").state)
    data = written.model_dump(exclude_none=True)
    data["turn"]["groups"][0]["grant"] = "play.tribut#1"
    data["turn"]["grants"][0]["group"] = 7
    with pytest.raises(PositionError) as e:
        position_from_model(rules, PositionModel.model_validate(data))
    assert dict(e.value.problems) == {
        "turn.groups[0].grant": "no `grant … to each` 'play.tribut#1'; did you mean "
                                "`play.tribute#1`?",
        "turn.grants[0].group": "no group 7 in `turn.groups`",
        "turn.grants[1].group": "no group 1 in `turn.groups`"}  # its group was refused


# ------------------------------------------------------------------ reading


def test_the_rulebook_reads_the_step_the_secret_and_the_grant(rules: Rules) -> None:
    from compiler.rulebook.formal import Formal
    from compiler.rulebook.links import Index
    rs = rules.ruleset
    formal = Formal(rs, Index.of(rs))
    steps = next(r for r in rs.all_rules() if r.id == "play.steps")
    pick = next(r for r in rs.all_rules() if r.id == "play.pick")
    assert formal.decl(steps.decls[0], steps) == [
        "**Step 1, Pick:** every player at once — nobody sees another’s choice until all "
        "have chosen: you must take one of: pick a card and bid."]
    assert formal.decl(pick.decls[0], pick) == [
        "**Each player's *bid*, in secret:** a number (“bids {value}”); set while everyone "
        "chooses at once, it stays hidden from the others until all have chosen."]
    call = next(a for a in rs.all_decls() if isinstance(a, m.Action) and a.id == "call")
    assert rules.english.stmt(call.effects[0]) == (
        "each of the players that are not you must now offer tribute, all at once and in "
        "secret; when all have chosen: the tribute is paid to you")


def test_the_positions_page_says_who_may_choose_and_where_secrets_are_kept(
        rules: Rules) -> None:
    from compiler.rulebook.pages import RulesetPages
    text = RulesetPages(rules, {}).formats_page().text
    assert "### Choices made at once" in text
    assert "`blue: …` is Blue's choice even while a seat before theirs has not chosen" in text
    assert "listed in its player's `hidden` (`bid`, `offer`)" in text


# ------------------------------------------------------------------ the commit rule


def compile_with(tmp_path: Path, old: str, new: str) -> list[tuple[int, str, str | None]]:
    """The checker's errors for the fixture with `old` written as `new`."""
    assert old in SOURCE
    folder = tmp_path / "sealed_picks"
    folder.mkdir()
    (folder / "sealed_picks.rules").write_text(SOURCE.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CompileError) as e:
        load_files([folder / "sealed_picks.rules"])
    return [(d.line, d.message, d.hint) for d in e.value.diagnostics]


def line_of(text: str) -> int:
    """The line of the fixture where `text` first appears."""
    return SOURCE[:SOURCE.index(text)].count("\n") + 1


def test_a_pick_that_pays_at_once_is_refused(tmp_path: Path) -> None:
    errors = compile_with(tmp_path, "            set me.bid to b\n",
                          "            set me.bid to b\n            give 1 points to me\n")
    assert errors == [(line_of("            set me.bid to b") + 1,
                       "in a step where every player chooses at once (step `pick`), `give` "
                       "would show the others what you chose before they choose",
                       "do it `at end of step pick`, or in a later step; while choosing, "
                       "only move cards into a private or hidden zone of your own and set "
                       "secret attributes of `me`")]


def test_a_card_picked_into_a_shared_zone_is_refused(tmp_path: Path) -> None:
    errors = compile_with(tmp_path, "move c to chosen of me", "move c to deck")
    assert errors == [(line_of("move c to chosen of me"),
                       "in a step where every player chooses at once (step `pick`), `move … "
                       "to deck` would show the others what you chose before they choose: a "
                       "card chosen in secret goes into a zone of your own (`… of me`)",
                       "move it to a private or hidden zone each player has (`move c to "
                       "chosen of me`); move it where others see it `at end of step pick`, "
                       "or in a later step")]


def test_a_card_picked_into_a_public_zone_is_refused(tmp_path: Path) -> None:
    errors = compile_with(tmp_path, 'zone chosen "picked card" each hidden',
                          'zone chosen "picked card" each public')
    assert errors == [(line_of("move c to chosen of me"),
                       "in a step where every player chooses at once (step `pick`), `move … "
                       "to chosen of me` would show the others what you chose before they "
                       "choose: zone `chosen` is public",
                       "declare the zone `private` (its owner sees it) or `hidden`, and show "
                       "it later with `reveal chosen`")]


def test_a_bid_that_is_not_secret_is_refused(tmp_path: Path) -> None:
    errors = compile_with(tmp_path, 'player attribute bid: int secret "bids {value}"',
                          'player attribute bid: int "bids {value}"')
    assert errors == [(line_of("set me.bid to b"),
                       "in a step where every player chooses at once (step `pick`), `set … "
                       ".bid` would show the others what you chose before they choose: player "
                       "attribute `bid` is not secret",
                       "declare it `player attribute bid: int secret`, so it stays hidden "
                       "until everyone has chosen; or set it `at end of step pick`, or in a "
                       "later step")]


def test_setting_another_players_secret_is_refused(tmp_path: Path) -> None:
    errors = compile_with(tmp_path, "            set me.bid to b",
                          "            set first(players where it != me).bid to b")
    assert errors == [(line_of("set me.bid to b"),
                       "in a step where every player chooses at once (step `pick`), each "
                       "player sets only their own secret values: `set … .bid` here changes "
                       "another player's",
                       "write `set me.bid to …`; set other players' values `at end of step "
                       "pick`, or in a later step")]


def test_a_tribute_that_pays_at_once_is_refused(tmp_path: Path) -> None:
    errors = compile_with(tmp_path, "            set me.offer to n\n",
                          "            set me.offer to n\n            give 1 points to me\n")
    assert errors == [(line_of("            set me.offer to n") + 1,
                       "in a choice every player makes at once (`grant tribute to each … at "
                       "once`), `give` would show the others what you chose before they "
                       "choose",
                       "do it in what follows the choices (`then apply …`); while choosing, "
                       "only move cards into a private or hidden zone of your own and set "
                       "secret attributes of `me`")]


def test_revealing_an_attribute_that_is_not_secret_is_refused(tmp_path: Path) -> None:
    errors = compile_with(
        tmp_path, 'player attribute offer: int secret "offers {value} points"',
        'player attribute offer: int secret "offers {value} points"\n'
        '        player attribute seen: int "has seen {value}"\n'
        '        at end of step call {\n            reveal seen\n        }')
    assert errors == [(line_of('player attribute offer: int secret') + 3,
                       "player attribute `seen` is not secret: everyone always sees it, so "
                       "there is nothing to reveal",
                       "declare it `player attribute seen: int secret` if players choose it in "
                       "secret")]
