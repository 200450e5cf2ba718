"""The judge's answers, without the web: rulesets, starting positions, checks, moves at a
place, fits, adjudication with its chance prompt.

Everything is driven by the ruleset's own declarations (seats, steps, tiles, pieces,
resources), so it serves every ruleset alike; api.py only adds HTTP around it.
"""
from __future__ import annotations

import functools
import threading
from typing import Any

from compiler import links
from compiler.diagnostics import did_you_mean
from compiler.engine.position import Position, Rules
from compiler.engine.reading import PositionFileError, read_position
from compiler.ir import model as m
from compiler.judge.models import AdjudicationReply, Chance, PositionReply, SituationReply
from compiler.load import read_header, ruleset_dirs
from compiler.numbering import find


class JudgeError(ValueError):
    """A request the judge refuses: a code, words, and (path, message) problems."""

    def __init__(self, code: str, message: str, problems: list[tuple[str, str]] | None = None,
                 status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.problems, self.status = code, message, problems or [], status


def ruleset_ids() -> list[str]:
    """The rulesets in the project's rules/ folder: the only ones the judge loads."""
    return list(ruleset_dirs())


def _hinted(message: str, name: str, known: Any) -> str:
    hint = did_you_mean(name, known)
    return f"{message}; {hint}" if hint else message


def known_ruleset(ruleset: str) -> str:
    """`ruleset` if it is a folder of rules/, else a 404 naming what it might be."""
    ids = ruleset_ids()
    if ruleset not in ids:
        raise JudgeError("unknown-ruleset", _hinted(f"no ruleset {ruleset!r} in rules/",
                                                     ruleset, ids),
                         [("ruleset", "not one of " + ", ".join(ids))], 404)
    return ruleset


_compiling = threading.Lock()


def rules_of(ruleset: str) -> Rules:
    """A ruleset compiled once per process; only ids from rules/ (never a path)."""
    known_ruleset(ruleset)
    with _compiling:  # the warm-up thread and a request never compile the same one twice
        return _compiled(ruleset)


@functools.lru_cache(maxsize=None)
def _compiled(ruleset: str) -> Rules:
    from compiler.load import load_ruleset
    return Rules(load_ruleset(ruleset))


def warm() -> None:
    """Read the list of rulesets, then compile every ruleset, so a first question of each is
    answered at once (the app runs this in a background thread when it starts; the list
    first, since a page asks for it first)."""
    catalogue()
    for rid in ruleset_ids():
        rules_of(rid)


def first_page(ruleset: str) -> str:
    return links.site_url() + links.slug(ruleset) + "/"


_reading = threading.Lock()


def _header(ruleset: str) -> m.Ruleset:
    with _reading:  # the warm-up thread and the first request share the reading
        return _read_header(ruleset)


@functools.lru_cache(maxsize=None)
def _read_header(ruleset: str) -> m.Ruleset:
    return read_header(ruleset)


def catalogue() -> list[dict[str, Any]]:
    """Every ruleset's title and player counts, read from its header alone: the list is
    asked first, on a cold process, and compiling every ruleset takes seconds."""
    out = []
    for rid in ruleset_ids():
        rs = _header(rid)
        out.append({"id": rid, "title": rs.title, "subtitle": rs.subtitle,
                    "players": {"min": rs.players_min, "max": rs.players_max},
                    "base": rs.extends, "rulebook": first_page(rid)})
    return out


def describe(ruleset: str) -> dict[str, Any]:
    """Everything a page needs to edit a table of this ruleset, from its declarations."""
    return _described(known_ruleset(ruleset), links.site_url())


@functools.lru_cache(maxsize=None)
def _described(ruleset: str, site: str) -> dict[str, Any]:
    """describe(), made once per ruleset (a card game draws every card: a second)."""
    from compiler.rulebook.svg import piece_swatch
    rules = rules_of(ruleset)
    g, rs = rules.game, rules.game.ruleset
    seats = [{"id": s.id, "name": s.name, "colour": g.looks.get(s.id, ("color", "#999999"))[1]}
             for s in rs.seats]
    tiles = []
    for card, faces in g.catalogue.card_faces.items():
        tiles.append({"id": card, "faces": [
            {"face": f, "shows": _shows(g, card, f),
             "svg": face_picture(g, card, f)}
            for f in faces]})
    pieces = []
    for k in g.piece_kinds:
        pieces.append({"kind": k.id, "name": k.title, "svg": piece_swatch(g, k.id)})
    resources = [{"id": r.id, "name": r.title, "holders": holders(g, r.id)}
                 for r in g.resources.values()]
    from compiler.rulebook.links import Index
    index = Index.of(rs)
    examples = [{"id": ex.id, "number": ex.number, "title": ex.title, "rule": (ex.illustrates or [None])[0],
                 "url": example_url(index, ex.id)} for ex in rs.examples]
    return {"id": ruleset, "title": rs.title,
            "players": {"min": rs.players_min, "max": rs.players_max}, "seats": seats,
            "steps": [{"id": s.id, "title": s.title} for s in g.steps], "tiles": tiles,
            "pieces": pieces, "resources": resources,
            "zones": zones_of(g), "cards": cards_of(g),
            "per_player_board": bool(g.per_player), "rotations": g.lattice.rotations,
            "examples": examples, "rulebook": first_page(ruleset)}


def face_picture(g: Any, card: str, face: str, size: float = 80) -> str:
    """A catalogue face: a printed card is drawn as its card page shows it (face up) or as
    its back (face down); a tile as the rulebook's catalogue draws it."""
    from compiler.engine.cards import FRONT
    from compiler.rulebook.cards_svg import card_back_svg, card_svg
    from compiler.rulebook.svg import face_svg
    if card in g.cards.cards:
        return card_svg(g, card, size) if face == FRONT else card_back_svg(size)
    return face_svg(g, card, face, size=size)


def holders(g: Any, resource: str) -> list[str]:
    """What may hold a resource in a position, from the declarations: every player; an area
    whose kind is declared to hold it; a laid tile whose card or kind is."""
    found = ["player"]
    if any(resource in k.holds for k in g.area_kinds):
        found.append("area")
    if resource in g.tile_holds:
        found.append("tile")
    return found


def zones_of(g: Any) -> list[dict[str, Any]]:
    """The declared zones (shared or one per player) and the cards that can be in them:
    a zone takes any of the game's cards."""
    from compiler.engine.zone_json import copies
    from compiler.engine.zone_play import table
    titles = {d.id: d.title for d in g.decls if isinstance(d, m.ZoneDecl)}
    cards = list(copies(g))
    return [{"id": z.id, "title": titles.get(z.id, z.id),
             "whose": "player" if z.per_player else "shared", "piles": z.piles,
             "visible": z.visible, "cards": cards} for z in table(g).values()]


def cards_of(g: Any) -> list[dict[str, Any]]:
    """The game's printed cards, each with a small picture (a picker shows them)."""
    from compiler.rulebook.cards_svg import card_svg
    return [{"id": cid, "name": info.title, "svg": card_svg(g, cid, 60)}
            for cid, info in g.cards.cards.items()]


def example_url(index: Any, ex_id: str) -> str:
    """The example itself, where the rulebook shows it (Index.example_target)."""
    page, anchor = index.example_target(ex_id).split("#", 1)
    return (links.site_url() + links.page(index.ruleset.id, page.removesuffix(".md"))
            + "#" + anchor)


def _shows(g: Any, card: str, face: str) -> str:
    """What a face shows, in words a search box matches: a card's title, its features, its
    sites and edge labels."""
    info = g.catalogue.face(card, face)
    printed = g.cards.cards.get(card)
    words = [card, face] + ([printed.title] if printed is not None else [])
    words += sorted(str(f) for f in getattr(info, "features", ()) or ())
    words += [str(s) for s in getattr(info, "sites", {}) or {}]
    words += [str(x) for x in (info.rotated[0] if getattr(info, "rotated", None) else ()) if x]
    return " ".join(dict.fromkeys(words))


# ------------------------------------------------------------------ positions


def position_of(ruleset: str, position: dict[str, Any]) -> Position:
    try:
        return read_position(rules_of(ruleset), position, "position")
    except PositionFileError as e:
        raise JudgeError("bad-position", e.headline.removeprefix("position: "),
                         [("position." + p if p != "(the whole file)" else "position", m)
                          for p, m in e.problems] or [("position", str(e))], 422) from None


def new_position(ruleset: str, players: int, seed: int = 1) -> Position:
    rules = rules_of(ruleset)
    rs = rules.game.ruleset
    if not rs.players_min <= players <= rs.players_max:
        raise JudgeError("bad-players", f"{rs.title or ruleset} takes {rs.player_counts} "
                         f"players, not {players}", [("players", "out of range")], 422)
    from compiler.engine.scenario import settled
    return settled(rules.start(players, seed=seed))


def example_position(ruleset: str, example: str) -> tuple[Position, dict[str, Any]]:
    return example_of(rules_of(ruleset), example)


def example_of(rules: Rules, example: str) -> tuple[Position, dict[str, Any]]:
    """A worked example's starting position, its moves and the verdict they get."""
    from compiler.engine.scenario import model_from_facts
    ruleset = rules.game.ruleset.id
    exs = rules.game.ruleset.examples
    found = find(exs, example)
    if len(found) > 1:
        said = ", ".join(f"{x.number} ({x.title})" for x in found)
        raise JudgeError("unknown-example", f"{ruleset} has more than one example {example!r}: "
                         f"{said}; give the whole id", [("example", "ambiguous")], 404)
    if not found:
        raise JudgeError("unknown-example", _hinted(f"{ruleset} has no example {example!r}",
                                                     example, [x.id for x in exs]),
                         [("example", "unknown")], 404)
    ex = found[0]
    model = model_from_facts(rules, ex.given)
    pos = read_position(rules, model.model_dump(mode="json", exclude_none=True), example)
    # The rulebook build ran every example's moves, so they have a verdict: a ruling, never
    # an exception (an illegal move is a verdict too).
    verdict = pos.adjudicate(list(ex.play)).verdict if ex.play else "LEGAL"
    return pos, {"id": ex.id, "number": ex.number, "title": ex.title, "moves": list(ex.play),
                 "verdict": verdict}


def record_position(ruleset: str, text: str, upto: int | None) -> tuple[Position, dict[str, Any]]:
    from compiler.engine.records import RecordError, parse_record, replay
    rules = rules_of(ruleset)
    whose: dict[int, Any] = {}  # a turn line (its line in the text) -> its situation

    def seen(line: Any, pos: Position) -> None:
        whose[line.line] = pos.situation()
    try:
        rec = parse_record(text, "record")
        pos = replay(rules, rec, upto, on_line=seen)
    except RecordError as e:
        raise JudgeError("bad-record", str(e), [("record", str(e))], 422) from None
    if upto is not None and upto < len(rec.turns):
        # The slider shows every stop with its player: the lines past `upto` too, as far as
        # they replay (a line that does not is refused when the slider reaches it).
        try:
            replay(rules, rec, len(rec.turns), on_line=seen)
        except RecordError:
            pass
    decisions = []
    for t in rec.turns:
        before = whose.get(t.line)
        decisions.append({"number": t.number, "seat": before.player if before else None,
                          "player": (before.player_name or before.player) if before else None,
                          "move": "; ".join(d.written or d.text for d in t.decisions)})
    return pos, {"decisions": decisions, "upto": upto, "total": len(rec.turns)}


# ------------------------------------------------------------------- the board


def cell_key(pos: Position, cell: Any) -> str:
    return pos.game.format_cell(cell)


def open_cells(pos: Position) -> list[Any]:
    """Cells where a tile could be laid by geometry: empty boards' origins and the frontier."""
    st, g = pos.state, pos.game
    if not g.catalogue.card_faces:
        return []
    cells = list(g.origins(st)) + [c for c in st.frontier.need if c not in st.board]
    return list(dict.fromkeys(cells))


def svg_of(pos: Position, interactive: bool = True) -> str:
    from compiler.rulebook.svg import board_svg
    if not pos.game.catalogue.card_faces and not pos.state.board:
        return ""
    return board_svg(pos.game, pos.state, max_width=2000, interactive=interactive,
                     empty_cells=open_cells(pos) if interactive else ())


def reply(pos: Position) -> PositionReply:
    """A PositionReply: the position JSON, its situation, its picture and its open cells."""
    from compiler.engine.formats import from_state
    return PositionReply(position=from_state(pos.rules, pos.state),
                         situation=situation(pos), svg=svg_of(pos),
                         open_cells=[cell_key(pos, c) for c in open_cells(pos)])


def situation(pos: Position) -> SituationReply:
    s = pos.situation()
    return SituationReply(**s.model_dump(), said=s.said())


def seen_by(pos: Position, seat: str | None) -> Position:
    if seat is None:
        return pos
    try:
        return pos.view(seat)
    except ValueError as e:
        raise JudgeError("bad-seat", str(e), [("as", str(e))], 422) from None


# ------------------------------------------------------------------- questions


def _places(pos: Position, value: Any) -> list[str]:
    """Every cell or site a move's argument names, as "x,y" or "x,y:site"."""
    def is_cell(v: Any) -> bool:
        return isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, int) for x in v)
    if is_cell(value):
        return [cell_key(pos, value)]
    if isinstance(value, tuple) and len(value) == 2 and is_cell(value[0]) \
            and isinstance(value[1], str):
        return [f"{cell_key(pos, value[0])}:{value[1]}"]
    if isinstance(value, (tuple, list, frozenset, set)):
        return [p for v in value for p in _places(pos, v)]
    return []


def moves_at(pos: Position, at: str | None) -> list[dict[str, Any]]:
    out = []
    for mv in pos.legal_moves():
        places = [p for _, v in mv.args for p in _places(pos, v)]
        if at is not None and not any(p == at or p.split(":")[0] == at for p in places):
            continue
        out.append({"notation": pos.notation(mv), "at": places})
    return out


def fits(pos: Position, tile: str, face: str | None) -> list[dict[str, Any]]:
    g, st = pos.game, pos.state
    faces = g.catalogue.card_faces.get(tile)
    if faces is None:
        raise JudgeError("unknown-tile", _hinted(f"no tile {tile!r}", tile,
                                                  g.catalogue.card_faces),
                         [("tile", "unknown")], 422)
    if face is not None and face not in faces:
        raise JudgeError("unknown-face", f"tile {tile} has no face {face!r}",
                         [("face", "one of " + ", ".join(faces))], 422)
    out = []
    for cell in open_cells(pos):
        for f in ([face] if face else faces):
            for rot in range(g.lattice.rotations):
                if g.fits(st, tile, f, cell, rot):
                    out.append({"at": cell_key(pos, cell), "face": f, "rotation": rot})
    return out


def adjudicate(pos: Position, move: str) -> AdjudicationReply:
    """The ruling, as the CLI prints it and as JSON; the chance prompt when the move needs an
    outcome; and the position after it when legal."""
    ruling, after = pos.judge(move)
    chance = next((Chance(message=b.message, rule=b.rule) for mr in ruling.moves
                   for b in mr.breaches if b.code == "chance"), None)
    return AdjudicationReply(verdict=ruling.verdict, text=ruling.render(), ruling=ruling,
                             chance=chance, after=reply(after) if after is not None
                             and ruling.verdict == "LEGAL" else None)
