"""The pictures: tile faces and positions, drawn from the ruleset's looks.

A diagram in a worked example is evidence, so it must show what the state
holds: every tile, every piece, the move's marks, and nothing invented.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

from compiler.engine.position import Rules
from compiler.engine.scenario import run_example
from compiler.ir import model as m
from compiler.load import load_files
from compiler.rulebook.svg import board_svg, face_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}title")]


def example(rules: Rules, deluxe: m.Ruleset, ex_id: str):
    ex = next(e for e in deluxe.examples if e.id == ex_id)
    return run_example(rules, ex)


def test_a_face_is_cut_into_one_wedge_per_edge_and_shows_its_features(rules: Rules) -> None:
    root = parse(face_svg(rules.game, "t08", "a", size=100))
    [tile] = groups(root, "tile")
    wedges = [p for p in tile.findall(f"{SVG}polygon") if p.get("fill") != "none"]
    assert len(wedges) >= rules.game.lattice.sides
    assert "Trian extractor" in titles(root)
    assert root.get("viewBox") and root.get("width")


def test_a_path_face_draws_one_stroke_per_path_edge(rules: Rules) -> None:
    root = parse(face_svg(rules.game, "t09", "a"))
    path_colour = rules.game.looks["path"][1]
    strokes = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke") == path_colour]
    assert len(strokes) == 3


def test_a_gas_cloud_is_drawn_between_the_two_outer_space_segments_it_separates(
        rules: Rules) -> None:
    root = parse(face_svg(rules.game, "t02", "a"))
    cloud_colour = rules.game.looks["cloud"][1]
    assert [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke") == cloud_colour]
    plain = parse(face_svg(rules.game, "t02", "b"))
    assert not [ln for ln in plain.iter(f"{SVG}line") if ln.get("stroke") == cloud_colour]


def test_drawing_is_deterministic(rules: Rules, deluxe: m.Ruleset) -> None:
    res = example(rules, deluxe, deluxe.examples[0].id)
    state = res.before.state
    assert board_svg(rules.game, state) == board_svg(rules.game, state)
    assert face_svg(rules.game, "t01", "a") == face_svg(rules.game, "t01", "a")


def test_a_board_shows_every_tile_and_every_piece_of_the_position(
        rules: Rules, deluxe: m.Ruleset) -> None:
    for ex in deluxe.examples:
        res = run_example(rules, ex)
        if res.before is None:
            continue
        state = res.before.state
        root = parse(board_svg(rules.game, state))
        assert len(groups(root, "tile")) == len(state.board), ex.id
        on_board = sum(len(stack) for stack in state.stacks_at.values())
        assert len(groups(root, "piece")) == on_board, ex.id


def test_piece_titles_name_owner_kind_and_site(rules: Rules, deluxe: m.Ruleset) -> None:
    res = next(r for r in (run_example(rules, e) for e in deluxe.examples)
               if r.before is not None and r.before.state.pieces)
    state = res.before.state
    root = parse(board_svg(rules.game, state))
    piece = next(iter(state.pieces.values()))
    site = f"{piece.cell[0]},{piece.cell[1]}:{piece.site}"
    assert any(rules.game.seat_name(piece.owner) in t and site in t for t in titles(root))


def test_marks_arrows_and_a_ghost_tile_are_drawn_with_no_ids_to_clash(
        rules: Rules, deluxe: m.Ruleset) -> None:
    res = run_example(rules, deluxe.examples[0])
    state = res.before.state
    cell = next(iter(state.board))
    far = (cell[0] + 6, cell[1])
    svg = board_svg(rules.game, state, marks=[((cell, "space"), "bad"), ((far, "space"), "ok")],
                    arrows=[((cell, "space"), (far, "space"))], ghost=("t01", "a", far, 1))
    root = parse(svg)
    assert {c.get("class") for c in root.iter(f"{SVG}circle")} >= {"mark bad", "mark ok"}
    assert groups(root, "arrow")
    assert groups(root, "ghost")
    # The far cell, although empty, is inside the picture and outlined.
    assert [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "empty"]
    # The arrowhead is a polygon, not a marker: the picture has no id, so the same picture
    # twice on one page clashes with nothing.
    assert [e.tag for e in root.iter() if e.get("id")] == []


def test_a_piece_stands_inside_its_tile_beside_the_feature_it_is_on(
        rules: Rules, deluxe: m.Ruleset) -> None:
    from compiler.rulebook.svg import board_key
    res = max((run_example(rules, e) for e in deluxe.examples),
              key=lambda r: len(r.before.state.pieces) if r.before is not None else -1)
    game, state = rules.game, res.before.state
    root = parse(board_svg(game, state))
    pieces = groups(root, "piece")
    assert len(pieces) == sum(len(s) for s in state.stacks_at.values()) > 0
    tiles = {t.find(f"{SVG}title").text.split(":")[0]: t for t in groups(root, "tile")}
    for piece in pieces:
        where = piece.find(f"{SVG}title").text.rsplit(" at ", 1)[1].split(":")[0]
        outline = [p for p in tiles[where].iter(f"{SVG}polygon") if p.get("fill") == "none"][-1]
        corners = [tuple(map(float, xy.split(","))) for xy in outline.get("points").split()]
        shape = list(piece)[1]  # after its <title>
        x, y = _centre_of(shape)
        assert _inside(corners, (x, y)), f"{piece.find(f'{SVG}title').text} sticks out"
    # The key names every piece kind and seat the picture shows, and nothing else.
    words = [w for _, w in board_key(game, [state])]
    kinds = {game.title(p.kind) for p in state.pieces.values()}
    assert {f"{k} (a piece)" for k in kinds} <= set(words)
    assert not any("ring" in w or "arrow" in w for w in words)


def _centre_of(shape: ET.Element) -> tuple[float, float]:
    if shape.get("cx") is not None:
        return float(shape.get("cx")), float(shape.get("cy"))
    if shape.get("width") is not None:
        return (float(shape.get("x")) + float(shape.get("width")) / 2,
                float(shape.get("y")) + float(shape.get("height")) / 2)
    pts = [tuple(map(float, xy.split(","))) for xy in shape.get("points").split()]
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def _inside(poly: list[tuple[float, float]], p: tuple[float, float]) -> bool:
    """Inside a convex polygon: on the same side of every edge."""
    signs = {(b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0
             for a, b in zip(poly, poly[1:] + poly[:1])}
    return len(signs) == 1


SQUARE = """
ruleset squares {
    title "Squares"
    players 2 to 2
    chapters main
}
chapter main "Main" {
    rule main.board "Board" {
        lattice square
        edge field "field"
        edge road "road"
        match same
        area field "field" crosses field, road
        area road "road" crosses road
        feature town "town"
        piece pawn "pawn"
        resource points "point" unlimited
        score is points
        supply by players { 2: pawn 3 }
        use tiles base
        step act "Act": must one of wait
        action wait "wait" { give 1 points to me }
        look field: fill "#44aa77"
        look road: line "#eeeeee"
        look town: square "#cc3333"
    }
}
tiles base "Base" {
    tile s1 { face a [road, field, road, field] { road 0, 2 with town  field 0, 1, 2, 3 } }
}
"""


def test_a_square_lattice_draws_four_wedges_and_its_own_looks(tmp_path: Path) -> None:
    (tmp_path / "squares.rules").write_text(textwrap.dedent(SQUARE), encoding="utf-8")
    rs, _, _ = load_files([tmp_path / "squares.rules"])
    game = Rules(rs).game
    root = parse(face_svg(game, "s1", "a"))
    wedges = [p for p in root.iter(f"{SVG}polygon") if p.get("fill") == "#44aa77"]
    assert len(wedges) == 4
    assert len([ln for ln in root.iter(f"{SVG}line") if ln.get("stroke") == "#eeeeee"]) == 2
    assert "town" in titles(root)


# ------------------------------------------------------------------ cards


def _bazaar() -> Rules:
    from compiler.load import load_ruleset
    return Rules(load_ruleset(Path(__file__).parent / "fixtures" / "bazaar"))


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_a_card_is_drawn_from_what_it_prints_as_its_kinds_look_says() -> None:
    from compiler.rulebook.cards_svg import card_svg
    root = parse(card_svg(_bazaar().game, "spice"))
    assert titles(root) == ["Card S.5 Spice Stall"]
    texts = _texts(root)
    # Title, text, the cost top right (with a coin), the points bottom left, and the cost again
    # bottom right because it is more than 2; the rare goods are marked by a star.
    assert texts[0] == "Spice Stall"
    assert "When it opens, each" in texts
    assert texts.count("4") == 2 and "3" in texts
    band = root.find(f"{SVG}g/{SVG}path")
    assert band is not None and band.get("fill") == "#c0392b"   # food, its first feature


def test_a_corner_shown_only_when_its_condition_holds_is_left_out_otherwise() -> None:
    from compiler.rulebook.cards_svg import card_svg
    texts = _texts(parse(card_svg(_bazaar().game, "bakery")))
    assert texts.count("2") == 1      # the cost once: 2 is not more than 2


def test_a_card_drawn_twice_is_the_same_picture() -> None:
    from compiler.rulebook.cards_svg import card_svg
    game = _bazaar().game
    assert card_svg(game, "forge") == card_svg(game, "forge")


def test_three_cards_match_their_golden_pictures() -> None:
    from compiler.rulebook.cards_svg import card_svg
    from tests.test_snapshots import matches_snapshot
    game = _bazaar().game
    for card in ("bakery_night", "forge", "spice"):
        matches_snapshot(f"bazaar.card.{card}.svg", card_svg(game, card) + "\n")


def _outposts_example(ex_id: str):
    from compiler.load import load_ruleset
    rules = Rules(load_ruleset(Path(__file__).parent / "rulesets" / "outposts"))
    ex = next(e for e in rules.ruleset.examples if e.id == ex_id)
    return run_example(rules, ex)


def _label_boxes(root: ET.Element) -> dict[str, tuple[str, float]]:
    """Each board's label: its seat name, its colour and where it stands across."""
    out = {}
    for g in groups(root, "board-label"):
        t = g.find(f"{SVG}text")
        assert t is not None
        out[t.text or ""] = (t.get("fill", ""), float(t.get("x", "0")))
    return out


def test_each_players_board_is_drawn_apart_and_labelled_with_its_seat() -> None:
    res = _outposts_example("first_tile_of_a_camp")
    root = parse(board_svg(res.before.game, res.before.state))
    labels = _label_boxes(root)
    assert {k: v[0] for k, v in labels.items()} == {"Red": "#c0392b", "Blue": "#2f80ed"}
    assert labels["Red"][1] < labels["Blue"][1]  # in seat order, left to right
    # Red's two tiles in red's own coordinates; blue's empty board shows its origin.
    assert sorted(t for t in titles(root) if ": tile" in t) == [
        "0,0: tile t1, face front, turned 0", "1,0: tile t2, face front, turned 0"]
    assert len([p for p in root.iter(f"{SVG}polygon") if p.get("class") == "empty"]) == 1
    width = float(root.get("viewBox", "").split()[2])
    assert width < 1000  # the boards sit side by side, not thousands of cells apart


def test_a_card_face_down_on_a_players_board_is_drawn_as_its_back() -> None:
    res = _outposts_example("clearing_a_bridge")
    before = _texts(parse(board_svg(res.before.game, res.before.state)))
    after = _texts(parse(board_svg(res.after.game, res.after.state)))
    assert "Hut" in before and "face down" not in before
    assert "face down" in after and "Hut" not in after


def test_what_a_laid_card_holds_is_written_on_it() -> None:
    res = _outposts_example("burning_wood")
    assert _texts(parse(board_svg(res.before.game, res.before.state))).count("1 wood") == 2
    assert "1 wood" not in _texts(parse(board_svg(res.after.game, res.after.state)))
