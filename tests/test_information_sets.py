"""Hidden information: what each player sees, and that nobody's choices depend on the rest.

A judge sees the whole table; a player sees the public zones, their own hand,
the top of a pile that shows its top, and every card laid on a board. Each
test here sets out a table as the small card game of `tests/fixtures/card_table`
(or a tile game) would, takes one player's view, and says what that player
sees or may do; the first plays random games of every ruleset that hides
cards and checks, at every decision, that the player deciding could list the
same moves from what they see.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest

from compiler.engine import zone_play
from compiler.engine.formats import PositionModel, from_state, to_state
from compiler.engine.notation import ListedMoves
from compiler.engine.position import Position, Rules
from compiler.engine.random_play import RandomPlayStopped, random_game
from compiler.engine.records import RecordError, parse_record, replay, write_record
from compiler.engine.views import hides_anything, view_record
from compiler.engine.zone_json import copies
from compiler.load import load_ruleset
from tests import compiled

ROOT = Path(__file__).parent.parent
TABLE = ROOT / "tests" / "fixtures" / "card_table"


def every_ruleset() -> list[Path]:
    return sorted(p for folder in ("rules", "tests/rulesets", "tests/fixtures")
                  for p in (ROOT / folder).iterdir() if p.is_dir())


@functools.cache
def hiding() -> list[Path]:
    """The rulesets and fixtures with a zone some player cannot see. Only a ruleset that
    declares a zone (`zone NAME …`) can hide cards (the tile stacks show their tops), so
    only those are compiled to ask."""
    declares = re.compile(r"^\s*zone\s", re.M)
    return [p for p in every_ruleset()
            if any(declares.search(f.read_text(encoding="utf-8")) for f in p.glob("*.rules"))
            and hides_anything(compiled.rules_at(p).game)]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(TABLE))


def position(rules: Rules, players: int = 2, actor: str = "north",
             **zones_given: object) -> Position:
    """`actor` to act on turn 3, with these zones (a shared zone as its cards top first, a
    player's as {seat: cards})."""
    held = {k: (v if isinstance(v, dict) else [v]) for k, v in zones_given.items()}
    seats = ["north", "east", "south", "west"][:players]
    model = PositionModel.model_validate({
        "ruleset": "card_table", "players": [{"seat": s} for s in seats],
        "zones": held, "turn": {"number": 3, "player": actor, "step": "act"},
        "partial": True})  # the cards left unsaid are in the box
    return Position(rules, to_state(rules, model))


def zones_of(pos: Position) -> dict[str, object]:
    return from_state(pos.rules, pos.state).zones or {}


def moves(pos: Position) -> list[str]:
    return [pos.notation(m) for m in pos.legal_moves()]


# ------------------------------------------------- no choice depends on the unseen


def test_there_are_card_games_that_hide_cards_to_check() -> None:
    assert TABLE in hiding()
    deluxe = compiled.rules("trian_deluxe").game
    assert not hides_anything(deluxe)  # its stacks show their tops


@pytest.mark.parametrize("path", hiding(), ids=lambda p: p.name)
def test_every_decision_can_be_made_from_what_the_decider_sees(path: Path) -> None:
    base = compiled.rules_at(path)
    rs = base.ruleset
    decisions = 0
    for players in range(rs.players_min, min(rs.players_max, 4) + 1):
        at_start = decisions
        for seed in range(1, 21):  # 20 games, or as many as make 300 decisions
            if decisions - at_start >= 300:
                break
            final, history = random_game(base, players, seed)
            for _, pos, _ in history.moves:
                seen = pos.view(pos.active)
                assert moves(seen) == moves(pos), (
                    f"{path.name}, {players} players, seed {seed}, turn "
                    f"{pos.state.turn.number}: {pos.game.seat_id(pos.active)} would list "
                    f"other moves from what they see")
                decisions += 1
    assert decisions > 0


def test_random_play_chooses_from_what_the_mover_sees(rules: Rules,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    listed: list[tuple[int | None, int]] = []
    real = Position.listed_moves

    def spy(pos: Position) -> ListedMoves:
        listed.append((pos.state.view, pos.active))
        return real(pos)
    monkeypatch.setattr(Position, "listed_moves", spy)
    random_game(rules, 3, 5)
    assert listed and all(view == actor for view, actor in listed)


def test_random_play_in_a_tile_game_lists_moves_at_the_table_as_always(
        monkeypatch: pytest.MonkeyPatch) -> None:
    deluxe = compiled.rules("trian_deluxe")
    listed: list[int | None] = []
    real = Position.listed_moves

    def spy(pos: Position) -> ListedMoves:
        listed.append(pos.state.view)
        return real(pos)
    monkeypatch.setattr(Position, "listed_moves", spy)
    with pytest.raises(RandomPlayStopped):  # not over after 12 decisions: we only watch
        random_game(deluxe, 2, 1, max_decisions=12)
    assert listed and set(listed) == {None}


# ------------------------------------------------------------- what a player sees


def test_norths_view_hides_easts_hand_but_shows_norths_own(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1", "c2"], "east": ["c3", "c4"]}, deck=["c5"])
    seen = zones_of(pos.view("north"))
    assert seen["hand"] == {"north": ["c1", "c2"], "east": [None, None]}


def test_the_order_of_the_deck_is_hidden_from_everyone(rules: Rules) -> None:
    pos = Position.start(rules, players=3, seed=11)
    assert zones_of(pos)["deck"] == [["c2", "c1"]]  # the judge knows it
    for seat in ("north", "east", "south"):
        view = pos.view(seat)
        assert zones_of(view)["deck"] == [[None, None]]
        assert {"c1", "c2"} <= set(view.state.unknown)


def test_the_discard_pile_is_seen_by_everyone(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"]}, deck=["c4"], discards=["c5", "c6"])
    assert zones_of(pos.view("east"))["discards"] == [["c5", "c6"]]


def test_a_chosen_card_turned_face_up_is_seen_by_everyone(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"], "east": ["c3"]}, deck=["c4"])
    after = pos.apply("pick c1")  # the turn ends: chosen cards are turned face up
    assert zones_of(after.view("east"))["chosen"] == {"north": ["c1"], "east": []}


def test_a_player_cannot_see_the_card_another_has_just_chosen(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"], "east": ["c3"]}, chosen={"east": ["c2"]},
                   deck=["c4"])
    assert zones_of(pos.view("north"))["chosen"] == {"north": [], "east": [None]}
    assert zones_of(pos.view("east"))["chosen"] == {"north": [], "east": ["c2"]}


def test_a_face_down_laid_card_stays_public() -> None:
    camp = Rules(load_ruleset(ROOT / "tests" / "rulesets" / "outposts"))
    model = PositionModel.model_validate({
        "ruleset": "outposts", "players": [{"seat": "red"}, {"seat": "blue"}],
        "tiles": [{"board": "red", "at": "0,0", "tile": "t1", "face": "front"},
                  {"board": "red", "at": "1,0", "tile": "hut1", "face": "down"},
                  {"board": "red", "at": "2,0", "tile": "t2", "face": "front"}],
        "stacks": [["t3", "t4"]], "turn": {"number": 4, "player": "red", "step": "act"}})
    pos = Position(camp, to_state(camp, model))
    seen = from_state(camp, pos.view("blue").state)
    assert [(t.tile, t.face) for t in seen.tiles] == [("t1", "front"), ("hut1", "down"),
                                                      ("t2", "front")]
    assert seen.stacks == [["t3", None]]  # the stack shows its top, no more


def test_the_tile_stacks_show_their_tops_and_nothing_else() -> None:
    deluxe = compiled.rules("trian_deluxe")
    pos = Position.start(deluxe, players=2, seed=3)
    view = pos.view("quuylto")
    full, seen = from_state(deluxe, pos.state).stacks, from_state(deluxe, view.state).stacks
    assert [s[0] for s in seen] == [s[0] for s in full]
    assert all(c is None for s in seen for c in s[1:])
    assert moves(view) == moves(pos)


# ------------------------------------------------------------ a view is a position


def test_a_view_says_whose_it_is_and_loads_back_the_same(rules: Rules) -> None:
    pos = Position.start(rules, players=3, seed=11).view("east")
    written = from_state(rules, pos.state)
    assert written.view == "east"
    again = to_state(rules, PositionModel.model_validate_json(written.model_dump_json()))
    assert again.view == 1
    assert from_state(rules, again) == written
    assert again.unknown == pos.state.unknown


def test_a_view_file_that_shows_too_much_is_read_as_its_player_sees_it(rules: Rules) -> None:
    model = PositionModel.model_validate({
        "ruleset": "card_table", "view": "north",
        "players": [{"seat": "north"}, {"seat": "east"}],
        "zones": {"hand": {"north": ["c1"], "east": ["c3"]}, "deck": [["c4"]]},
        "turn": {"number": 3, "player": "north", "step": "act"}, "partial": True})
    pos = Position(rules, to_state(rules, model))
    assert zones_of(pos)["hand"] == {"north": ["c1"], "east": [None]}


def test_a_view_for_a_seat_not_at_the_table_is_refused(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"]}, deck=["c4"])
    with pytest.raises(ValueError, match="no seat 'esat'.*did you mean `east`"):
        pos.view("esat")
    with pytest.raises(ValueError, match="north's view of the table: east's cannot"):
        pos.view("north").view("east")


def test_judging_ones_own_move_in_ones_view_gives_the_tables_ruling(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1", "c2"], "east": ["c3"]}, deck=["c4", "c5"])
    for move in ("pick c2", "sell c1", "pick c3", "stash"):
        full, seen = pos.adjudicate(move), pos.view("north").adjudicate(move)
        assert seen.verdict == full.verdict, move
        cited = [[b.rule.id for b in m.breaches if b.rule] + [c.id for c in m.decided_by]
                 for m in full.moves]
        assert [[b.rule.id for b in m.breaches if b.rule] + [c.id for c in m.decided_by]
                for m in seen.moves] == cited, move
    said = [c.text for c in pos.view("north").adjudicate("sell c1").moves[0].consequences]
    assert said == [c.text for c in pos.adjudicate("sell c1").moves[0].consequences]


def test_a_card_drawn_unseen_is_a_hidden_card_in_the_ruling(rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1"]}, deck=["c4", "c5"])
    said = [c.text for c in pos.view("north").adjudicate("stash").moves[0].consequences]
    assert said[0] == "a hidden card goes from the draw deck to North's hand"
    said = [c.text for c in pos.adjudicate("stash").moves[0].consequences]
    assert said[0] == "c4 goes from the draw deck to North's hand"


def test_a_choice_among_cards_one_cannot_see_offers_every_card_that_could_be_there(
        rules: Rules) -> None:
    pos = position(rules, hand={"north": ["c1", "c2"], "east": ["c3"]}, deck=["c4"])
    seen_by_east = pos.view("east")  # north decides; east does not see north's hand
    assert moves(pos) == ["pick c1", "pick c2", "sell c1", "sell c2", "stash"]
    assert moves(seen_by_east) == [f"{a} c{i}" for a in ("pick", "sell")
                                   for i in (1, 2, 4, 5, 6, 7, 8)] + ["stash"]


def test_several_unknown_cards_are_not_one_and_the_same_card(rules: Rules) -> None:
    # Two unknown cards in east's hand and two in the deck: each zone counts its own, and
    # naming the cards of every zone never lists one card twice.
    pos = position(rules, hand={"north": ["c1"], "east": [None, None]}, deck=[None, None])
    st = pos.state
    deck, hand = zone_play.table(pos.game)["deck"], zone_play.table(pos.game)["hand"]
    from compiler.engine import zones
    assert zones.cards_top_first(st, deck.key()) == ["?", "?"]
    assert zones.cards_top_first(st, hand.key(1), False) == ["?", "?"]
    assert zones.possible_top_first(st, deck.key()) == sorted(st.unknown)


@pytest.fixture(scope="module")
def boxed(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """The card game, but before the deal two cards of the deck are shown and put back in
    the box, out of the game."""
    folder = tmp_path_factory.mktemp("boxed")
    source = (TABLE / "card_table.rules").read_text(encoding="utf-8")
    source = source.replace("            shuffle deck\n", "            shuffle deck\n"
                            "            deal 2 from deck to discards\n"
                            "            move cards in discards to box\n", 1)
    (folder / "card_table.rules").write_text(source, encoding="utf-8")
    return Rules(load_ruleset(folder))


def test_a_card_put_back_in_the_box_is_never_offered_for_a_hidden_hand(boxed: Rules) -> None:
    from compiler.engine import zones
    pos = Position.start(boxed, players=2, seed=11)
    table = zones_of(pos)
    out = table["box"][0]  # type: ignore[index]
    north = table["hand"]["north"]  # type: ignore[index]
    assert len(out) == 2 and out == ["c7", "c8"]  # what this seed shows
    view = pos.view("north")
    hand, box = zone_play.table(pos.game)["hand"], zone_play.table(pos.game)["box"]
    could = zones.possible_top_first(view.state, hand.key(1), False)
    # East's hand came from the deck: any card north has not seen, never the two everyone
    # saw go back to the box, nor north's own.
    assert could == sorted({f"c{i}" for i in range(1, 9)} - set(out) - set(north))
    assert set(out) <= set(view.state.unknown)  # unseen all the same
    assert zones.possible_top_first(view.state, box.key(), False) == out
    # The bounds travel with the view's file.
    written = from_state(boxed, view.state)
    assert written.could_hold == {"box": out, "deck": could, "hand": {"east": could}}
    again = Position(boxed, to_state(boxed, PositionModel.model_validate_json(
        written.model_dump_json())))
    assert zones.possible_top_first(again.state, hand.key(1), False) == could


def test_a_position_file_without_history_rules_nothing_out(boxed: Rules) -> None:
    # A judge's file does not say what the table knows: a hidden zone could hold any card
    # unaccounted for, never just its own cards (that would tell them).
    from compiler.engine import zones
    pos = position(boxed, hand={"north": ["c1"], "east": ["c3"]}, deck=["c4"])
    hand = zone_play.table(pos.game)["hand"]
    assert zones.possible_top_first(pos.view("north").state, hand.key(1), False) == \
        ["c2", "c3", "c4", "c5", "c6", "c7", "c8"]


@pytest.fixture(scope="module")
def stars() -> Rules:
    return compiled.rules("among_the_stars")


def test_among_the_stars_offers_no_four_player_card_at_a_table_of_three(stars: Rules) -> None:
    from compiler.engine import zones
    four = {c.id for c in stars.ruleset.cards() if c.id.endswith("_4")}
    assert "admin_block_4" in four
    for players, offered in ((3, False), (4, True)):
        pos = Position.start(stars, players=players, seed=2)
        hand = zone_play.table(pos.game)["hand"]
        view = pos.view("red")
        could = set(zones.possible_top_first(view.state, hand.key(1), False))
        assert bool(could & four) is offered, players
        single = {c for c, k in copies(pos.game).items() if k == 1}
        own = set(zones_of(pos)["hand"]["red"])  # type: ignore[index]
        assert not could & own & single  # red holds the only copy
    # A move naming such a card for blue is refused in red's view, as at the table.
    view = Position.start(stars, players=3, seed=2).view("red")
    assert view.adjudicate("blue: pick admin_block_4").verdict == "ILLEGAL"


NAMING = '''    rule play.name "Naming a card" {
        text "Name any card kept off the table, for a point."
        action guess "name a card" {
            notation "name {c}"
            choose c from cards
            give 1 points to me
        }
    }

'''


def test_naming_any_card_offers_each_card_once_and_never_an_unknown_one(
        tmp_path: Path) -> None:
    source = (TABLE / "card_table.rules").read_text(encoding="utf-8")
    source = source.replace('    rule play.stash "', NAMING + '    rule play.stash "', 1)
    source = source.replace("must one of pick, sell, stash", "must one of pick, sell, stash, guess")
    (tmp_path / "card_table.rules").write_text(source, encoding="utf-8")
    naming = Rules(load_ruleset(tmp_path))
    model = PositionModel.model_validate({
        "ruleset": "card_table", "players": [{"seat": "north"}, {"seat": "east"}],
        "zones": {"hand": {"north": ["c1", "c2"], "east": ["c3"]}, "deck": [["c4"]]},
        "turn": {"number": 3, "player": "north", "step": "act"}, "partial": True})
    pos = Position(naming, to_state(naming, model))
    every = [f"name c{i}" for i in range(1, 9)]
    for seen in (pos, pos.view("north"), pos.view("east")):
        named = [m for m in moves(seen) if m.startswith("name")]
        assert sorted(named) == every


# ------------------------------------------------------------------ view records

@pytest.fixture(scope="module")
def hidden_picks(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """The card game, but chosen cards stay face down: nobody sees another's picks."""
    folder = tmp_path_factory.mktemp("hidden_picks")
    source = (TABLE / "card_table.rules").read_text(encoding="utf-8")
    source = source.replace("            reveal chosen\n", "")
    (folder / "card_table.rules").write_text(source, encoding="utf-8")
    return Rules(load_ruleset(folder))


def test_a_view_record_writes_the_others_unseen_picks_as_unknown(hidden_picks: Rules) -> None:
    final, history = random_game(hidden_picks, 2, 3)  # east picks on turns 2, 4 and 8
    full = write_record(history, final)
    notes = view_record(history, final, 0)
    assert '[View "north"]' in notes and "[Seed" not in notes and "[Stacks" not in notes
    assert '[Setup "?"]' in notes  # the order the deck was shuffled into
    body = [line for line in notes.splitlines() if line[:1].isdigit()]
    full_body = [line for line in full.splitlines() if line[:1].isdigit()]
    assert len(body) == len(full_body)
    for mine, theirs in zip(body, full_body, strict=True):
        turn = int(mine.split(".")[0])
        if "pick" in theirs and turn % 2 == 0:  # east's turns: north never sees the pick
            assert mine == f"{turn}. pick ?"
        else:  # north's own turns, and what everyone sees (a sale, a card stashed)
            assert mine == theirs
    assert [line for line in body if line.endswith("pick ?")] == ["2. pick ?", "4. pick ?",
                                                                   "8. pick ?"]


def test_a_view_record_does_not_replay(hidden_picks: Rules) -> None:
    final, history = random_game(hidden_picks, 2, 2)
    record = parse_record(view_record(history, final, 1), "notes.record")
    with pytest.raises(RecordError) as e:
        replay(hidden_picks, record)
    assert e.value.diagnostic.code == "view"
    assert "east's view of a game" in e.value.diagnostic.message
    assert "cannot be replayed" in e.value.diagnostic.message


# ------------------------------------------------------------------ the command line


def _run(*args: str) -> Any:
    from typer.testing import CliRunner

    from compiler.cli import app
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory, rules: Rules) -> Path:
    """The card game's table after the deal, three players, as a judge sees it."""
    path = tmp_path_factory.mktemp("table") / "deal.json"
    pos = Position.start(rules, players=3, seed=11)
    path.write_text(from_state(rules, pos.state).model_dump_json(), encoding="utf-8")
    return path


def test_moves_as_a_player_who_is_not_deciding_lists_what_they_could_guess(
        table_file: Path) -> None:
    judge = _run("moves", str(TABLE), str(table_file))
    east = _run("moves", str(TABLE), str(table_file), "--as", "east")
    assert judge.exit_code == east.exit_code == 0
    assert "pick c7" in judge.output and "pick c1" not in judge.output
    assert east.output.startswith("As East (east) sees the table")
    assert "pick c1" in east.output and "pick c3" not in east.output  # east holds c3


def test_moves_as_the_decider_lists_the_same_moves_under_a_header(table_file: Path) -> None:
    judge = _run("moves", str(TABLE), str(table_file))
    north = _run("moves", str(TABLE), str(table_file), "--as", "north")
    assert north.output.splitlines()[1:] == judge.output.splitlines()


def test_replay_as_a_player_prints_their_view_of_the_zones(table_file: Path) -> None:
    shown = _run("replay", str(TABLE), str(table_file), "--as", "east")
    assert shown.exit_code == 0
    assert "the draw deck: ?, ?" in shown.output
    assert "North's hand: ?, ?" in shown.output and "East's hand: c3, c6" in shown.output
    as_json = _run("replay", str(TABLE), str(table_file), "--as", "east", "--json")
    model = PositionModel.model_validate_json(as_json.output)
    assert model.view == "east" and model.zones["deck"] == [[None, None]]  # type: ignore[index]


def test_adjudicate_and_audit_as_a_player(table_file: Path) -> None:
    ruled = _run("adjudicate", str(TABLE), str(table_file), "stash", "--as", "north")
    assert ruled.exit_code == 0 and "a hidden card goes from the draw deck" in ruled.output
    assert ruled.output.startswith("Judged from North’s view (north): the rules decide as "
                                   "at the table, but what North cannot see is unknown here.")
    audited = _run("audit", str(TABLE), str(table_file), "--as", "north")
    assert audited.exit_code == 0 and "declares no audit" in audited.output


def test_a_seat_not_at_the_table_is_refused_with_a_suggestion(table_file: Path) -> None:
    for command in (["moves", str(TABLE), str(table_file)],
                    ["play", str(TABLE), "--players", "3"]):
        refused = _run(*command, "--as", "esat")
        assert refused.exit_code == 2
        assert "esat" in refused.output and "east" in refused.output


def test_play_as_a_player_writes_a_view_record_that_replay_refuses(tmp_path: Path) -> None:
    played = _run("play", str(TABLE), "--players", "3", "--seed", "5", "--as", "south")
    assert played.exit_code == 0
    assert '[View "south"]' in played.output and "[Seed" not in played.output
    notes = tmp_path / "notes.record"
    notes.write_text(played.output, encoding="utf-8")
    refused = _run("replay", str(TABLE), str(notes))
    assert refused.exit_code == 2
    assert "south's view of a game" in refused.output and "cannot be replayed" in refused.output


def test_in_a_tile_game_a_view_changes_nothing_but_the_header(tmp_path: Path) -> None:
    deluxe = ROOT / "rules" / "trian_deluxe"
    rules = compiled.rules(deluxe.name)
    final, history = random_game(rules, 2, 1, max_decisions=400)
    _, mid, _ = history.moves[20]
    path = tmp_path / "mid.json"
    path.write_text(from_state(rules, mid.state).model_dump_json(), encoding="utf-8")
    move = mid.notation(mid.legal_moves()[0])
    for command in (["moves", str(deluxe), str(path)],
                    ["adjudicate", str(deluxe), str(path), move],
                    ["replay", str(deluxe), str(path)]):
        judge, seen = _run(*command), _run(*command, "--as", "xemh")
        assert seen.exit_code == judge.exit_code, command
        assert seen.output.splitlines()[1:] == judge.output.splitlines(), command


# ------------------------------------------------------------- choices made at once

PICKS = ROOT / "tests" / "rulesets" / "sealed_picks"


def test_a_bid_made_at_once_is_hidden_from_the_others_until_all_have_chosen() -> None:
    picks = Rules(load_ruleset(PICKS))
    model = PositionModel.model_validate({
        "ruleset": "sealed_picks",
        "players": [{"seat": "red"}, {"seat": "blue", "attributes": {"bid": 2},
                                      "hidden": ["bid"]}, {"seat": "green"}],
        "zones": {"hand": {"red": ["c1", "c2"], "blue": ["c4"], "green": ["c5", "c6"]},
                  "chosen": {"blue": ["c3"]}},
        "turn": {"number": 1, "player": "red", "step": "pick", "waiting": ["red", "green"]}})
    pos = Position(picks, to_state(picks, model))
    red = from_state(picks, pos.view("red").state)
    blue = red.players[1]
    assert blue.attributes == {} and blue.hidden == ["bid"]  # red knows blue bid, not what
    assert red.zones["chosen"]["blue"] == [None]  # type: ignore[index]
    own = from_state(picks, pos.view("blue").state).players[1]
    assert own.attributes == {"bid": 2}
    assert moves(pos.view("red")) == moves(pos)


def test_a_view_record_of_picks_made_at_once_shows_them_once_all_have_picked() -> None:
    # A player writes a turn down once it is over: the picks and bids, shown together when
    # the last player has picked, are no secret by then.
    picks = Rules(load_ruleset(PICKS))
    final, history = random_game(picks, 3, 2)
    full, notes = write_record(history, final), view_record(history, final, 0)
    assert notes.split("\n\n")[1] == full.split("\n\n")[1]
    assert notes.split("\n\n")[1].startswith("1. red: pick c3 bid 2; blue: pick c7 bid 1;")


# ------------------------------------------------------------------ the book


def test_the_positions_page_explains_views_with_a_sample(rules: Rules) -> None:
    from compiler.engine.scenario import run_example
    from compiler.rulebook.pages import RulesetPages
    results = {e.id: run_example(rules, e) for e in rules.ruleset.examples}
    text = RulesetPages(rules, results).formats_page().text
    assert "## A player's view" in text
    assert "$ rulebook moves card_table position.json --as north" in text
    assert "| hand | only its owner sees the cards (everyone, once turned face up) |" in text
    assert '"view": "north"' in text  # the sample view position
    assert "`View`" in text  # the tag, in the table of tags


def test_a_secret_shown_in_a_view_that_never_knew_it_is_said_to_be_unknown() -> None:
    # Seed 2, turn 1: red calls for tribute; blue offers 0 in secret, then green answers.
    picks = Rules(load_ruleset(PICKS))
    _, history = random_game(picks, 3, 2)
    pos = next(p for _, p, m in history.moves if p.notation(m) == "green: offer 1")
    said = [c.text for c in pos.view("red").adjudicate("green: offer 1").moves[0].consequences]
    assert "now shown: Blue shows their offer, unknown in Red's view" in said
    assert "now shown: Green offers 1 point" in said  # made in this very move
    said = [c.text for c in pos.adjudicate("green: offer 1").moves[0].consequences]
    assert "now shown: Blue offers 0 points" in said


def test_a_ruling_in_json_says_whose_view_judged_it(table_file: Path) -> None:
    import json
    seen = json.loads(_run("adjudicate", str(TABLE), str(table_file), "stash", "--as", "north",
                           "--json").output)
    assert seen["view"] == "north" and list(seen)[:3] == ["ruleset", "view", "verdict"]
    full = json.loads(_run("adjudicate", str(TABLE), str(table_file), "stash", "--json").output)
    assert "view" not in full and "view_name" not in full and "view_name" not in seen
    assert "depends_on_unseen" not in full["moves"][0]  # only a view's ruling may need it
    judged = _run("adjudicate", str(TABLE), str(table_file), "stash")
    assert judged.output.startswith("LEGAL")  # the full table's ruling has no header


def _tribute_answered() -> tuple[Position, str]:
    """Seed 2, turn 1: red called for tribute, blue offered 0 in secret; green answers last."""
    picks = Rules(load_ruleset(PICKS))
    _, history = random_game(picks, 3, 2)
    return next(p for _, p, m in history.moves if p.notation(m) == "green: offer 1"), \
        "green: offer 1"


def test_a_view_never_states_what_follows_from_a_secret_it_cannot_see() -> None:
    # Blue's offer reads as its default (0) in red's view: the table's ruling says red
    # receives Green's point and nothing from Blue, but red cannot know Blue gave nothing.
    pos, move = _tribute_answered()
    full, seen = pos.adjudicate(move), pos.view("red").adjudicate(move)
    assert seen.verdict == full.verdict == "LEGAL"
    said = [c.text for c in seen.moves[0].consequences]
    assert said == ["Green offers 1 point",
                    "now shown: Blue shows their offer, unknown in Red's view",
                    "now shown: Green offers 1 point",
                    "what follows turns on Blue’s offer, which Red cannot see: it is not "
                    "stated here"]
    assert seen.moves[0].depends_on_unseen == ["blue.offer"]
    assert seen.after is None  # the scores after it are not known to red
    assert "then: unknown in Red’s view" in seen.render()
    assert "Red receives 1 point from Green" in [c.text for c in full.moves[0].consequences]
    assert full.after is not None and not full.moves[0].depends_on_unseen
    # Blue knows its own offer: its view's ruling is the table's.
    own = pos.view("blue").adjudicate(move)
    assert [c.text for c in own.moves[0].consequences] == \
        [c.text for c in full.moves[0].consequences]
    assert own.after == full.after


def test_a_move_after_a_guess_is_a_guess_too() -> None:
    pos, move = _tribute_answered()
    view = pos.view("red")
    nxt = view.apply(move)  # the next turn, as red's view carried it out
    follow = next(iter(nxt.legal_moves()))
    ruled = nxt.adjudicate(follow)
    assert ruled.verdict == "LEGAL" and ruled.after is None
    assert [c.kind for c in ruled.moves[0].consequences] == ["unknown"]


def test_bids_the_view_was_given_score_and_only_the_unseen_one_is_not_stated() -> None:
    # Green bid before red's view began; blue bids within it: when red, the last, picks,
    # the view knows red's and blue's bids and what they score, not green's.
    picks = Rules(load_ruleset(PICKS))
    model = PositionModel.model_validate({
        "ruleset": "sealed_picks",
        "players": [{"seat": "red"}, {"seat": "blue"}, {"seat": "green", "attributes": {"bid": 1},
                                                        "hidden": ["bid"]}],
        "zones": {"hand": {"red": ["c1", "c2"], "blue": ["c3", "c4"], "green": ["c6"]},
                  "chosen": {"green": ["c5"]}},
        "turn": {"number": 1, "player": "red", "step": "pick", "waiting": ["red", "blue"]}})
    pos = Position(picks, to_state(picks, model))
    ruled = pos.view("red").adjudicate("blue: pick c3 bid 2; red: pick c1 bid 0")
    first, last = ruled.moves
    assert not first.depends_on_unseen  # blue's own pick turned on nothing hidden
    assert last.depends_on_unseen == ["green.bid"]
    said = [c.text for c in last.consequences]
    assert said[-3:] == ["every picked card is turned face up", "Blue receives 2 points",
                         "what follows turns on Green’s bid, which Red cannot see: it is not "
                         "stated here"]
    assert "now shown: Green shows their bid, unknown in Red's view" in said
    table = [c.text for c in pos.adjudicate("blue: pick c3 bid 2; red: pick c1 bid 0")
             .moves[-1].consequences]
    assert "Green receives 1 point" in table  # what red's view leaves unsaid


PEEK = '''ruleset peek {
    title "Peek"
    players 2 to 2
    seats north "North", east "East"
    chapters play
}

chapter play "Play" {
    rule play.parts "The parts" {
        text "The coins lie face down in a deck; each player's purse is their own."
        lattice square
        resource points "point" plural "points" unlimited
        score is points
        zone deck "draw deck" shared ordered hidden
        zone purse "purse" each private
        cards start in deck
        card kind coin "coin" plural "coins" {
            property worth: int "is worth {value} points"
        }
        step act "Act": must one of flip
        game ends after turn when count(cards in deck) == 0
    }

    rule play.flip "Flipping" {
        text "Take the top coin of the deck into your purse and score its worth."
        action flip "flip" {
            notation "flip"
            let top = first(cards in deck)
            move top to purse of me
            give top.worth points to me
        }
    }
}

cards coins "Coins" of coin {
    card gold "Gold" { worth 3 }
    card tin "Tin" { worth 1 }
}
'''


def test_what_a_hidden_card_brings_is_not_stated_in_a_view(tmp_path: Path) -> None:
    # A coin taken unseen scores its worth: the table says how much, north's view cannot
    # (the unknown card's worth would read as the default, 0).
    (tmp_path / "peek.rules").write_text(PEEK, encoding="utf-8")
    peek = Rules(load_ruleset(tmp_path))
    model = PositionModel.model_validate({
        "ruleset": "peek", "players": [{"seat": "north"}, {"seat": "east"}],
        "zones": {"deck": [["gold", "tin"]]}, "turn": {"number": 1, "player": "north",
                                                       "step": "act"}})
    pos = Position(peek, to_state(peek, model))
    full, seen = pos.adjudicate("flip"), pos.view("north").adjudicate("flip")
    assert [c.text for c in full.moves[0].consequences] == [
        "the Gold goes from the draw deck to North's purse",
        "North receives 3 points: the Gold is worth 3 points"]
    assert [c.text for c in seen.moves[0].consequences] == [
        "a hidden card goes from the draw deck to North's purse",
        "what follows turns on a hidden card’s worth, which North cannot see: it is not "
        "stated here"]
    assert seen.moves[0].depends_on_unseen == ["?.worth"] and seen.after is None
