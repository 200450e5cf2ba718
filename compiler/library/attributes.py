"""The kernel's attributes: what every piece, site and area has without being declared.

A piece knows its owner, where it stands and what is stacked with it; a site
its tile and area; an area whether it is closed. Each is one class, found in
`ATTRIBUTES` by the type of what it belongs to and its name: the checker
reads its type there, the engine its closure, the English renderer its
reading. Attributes a ruleset declares (an area's keeper, a player's points)
come from the ruleset, not from here.

Moved whole from the checker (`PIECE_ATTRS`, `SITE_ATTRS`, `AREA_KERNEL_ATTRS`),
the engine's `c_attr` and the renderer's `ATTRS` / `PIECE_STATES`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from compiler.ir import nodes as n
from compiler.library.base import Fn, KernelAttribute, register_attribute

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.engine.explain import Ctx, Explainer, Reason
    from compiler.engine.state import Piece, State
    from compiler.ir.english import English


# ------------------------------------------------------------------ pieces


class _PieceAttribute(KernelAttribute):
    """An attribute of a piece; none at all for a piece no longer in the game (say,
    one bound to a grant that lapsed)."""

    of = "piece"
    # What the attribute is, when it is read off the piece's record alone (`read` then
    # says the same): taken without a method call, as a filter asks it of piece after piece.
    plain: Callable[[Piece], Any] | None = None

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        raise NotImplementedError

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        read, plain = self.read, self.plain

        def piece_attr(env: Env) -> Any:
            pid = obj(env)
            p = _record(env.state, pid)
            if p is None:  # none, or a piece no longer in the game
                return None
            return plain(p) if plain is not None else read(cx, pid, p, env)
        return piece_attr


def _record(st: State, pid: Any) -> Piece | None:
    """A piece's record, on the board or gone from it; None for no piece (or one no
    longer in the game)."""
    p = st.pieces.get(pid)
    return p if p is not None else st.gone.get(pid)


@register_attribute
class Owner(_PieceAttribute):
    name, returns = "owner", "player"
    described = True
    summary = "The player a piece belongs to."
    example = "count(pawn where it.owner == me)"
    plain = attrgetter("owner")

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        return p.owner

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the owner of {x}"


@register_attribute
class PieceSite(_PieceAttribute):
    name, returns = "site", "site"
    described, preposition = True, "on"
    summary = "The site a piece stands on."
    example = "count(pawn where it.site is lake)"
    plain = attrgetter("cell", "site")

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        return (p.cell, p.site)

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the site of {x}"


@register_attribute
class PieceTile(_PieceAttribute):
    name, returns = "tile", "tile"
    described, preposition = True, "in"
    summary = "The tile a piece stands on."
    example = "count(pawn where it.tile == placed)"
    plain = attrgetter("cell")

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        return p.cell

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the tile of {x}"


@register_attribute
class PieceArea(_PieceAttribute):
    name, returns = "area", "area"
    described, preposition = True, "in"
    summary = "The area of the site a piece stands on."
    example = "count(pawn where it.area is lake)"

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        return cx.game.site_area(env.state, (p.cell, p.site))

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        site_area = cx.game.site_area

        def piece_area(env: Env) -> Any:
            # `piece_attr` and `read` in one: a requirement asks it of each of a player's
            # pieces
            st = env.state
            p = _record(st, obj(env))
            return None if p is None else site_area(st, (p.cell, p.site))
        return piece_area

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the area of {x}"


class _Stacked(_PieceAttribute):
    """What a piece's place in its stack says: `missing` for a piece found in no stack."""

    missing: Any = None

    def at(self, stack: list[int], i: int) -> Any:
        raise NotImplementedError

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        stack = env.state.stack_of((p.cell, p.site))
        if pid not in stack:
            return self.missing
        return self.at(stack, stack.index(pid))

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        at, missing = self.at, self.missing

        def stacked(env: Env) -> Any:
            # `piece_attr` and `read` in one (`State.stack_of` written out): a requirement
            # asks it of each of a player's pieces
            pid = obj(env)
            st = env.state
            p = _record(st, pid)
            if p is None:
                return None
            stack = st.stacks_at.get((p.cell, p.site), ())
            if pid not in stack:
                return missing
            return at(stack, stack.index(pid))
        return stacked


@register_attribute
class Covered(_Stacked):
    name, returns = "covered", "bool"
    missing = False
    summary = "Whether another piece stands on top of a piece."
    example = "count(pawn where not it.covered)"

    def at(self, stack: list[int], i: int) -> Any:
        return i < len(stack) - 1

    def english(self, en: English, node: n.Attr, x: str) -> str:
        from compiler.ir.english import agree
        return agree(x, "is covered")

    def english_negated(self, en: English, node: n.Attr) -> str | None:
        from compiler.ir.english import agree
        return agree(en(node.obj), "is not covered")

    def why(self, ex: Explainer, node: n.Attr, ctx: Ctx, actual: bool) -> Reason | None:
        """What stands on the piece, or that nothing does."""
        from compiler.engine.explain import _UNKNOWN, Reason
        en = ex.words(ctx)
        pid = ex.safe(node.obj, ctx)
        who = en(node.obj)
        if actual and pid is not _UNKNOWN:
            st = ctx.state
            p = st.pieces.get(pid)
            if p is not None:
                stack = st.stack_of((p.cell, p.site))
                above = stack[stack.index(pid) + 1:] if pid in stack else ()
                if above:
                    on_top = ex.listing([ex.short_piece(q) for q in above])
                    return Reason(f"{who} has {on_top} on top")
        if not actual:
            return Reason(f"{who} has nothing on top")
        return None


@register_attribute
class Above(_Stacked):
    name, returns = "above", "piece"
    preposition = "carrying"
    summary = "The piece standing directly on a piece (none when nothing does)."
    example = "count(pawn where it.above is tower)"

    def at(self, stack: list[int], i: int) -> Any:
        return stack[i + 1] if i + 1 < len(stack) else None

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the piece on {x}"

    def mathml_is_none(self, negated: bool) -> str | None:
        return "carrying a piece" if negated else "with nothing on top"


@register_attribute
class Below(_Stacked):
    name, returns = "below", "piece"
    preposition = "on"
    summary = "The piece a piece stands directly on (none when it stands on the site)."
    example = "count(tower where it.below is pawn)"

    def at(self, stack: list[int], i: int) -> Any:
        return stack[i - 1] if i > 0 else None

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the piece under {x}"


@register_attribute
class Arrived(_PieceAttribute):
    name, returns = "arrived", "bool"
    summary = "Whether a piece was put or moved where it stands during this turn."
    example = "count(pawn where it.arrived)"

    def read(self, cx: ExprCompiler, pid: int, p: Piece, env: Env) -> Any:
        return pid in env.state.turn.arrived

    def english(self, en: English, node: n.Attr, x: str) -> str:
        from compiler.ir.english import agree
        return agree(x, "came to where it stands this turn")

    def english_negated(self, en: English, node: n.Attr) -> str | None:
        from compiler.ir.english import agree
        return agree(en(node.obj), "has stood where it is since before this turn")


# ------------------------------------------------------------------- sites


@register_attribute
class SiteTile(KernelAttribute):
    of, name, returns = "site", "tile", "tile"
    described, preposition = True, "in"
    summary = "The tile a site is on."
    example = "count(sites where it.tile == placed)"

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        return lambda env: None if (s := obj(env)) is None else s[0]

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the tile of {x}"


@register_attribute
class SiteArea(KernelAttribute):
    of, name, returns = "site", "area", "area"
    described, preposition = True, "in"
    summary = "The area a site is part of."
    example = "count(sites where it.area is lake)"

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        site_area = cx.game.site_area
        return lambda env: None if (s := obj(env)) is None else site_area(env.state, s)

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the area of {x}"


# ------------------------------------------------------------------- cells


class _Coordinate(KernelAttribute):
    """A cell's coordinate as its own board counts it (`first tile at` is 0,0 there).

    Why: a bounded table ("the station may not grow past the edge of the table")
    is a limit on where a cell lies, which no count of tiles or hops can say. On
    boards per player the plane's offset of a player's board is taken off, so
    the numbers are the ones positions and notation show.
    """

    of = "cell"
    index: int

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        from compiler.kernel.boards import local
        i = self.index
        if cx.game.per_player:
            return lambda env: None if (c := obj(env)) is None else local(c)[i]
        return lambda env: None if (c := obj(env)) is None else c[i]


@register_attribute
class CellX(_Coordinate):
    name, returns, index = "x", "int", 0
    summary = ("A cell's first coordinate, as positions write it (`x,y`): on a square "
               "board, how far right of the first tile it lies.")
    example = "count(frontier where it.x >= 0 and it.x <= 2)"

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the x coordinate of {x}"


@register_attribute
class CellY(_Coordinate):
    name, returns, index = "y", "int", 1
    summary = ("A cell's second coordinate, as positions write it (`x,y`): on a square "
               "board, how far below the first tile it lies.")
    example = "count(frontier where it.y <= 0)"

    def english(self, en: English, node: n.Attr, x: str) -> str:
        return f"the y coordinate of {x}"


# ------------------------------------------------------------------- areas


@register_attribute
class Closed(KernelAttribute):
    of, name, returns = "area", "closed", "bool"
    summary = "Whether an area is closed: none of its edges is left open."
    example = "count(lake where it.closed)"

    def compile(self, cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
        return lambda env: (a := obj(env)) is not None and env.state.areas.closed(a)

    def english(self, en: English, node: n.Attr, x: str) -> str:
        from compiler.ir.english import agree
        return agree(x, "is closed")

    def english_negated(self, en: English, node: n.Attr) -> str | None:
        from compiler.ir.english import agree
        return agree(en(node.obj), "is not closed")

    def why(self, ex: Explainer, node: n.Attr, ctx: Ctx, actual: bool) -> Reason | None:
        from compiler.engine.explain import Reason
        from compiler.ir.english import agree
        if actual:
            return None
        return Reason(agree(ex.words(ctx)(node.obj), "is still open"))
