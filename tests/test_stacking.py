"""Pieces that always stand above others on a shared site (`piece … above …`).

In the expansion a Corvette sits on top of an emissary whichever of the two
came first; the order of a stack decides whether the emissary is covered.
These tests pin the declaration's checks and the order the engine keeps,
whether pieces arrive in play or are listed in a position file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.engine.formats import PositionModel, from_state, position_from_model
from compiler.engine.position import Position, Rules
from tests import compiled
from tests.conftest import compile_errors

HEADER = """
ruleset demo {
    title "Demo"
    players 2 to 3
    chapters main
}
"""

GAME = """
chapter main "Main" {
    rule main.board "Board" {
        lattice triangle
        edge space "space"
        match same
        area space "space" crosses space
        piece pawn "pawn"
        PIECES
        resource points "point" unlimited
        score is points
        supply by players { 2: pawn 3 3: pawn 2 }
        use tiles base
        step act "Act": must one of research
        action research "research" { give 1 points to me }
    }
}
tiles base "Base" { tile t1 { face a [space, space, space] { space 0, 1, 2 } } }
"""


def errors(tmp_path: Path, pieces: str) -> list[str]:
    return [d.message for d in compile_errors(tmp_path, header=HEADER,
                                              main=GAME.replace("PIECES", pieces))]


def test_a_guard_above_a_pawn_is_accepted(tmp_path: Path) -> None:
    assert errors(tmp_path, 'piece guard "guard" above pawn') == []


def test_standing_above_an_unknown_kind_is_an_error(tmp_path: Path) -> None:
    assert errors(tmp_path, 'piece guard "guard" above pwn') == [
        "`guard` stands above unknown piece `pwn`"]


def test_kinds_standing_above_each_other_in_a_circle_are_an_error(tmp_path: Path) -> None:
    found = errors(tmp_path, 'piece guard "guard" above scout\n'
                             '        piece scout "scout" above guard')
    assert found and all("no stack could be in order" in m for m in found)


@pytest.fixture(scope="module")
def conquest() -> Rules:
    return compiled.rules("trian_conquest")


def position(rules: Rules, pieces: list[dict[str, str]]) -> Position:
    return position_from_model(rules, PositionModel.model_validate({
        "ruleset": "trian_conquest",
        "players": [{"seat": "quuylto"}, {"seat": "xemh"}, {"seat": "khaarquar"}],
        "tiles": [{"at": "0,0", "tile": "t01", "face": "a", "rotation": 0},
                  {"at": "1,0", "tile": "t17", "face": "a", "rotation": 2},
                  {"at": "2,0", "tile": "t11", "face": "b", "rotation": 0}],
        "pieces": pieces,
        "stacks": [["t03"], ["t30"]],
        "turn": {"number": 50, "player": "quuylto", "step": "tile"}}))


def stack(rules: Rules, pos: Position, site: str) -> list[str]:
    return [f"{p.kind} {p.owner}" for p in from_state(rules, pos.state).pieces if p.at == site]


def test_a_position_listing_the_emissary_last_still_has_the_corvette_on_top(
        conquest: Rules) -> None:
    pos = position(conquest, [{"kind": "corvette", "owner": "xemh", "at": "1,0:planet"},
                              {"kind": "emissary", "owner": "quuylto", "at": "1,0:planet"}])
    assert stack(conquest, pos, "1,0:planet") == ["emissary quuylto", "corvette xemh"]


def test_an_emissary_teleported_under_a_corvette_is_covered(conquest: Rules) -> None:
    pos = position(conquest, [{"kind": "corvette", "owner": "xemh", "at": "1,0:planet"},
                              {"kind": "emissary", "owner": "quuylto", "at": "2,0:nebula"}])
    after = pos.apply("t03 b at 2,1 r0; teleport emissary@2,0:nebula to 1,0:planet")
    assert stack(conquest, after, "1,0:planet") == ["emissary quuylto", "corvette xemh"]


def test_a_rogue_is_not_put_above_an_emissary_that_joins_it(conquest: Rules) -> None:
    """Only Corvettes are declared above emissaries; the emissary lands on top."""
    pos = position(conquest, [{"kind": "rogue", "owner": "xemh", "at": "1,0:planet"},
                              {"kind": "emissary", "owner": "quuylto", "at": "2,0:nebula"}])
    after = pos.apply("t03 b at 2,1 r0; teleport emissary@2,0:nebula to 1,0:planet")
    assert stack(conquest, after, "1,0:planet") == ["rogue xemh", "emissary quuylto"]
