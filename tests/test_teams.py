"""The team variants: who sits where, which tiles are dealt, what a team holds.

What a worked example cannot say is pinned here: the seats a team game gives
by default, the tables it refuses, the tiles of one copy or two, and random
2 v 2 v 2 games in which the teams share out what comes back without a piece
being created or lost.
"""

from __future__ import annotations

import pytest

from compiler.engine.formats import PositionError, PositionModel, from_state, position_from_model
from compiler.engine.position import Rules
from compiler.engine.random_play import random_game
from compiler.engine.records import parse_record, replay, write_record
from tests import compiled


@pytest.fixture(scope="module")
def teams() -> Rules:
    return compiled.rules("trian_teams")


@pytest.fixture(scope="module")
def three() -> Rules:
    return compiled.rules("trian_teams_3v3")


def seats(pos) -> list[str]:
    return [pos.game.seat_id(i) for i in range(pos.state.players)]


def position(rules: Rules, players: list[str]) -> PositionModel:
    return PositionModel.model_validate({
        "ruleset": rules.ruleset.id, "players": [{"seat": s} for s in players],
        "turn": {"number": 1, "player": players[0], "step": "tile"},
        "stacks": [["t01"], ["t02"]]})


def test_two_against_two_seats_the_teams_in_turn(teams: Rules) -> None:
    pos = teams.start(4, seed=1)
    assert seats(pos) == ["quuylto", "xemh", "khaarquar", "borfnaree"]
    assert pos.game.team_of(4, 0) == (0, 2)


def test_two_against_two_against_two_seats_one_colour_per_team_in_turn(teams: Rules) -> None:
    pos = teams.start(6, seed=1)
    assert seats(pos) == ["quuylto", "xemh", "khaarquar", "quuylto_2", "xemh_2", "khaarquar_2"]
    assert [pos.game.team_of(6, p) for p in range(3)] == [(0, 3), (1, 4), (2, 5)]


def test_three_against_three_seats_the_teams_in_turn(three: Rules) -> None:
    pos = three.start(6, seed=1)
    assert seats(pos) == ["quuylto", "xemh", "khaarquar", "borfnaree", "quuylto_2", "xemh_2"]
    assert pos.game.team_of(6, 0) == (0, 2, 4)


def test_two_against_two_deals_the_84_tiles_of_one_copy(teams: Rules) -> None:
    pos = teams.start(4, seed=5)
    dealt = [c for s in pos.state.stacks for c in s] + [c for c, _, _ in pos.state.board.values()]
    assert len(dealt) == len(set(dealt)) == 84
    assert not [c for c in dealt if c.endswith("_2")]


def test_two_against_two_against_two_deals_126_of_both_copies(teams: Rules) -> None:
    pos = teams.start(6, seed=5)
    dealt = [c for s in pos.state.stacks for c in s] + [c for c, _, _ in pos.state.board.values()]
    assert len(dealt) == 126 and any(c.endswith("_2") for c in dealt)


def test_a_table_where_partners_sit_side_by_side_is_refused(teams: Rules) -> None:
    with pytest.raises(PositionError) as info:
        position_from_model(teams, position(teams, ["quuylto", "khaarquar", "xemh", "borfnaree"]))
    assert "seats 1 and 2 (quuylto, khaarquar) are partners, but the teams take turns" in \
        str(info.value)


def test_a_seat_with_no_team_is_refused(teams: Rules) -> None:
    players = ["quuylto", "xemh", "khaarquar", "borfnaree", "quuylto_2", "xemh_2"]
    with pytest.raises(PositionError) as info:
        position_from_model(teams, position(teams, players))
    assert "borfnaree has no team in a game of 6" in str(info.value)
    assert "quuylto, xemh, khaarquar, quuylto_2, xemh_2, khaarquar_2" in str(info.value)


def test_a_game_started_with_a_seating_that_breaks_the_teams_is_refused(teams: Rules) -> None:
    with pytest.raises(ValueError, match="must be partners"):
        teams.start(6, seats=["quuylto", "xemh", "khaarquar", "quuylto_2", "khaarquar_2",
                              "xemh_2"])


def test_a_team_that_hands_out_more_emissaries_than_it_has_is_refused(teams: Rules) -> None:
    model = position(teams, ["quuylto", "xemh", "khaarquar", "quuylto_2", "xemh_2",
                             "khaarquar_2"])
    model.players[1].supply = {"emissary": 9, "station": 7, "base": 2}
    model.players[4].supply = {"emissary": 6, "station": 7, "base": 2}
    with pytest.raises(PositionError) as info:
        position_from_model(teams, model)
    assert "xemh and xemh_2 have 15 emissaries in supply and on the board; the game gives 14" \
        in str(info.value)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_two_against_two_against_two_games_keep_every_team_piece(
        teams: Rules, seed: int) -> None:
    final, history = random_game(teams, 6, seed)
    st = final.state
    for team in ((0, 3), (1, 4), (2, 5)):
        for kind, each in (("emissary", 7), ("station", 7), ("base", 2)):
            on_board = sum(1 for q in st.pieces.values() if q.owner in team and q.kind == kind)
            assert sum(st.supply[p][kind] for p in team) + on_board == 2 * each
            assert all(st.supply[p][kind] <= 9 for p in team)
    again = replay(teams, parse_record(write_record(history, final)))
    assert again.scores() == final.scores() and again.winners() == final.winners()
    for _, pos, _ in history.moves[::15]:  # every position reads back from its JSON
        model = from_state(pos.rules, pos.state)
        back = position_from_model(teams, PositionModel.model_validate_json(model.model_dump_json()))
        assert from_state(back.rules, back.state) == model
    assert len(set(final.winners())) in (2, 4, 6)  # whole teams win


def test_an_emissary_teleported_away_is_not_returned_so_nothing_is_handed_over(
        teams: Rules) -> None:
    model = PositionModel.model_validate({
        "ruleset": "trian_teams",
        "players": [{"seat": s} for s in ("quuylto", "xemh", "khaarquar", "quuylto_2", "xemh_2",
                                          "khaarquar_2")],
        "turn": {"number": 20, "player": "xemh", "step": "tile"},
        "tiles": [{"at": "0,0", "tile": "t01", "face": "b"},
                  {"at": "1,0", "tile": "t05", "face": "b", "rotation": 1},
                  {"at": "2,0", "tile": "t11", "face": "b", "rotation": 2},
                  {"at": "-1,0", "tile": "t30", "face": "a"}],
        "pieces": [{"kind": "emissary", "owner": "xemh", "at": "-1,0:planet"}],
        "stacks": [["t17"], ["t03"]]})
    pos = position_from_model(teams, model)
    after = pos.apply("t17 b at -2,0 r0; teleport emissary@-1,0:planet to 1,0:nebula")
    assert after.state.turn.grants == ()
    assert after.game.seat_id(after.state.turn.active) == "khaarquar"


def test_dealing_from_a_tile_set_the_game_does_not_use_is_an_error(tmp_path) -> None:
    from tests.test_variants import HEADER, errors
    [msg] = errors(tmp_path, HEADER + '''
        replace rule setup.stacks "The two stacks" {
            stacks 2 hiding teleport dealing by players { 2: 20 from bsae  3: 60 from base }
        }
    ''')
    assert "tiles dealt for 2 players from `bsae`, which is not a tile set this game uses" in msg
    assert "base" in msg.split("|")[1]
    [msg] = errors(tmp_path, HEADER + '''
        replace rule setup.stacks "The two stacks" {
            stacks 2 dealing by players { 2: 80 from base }
        }
    ''')
    assert "80 tiles dealt for 2 players, but base holds only 72" in msg


def test_handing_pieces_needs_a_giver(tmp_path) -> None:
    from tests.test_variants import HEADER, errors
    [msg] = errors(tmp_path, HEADER + '''
        add to rule actions.research {
            when emissary e returns {
                give 1 emissary to e.owner
            }
        }
    ''')
    assert "pieces come out of a player's supply: say whose" in msg


def test_a_space_station_on_a_partners_research_station_reads_back(teams: Rules) -> None:
    model = PositionModel.model_validate({
        "ruleset": "trian_teams",
        "players": [{"seat": s} for s in ("quuylto", "xemh", "khaarquar", "borfnaree")],
        "turn": {"number": 23, "player": "khaarquar", "step": "action", "placed": "3,0"},
        "tiles": [{"at": "0,0", "tile": "t01", "face": "b"},
                  {"at": "1,0", "tile": "t05", "face": "b", "rotation": 1},
                  {"at": "2,0", "tile": "t10", "face": "a", "rotation": 2},
                  {"at": "3,0", "tile": "t68", "face": "a", "rotation": 2}],
        "pieces": [{"kind": "emissary", "owner": "quuylto", "at": "1,0:nebula"},
                   {"kind": "station", "owner": "quuylto", "at": "1,0:nebula"}],
        "areas": [{"at": "0,0:nebula", "attributes": {"controller": "khaarquar",
                                                      "settled": True}}]})
    after = position_from_model(teams, model).apply("upgrade station@1,0:nebula")
    saved = from_state(after.rules, after.state)
    back = position_from_model(teams, PositionModel.model_validate_json(saved.model_dump_json()))
    assert from_state(back.rules, back.state) == saved
    assert [(p.kind, back.game.seat_id(p.owner)) for p in back.state.pieces.values()] == [
        ("emissary", "quuylto"), ("station", "quuylto"), ("base", "khaarquar")]

