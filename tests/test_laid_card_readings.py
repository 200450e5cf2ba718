"""How a judge reads out a card game: laid cards by their names, stations by their name.

Among the Stars lays printed cards (no faces, no rotations) on a board per player,
its "station". Each test builds a table from the source's situations, makes a move,
and reads what a judge would say: "Red lays the Turret at 2,0", not "Red lays turret
(face front) at 2,0, rotation 0"; "not next to your station", not "next to the board".
Galaxy of Trian's tiles keep their own wording (tests/snapshots, tests/golden).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.engine.formats import PositionModel, position_from_model
from compiler.engine.position import Position, Rules
from tests import compiled

RULES = Path(__file__).parent.parent / "rules" / "among_the_stars"
SEATS = ("red", "blue", "green")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return compiled.rules(RULES.name)


def table_json(cards: list[tuple[Any, ...]], *, credits: dict[str, int] | None = None,
               points: dict[str, int] | None = None, chosen: dict[str, list[str]] | None = None,
               hands: dict[str, list[str]] | None = None, step: str = "act",
               waiting: tuple[str, ...] = ("red",), turn: int = 3, year: int = 1
               ) -> dict[str, Any]:
    """Year `year`, turn `turn`: every player's main reactor at 0,0 (red's with 2 crystals),
    then `cards` as (seat, x,y, card, crystals, attributes). A partial table: the cards it
    leaves unsaid are in the box."""
    laid = [(s, "0,0", "main_reactor", 2 if s == "red" else 0, {}) for s in SEATS] + cards
    tiles = [{"board": s, "at": at, "tile": c, "face": "front", "rotation": 0,
              "holds": {"energy": e} if e else {}, "attributes": a} for s, at, c, e, a in laid]
    on = sum(e for _, _, _, e, _ in laid)
    return {
        "format": "rulebook-position", "ruleset": "among_the_stars",
        "players": [{"seat": s, "supply": {}, "attributes": {},
                     "resources": {"credits": (credits or {}).get(s, 9),
                                   "points": (points or {}).get(s, 0)}} for s in SEATS],
        "tiles": tiles, "pieces": [], "areas": [], "pool": {"energy": 20 - on},
        "stacks": [[]], "discarded": [],
        "zones": {"hand": {s: (hands or {}).get(s, []) for s in SEATS},
                  "chosen": {s: (chosen or {}).get(s, []) for s in SEATS},
                  "reactors": [["reactor_card"] * 9], "discards": [[]],
                  "race_token": {s: [] for s in SEATS}, "objectives": [[]],
                  "secret_objective": {s: [] for s in SEATS}},
        "turn": {"number": (year - 1) * 6 + turn, "player": "red", "step": step, "taken": 0, "arrived": [],
                 "grants": [], "pending": [], "waiting": list(waiting)},
        "game": {"round": year, "turn": turn, "turns": 6,
                 "attributes": {"clockwise": year in (1, 3)}},
        "finished": False, "partial": True}


def table(rules: Rules, cards: list[tuple[Any, ...]], **kw: Any) -> Position:
    return position_from_model(rules, PositionModel.model_validate(table_json(cards, **kw)))


def said(pos: Position, move: str) -> list[str]:
    ruling = pos.adjudicate(move)
    assert ruling.verdict == "LEGAL", ruling
    return [c.text for m in ruling.moves for c in m.consequences]


def refused(pos: Position, move: str) -> list[str]:
    ruling = pos.adjudicate(move)
    assert ruling.verdict == "ILLEGAL", ruling
    return [f"{b.rule.number if b.rule else ''} {b.message}".strip()
            for m in ruling.moves for b in m.breaches]


def test_a_turret_built_is_named_and_its_crystal_comes_from_the_main_reactor(rules: Rules) -> None:
    # Source: "budowa … Wieżyczki – 1 Kredyt i 1 Kryształ Energii"; one card between
    # the Turret's position and the main reactor puts the reactor at range 2.
    pos = table(rules, [("red", "1,0", "admin_block", 0, {})], chosen={"red": ["turret"]},
                hands={s: [] for s in SEATS})
    text = said(pos, "red: build turret at 2,0 paying 0,0")
    # the amount with the number printed on the card it comes from
    assert "Red pays 1 credit to the bank: the Turret costs 1 credit" in text
    assert "1 energy crystal goes from the Main Reactor at 0,0 to the bank" in text
    assert "Red lays the Turret at 2,0" in text
    assert "the Turret at 2,0 has brought 2 points" in text
    assert not any("face front" in t or "rotation" in t for t in text)


def test_a_card_laid_away_from_the_station_is_not_next_to_your_station(rules: Rules) -> None:
    # Source: locations are next to each other only side by side, never corner to corner.
    pos = table(rules, [], chosen={"red": ["consulate"]})
    assert refused(pos, "red: build consulate at 1,1") == [
        "6.1.2 position 1,1 is not among the empty positions next to your station"]


def test_a_third_turret_names_the_two_already_built(rules: Rules) -> None:
    pos = table(rules, [("red", "1,0", "turret", 0, {}), ("red", "-1,0", "turret", 0, {})],
                chosen={"red": ["turret"]})
    [reason] = refused(pos, "red: build turret at 0,1 paying 0,0")
    assert reason.startswith("6.1.3 the Turret at -1,0 and the Turret at 1,0 are among")
    assert "the name of the Turret (2 in all, against 2)" in reason


def test_the_station_check_names_the_faulty_card_and_whose_station_it_is(rules: Rules) -> None:
    # Source (KONTROLA STACJI): two identical locations marked max 1 are a mistake.
    pos = table(rules, [("red", "1,0", "control_room", 0, {"scored": 5}),
                        ("red", "0,1", "control_room", 0, {"scored": 4}),
                        ("red", "2,0", "spa", 0, {"scored": 3})], chosen={"red": ["turret"]},
                points={"red": 20}, turn=6)
    assert [f.message for f in pos.audit()] == [
        "Red’s Control Room at 1,0: more copies of a location than its limit allows",
        "Red’s Control Room at 0,1: more copies of a location than its limit allows"]
    # Taking out the one between the main reactor and the Spa would split the station.
    text = said(pos, "red: sell turret; red: take out 1,0")
    assert "the Turret goes from Red's chosen card to the discard pile" in text
    assert "the Control Room at 1,0 is turned face down where it lies" in text
    text = said(pos, "red: sell turret; red: take out 0,1")
    assert "the Control Room at 0,1 is taken off the board and put on the discard pile" in text


def test_acting_before_your_place_in_the_order_cites_the_order_of_play(rules: Rules) -> None:
    # Source: the most points act first; a tie goes to the most credits.
    pos = table(rules, [], points={"red": 3, "blue": 3, "green": 1},
                credits={"red": 5, "blue": 7, "green": 5}, step="choose",
                waiting=SEATS, turn=5,
                hands={"red": ["bar", "spa"], "blue": ["lab", "turret"],
                       "green": ["market", "exchange"]})
    assert refused(pos, "green: pick market; red: pick bar; blue: pick lab; red: sell bar") == [
        "5.3 Red takes step “Act” after Blue, who decides now (still to take it, in order: "
        "Blue, Red, Green)"]


def test_the_trade_center_cannot_take_from_its_builder(rules: Rules) -> None:
    pos = table(rules, [], chosen={"red": ["trade_center"]}, credits={"red": 5})
    assert refused(pos, "red: build trade_center at 1,0; red: take from red") == [
        "8.1 Red is you"]


def test_replay_counts_the_cards_of_each_station(rules: Rules, tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table_json([("red", "1,0", "admin_block", 0, {})], step="choose",
                                          waiting=SEATS,
                                          hands={"red": ["bar"], "blue": ["lab"],
                                                 "green": ["spa"]})), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", "among_the_stars", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "Red’s station 2 cards, Blue’s station 1 card, Green’s station 1 card; "
        "turn 3, step “Choose a card”: every player chooses at once "
        "(still to choose: Red, Blue, Green)")


def test_an_unreadable_move_shows_cards_as_card(rules: Rules) -> None:
    pos = table(rules, [], chosen={"red": ["turret"]})
    ruling = pos.adjudicate("red: biuld turret")
    assert ruling.verdict == "UNREADABLE"
    detail = ruling.moves[0].breaches[0].detail or ""
    assert "build CARD at x,y[ paying x,y x,y ...]  (build a location)" in detail
    assert "TILE" not in detail


def test_a_tie_on_points_is_broken_by_the_locations_in_each_station(rules: Rules) -> None:
    # Source: between tied players, more locations in the station (reactors not counted) wins.
    pos = table(rules, [("red", "1,0", "admin_block", 0, {}), ("red", "2,0", "spa", 0, {}),
                        ("blue", "1,0", "admin_block", 0, {}),
                        ("blue", "0,1", "reactor_card", 1, {})],
                points={"red": 30, "blue": 29, "green": 10}, credits={"red": 2, "blue": 2},
                chosen={"green": ["lab"]}, waiting=("green",), turn=6, year=4)
    # Blue's main reactor is empty: 1 point more at the end, and 30 each.
    assert said(pos, "green: sell lab")[-1] == (
        "Red tied with Blue on 30 victory points; Red wins on most locations in each station, "
        "reactors not counted (2 against 1)")


def test_a_card_turned_face_down_keeps_its_place(rules: Rules) -> None:
    # Source: a wrongly built location turned face down "takes up its place and cannot
    # be replaced by any other".
    model = table_json([("red", "2,0", "spa", 0, {})], chosen={"red": ["bar"]})
    model["tiles"].append({"board": "red", "at": "1,0", "tile": "control_room", "face": "down",
                           "rotation": 0, "holds": {}, "attributes": {}})
    pos = position_from_model(rules, PositionModel.model_validate(model))
    assert refused(pos, "red: build bar at 1,0") == [
        "6.1.2 position 1,0 is taken: the Control Room lies there face down"]


def test_a_player_without_credits_cannot_hold_one_out_for_the_college(rules: Rules) -> None:
    # The College asks each other player for 1 credit or none; blue has none.
    model = table_json([], chosen={"red": ["college"]}, credits={"red": 5, "blue": 0},
                       hands={"red": ["bar"], "blue": ["lab"], "green": ["market"]})
    pos = position_from_model(rules, PositionModel.model_validate(model))
    assert refused(pos, "red: build college at 1,0 paying 0,0; blue: college 1") == [
        "8.3 1 is more than the smallest of 1 and your credits (0)"]
