"""The board: what is laid and standing on it, where tiles may go, how far pieces get.

Each class is one builtin whole, moved from its old homes: the type rule from
the checker's `f_<name>`, the closure from the engine's `f_<name>` / `b_<name>`,
the English from the renderer's `BUILTINS` table and `e_call` chain, and, for
`fits`, the placement fast path and the kernel's reason of `engine/actions.py`.
The walks themselves (`walk`, `walk_segments`, `hop`, `unreached`) are the
kernel's; what lives here is how a rule's arguments become the kernel's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from compiler.ir import nodes as n
from compiler.ir.prose import fill
from compiler.kernel.boards import board_of
from compiler.kernel.tiles import (FaceInfo, Unreached, cut_vertex, distance, fits_somewhere, hop,
                                   mismatches, unreached, walk, walk_segments)
from compiler.library.base import Builtin, Fn, register

if TYPE_CHECKING:
    from compiler.check.types import Scope, TypeChecker
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.engine.explain import Ctx, Explainer, Reason
    from compiler.engine.game import Game
    from compiler.engine.state import State
    from compiler.ir.english import English


_UNSET = object()  # a variable without a value, in a memo key
_SITES, _FROZEN = object(), object()  # memo keys of whole-board values


def _frozen(env: Env, items: Any) -> frozenset[Any]:
    """`items` as a frozenset, built once per memo for a value the memo hands out
    again (`tiles`): the memo keeps `items` alive, so its id names it meanwhile."""
    memo = env.memo
    if memo is None:
        return frozenset(items)
    key = (_FROZEN, id(items))
    got = memo.get(key)
    if got is None or got[0] is not items:
        got = memo[key] = (items, frozenset(items))
    return got[1]


def _moves(count: str) -> str:
    return "in one move" if count == "1" else fill("in at most {n} moves", {"n": count})


# ------------------------------------------------------------------ values


@register
class Placed(Builtin):
    name, group, returns, value = "placed", "board", "tile", True
    summary = "The tile laid this turn (none before one is laid)."
    example = "sites in placed"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        return lambda env: env.state.turn.placed

    def english(self, en: English, node: n.Name) -> str:
        return "the tile you placed this turn"

    def described(self, ex: Explainer, node: n.Name, ctx: Ctx) -> str | None:
        placed = ctx.state.turn.placed
        if placed is not None:
            return (f"the tile you placed this turn "
                    f"({ex.game.format_cell(placed, ctx.state.turn.actor)})")
        return None


class _Everything(Builtin):
    """A value that is every element of one sort on the board; `in` and `of` narrow it
    (`pieces in placed`) as they narrow a kind, so `narrows` names the sort for that."""

    narrows: ClassVar[str | None]


@register
class Tiles(_Everything):
    name, group, returns, value = "tiles", "board", "set:tile", True
    narrows = "tile"
    summary = "Every tile on the board, in reading order (row, then column)."
    example = "count(tiles)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        from compiler.engine.evaluate import board_in_order
        return board_in_order

    def english(self, en: English, node: n.Name) -> str:
        return "the tiles"


@register
class Sites(_Everything):
    name, group, returns, value = "sites", "board", "set:site", True
    narrows = "site"
    summary = "Every site of every tile on the board, tile by tile in reading order."
    example = "count(sites in placed)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        from compiler.engine.evaluate import board_in_order, kept
        game = cx.game

        def sites(env: Env) -> tuple[Any, ...]:
            return kept(env, _SITES, every_site)  # type: ignore[no-any-return]

        def every_site(env: Env) -> tuple[Any, ...]:
            st = env.state
            out = []
            for cell in board_in_order(env):
                card, face, _ = st.board[cell]
                for name in game.catalogue.faces[(card, face)].sites:
                    out.append((cell, name))
            return tuple(out)
        return sites

    def english(self, en: English, node: n.Name) -> str:
        return "the sites"


@register
class Pieces(_Everything):
    name, group, returns, value = "pieces", "board", "set:piece", True
    narrows = ""
    summary = "Every piece on the board, of every kind and owner."
    example = "count(pieces of me)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        return lambda env: tuple(env.state.pieces)

    def english(self, en: English, node: n.Name) -> str:
        return "the pieces"


@register
class Areas(_Everything):
    name, group, returns, value = "areas", "board", "set:area", True
    narrows = "area"
    summary = "Every area on the board, of every kind, open or closed."
    example = "count(areas where it.closed)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        game = cx.game
        return lambda env: game.all_areas(env.state)

    def english(self, en: English, node: n.Name) -> str:
        return "the areas"


@register
class Frontier(Builtin):
    name, group, returns, value = "frontier", "board", "set:cell", True
    summary = ("The empty cells a tile may be laid on: those next to the board, or the first "
               "tile's cell while the board is empty. With a board per player, the cells "
               "next to every board and the origin of every empty one; `frontier of p` "
               "keeps player p's.")
    example = "count(frontier)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        game = cx.game

        if game.per_player:
            def frontiers(env: Env) -> tuple[Any, ...]:
                st = env.state
                cells = st.frontier.cells() + list(game.origins(st))
                return tuple(sorted(cells, key=lambda c: (board_of(c), c[1], c[0])))
            return frontiers

        def frontier(env: Env) -> tuple[Any, ...]:
            st = env.state
            if not st.board:
                return (game.first_cell,)
            return tuple(st.frontier.cells())
        return frontier

    def english(self, en: English, node: n.Name) -> str:
        if en.v.board:  # a board per player: the positions next to any of them
            from compiler.ir.english import article
            return f"the empty positions next to {article(en.v.board)}"
        return "the empty positions next to the board"

    def english_of(self, en: English, node: n.Name, owner: str) -> str | None:
        board = en.v.board or "board"
        return f"the empty positions next to {owner} {board}"


@register
class Rotations(Builtin):
    name, group, returns, value = "rotations", "board", "set:int", True
    summary = "The ways a tile can be turned on its cell, numbered from 0."
    example = "count(rotations)"

    def compile(self, cx: ExprCompiler, node: n.Name) -> Fn:
        r = tuple(range(cx.game.lattice.rotations))
        return lambda env: r

    def english(self, en: English, node: n.Name) -> str:
        return "the possible turns"


# --------------------------------------------------------------- adjacency


class _Adjacent(Builtin):
    """The laid tiles next to a tile, by the lattice's own idea of next."""

    group, returns = "board", "set:tile"
    said: ClassVar[str]

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "tile", f"the argument of `{self.name}`")
        return "set:tile"

    def cells(self, lattice: Any) -> Callable[[Any], Any]:
        raise NotImplementedError

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.evaluate import cell_key
        f = cx(node.args[0])
        near = self.cells(cx.game.lattice)
        # The lattice never changes: each cell's neighbours are put in reading order once,
        # and a board only keeps those it has laid (in the same order).
        ordered: dict[Any, tuple[Any, ...]] = {}

        def adjacent(env: Env) -> tuple[Any, ...]:
            cell = f(env)
            if cell is None:
                return ()
            around = ordered.get(cell)
            if around is None:
                around = ordered[cell] = tuple(sorted(near(cell), key=cell_key))
            board = env.state.board
            return tuple(c for c in around if c in board)
        return adjacent

    def english(self, en: English, node: n.Call) -> str:
        return f"{self.said} {en(node.args[0])}"


@register
class Neighbours(_Adjacent):
    name = "neighbours"
    said = "the tiles sharing an edge with"
    summary = "The tiles on the board sharing an edge with a tile."
    example = "count(pawn in neighbours(placed))"

    def cells(self, lattice: Any) -> Callable[[Any], Any]:
        return lattice.neighbours  # type: ignore[no-any-return]


@register
class Around(_Adjacent):
    name = "around"
    said = "the tiles sharing an edge or a corner with"
    summary = "The tiles on the board sharing an edge or a corner with a tile."
    example = "count(around(placed) where it has town)"

    def cells(self, lattice: Any) -> Callable[[Any], Any]:
        return lattice.around  # type: ignore[no-any-return]


# ------------------------------------------------------------- laying tiles


# The demo's own action for laying a tile, which the example of `fits` stands in for.
_LAYING = """
    action lay_tile "lay a tile" {
        notation "{card} {face} at {cell} r{rotation}"
        choose card from drawable
        choose face from faces(card)
        choose cell from frontier
        choose rotation from rotations
        require EXAMPLE else "the edges do not match"
        lay card face face at cell rotation rotation
    }
"""


@register
class Faces(Builtin):
    name, group, returns = "faces", "board", "set:face"
    summary = "The faces of a tile card, either of which may be laid up."
    example = "count(drawable where count(faces(it)) > 1)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "card", "the argument of `faces`")
        return "set:face"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        f = cx(node.args[0])
        faces = cx.game.catalogue.card_faces
        return lambda env: faces.get(f(env), ())

    def english(self, en: English, node: n.Call) -> str:
        return f"the faces of {en(node.args[0])}"


@register
class Fits(Builtin):
    """Whether a face of a card, turned so, may be laid on a cell.

    An action that chooses all four and requires `fits` of its own variables
    is listed from the kernel's placement index instead of trying every
    combination (`placement`), and a failed `fits` says which edges clash
    (`explain`).
    """

    name, group, returns = "fits", "board", "bool"
    summary = ("Whether a face of a tile card, turned by a rotation, may be laid on a cell: "
               "every edge matches the tiles it touches.")
    example = "fits(card, face, cell, rotation)"
    setting, replaces = _LAYING, ("lay_tile",)
    placement = True

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 4):
            for a, t in zip(node.args, ("card", "face", "cell", "int")):
                tc.expect(a, scope, t, "an argument of `fits`")
        return "bool"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        card, face, cell, rot = (cx(a) for a in node.args)
        game = cx.game
        return lambda env: game.fits(env.state, card(env), face(env), cell(env), rot(env))

    def english(self, en: English, node: n.Call) -> str:
        return f"every edge of {en(node.args[0])} matches the tiles it touches"

    def explain(self, game: Game, st: State, env: Env, node: n.Call) -> str | None:
        card, face, cell, rot = (env.vars.get(a.id)  # type: ignore[attr-defined]
                                 for a in node.args)
        if cell in st.board:
            return f"{game.format_cell(cell, st.turn.actor)} already holds a tile"
        if (card, face) not in game.catalogue.faces:
            return f"{card} has no face {face}"
        found = mismatches(game.catalogue, st.board, card, face, cell, rot, game.match,
                           lambda c: game.format_cell(c, st.turn.actor))
        return "; ".join(found) or None


@register
class Placeable(Builtin):
    name, group, returns = "placeable", "board", "bool"
    summary = "Whether a tile card fits somewhere on the board, with some face and rotation."
    example = "count(drawable where placeable(it))"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "card", "the argument of `placeable`")
        return "bool"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        f = cx(node.args[0])
        game = cx.game

        def placeable(env: Env) -> bool:
            st = env.state
            if not st.board:
                return True
            # the rotations that fit each pattern, kept by the game as listing keeps them
            return fits_somewhere(game.catalogue, st.frontier, f(env), game.match,
                                  game.fitting)
        return placeable

    def english(self, en: English, node: n.Call) -> str:
        return f"{en(node.args[0])} fits somewhere"

    def english_negated(self, en: English, node: n.Call) -> str | None:
        return f"{en(node.args[0])} fits nowhere"


# ------------------------------------------------------------------- walks


def touching(info: FaceInfo, segment: int, kind: str) -> list[int]:
    """The segments of `kind` a piece in `segment` can set out from or arrive by.

    The segment itself, if of that kind, or those of that kind meeting it at
    an edge: a town on a road meets the field the road runs through.
    """
    own = info.segments[segment]
    return [s.index for s in info.segments if s.kind == kind and
            (s.index == own.index or set(s.edges) & set(own.edges))]


def _reach_setup(cx: ExprCompiler, node: n.Call, halting: n.Expr | None,
                 across: str | None) -> Callable[[Env], tuple[Any, ...] | None]:
    """The kernel's arguments for a `reach` call, from its own: start, moves, tiles..."""
    site_f, steps_f, through_f = (cx(a) for a in node.args[:3])
    kind = node.args[3].id  # type: ignore[attr-defined]
    halting_f = cx(halting) if halting is not None else None
    halting_sites = halting is not None and halting.type == "set:site"
    barriers = frozenset([across]) if across else frozenset()
    faces = cx.game.catalogue.faces

    def segment_of(board: Any, site: Any) -> tuple[Any, int] | None:
        placed = board.get(site[0])
        if placed is None:
            return None
        info = faces[(placed[0], placed[1])].sites.get(site[1])
        return None if info is None else (site[0], info.segment)

    def setup(env: Env) -> tuple[Any, ...] | None:
        site = site_f(env)
        if site is None:
            return None
        cell, name = site
        st = env.state
        card, face, _ = st.board[cell]
        info = faces[(card, face)]
        # Travel in the `kind` segments the site lies in or touches.
        starts = touching(info, info.sites[name].segment, kind)
        stop = frozenset(halting_f(env)) if halting_f else frozenset()
        stop_at: frozenset[Any] = frozenset()
        if halting_sites:
            stop_at = frozenset(x for x in (segment_of(st.board, s) for s in stop) if x)
            stop = frozenset()
        return (cell, tuple(starts), kind, steps_f(env), _frozen(env, through_f(env)),
                stop, barriers, stop_at)
    return setup


class _Reach(Builtin):
    """`reach` and its kin: where a piece at a site gets to through one kind of area.

    The walk goes segment by segment (`walk_segments`), so a barrier that
    splits a tile stops it there; told by tile, a tile counts once any of
    its segments is reached; told by site, only the sites near the
    segments reached count (`sites_near`). What stops the piece may be
    given as tiles or as sites: a site stops it in the segment it lies in.
    """

    group = "board"
    by_site: ClassVar[bool] = False    # told by site (`reach_sites…`), not by tile
    across: ClassVar[bool] = False     # the fifth argument is a barrier feature passed

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        from compiler.check.types import words
        name, result = self.name, self.returns
        if self.across:
            if tc._arity(node, 5):
                tc.expect(node.args[0], scope, "site", f"the first argument of `{name}`")
                tc.expect(node.args[1], scope, "int", f"the number of moves, in `{name}`")
                tc.expect(node.args[2], scope, "set:tile", f"the tiles `{name}` may enter")
                tc.kind_name(node.args[3], ("area",), f"the fourth argument of `{name}`")
                tc.kind_name(node.args[4], ("feature",), f"the barrier `{name}` passes")
            return result
        if len(node.args) not in (4, 5):
            tc.report(node.loc, "arity",
                      f"`{name}` takes 4 or 5 arguments, {len(node.args)} given")
            return result
        tc.expect(node.args[0], scope, "site", f"the first argument of `{name}`")
        tc.expect(node.args[1], scope, "int", f"the number of moves, in `{name}`")
        tc.expect(node.args[2], scope, "set:tile", f"the tiles `{name}` may enter")
        tc.kind_name(node.args[3], ("area",), f"the fourth argument of `{name}`")
        if len(node.args) == 5:
            got = tc.expr(node.args[4], scope)
            if got not in ("set:tile", "set:site", "any"):
                tc.report(node.args[4].loc, "type",
                          f"what stops a piece, in `{name}`, is tiles or sites, "
                          f"but this is {words(got)}")
        return result

    def _limits(self, node: n.Call) -> tuple[n.Expr | None, str | None]:
        """What stops the piece (`halting`) and the barrier it passes (`across`)."""
        if self.across:
            return None, node.args[4].id  # type: ignore[attr-defined]
        return (node.args[4] if len(node.args) > 4 else None), None

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.evaluate import cell_key
        setup = _reach_setup(cx, node, *self._limits(node))
        game = cx.game
        faces = game.catalogue.faces
        sites = self.by_site

        # What the arguments can depend on besides the state: the variables they
        # mention (a definition's body sees only its own parameters) and the player.
        mentioned = tuple(sorted(n.names_in(node)))
        site_key = object()  # this call site
        chancy = cx.rolls(node)  # arguments that roll a die are evaluated at every use

        def reach(env: Env) -> tuple[Any, ...]:
            from compiler.engine.evaluate import cited_once, phantom_in
            memo = env.memo
            if memo is not None and not chancy:
                # While the memo lives the state stands still, so the call site, the
                # player and the values of the variables its arguments mention say
                # everything: a repeat costs no evaluation of its arguments (which
                # may be whole-board sets, or definitions that walk the board); the
                # conditions they found true are cited again.
                vars = env.vars
                seen = tuple(vars.get(v, _UNSET) for v in mentioned)
                if not phantom_in(env, seen):
                    return cited_once(env, memo, (site_key, env.me, seen),  # type: ignore[no-any-return]
                                      walked, env, memo)
            return walked(env, memo)

        def walked(env: Env, memo: dict[Any, Any] | None) -> tuple[Any, ...]:
            args = setup(env)
            if args is None:
                return ()
            st = env.state
            key = ("reach_sites" if sites else "reach", args)
            if memo is not None and key in memo:
                return memo[key]  # type: ignore[no-any-return]
            if sites:
                found = walk_segments(game.lattice, st.board, game.catalogue, *args)
                result: tuple[Any, ...] = tuple(dict.fromkeys(
                    (c, name)
                    for c, seg in sorted(found, key=lambda k: (cell_key(k[0]), k[1]))
                    for name in faces[st.board[c][:2]].near[seg]))
            else:
                result = tuple(sorted(walk(game.lattice, st.board, game.catalogue, *args),
                                      key=cell_key))
            if memo is not None:
                memo[key] = result
            return result
        return reach

    def english(self, en: English, node: n.Call) -> str:
        args = node.args
        kind = args[3].id  # type: ignore[attr-defined]
        what = "the sites" if self.by_site else "the tiles"
        said = f"{what} reachable from {en(args[0])} {_moves(en(args[1]))} " \
               f"through {en.v.many(kind)}"
        if self.across:
            said += f", passing {en.v.many(args[4].id)}"  # type: ignore[attr-defined]
        elif self.by_site:
            said += " (on a tile a barrier splits, only the side reached)"
        if not (isinstance(args[2], n.Name) and args[2].id == "tiles"):
            said += f", entering only {en.collection(args[2])}"
        if len(args) > 4 and not self.across:
            said += f", and stopping on entering {en.collection(args[4])}"
        return said

    def blocked(self, game: Game, node: n.Call, env: Env, value: Any
                ) -> tuple[Unreached, int] | None:
        """Why this call does not give `value`, with its limit of moves.

        None when it does give it, or when there is nothing to say.
        """
        args = _reach_setup(game.expr, node, *self._limits(node))(env)
        if args is None or value is None:
            return None
        st = env.state
        cell = value[0] if self.by_site else value
        if cell not in st.board:
            return None
        info = game.catalogue.faces[st.board[cell][:2]]
        kind = args[2]
        if self.by_site:
            site = info.sites.get(value[1])
            wanted = touching(info, site.segment, kind) if site is not None else []
        else:
            wanted = [s.index for s in info.segments if s.kind == kind]
        start, starts, _, steps, through, stop, barriers, stop_at = args
        why = unreached(game.lattice, st.board, game.catalogue, start, starts, kind,
                        steps, through, cell, wanted, stop, barriers, stop_at)
        return None if why is None else (why, steps)

    def why_not_in(self, ex: Explainer, target: Any, call: n.Call, ctx: Ctx, type_: str
                   ) -> Reason | None:
        """What stops a move: distance, a tile it may not enter, or a place it must stop at.

        The kernel says which (`compiler.kernel.tiles.unreached`); the tiles to
        blame are then explained by the rule that keeps the piece out of them
        (or stops it there), with that rule's citation.
        """
        from compiler.engine.explain import _UNKNOWN, Reason, _merge
        from compiler.ir.english import counted
        env = ctx.env
        saved = env.vars
        env.vars = dict(ctx.vars)
        try:
            found = self.blocked(ex.game, call, env, target)
            origin = ex.fn(call.args[0])(env)
        finally:
            env.vars = saved
        if found is None:
            return None
        why, steps = found
        kind = ex.vocab.one(call.args[3].id)  # type: ignore[attr-defined]
        there = ex.describe(target, type_)
        start = ex.describe(origin, "site")
        moves = counted(steps, "move")
        if why.why == "elsewhere":
            return Reason(f"{there} is not in or beside {kind}")
        if why.why == "cut_off":
            return Reason(f"{there} cannot be reached from {start} through {kind}")
        if why.why == "too_far":
            return Reason(f"{there} is {counted(why.distance or 0, 'move')} from {start} "
                          f"through {kind}, more than {steps}")
        tiles = ex.listing([ex.describe(c, "tile") for c in why.cells])
        if why.why == "closed":
            cell = target[0] if type_ == "site" else target
            r = ex.not_in(cell, call.args[2], ctx, "tile")
            return Reason(f"{ex.describe(cell, 'tile')} may not be entered: {r.text}", r.rules)
        if why.why == "barred":
            if not why.cells:
                return Reason(f"no way from {start} to {there} of at most {moves} leads only "
                              f"through tiles that may be entered")
            reasons = [ex.not_in(c, call.args[2], ctx, "tile") for c in why.cells[:3]]
            return Reason(f"every way from {start} to {there} of at most {moves} passes {tiles}, "
                          f"which may not be entered: " + "; ".join(r.text for r in reasons),
                          _merge(*(r.rules for r in reasons)))
        # "stopped": a place on the way where the rules end the move
        if not why.cells or len(call.args) < 5:
            return Reason(f"every way from {start} to {there} of at most {moves} stops on the way")
        halting = call.args[4]
        stops = ex.safe(halting, ctx)
        reasons = []
        for c in why.cells[:2]:
            if halting.type == "set:site" and stops is not _UNKNOWN:
                site = next((x for x in stops if x[0] == c), None)
                if site is not None:
                    reasons.append(ex.is_in(site, halting, ctx, "site"))
            else:
                reasons.append(ex.is_in(c, halting, ctx, "tile"))
        text = f"every way from {start} to {there} of at most {moves} stops first at {tiles}"
        if reasons:
            text += ": " + "; ".join(r.text for r in reasons)
        return Reason(text, _merge(*(r.rules for r in reasons)))


@register
class Reach(_Reach):
    name, returns = "reach", "set:tile"
    summary = ("The tiles a piece at a site gets to in some moves through one kind of area, "
               "entering only some tiles, and stopping where a fifth argument (tiles or sites) "
               "says.")
    example = "count(pawn as q where count(reach(q.site, 2, tiles, field)) > 3)"


@register
class ReachSites(_Reach):
    name, returns, by_site = "reach_sites", "set:site", True
    summary = ("`reach`, told by site: only the sites of the part of each tile the piece gets "
               "into, since a barrier can split a tile.")
    example = "count(pawn as q where count(reach_sites(q.site, 2, tiles, field)) > 3)"


@register
class ReachAcross(_Reach):
    name, returns, across = "reach_across", "set:tile", True
    summary = ("`reach` for a piece that passes one kind of barrier feature that otherwise "
               "splits the area.")
    example = "count(pawn as q where count(reach_across(q.site, 1, tiles, field, well)) > 3)"


@register
class ReachSitesAcross(_Reach):
    name, returns, by_site, across = "reach_sites_across", "set:site", True, True
    summary = "`reach_across`, told by site."
    example = ("count(pawn as q where count(reach_sites_across(q.site, 1, tiles, field, well)) "
               "> 3)")


@register
class Hops(Builtin):
    name, group, returns = "hops", "board", "set:tile"
    summary = ("The tiles within some edge steps of a tile (or of an empty position), across "
               "any edges whatever the tiles show, entering only some tiles.")
    example = "count(hops(placed, 3, tiles))"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        """`hops(tile, steps, through)`: tiles within some edge steps, whatever they show."""
        if tc._arity(node, 3):
            _tile_or_cell(tc, node.args[0], scope, "the first argument of `hops`")
            tc.expect(node.args[1], scope, "int", "the number of steps, in `hops`")
            tc.expect(node.args[2], scope, "set:tile", "the tiles `hops` may enter")
        return "set:tile"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        """Tiles within some edge steps of a tile, over whatever the tiles show."""
        from compiler.engine.evaluate import cell_key
        tile_f, steps_f, through_f = (cx(a) for a in node.args)
        lattice = cx.game.lattice

        token = object()

        def hops(env: Env) -> tuple[Any, ...]:
            cell = tile_f(env)
            if cell is None:
                return ()
            steps, through = steps_f(env), through_f(env)
            # Often read once per item of a filter (`… where it is in hops(x, 2, …)`):
            # while moves are listed the state is fixed, so each walk is made once.
            memo = env.memo if isinstance(through, tuple) else None
            key = (token, cell, steps, through)
            if memo is not None and key in memo:
                return memo[key]
            found = hop(lattice, env.state.board, cell, steps, frozenset(through))
            result = tuple(sorted(found, key=cell_key))
            if memo is not None:
                memo[key] = result
            return result
        return hops

    def english(self, en: English, node: n.Call) -> str:
        args = node.args
        steps = en(args[1])
        said = f"the tiles within {steps} edge step{'' if steps == '1' else 's'} of " \
               f"{en(args[0])}, whatever they show"
        if not (isinstance(args[2], n.Name) and args[2].id == "tiles"):
            said += f", entering only {en.collection(args[2])}"
        return said

    def why_not_in(self, ex: Explainer, target: Any, call: n.Call, ctx: Ctx, type_: str
                   ) -> Reason | None:
        """Tile steps whatever the tiles show: too far, or kept out of tiles."""
        if type_ not in ("tile", "cell"):
            return None
        from compiler.engine.evaluate import cell_key
        from compiler.engine.explain import _UNKNOWN, Reason, _merge
        from compiler.ir.english import counted
        st = ctx.state
        origin, steps, through = (ex.safe(a, ctx) for a in call.args[:3])
        if _UNKNOWN in (origin, steps, through) or origin is None or target not in st.board:
            return None
        steps = steps or 0
        lattice, board = ex.game.lattice, st.board
        free = hop(lattice, board, origin, None)
        there, start = ex.describe(target, "tile"), ex.describe(origin, "tile")
        if target not in free:
            return Reason(f"{there} cannot be reached from {start}")
        if free[target] > steps:
            return Reason(f"{there} is {counted(free[target], 'step')} from {start}, "
                          f"more than {steps}")
        allowed = frozenset(through)
        if target not in allowed:
            r = ex.not_in(target, call.args[2], ctx, "tile")
            return Reason(f"{there} may not be entered: {r.text}", r.rules)
        back = hop(lattice, board, target, None)
        blockers = [c for c in sorted(frozenset(free) - allowed, key=cell_key)
                    if c not in (origin, target) and free[c] + back.get(c, steps + 1) <= steps]
        if not blockers:
            return None
        reasons = [ex.not_in(c, call.args[2], ctx, "tile") for c in blockers[:3]]
        passing = ex.listing([ex.describe(c, "tile") for c in blockers])
        return Reason(f"every way from {start} to {there} of at most "
                      f"{counted(steps, 'step')} passes {passing}, which may not be entered: "
                      + "; ".join(r.text for r in reasons), _merge(*(r.rules for r in reasons)))


@register
class Nearest(Builtin):
    name, group = "nearest", "board"
    returns = "set:any"   # the tiles or sites given: see `check`
    summary = ("The members of a collection of tiles or sites on the tiles closest to a tile, "
               "in edge steps between laid tiles.")
    example = "nearest(placed, sites where it is field)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        """`nearest(tile, coll)`: the tiles or sites of coll closest to the tile."""
        from compiler.check.types import words
        if not tc._arity(node, 2):
            return "set:any"
        tc.expect(node.args[0], scope, "tile", "the first argument of `nearest`")
        got = tc.expr(node.args[1], scope)
        if got not in ("set:tile", "set:site", "any"):
            tc.report(node.args[1].loc, "type",
                      f"`nearest` picks among tiles or sites, but this is {words(got)}")
            return "set:any"
        return got

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        """The members of a collection of tiles or sites on the tiles closest to a tile.

        Distance is counted in edge steps between laid tiles, whatever they
        show; a member on the tile itself is at distance 0.
        """
        tile_f, coll_f = cx(node.args[0]), cx(node.args[1])
        of_site = node.args[1].type == "set:site"
        lattice = cx.game.lattice

        def nearest(env: Env) -> tuple[Any, ...]:
            cell = tile_f(env)
            items = coll_f(env)
            if cell is None or not items:
                return ()
            far = hop(lattice, env.state.board, cell, None)
            far[cell] = 0
            dist = {x: far.get(x[0] if of_site else x) for x in items}
            known = [d for d in dist.values() if d is not None]
            if not known:
                return ()
            best = min(known)
            return tuple(x for x in items if dist[x] == best)
        return nearest

    def english(self, en: English, node: n.Call) -> str:
        return f"of {en.collection(node.args[1])}, those nearest to {en(node.args[0])}"

    def why_not_in(self, ex: Explainer, value: Any, call: n.Call, ctx: Ctx, type_: str
                   ) -> Reason | None:
        """"-2,0:space is 3 tiles from tile 0,0; 1,0:space is nearer (1)"."""
        from compiler.engine.explain import _UNKNOWN, Reason
        from compiler.ir.english import counted
        origin, items = ex.safe(call.args[0], ctx), ex.safe(call.args[1], ctx)
        if origin is _UNKNOWN or items is _UNKNOWN or origin is None:
            return None
        if value not in items:
            return ex.not_in(value, call.args[1], ctx, type_)
        st = ctx.state
        far = hop(ex.game.lattice, st.board, origin, None)
        far[origin] = 0
        cell_of = (lambda x: x[0]) if type_ == "site" else (lambda x: x)
        mine = far.get(cell_of(value))
        best = ex.safe(call, ctx)
        if best is _UNKNOWN or not best or mine is None:
            return None
        d = far.get(cell_of(best[0]))
        said = ex.describe(value, type_)
        nearer = ex.listing([ex.describe(x, type_) for x in best])
        return Reason(f"{said} is {counted(mine, 'step')} from {ex.describe(origin, 'tile')}, "
                      f"but {nearer} {'is' if len(best) == 1 else 'are'} nearer "
                      f"({counted(d or 0, 'step')})")


def _tile_or_cell(tc: TypeChecker, node: n.Expr, scope: Scope, what: str) -> str:
    """A laid tile or an empty position: both are cells of the board."""
    from compiler.check.types import words
    t = tc.expr(node, scope)
    if t not in ("tile", "cell", "any", "none"):
        tc.report(node.loc, "type", f"{what} should be a tile or a position, but this is "
                                    f"{words(t)}")
    return t


@register
class Distance(Builtin):
    name, group, returns = "distance", "board", "int"
    summary = ("The fewest edge steps from one tile or position to another, through laid "
               "tiles whatever they show; either end may be an empty position. Where no way "
               "joins them the rule cannot be carried out (it is never taken as 0).")
    example = "distance(placed, placed)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 2):
            _tile_or_cell(tc, node.args[0], scope, "the first argument of `distance`")
            _tile_or_cell(tc, node.args[1], scope, "the second argument of `distance`")
        return "int"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.evaluate import RuleError
        a_f, b_f = (cx(a) for a in node.args)
        game = cx.game

        def steps(env: Env) -> int:
            a, b = a_f(env), b_f(env)
            if a is None or b is None:
                raise RuleError("a distance needs two positions, but one of them is none")
            found = distance(game.lattice, env.state.board, a, b)
            if found is None:
                actor = env.state.turn.actor
                raise RuleError(f"no path of laid tiles joins {game.format_cell(a, actor)} "
                                f"and {game.format_cell(b, actor)}")
            return found
        return steps

    def english(self, en: English, node: n.Call) -> str:
        return (f"the number of edge steps from {en(node.args[0])} to {en(node.args[1])} "
                f"through laid tiles")

    def why_compared(self, ex: Explainer, node: n.Compare, ctx: Ctx, actual: bool
                     ) -> Reason | None:
        """"tile 3,0 is 3 edge steps from tile 0,0, not at most 2"; or that no path joins them."""
        from compiler.engine.explain import _UNKNOWN, _WANTED, Reason, _shown
        from compiler.ir.english import counted
        call = node.left
        assert isinstance(call, n.Call)
        a, b, limit = (ex.safe(x, ctx) for x in (call.args[0], call.args[1], node.right))
        if _UNKNOWN in (a, b, limit) or a is None or b is None:
            return None
        en = ex.words(ctx)
        ends = [en(arg) for arg in call.args]
        steps = distance(ex.game.lattice, ctx.state.board, a, b)
        if steps is None:
            return Reason(f"no path of laid tiles joins {ends[0]} and {ends[1]}, so there is "
                          f"no distance between them to compare")
        wanted = {"==": "exactly", "!=": "other than", **_WANTED}[node.op]
        rtext = en(node.right)
        rtext += _shown(ex.describe(limit, node.right.type), rtext)
        said = f"{ends[0]} is {counted(steps, 'edge step')} from {ends[1]}"
        return Reason(f"{said}, not {wanted} {rtext}" if not actual else
                      f"{said} ({wanted} {rtext})")


@register
class Splits(Builtin):
    name, group, returns = "splits", "board", "bool"
    summary = ("Whether taking a laid tile away would leave the tiles of its board in two "
               "groups or more.")
    example = "splits(placed)"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 1):
            tc.expect(node.args[0], scope, "tile", "the tile `splits` takes away")
        return "bool"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        tile_f = cx(node.args[0])
        lattice = cx.game.lattice

        def splits(env: Env) -> bool:
            cell = tile_f(env)
            return cell is not None and cell in env.state.board and \
                cut_vertex(lattice, env.state.board, cell)
        return splits

    def english(self, en: English, node: n.Call) -> str:
        return f"taking {en(node.args[0])} away would split its board in two"

    def english_negated(self, en: English, node: n.Call) -> str | None:
        return f"taking {en(node.args[0])} away would leave its board in one piece"


@register
class Ways(Builtin):
    name, group, returns = "ways", "board", "set:set:tile"
    summary = ("Every way to take some units of a resource from laid tiles that hold it: "
               "each way lists the tiles, one per unit (a tile twice for two units from it), "
               "sorted, so one payment is one way whatever order it is written in. Taking "
               "none is one way, the empty one.")
    example = "count(ways(1, points, tiles))"

    def check(self, tc: TypeChecker, node: n.Call, scope: Scope) -> str:
        if tc._arity(node, 3):
            tc.expect(node.args[0], scope, "int", "how many units `ways` takes")
            res = node.args[1]
            if isinstance(res, n.Name):
                tc.check_kind(res.loc, res.id, ("resource",), "resource")
            else:
                tc.report(res.loc, "type", "the second argument of `ways` should be the name "
                                           "of a resource")
            tc.expect(node.args[2], scope, "set:tile", "the tiles `ways` takes from")
        return "set:set:tile"

    def compile(self, cx: ExprCompiler, node: n.Call) -> Fn:
        from compiler.engine.evaluate import cell_key
        n_f, holders_f = cx(node.args[0]), cx(node.args[2])
        res = node.args[1].id if isinstance(node.args[1], n.Name) else ""

        def ways(env: Env) -> tuple[Any, ...]:
            count = n_f(env) or 0
            if count < 0:
                return ()
            held = env.state.tile_res
            cells = sorted((c for c in holders_f(env) if held.get(c, {}).get(res, 0) > 0),
                           key=cell_key)
            out: list[tuple[Any, ...]] = []

            def take(i: int, left: int, way: tuple[Any, ...]) -> None:
                if left == 0:
                    out.append(way)
                    return
                if i == len(cells):
                    return
                have = held[cells[i]][res]
                for k in range(min(have, left), -1, -1):
                    take(i + 1, left - k, way + (cells[i],) * k)
            take(0, count, ())
            return tuple(out)
        return ways

    def english(self, en: English, node: n.Call) -> str:
        return (f"the ways to take {en(node.args[0])} {en(node.args[1])} from "
                f"{en.collection(node.args[2])}")

    def why_not_in(self, ex: Explainer, value: Any, call: n.Call, ctx: Ctx, type_: str
                   ) -> Reason | None:
        """Why a payment is no way to pay: too many or too few units, a tile that may not
        pay, holds none, or holds fewer than the payment takes from it."""
        from compiler.engine.evaluate import cell_key
        from compiler.engine.explain import _UNKNOWN, Reason
        from compiler.ir.english import counted
        count, holders = ex.safe(call.args[0], ctx), ex.safe(call.args[2], ctx)
        if _UNKNOWN in (count, holders) or not isinstance(value, tuple) or \
                not isinstance(call.args[1], n.Name):
            return None
        res = call.args[1].id
        one, many = ex.game.title(res), ex.game.title(res, plural=True)
        if len(value) != (count or 0):
            return Reason(f"the payment takes {counted(len(value), one, many)}, but the rule "
                          f"takes {counted(count or 0, one, many)}")
        held = ctx.state.tile_res
        for cell in sorted(set(value), key=cell_key):
            if cell not in holders:
                return ex.not_in(cell, call.args[2], ctx, "tile")
            have, taken = held.get(cell, {}).get(res, 0), value.count(cell)
            tile = ex.describe(cell, "tile")
            if have == 0:
                return Reason(f"{tile} holds no {many}")
            if taken > have:
                return Reason(f"{tile} holds {counted(have, one, many)}, but the payment takes "
                              f"{taken} from it")
        return None
