"""Example facts about laid cards, and `expect value`, against a position.

`card lab at red/0,1 down with scored 4, energy 1` in a `given` block is a
laid card as a position file writes it (`TileAt`: its first face, or `down`;
what it holds; its own attributes). `expect card …` and `expect no card at …`
read the board after the moves; `expect value EXPR is VALUE` evaluates any
expression the rules could write (each seat's id stands for that player) and
says what it found when it differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.engine.cards import DOWN
from compiler.engine.evaluate import Env, RuleError
from compiler.engine.formats import TileAt
from compiler.engine.state import POOL
from compiler.ir import model as m

if TYPE_CHECKING:
    from compiler.engine.position import Position, Rules


def laid_card(rules: Rules, args: list[Any]) -> TileAt:
    """A `card` fact of a `given` block as a laid card of a position."""
    g = rules.game
    card, at, down, values = args
    faces = g.catalogue.card_faces.get(card, ())
    face = DOWN if down else (faces[0] if faces else "front")
    holds = {name: int(v) for name, v in values if name in g.tile_holds and isinstance(v, int)}
    attrs = {name: _value(v) for name, v in values if name not in holds}
    return TileAt(at=at, tile=card, face=face, rotation=0, holds=holds,
                  attributes=attrs)


def _value(v: Any) -> Any:
    return {"true": True, "false": False}.get(v, v) if isinstance(v, str) else v


def card_problem(after: Position, f: m.PositionFact) -> str | None:
    """`expect card ID at CELL [down] [with …]` or `expect no card at CELL`."""
    g, st = after.game, after.state
    at = str(f.args[0] if f.fact == "no_card" else f.args[1])
    try:
        cell = g.parse_cell(at, None, st.players)
    except ValueError as e:
        return f"there is no position {at}: {e}"
    laid = st.board.get(cell)
    if f.fact == "no_card":
        return None if laid is None else f"expected no card at {at}, but {laid[0]} lies there"
    card, _, down, values = f.args
    if laid is None:
        return f"expected {card} at {at}, but no card lies there"
    if laid[0] != card:
        return f"expected {card} at {at}, but {laid[0]} lies there"
    if down != (laid[1] == DOWN):
        return f"expected {card} at {at} to lie face {'down' if down else 'up'}, but it lies " \
               f"face {'down' if laid[1] == DOWN else 'up'}"
    for name, want in values:
        if name in g.tile_holds:
            found: Any = st.tile_res.get(cell, {}).get(name, 0)
        else:
            found = st.tile_attrs.get(cell, {}).get(name)
            decl = g.tile_attr_decls.get(name)
            if decl is not None and decl.type == "player" and found is not None:
                found = g.seat_id(found)
        if _text(found) != _text(_value(want)):
            return f"expected {name} of {card} at {at} to be {_text(_value(want))}, but it " \
                   f"is {_text(found)}"
    return None


def value_problem(after: Position, f: m.PositionFact) -> str | None:
    """`expect value EXPR is VALUE`: None when it holds, else what was found."""
    from compiler.ir.english import English, Vocabulary

    g, st = after.game, after.state
    expr, want = f.args
    env = Env(g, st)
    env.vars = {seat: i for seat in (s.id for s in g.seats)
                if (i := g.seat_index(seat, st.players)) is not None}
    said = English(Vocabulary.of(g.ruleset))(expr)
    try:
        found = g.expr(expr)(env)
    except RuleError as e:
        return f"expected {said} to be {_text(_value(want))}, but it cannot be computed " \
               f"here: {e}"
    shown = _shown(after, found, expr.type or "")
    if shown != _text(_value(want)):
        return f"expected {said} to be {_text(_value(want))}, but it is {shown}"
    return None


def _shown(after: Position, value: Any, type_: str) -> str:
    """A value as an example writes it: a seat's id, a card's id, a number, true/false."""
    g, st = after.game, after.state
    if value is None:
        return "none"
    if type_ == "player" and isinstance(value, int):
        return g.seat_id(value)
    if type_ == "holder":
        return "pool" if value == POOL else g.seat_id(value)
    if type_ in ("tile", "cell") and isinstance(value, tuple):
        return g.format_cell(value, st.turn.actor)
    return _text(value)


def _text(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
