"""A board per player: every player builds from the origin of their own board.

The fixture `tests/rulesets/outposts` lets each player build a camp of their
own. The boards are embedded side by side in one plane (kernel/boards.py), but
no person ever sees that: moves, positions, examples and messages show the
cell on its own board, with the board's seat when it is not the mover's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compiler.engine.formats import PositionModel, from_state, position_from_model
from compiler.engine.position import Position, Rules
from compiler.engine.random_play import random_game
from compiler.kernel.boards import SPAN, board_of, global_, local
from compiler.load import load_ruleset

OUTPOSTS = Path(__file__).parent / "rulesets" / "outposts"
TILES = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return Rules(load_ruleset(OUTPOSTS))


def position(rules: Rules, tiles: list[tuple[str, str, str]], to_play: str = "red",
             stack: list[str] | None = None) -> Position:
    """Tiles given as (tile, seat, local cell); the rest of the tiles in the stack."""
    laid = {t for t, _, _ in tiles}
    model = {"format": "rulebook-position", "ruleset": "outposts",
             "players": [{"seat": "red"}, {"seat": "blue"}, {"seat": "green"}],
             "tiles": [{"board": b, "at": at, "tile": t, "face": "front"} for t, b, at in tiles],
             "stacks": [stack if stack is not None else [t for t in TILES if t not in laid]],
             "turn": {"number": 4, "player": to_play, "step": "act"}}
    return position_from_model(rules, PositionModel.model_validate(model))


def fronts(pos: Position) -> list[str]:
    """The legal moves that lay a card face up, as written."""
    return [t for t in map(pos.notation, pos.legal_moves()) if " front " in t]


def test_a_cell_is_kept_on_its_own_board() -> None:
    for board in range(4):
        for cell in ((0, 0), (-2000, 7), (2000, -3)):
            assert board_of(global_(board, cell)) == board
            assert local(global_(board, cell)) == cell
    assert SPAN % 2 == 0  # a triangle keeps the way it points


def test_every_player_lays_a_first_tile_at_the_origin_of_their_own_board(
        rules: Rules) -> None:
    start = rules.start(3, stacks=[TILES])
    assert fronts(start) == ["t1 front at 0,0"]
    after = start.apply("t1 front at 0,0")
    # Blue's board is empty though red's is not: blue's first tile goes at blue's origin.
    assert fronts(after) == ["t2 front at 0,0"]


def test_the_frontier_holds_the_origin_of_every_empty_board(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0")])
    frontier = pos.state.frontier.cells()
    assert (SPAN, 0) not in frontier  # the kernel's frontier knows only laid tiles
    assert fronts(pos) == ["t2 front at 0,-1", "t2 front at -1,0", "t2 front at 1,0", "t2 front at 0,1"]
    blue = position(rules, [("t1", "red", "0,0")], to_play="blue")
    assert fronts(blue) == ["t2 front at 0,0"]


def test_a_tile_touches_only_tiles_of_its_own_board(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "blue", "0,0"), ("t3", "blue", "1,0")],
                   stack=["t4", "t5"])
    after = pos.apply("t4 front at 1,0")
    assert after.scores()["red"] == 1  # next to red's 0,0 only, not to blue's tiles


def test_nobody_builds_on_another_players_board(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "blue", "0,0")], stack=["t3"])
    ruling = pos.adjudicate("t3 front at blue/1,0")
    assert ruling.verdict == "ILLEGAL"
    [breach] = ruling.moves[0].breaches
    assert breach.rule is not None and breach.rule.id == "camp.build"
    assert "blue/1,0" in breach.message


def test_a_cell_on_the_movers_board_is_written_without_a_seat(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "blue", "0,0")], stack=["t3"])
    assert pos.parse("t3 front at red/1,0") == pos.parse("t3 front at 1,0")
    assert pos.notation(pos.parse("t3 front at red/1,0")) == "t3 front at 1,0"


def test_a_cell_far_beyond_any_board_is_refused_with_a_reason(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0")], stack=["t2"])
    ruling = pos.adjudicate("t2 front at 2001,0")
    assert ruling.verdict == "UNREADABLE"
    assert "a board this wide is not supported" in ruling.moves[0].breaches[0].message
    assert pos.adjudicate("t2 front at purple/1,0").verdict == "UNREADABLE"


def test_a_position_names_each_tiles_board_and_reads_back(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "blue", "0,0"), ("t3", "blue", "0,1")])
    model = from_state(rules, pos.state)
    assert [(t.board, t.at, t.tile) for t in model.tiles] == [
        ("red", "0,0", "t1"), ("blue", "0,0", "t2"), ("blue", "0,1", "t3")]
    again = position_from_model(rules, PositionModel.model_validate(
        json.loads(model.model_dump_json())))
    assert again.state.board == pos.state.board


def test_a_board_must_grow_from_its_origin(rules: Rules) -> None:
    from compiler.engine.formats import PositionError
    with pytest.raises(PositionError, match="blue's board has tiles but none at its origin"):
        position(rules, [("t1", "red", "0,0"), ("t2", "blue", "1,0")])


def test_no_message_of_a_game_shows_the_plane_the_boards_are_embedded_in(
        rules: Rules) -> None:
    """Every engine message formats cells through Game.format_cell (design §5, risk 5)."""
    far = re.compile(r"-?\d{4,},-?\d+|-?\d+,-?\d{4,}")  # a cell beyond ±999
    for seed in range(3):
        final, history = random_game(rules, 3, seed=seed)
        for _, pos, move in history.moves:
            card = pos.notation(move).split()[0]
            for text in (pos.notation(move), f"{card} front at green/5,5", f"{card} front at blue/0,0"):
                said = json.dumps(pos.adjudicate(text).model_dump(), default=str)
                assert not far.search(said), said
        assert not far.search(from_state(rules, final.state).model_dump_json())


def test_a_tile_three_steps_from_another_of_its_camp_brings_the_next_player_a_point(
        rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "red", "1,0"), ("t3", "red", "2,0"),
                           ("t6", "blue", "0,0")], stack=["t4", "t5"])
    assert pos.apply("t4 front at 3,0").scores() == {"red": 1, "blue": 1, "green": 0}
    assert pos.apply("t4 front at 1,1").scores() == {"red": 1, "blue": 0, "green": 0}


def test_the_last_seat_is_followed_by_the_first(rules: Rules) -> None:
    pos = position(rules, [("t1", "green", "0,0"), ("t2", "green", "1,0"),
                           ("t3", "green", "2,0")], to_play="green", stack=["t4", "t5"])
    assert pos.apply("t4 front at 3,0").scores() == {"red": 1, "blue": 0, "green": 1}


def test_each_bridge_of_a_camp_scores_at_the_end(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "red", "1,0"), ("t3", "red", "2,0"),
                           ("t4", "red", "2,1"), ("t5", "blue", "0,0")], stack=[])
    ended, _ = pos.end_game()
    # 1,0 and 2,0 each hold the camp together; 0,0 and 2,1 are its ends.
    assert ended.scores()["red"] == 2


def test_a_distance_with_no_path_is_refused_not_taken_as_zero(rules: Rules) -> None:
    from compiler.engine.evaluate import Env, RuleError
    from compiler.ir import nodes as n
    pos = position(rules, [("t1", "red", "0,0"), ("t2", "blue", "0,0")])
    cx = pos.game.expr
    call = n.Call(func="distance", args=[n.Name(id="a", type="tile"),
                                         n.Name(id="b", type="tile")], type="int")
    call.args[0].ref = call.args[1].ref = "var"
    env = Env(pos.game, pos.state)
    env.vars.update(a=(0, 0), b=(SPAN, 0))
    with pytest.raises(RuleError, match=r"no path of laid tiles joins .*0,0 and blue/0,0"):
        cx(call)(env)
    env.vars.update(b=(0, 2))  # an empty end: one step past the laid tiles would be needed
    with pytest.raises(RuleError):
        cx(call)(env)
    env.vars.update(b=(0, 1))
    assert cx(call)(env) == 1


def huts(rules: Rules, wood: dict[str, int]) -> Position:
    """Red's camp: a plot at 0,0 and huts at 1,0 and 0,1 holding `wood`; blue's a plot."""
    model = {"format": "rulebook-position", "ruleset": "outposts",
             "players": [{"seat": "red"}, {"seat": "blue"}],
             "tiles": [{"board": "red", "at": "0,0", "tile": "t1", "face": "front"},
                       {"board": "red", "at": "1,0", "tile": "hut1", "face": "front",
                        "holds": {"wood": wood.get("1,0", 0)}},
                       {"board": "red", "at": "0,1", "tile": "hut2", "face": "front",
                        "holds": {"wood": wood.get("0,1", 0)}},
                       {"board": "blue", "at": "0,0", "tile": "t2", "face": "front"}],
             "stacks": [["t3", "t4"]], "turn": {"number": 3, "player": "red", "step": "act"}}
    return position_from_model(rules, PositionModel.model_validate(model))


def test_a_hut_built_is_filled_with_two_wood_from_the_pool(rules: Rules) -> None:
    pos = position(rules, [("t1", "red", "0,0")], stack=["hut1", "t3"])
    after = pos.apply("hut1 front at 1,0")
    cell = global_(0, (1, 0))
    assert after.state.tile_res[cell] == {"wood": 2}
    assert after.state.tile_attrs[cell] == {"filled": 1}
    assert after.state.pool["wood"] == 10
    assert pos.state.tile_res == {}  # the position before the move is unchanged
    [tile] = [t for t in from_state(rules, after.state).tiles if t.tile == "hut1"]
    assert (tile.board, tile.at, tile.holds, tile.attributes) == (
        "red", "1,0", {"wood": 2}, {"filled": 1})


def test_every_way_to_pay_is_one_move_whatever_the_order_it_is_written_in(
        rules: Rules) -> None:
    pos = huts(rules, {"1,0": 2, "0,1": 1})
    burns = sorted(t for t in map(pos.notation, pos.legal_moves()) if t.startswith("burn"))
    assert burns == ["burn 1,0 0,1", "burn 1,0 1,0"]
    assert pos.parse("burn 0,1 1,0") == pos.parse("burn 1,0 0,1")
    after = pos.apply("burn 0,1 1,0")
    assert after.scores()["red"] == 3
    assert after.state.tile_res[global_(0, (0, 1))] == {"wood": 0}


def test_wood_cannot_be_taken_from_a_hut_that_has_none(rules: Rules) -> None:
    pos = huts(rules, {"1,0": 1})
    assert not [m for m in pos.legal_moves() if m.action == "burn"]
    assert pos.adjudicate("burn 1,0 1,0").verdict == "ILLEGAL"


def test_a_plot_holds_nothing_in_a_position(rules: Rules) -> None:
    from compiler.engine.formats import PositionError
    model = {"format": "rulebook-position", "ruleset": "outposts",
             "players": [{"seat": "red"}, {"seat": "blue"}],
             "tiles": [{"board": "red", "at": "0,0", "tile": "t1", "face": "front",
                        "holds": {"stone": 1}}],
             "turn": {"number": 3, "player": "red", "step": "act"}}
    with pytest.raises(PositionError, match="a tile cannot hold 'stone'"):
        position_from_model(rules, PositionModel.model_validate(model))
    model["tiles"][0]["holds"] = {"wood": 1}  # type: ignore[index]
    with pytest.raises(PositionError, match=r"t1 \(front\) cannot hold wood"):
        position_from_model(rules, PositionModel.model_validate(model))


def test_an_empty_hut_at_the_edge_of_a_camp_is_set_aside(rules: Rules) -> None:
    pos = huts(rules, {"0,1": 2})
    after = pos.apply("clear 1,0")
    assert global_(0, (1, 0)) not in after.state.board
    assert after.state.discarded == ["hut1"]
    # Its cell is open again: a card may be laid there.
    assert global_(0, (1, 0)) in after.state.frontier.need
    assert pos.state.board[global_(0, (1, 0))] == ("hut1", "front", 0)  # before: unchanged


def test_a_hut_that_holds_the_camp_together_is_turned_face_down_and_holds_nothing(
        rules: Rules) -> None:
    model = {"format": "rulebook-position", "ruleset": "outposts",
             "players": [{"seat": "red"}, {"seat": "blue"}],
             "tiles": [{"board": "red", "at": "0,0", "tile": "t1", "face": "front"},
                       {"board": "red", "at": "1,0", "tile": "hut1", "face": "front",
                        "attributes": {"filled": 1}},
                       {"board": "red", "at": "2,0", "tile": "t3", "face": "front"}],
             "stacks": [["t4"]], "turn": {"number": 3, "player": "red", "step": "act"}}
    pos = position_from_model(rules, PositionModel.model_validate(model))
    after = pos.apply("clear 1,0")
    cell = global_(0, (1, 0))
    assert after.state.board[cell] == ("hut1", "down", 0)
    assert cell not in after.state.tile_attrs
    assert after.state.discarded == []
    # Face down it is no hut: it cannot be cleared again, but distances still run through it.
    assert not [m for m in after.legal_moves() if m.action == "clear"]
    [tile] = [t for t in from_state(rules, after.state).tiles if t.tile == "hut1"]
    assert (tile.face, tile.holds, tile.attributes) == ("down", {}, {})


def _diagnostics(tmp_path: Path, source: str) -> list[str]:
    from compiler.diagnostics import CompileError
    from compiler.load import load_files
    (tmp_path / "outposts.rules").write_text(source, encoding="utf-8")
    try:
        load_files([tmp_path / "outposts.rules"])
    except CompileError as e:
        return [d.message + (f" (hint: {d.hint})" if d.hint else "") for d in e.diagnostics]
    return []


def test_a_tile_is_not_removed_from_a_game_whose_areas_only_merge(tmp_path: Path) -> None:
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        '        board camp "camp" each player\n',
        '        board camp "camp" each player\n        edge x "x"\n'
        '        area yard "yard" crosses x\n')
    said = _diagnostics(tmp_path, source)
    assert any("not yet: areas are merge-only, so `remove`" in m for m in said), said
    assert any("not yet: areas are merge-only, so `turn … face down`" in m for m in said), said


def test_a_tile_is_removed_only_to_a_zone_the_game_has(tmp_path: Path) -> None:
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        "remove t to set_aside", "remove t to set_asid")
    said = _diagnostics(tmp_path, source)
    assert any("no zone `set_asid`" in m and "set_aside" in m for m in said), said


def test_tiles_belong_to_a_player_only_where_each_builds_a_board(tmp_path: Path) -> None:
    source = (OUTPOSTS / "outposts.rules").read_text(encoding="utf-8").replace(
        '        board camp "camp" each player\n', "")
    said = _diagnostics(tmp_path, source)
    assert any("only pieces have owners, not a collection of cells" in m
               and "each player" in m for m in said), said
