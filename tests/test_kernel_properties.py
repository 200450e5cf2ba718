"""Properties of the kernel that must hold for any board.

- Lattices: the neighbour across a slot looks back by the matching slot.
- Rotations: `slot_of` and `edge_at` are inverse.
- Edge matching is symmetric: A may lie next to B exactly when B may lie next to A.
- Areas: the incremental union-find (open-edge counts) agrees with a flood fill
  from scratch, after every tile of random legal boards.
- Movement: passing a barrier never reaches less than stopping at it; flying
  over the board (`hop`) reaches at least what any walk reaches in as many
  steps; table distance is symmetric; one step through an area is symmetric
  part by part (two ships see each other or neither does), and a walk told
  by tile is the walk told by segment, tile by tile.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.engine.position import Rules
from compiler.kernel.areas import AreaMap, recompute
from compiler.kernel.lattice import LATTICES, SquareLattice, TriangleLattice
from compiler.kernel.tiles import Frontier, fits_labels, hop, placements, walk, walk_segments
from tests import compiled

cells = st.tuples(st.integers(-50, 50), st.integers(-50, 50))


def _deluxe() -> Rules:
    """The Deluxe tiles, compiled once for every example of every property (shared)."""
    return compiled.rules("trian_deluxe")


@given(cells, st.integers(0, 2))
def test_triangle_neighbours_look_back(cell: tuple[int, int], slot: int) -> None:
    lat = TriangleLattice()
    other, back = lat.neighbour(cell, slot)
    assert lat.neighbour(other, back) == (cell, slot)
    assert lat.points_up(other) != lat.points_up(cell)


@given(cells, st.integers(0, 3))
def test_square_neighbours_look_back(cell: tuple[int, int], slot: int) -> None:
    lat = SquareLattice()
    other, back = lat.neighbour(cell, slot)
    assert lat.neighbour(other, back) == (cell, slot)


@given(st.sampled_from(sorted(LATTICES)), st.integers(0, 3), st.integers(0, 3))
def test_rotation_maps_edges_to_slots_and_back(name: str, edge: int, rotation: int) -> None:
    lat = LATTICES[name]
    edge, rotation = edge % lat.sides, rotation % lat.rotations
    assert lat.edge_at(lat.slot_of(edge, rotation), rotation) == edge


@given(cells, st.integers(0, 2))
def test_shared_edges_have_the_same_endpoints(cell: tuple[int, int], slot: int) -> None:
    """Slot i runs from corner i to corner i+1; the neighbour's slot runs the other way."""
    lat = TriangleLattice()
    other, back = lat.neighbour(cell, slot)
    mine = lat.polygon(cell, 6.0)
    theirs = lat.polygon(other, 6.0)
    a = {(round(x, 6), round(y, 6)) for x, y in (mine[slot], mine[(slot + 1) % 3])}
    b = {(round(x, 6), round(y, 6)) for x, y in (theirs[back], theirs[(back + 1) % 3])}
    assert a == b


def test_edge_matching_is_symmetric(rules: Rules) -> None:
    """For every pair of faces and rotations: A fits beside B iff B fits beside A."""
    game = rules.game
    lat = game.lattice
    faces = list(game.catalogue.faces.items())
    rng = random.Random(7)
    for _ in range(3000):
        (ka, fa), (kb, fb) = rng.choice(faces), rng.choice(faces)
        ra, rb = rng.randrange(3), rng.randrange(3)
        slot = rng.randrange(3)
        a_cell = (0, 0)
        b_cell, back = lat.neighbour(a_cell, slot)
        # B is on the board; does A fit at a_cell?
        need_a = [None, None, None]
        need_a[slot] = fb.rotated[rb][back]
        a_fits = fits_labels(fa.rotated[ra], tuple(need_a), game.match)
        # A is on the board; does B fit at b_cell?
        need_b = [None, None, None]
        need_b[back] = fa.rotated[ra][slot]
        b_fits = fits_labels(fb.rotated[rb], tuple(need_b), game.match)
        assert a_fits == b_fits, (ka, kb, ra, rb, slot)


def _random_board(rules: Rules, seed: int, tiles: int) -> list[tuple]:
    """A legal sequence of placements, chosen at random from the catalogue."""
    game = rules.game
    rng = random.Random(seed)
    cards = sorted(game.catalogue.card_faces)
    rng.shuffle(cards)
    board: dict = {}
    frontier = Frontier()
    seq = []
    for card in cards:
        if len(seq) >= tiles:
            break
        if not board:
            face = rng.choice(game.catalogue.card_faces[card])
            choice = (card, face, game.first_cell, rng.randrange(3))
        else:
            options = list(placements(game.catalogue, frontier, [card], game.match))
            if not options:
                continue
            choice = rng.choice(options)
        card, face, cell, rot = choice
        board[cell] = (card, face, rot)
        frontier.lay(game.lattice, board, game.catalogue, cell)
        seq.append(choice)
    return seq


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_incremental_closure_equals_recomputation(seed: int, tiles: int) -> None:
    rules = _deluxe()
    game = rules.game
    areas = AreaMap()
    board: dict = {}
    for card, face, cell, rot in _random_board(rules, seed, tiles):
        board[cell] = (card, face, rot)
        closed, _ = areas.lay(game.lattice, board, game.catalogue, cell)
        truth = recompute(game.lattice, board, game.catalogue)
        for (c, seg), (members, open_edges) in truth.items():
            root = areas.area_of(c, seg)
            mine = {(areas.nodes[n].cell, areas.nodes[n].segment) for n in areas.members[root]}
            assert mine == set(members)
            assert areas.open[root] == open_edges
            assert areas.cells[root] == {m[0] for m in members}
        newly = {areas.find(r) for r in closed}
        for root in newly:
            assert areas.open[root] == 0
            assert any(n.cell == cell for n in (areas.nodes[m] for m in areas.members[root]))



@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_frontier_agrees_with_the_board(seed: int) -> None:
    """Kept incrementally, the frontier equals one rebuilt from the board."""
    rules = _deluxe()
    game = rules.game
    board: dict = {}
    frontier = Frontier()
    for card, face, cell, rot in _random_board(rules, seed, 40):
        board[cell] = (card, face, rot)
        frontier = frontier.copy()  # as play does: the copy shares the cells kept in order
        frontier.lay(game.lattice, board, game.catalogue, cell)
        frontier.groups()  # asked for, as a listing does: the next tile moves its cells
    rebuilt = Frontier.rebuild(game.lattice, board, game.catalogue)
    assert frontier.need == rebuilt.need
    assert list(frontier.groups().items()) == list(rebuilt.groups().items())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4))
def test_walks_nest_inside_each_other(seed: int, steps: int) -> None:
    """reach ⊆ reach passing clouds ⊆ hops, from every space segment of a random board."""
    rules = _deluxe()
    game = rules.game
    board = {cell: (card, face, rot) for card, face, cell, rot in _random_board(rules, seed, 30)}
    everywhere = frozenset(board)
    for cell, (card, face, _) in board.items():
        for seg in game.catalogue.faces[(card, face)].segments:
            if seg.kind != "space":
                continue
            plain = walk(game.lattice, board, game.catalogue, cell, [seg.index], "space", steps,
                         everywhere)
            across = walk(game.lattice, board, game.catalogue, cell, [seg.index], "space", steps,
                          everywhere, across=frozenset({"cloud"}))
            flown = hop(game.lattice, board, cell, steps)
            assert set(plain) <= set(across) <= set(flown)
            assert all(across[c] <= plain[c] for c in plain)
            assert all(flown[c] <= across[c] for c in across)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_table_distance_is_symmetric(seed: int) -> None:
    rules = _deluxe()
    game = rules.game
    board = {cell: (card, face, rot) for card, face, cell, rot in _random_board(rules, seed, 25)}
    far = {cell: hop(game.lattice, board, cell, None) for cell in board}
    for a in board:
        for b, d in far[a].items():
            assert far[b][a] == d


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_one_step_through_outer_space_is_seen_from_both_sides(seed: int) -> None:
    """Part B is one step from part A exactly when A is one step from B: sight is mutual."""
    rules = _deluxe()
    game = rules.game
    board = {cell: (card, face, rot) for card, face, cell, rot in _random_board(rules, seed, 30)}
    everywhere = frozenset(board)
    near = {}
    for cell, (card, face, _) in board.items():
        for seg in game.catalogue.faces[(card, face)].segments:
            if seg.kind == "space":
                near[(cell, seg.index)] = walk_segments(
                    game.lattice, board, game.catalogue, cell, [seg.index], "space", 1, everywhere)
    for a, seen in near.items():
        for b in seen:
            assert a in near[b]
        told_by_tile = walk(game.lattice, board, game.catalogue, a[0], [a[1]], "space", 1,
                            everywhere)
        assert set(told_by_tile) == {cell for cell, _ in seen}
