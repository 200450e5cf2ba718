"""The judge's answers, without the web: rulesets, starting positions, checks, moves at a
place, fits, adjudication with its chance prompt.

Everything is driven by the ruleset's own declarations (seats, steps, tiles, pieces,
resources), so it serves every ruleset alike; api.py only adds HTTP around it.
"""
from __future__ import annotations

import difflib
import functools
from typing import Any

from compiler.engine.position import Position, Rules
from compiler.engine.reading import PositionFileError, read_position
from compiler.load import ruleset_dirs
from compiler import links


class JudgeError(ValueError):
    """A request the judge refuses: a code, words, and (path, message) problems."""

    def __init__(self, code: str, message: str, problems: list[tuple[str, str]] | None = None,
                 status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.problems, self.status = code, message, problems or [], status


def ruleset_ids() -> list[str]:
    """The rulesets in the project's rules/ folder: the only ones the judge loads."""
    return list(ruleset_dirs())


@functools.lru_cache(maxsize=None)
def rules_of(ruleset: str) -> Rules:
    """A ruleset compiled once per process; only ids from rules/ (never a path)."""
    ids = ruleset_ids()
    if ruleset not in ids:
        close = difflib.get_close_matches(ruleset, ids, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise JudgeError("unknown-ruleset", f"no ruleset {ruleset!r} in rules/{hint}",
                         [("ruleset", "not one of " + ", ".join(ids))], 404)
    from compiler.load import load_ruleset
    return Rules(load_ruleset(ruleset))


def first_page(ruleset: str) -> str:
    return links.site_url() + links.slug(ruleset) + "/"


def catalogue() -> list[dict[str, Any]]:
    out = []
    for rid in ruleset_ids():
        rs = rules_of(rid).game.ruleset
        out.append({"id": rid, "title": rs.title, "subtitle": rs.subtitle,
                    "players": {"min": rs.players_min, "max": rs.players_max},
                    "base": rs.extends, "rulebook": first_page(rid)})
    return out


def describe(ruleset: str) -> dict[str, Any]:
    """Everything a page needs to edit a table of this ruleset, from its declarations."""
    from compiler.rulebook.svg import ICON_SHAPES, face_svg, icon
    rules = rules_of(ruleset)
    g, rs = rules.game, rules.game.ruleset
    seats = [{"id": s.id, "name": s.name, "colour": g.looks.get(s.id, ("color", "#999999"))[1]}
             for s in rs.seats]
    tiles = []
    for card, faces in g.catalogue.card_faces.items():
        tiles.append({"id": card, "faces": [
            {"face": f, "shows": _shows(g, card, f), "svg": face_svg(g, card, f, size=80)}
            for f in faces]})
    pieces = []
    for k in g.piece_kinds:
        shape, stroke = g.looks.get(k.id, ("circle", "#ffffff"))
        shape = shape if shape in ICON_SHAPES else "circle"
        pieces.append({"kind": k.id, "name": k.title, "svg":
                       '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" '
                       f'height="24">{icon(shape, (12, 12), 9, "#999999", stroke, width=1.6)}</svg>'})
    resources = [{"id": r.id, "name": r.title, "holders": ["player"]}
                 for r in g.resources.values()]
    examples = [{"id": ex.id, "title": ex.title, "rule": (ex.illustrates or [None])[0],
                 "url": first_page(ruleset)} for ex in rs.examples]
    return {"id": ruleset, "title": rs.title,
            "players": {"min": rs.players_min, "max": rs.players_max}, "seats": seats,
            "steps": [{"id": s.id, "title": s.title} for s in g.steps], "tiles": tiles,
            "pieces": pieces, "resources": resources,
            "zones": sorted(getattr(g, "zone_names", []) or []),
            "per_player_board": bool(g.per_player), "rotations": g.lattice.rotations,
            "examples": examples, "rulebook": first_page(ruleset)}


def _shows(g: Any, card: str, face: str) -> str:
    """What a face shows, in words a search box matches: its sites and edge labels."""
    info = g.catalogue.face(card, face)
    words = [card, face]
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
    exs = {ex.id: ex for ex in rules.game.ruleset.examples}
    ex = exs.get(example)
    if ex is None:
        close = difflib.get_close_matches(example, list(exs), n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise JudgeError("unknown-example", f"{ruleset} has no example {example!r}{hint}",
                         [("example", "unknown")], 404)
    model = model_from_facts(rules, ex.given)
    pos = read_position(rules, model.model_dump(mode="json", exclude_none=True), example)
    verdict = "LEGAL"
    try:
        verdict = pos.adjudicate(list(ex.play)).verdict if ex.play else "LEGAL"
    except Exception:  # noqa: BLE001 - the expected verdict is a courtesy, never a failure
        verdict = "UNKNOWN"
    return pos, {"id": ex.id, "title": ex.title, "moves": list(ex.play), "verdict": verdict}


def record_position(ruleset: str, text: str, upto: int | None) -> tuple[Position, dict[str, Any]]:
    from compiler.engine.records import RecordError, parse_record, replay
    rules = rules_of(ruleset)
    try:
        rec = parse_record(text, "record")
        pos = replay(rules, rec, upto)
    except RecordError as e:
        raise JudgeError("bad-record", str(e), [("record", str(e))], 422) from None
    # The slider stops after each turn line (what `upto` counts, as `rulebook replay`).
    decisions = [{"number": t.number, "player": None,
                  "move": "; ".join(d.written or d.text for d in t.decisions)}
                 for t in rec.turns]
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


def reply(pos: Position) -> dict[str, Any]:
    """A PositionReply: the position JSON, its situation, its picture and its open cells."""
    from compiler.engine.formats import from_state
    s = pos.situation()
    return {"position": from_state(pos.rules, pos.state).model_dump(mode="json",
                                                                     exclude_none=True),
            "situation": {"said": s.said(), "turn": s.turn, "player": s.player, "step": s.step,
                          "finished": s.finished, "scores": s.scores},
            "svg": svg_of(pos), "open_cells": [cell_key(pos, c) for c in open_cells(pos)],
            "problems": []}


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
    if faces is None and g.catalogue.card_faces:
        close = difflib.get_close_matches(tile, list(g.catalogue.card_faces), n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise JudgeError("unknown-tile", f"no tile {tile!r}{hint}", [("tile", "unknown")], 422)
    if face is not None and faces is not None and face not in faces:
        raise JudgeError("unknown-face", f"tile {tile} has no face {face!r}",
                         [("face", "one of " + ", ".join(faces))], 422)
    out = []
    for cell in open_cells(pos):
        for f in ([face] if face else list(faces or ())):
            for rot in range(g.lattice.rotations):
                if g.fits(st, tile, f, cell, rot):
                    out.append({"at": cell_key(pos, cell), "face": f, "rotation": rot})
    return out


def adjudicate(pos: Position, move: str) -> dict[str, Any]:
    """The ruling, as the CLI prints it and as JSON; the chance prompt when the move needs an
    outcome; and the position after it when legal."""
    ruling, after = pos.judge(move)
    chance = None
    for mr in ruling.moves:
        for b in mr.breaches:
            if b.code == "chance":
                chance = {"message": b.message,
                          "rule": b.rule.model_dump() if b.rule else None}
                break
        if chance:
            break
    return {"verdict": ruling.verdict, "text": ruling.render(),
            "ruling": ruling.model_dump(mode="json"), "chance": chance,
            "after": reply(after) if after is not None and ruling.verdict == "LEGAL" else None}
