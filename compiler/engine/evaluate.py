"""Expressions -> closures.

Each expression node is compiled once, when a ruleset is loaded, into a
function of an `Env`. The checker has written every node's static type, so
the compiler picks a specialised closure (an attribute of a piece, a count of
features in an area...) and nothing is dispatched on values at run time.

Runtime values: a player is its seat index, a piece its id, a tile or cell an
`(x, y)` tuple, a site `((x, y), name)`, an area the root of its union-find
set, a card its id, collections are tuples in a stable order, and `none` is
None (false in a condition).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from compiler.engine.state import POOL, State
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.library import LIBRARY
from compiler.library.core import UNBOUND as _MISSING
from compiler.library.core import element_alias as _alias
from compiler.library.core import restore_var as _restore
from compiler.kernel.tiles import (FaceInfo, Unreached, hop, placements, unreached, walk,
                                   walk_segments)

if TYPE_CHECKING:
    from compiler.engine.game import Game

Fn = Callable[["Env"], Any]


class RuleError(Exception):
    """The rules cannot be applied as written here (a rules bug or an impossible effect)."""


def call_scoped(env: Env, body: Callable[[Env], Any], params: list[str] | tuple[str, ...],
                values: list[Any]) -> Any:
    """Run a definition's or an effect's body seeing only its own parameters.

    A body is written apart from its call sites, so it must not read (or
    leak into) the caller's variables; the caller's are restored after.
    """
    saved = env.vars
    env.vars = dict(zip(params, values))
    try:
        return body(env)
    finally:
        env.vars = saved


def touching(info: FaceInfo, segment: int, kind: str) -> list[int]:
    """The segments of `kind` a piece in `segment` can set out from or arrive by.

    The segment itself, if of that kind, or those of that kind meeting it at
    an edge: a town on a road meets the field the road runs through.
    """
    own = info.segments[segment]
    return [s.index for s in info.segments if s.kind == kind and
            (s.index == own.index or set(s.edges) & set(own.edges))]


class Env:
    """What an expression can see: the state, the active player, bound names."""

    __slots__ = ("state", "game", "me", "vars", "log", "events", "action", "chance", "drawn",
                 "sampler", "memo", "cites", "trace", "decided")

    def __init__(self, game: Game, state: State, me: int | None = None,
                 vars: dict[str, Any] | None = None) -> None:
        self.game = game
        self.state = state
        self.me = state.turn.actor if me is None else me
        self.vars: dict[str, Any] = vars if vars is not None else {}
        self.log: list[Any] = []
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.action: str | None = None
        self.chance: list[str] = []      # outcomes supplied with the move, not yet used
        self.drawn: list[str] = []       # outcomes used, in order (they go into the record)
        self.sampler: Any = None         # a random.Random when the engine may decide chance
        # Results of costly pure functions, kept only while nothing can change the
        # state (listing and checking moves); None while effects run.
        self.memo: dict[Any, Any] | None = None
        # While a move is judged: the rules of the conditions found true, in order.
        self.cites: dict[str, None] | None = None
        # While a move is carried out: the rules of the definitions that took effect
        # (a true condition, a non-zero number, a non-empty set), so that each
        # consequence can cite the ones it follows from. None while moves are listed.
        self.trace: list[str] | None = None
        # Rules of definitions that took effect in a statement that showed nothing
        # (a piece an exemption kept in place): they decided the move all the same.
        self.decided: list[str] = []

    def outcome(self, choices: list[str], weights: list[int] | None, what: str) -> str:
        """The next chance outcome: the one supplied with the move, else a sampled one.

        Chance is never decided silently: without a supplied outcome or a
        sampler (random play), the move cannot be carried out, and the ruling
        says which outcome is missing.
        """
        if not choices:
            raise RuleError(f"{what}: nothing can come of it")
        if self.chance:
            got = self.chance.pop(0)
            if got not in choices:
                raise ChanceError(f"{what}: `{got}` cannot come up here "
                                  f"(possible: {', '.join(choices)})")
        elif self.sampler is not None:
            got = self.sampler.choices(choices, weights=weights)[0]
        else:
            raise ChanceError(f"{what}: say what chance decided after `!` "
                              f"(one of: {', '.join(choices)})")
        self.drawn.append(got)
        return got


class ChanceError(Exception):
    """A move needs a chance outcome it was not given, or was given an impossible one."""


def cell_key(cell: tuple[int, int]) -> tuple[int, int]:
    """Reading order: row, then column."""
    return (cell[1], cell[0])


class ExprCompiler:
    def __init__(self, game: Game) -> None:
        self.game = game

    def __call__(self, node: Any) -> Fn:
        return getattr(self, f"c_{node.node}")(node)

    # ------------------------------------------------------------- simple

    def c_number(self, node: n.Number) -> Fn:
        v = node.value
        return lambda env: v

    def c_text(self, node: n.Text) -> Fn:
        v = node.value
        return lambda env: v

    def c_bool(self, node: n.Boolean) -> Fn:
        v = node.value
        return lambda env: v

    def c_none(self, node: n.NoneValue) -> Fn:
        return lambda env: None

    def c_name(self, node: n.Name) -> Fn:
        name = node.id
        if node.ref == "var":
            def var(env: Env) -> Any:
                try:
                    return env.vars[name]
                except KeyError:
                    raise RuleError(f"`{name}` has no value here") from None
            return var
        if node.ref == "builtin":
            b = LIBRARY.get(name)
            if b is not None:
                return b.compile(self, node)
            return getattr(self, f"b_{name}")()  # a board value, not yet in the library
        if node.ref == "kind":
            return self._kind_collection(node.id, node.category or "", None, None, None)
        raise RuleError(f"unresolved name `{name}`")

    # ------------------------------------------------------------ builtins

    def b_placed(self) -> Fn:
        return lambda env: env.state.turn.placed

    def b_tiles(self) -> Fn:
        return lambda env: tuple(sorted(env.state.board, key=cell_key))

    def b_sites(self) -> Fn:
        game = self.game

        def sites(env: Env) -> tuple[Any, ...]:
            st = env.state
            out = []
            for cell in sorted(st.board, key=cell_key):
                card, face, _ = st.board[cell]
                for name in game.catalogue.faces[(card, face)].sites:
                    out.append((cell, name))
            return tuple(out)
        return sites

    def b_pieces(self) -> Fn:
        return lambda env: tuple(env.state.pieces)

    def b_areas(self) -> Fn:
        game = self.game
        return lambda env: tuple(game.sorted_areas(env.state, env.state.areas.roots()))

    def b_frontier(self) -> Fn:
        game = self.game

        def frontier(env: Env) -> tuple[Any, ...]:
            st = env.state
            if not st.board:
                return (game.first_cell,)
            return tuple(st.frontier.cells())
        return frontier

    def b_rotations(self) -> Fn:
        r = tuple(range(self.game.lattice.rotations))
        return lambda env: r

    # --------------------------------------------------------- collections

    def _kind_collection(self, kind: str | None, category: str, within: Fn | None,
                         within_type: str | None, owner: Fn | None) -> Fn:
        game = self.game
        if category == "piece" or (category == "" and kind is None):
            def pieces(env: Env) -> tuple[int, ...]:
                st = env.state
                ps = [p for p in st.pieces.values() if kind is None or game.is_a(p.kind, kind)]
                if owner is not None:
                    o = owner(env)
                    ps = [p for p in ps if p.owner == o]
                if within is not None:
                    w = within(env)
                    if within_type == "tile":
                        ps = [p for p in ps if p.cell == w]
                    elif within_type == "set:tile":
                        ws = set(w)
                        ps = [p for p in ps if p.cell in ws]
                    elif within_type == "area":
                        ps = [p for p in ps if game.site_area(st, (p.cell, p.site)) == w]
                    elif within_type == "site":
                        ps = [p for p in ps if (p.cell, p.site) == w]
                    elif within_type == "set:site":
                        at = set(w)
                        ps = [p for p in ps if (p.cell, p.site) in at]
                return tuple(p.id for p in ps)
            return pieces
        if category in ("feature", "site"):
            def sites(env: Env) -> tuple[Any, ...]:
                st = env.state
                cells: Any
                w = within(env) if within is not None else None
                if within is None:
                    cells = sorted(st.board, key=cell_key)
                elif within_type == "tile":
                    cells = [w] if w in st.board else []
                elif within_type == "set:tile":
                    cells = sorted(w, key=cell_key)
                elif within_type == "area":
                    cells = sorted(st.areas.cells.get(w, ()), key=cell_key)
                else:
                    cells = []
                out = []
                for cell in cells:
                    card, face, _ = st.board[cell]
                    info = game.catalogue.faces[(card, face)]
                    for s in info.sites.values():
                        if kind is not None and not (s.is_feature and s.kind == kind):
                            continue
                        if within_type == "area" and \
                                st.areas.area_of(cell, s.segment) != w:
                            continue
                        out.append((cell, s.name))
                return tuple(out)
            return sites
        if category == "area":
            def areas(env: Env) -> tuple[int, ...]:
                st = env.state
                if within is not None:
                    cell = within(env)
                    if cell not in st.board:
                        return ()
                    card, face, _ = st.board[cell]
                    roots = {st.areas.area_of(cell, s.index)
                             for s in game.catalogue.faces[(card, face)].segments}
                else:
                    roots = st.areas.roots()
                roots = [r for r in roots if kind is None or st.areas.kind(r) == kind]
                return tuple(game.sorted_areas(st, roots))
            return areas
        if category == "tile":
            def tiles(env: Env) -> tuple[Any, ...]:
                st = env.state
                if within is None:
                    return tuple(sorted(st.board, key=cell_key))
                w = within(env)
                if within_type == "area":
                    return tuple(sorted(st.areas.cells.get(w, ()), key=cell_key))
                return tuple(sorted((c for c in w if c in st.board), key=cell_key))
            return tiles
        raise RuleError(f"cannot collect `{kind}`")

    def c_collection(self, node: n.Collection) -> Fn:
        src = node.source
        within = self(node.within) if node.within is not None else None
        within_type = node.within.type if node.within is not None else None
        owner = self(node.owner) if node.owner is not None else None
        if isinstance(src, n.Name) and src.ref == "kind":
            return self._kind_collection(src.id, src.category or "", within, within_type, owner)
        if isinstance(src, n.Name) and src.ref == "builtin" and src.id in (
                "pieces", "sites", "areas", "tiles") and (within or owner):
            category = {"pieces": "", "sites": "site", "areas": "area", "tiles": "tile"}[src.id]
            return self._kind_collection(None, category, within, within_type, owner)
        base = self(src)
        if within is None and owner is None:
            return base
        raise RuleError("`in`/`of` narrow a kind or pieces/sites/areas/tiles")

    def c_filtered(self, node: n.Filtered) -> Fn:
        coll = self(node.collection)
        cond = self(node.cond)
        alias = _alias(node.collection)

        def filtered(env: Env) -> tuple[Any, ...]:
            items = coll(env)
            vars = env.vars
            saved_it = vars.get("it", _MISSING)
            saved_alias = vars.get(alias, _MISSING) if alias else _MISSING
            out = []
            try:
                for x in items:
                    vars["it"] = x
                    if alias:
                        vars[alias] = x
                    if cond(env):
                        out.append(x)
            finally:
                _restore(vars, "it", saved_it)
                if alias:
                    _restore(vars, alias, saved_alias)
            return tuple(out)
        return filtered

    # ----------------------------------------------------------- operators

    def c_arith(self, node: n.Arith) -> Fn:
        first = self(node.first)
        rest = [(op, self(e)) for op, e in node.rest]
        if node.type and node.type.startswith("set:"):
            def union(env: Env) -> tuple[Any, ...]:
                out = list(first(env))
                for _, f in rest:
                    for x in f(env):
                        if x not in out:
                            out.append(x)
                return tuple(out)
            return union

        def arith(env: Env) -> int:
            v = first(env) or 0
            for op, f in rest:
                w = f(env) or 0
                if op == "+":
                    v += w
                elif op == "-":
                    v -= w
                elif op == "*":
                    v *= w
                else:
                    if w == 0:
                        raise RuleError("division by zero")
                    v //= w
            return v
        return arith

    def c_neg(self, node: n.Neg) -> Fn:
        f = self(node.value)
        return lambda env: -(f(env) or 0)

    def c_logic(self, node: n.Logic) -> Fn:
        items = [self(i) for i in node.items]
        if node.op == "and":
            return lambda env: all(f(env) for f in items)
        return lambda env: any(f(env) for f in items)

    def c_not(self, node: n.Not) -> Fn:
        f = self(node.value)
        return lambda env: not f(env)

    def c_compare(self, node: n.Compare) -> Fn:
        a, b = self(node.left), self(node.right)
        op = node.op
        if op == "==":
            return lambda env: a(env) == b(env)
        if op == "!=":
            return lambda env: a(env) != b(env)
        if op == "<":
            return lambda env: (a(env) or 0) < (b(env) or 0)
        if op == "<=":
            return lambda env: (a(env) or 0) <= (b(env) or 0)
        if op == ">":
            return lambda env: (a(env) or 0) > (b(env) or 0)
        return lambda env: (a(env) or 0) >= (b(env) or 0)

    def c_is_none(self, node: n.IsNone) -> Fn:
        f = self(node.value)
        if node.negated:
            return lambda env: f(env) is not None
        return lambda env: f(env) is None

    def c_is_in(self, node: n.IsIn) -> Fn:
        v, c = self(node.value), self(node.collection)
        if node.negated:
            return lambda env: v(env) not in c(env)
        return lambda env: v(env) in c(env)

    def c_is_kind(self, node: n.IsKind) -> Fn:
        f = self(node.value)
        kind = node.kind
        game = self.game
        t = node.value.type
        neg = node.negated
        if t == "kind":
            def test(env: Env) -> bool:
                return f(env) == kind
        elif t == "player":
            def test(env: Env) -> bool:
                p = f(env)
                return p is not None and game.seat_id(p) == kind
        elif t == "piece":
            def test(env: Env) -> bool:
                p = f(env)
                return p is not None and game.is_a(env.state.piece(p).kind, kind)
        elif t == "site":
            def test(env: Env) -> bool:
                s = f(env)
                return s is not None and game.site_info(env.state, s).kind == kind
        else:
            def test(env: Env) -> bool:
                a = f(env)
                return a is not None and env.state.areas.kind(a) == kind
        if neg:
            return lambda env: not test(env)
        return test

    def c_has(self, node: n.Has) -> Fn:
        f = self(node.value)
        kind = node.kind
        game = self.game
        t = node.value.type
        is_piece = game.category(kind) == "piece"

        def tile_has(st: State, cell: Any) -> bool:
            if cell is None or cell not in st.board:
                return False
            if is_piece:
                return any(p.cell == cell and game.is_a(p.kind, kind) for p in st.pieces.values())
            card, face, _ = st.board[cell]
            return kind in game.catalogue.faces[(card, face)].features

        if t == "tile":
            return lambda env: tile_has(env.state, f(env))
        if t == "set:tile":
            return lambda env: any(tile_has(env.state, c) for c in f(env))
        if t == "area":
            def area_has(env: Env) -> bool:
                a = f(env)
                if a is None:
                    return False
                st = env.state
                if is_piece:
                    return any(game.is_a(p.kind, kind) and game.site_area(st, (p.cell, p.site)) == a
                               for p in st.pieces.values())
                return st.areas.features[st.areas.find(a)].get(kind, 0) > 0
            return area_has

        def site_has(env: Env) -> bool:
            s = f(env)
            if s is None:
                return False
            st = env.state
            if is_piece:
                return any(game.is_a(st.piece(p).kind, kind) for p in st.stack_of(s))
            info = game.site_info(st, s)
            card, face, _ = st.board[s[0]]
            return kind in game.catalogue.faces[(card, face)].segments[info.segment].features
        return site_has

    def c_if_expr(self, node: n.IfExpr) -> Fn:
        c, a, b = self(node.cond), self(node.then), self(node.otherwise)
        return lambda env: a(env) if c(env) else b(env)

    # ---------------------------------------------------------- attributes

    def c_attr(self, node: n.Attr) -> Fn:
        obj = self(node.obj)
        t = node.obj.type
        name = node.name
        game = self.game
        if t == "piece":
            def piece_attr(env: Env) -> Any:
                pid = obj(env)
                st = env.state
                if pid is None or (pid not in st.pieces and pid not in st.gone):
                    return None  # a piece no longer in the game (say, bound to a lapsed grant)
                p = st.piece(pid)
                if name == "owner":
                    return p.owner
                if name == "site":
                    return (p.cell, p.site)
                if name == "tile":
                    return p.cell
                if name == "area":
                    return game.site_area(st, (p.cell, p.site))
                if name == "arrived":
                    return pid in st.turn.arrived
                stack = st.stack_of((p.cell, p.site))
                if pid not in stack:
                    return None if name in ("above", "below") else False
                i = stack.index(pid)
                if name == "covered":
                    return i < len(stack) - 1
                if name == "above":
                    return stack[i + 1] if i + 1 < len(stack) else None
                if name == "below":
                    return stack[i - 1] if i > 0 else None
                raise RuleError(f"pieces have no attribute `{name}`")
            return piece_attr
        if t == "site":
            if name == "tile":
                return lambda env: None if (s := obj(env)) is None else s[0]
            return lambda env: None if (s := obj(env)) is None else game.site_area(env.state, s)
        if t == "area":
            if name == "closed":
                return lambda env: (a := obj(env)) is not None and env.state.areas.closed(a)
            if game.category(name) in ("resource", "family"):
                members = game.families.get(name, (name,))

                def area_amount(env: Env) -> int:
                    a = obj(env)
                    if a is None:
                        return 0
                    st = env.state
                    held = st.area_res.get(st.areas.find(a), {})
                    return sum(held.get(r, 0) for r in members)
                return area_amount

            def area_attr(env: Env) -> Any:
                a = obj(env)
                if a is None:
                    return None
                st = env.state
                root = st.areas.find(a)
                attrs = st.area_attrs.get(root)
                if attrs is not None and name in attrs:
                    return attrs[name]
                return game.attribute_default(st.areas.kind(root), name)
            return area_attr
        if t == "player" and name in game.player_attrs:
            default = game.player_default(name)

            def player_attr(env: Env) -> Any:
                p = obj(env)
                if p is None:
                    return default
                return env.state.player_attrs[p].get(name, default)
            return player_attr
        if t in ("player", "holder"):
            members = game.families.get(name, (name,))

            def amount(env: Env) -> int:
                h = obj(env)
                if h is None:
                    return 0
                held = env.state.pool if h == POOL else env.state.player_res[h]
                return sum(held.get(r, 0) for r in members)
            return amount
        raise RuleError(f"cannot read `{name}` of {t}")

    # --------------------------------------------------------------- calls

    def c_call(self, node: n.Call) -> Fn:
        if node.defined:
            return self._define_call(node)
        b = LIBRARY.get(node.func)
        if b is not None:
            return b.compile(self, node)
        return getattr(self, f"f_{node.func}")(node)  # a board builtin, not yet in the library

    def _define_call(self, node: n.Call) -> Fn:
        game = self.game
        name = node.func
        args = [self(a) for a in node.args]
        rule = next((d.rule for d in game.decls if isinstance(d, m.Define) and d.id == name), None)

        def call(env: Env) -> Any:
            body, params = game.defines[name]
            value = call_scoped(env, body, params, [a(env) for a in args])
            if env.trace is not None and value and rule and rule not in env.trace:
                env.trace.append(rule)
            return value

        condition_rule = game.conditions.get(name)
        if condition_rule is None:
            return call

        def condition(env: Env) -> Any:
            held = call(env)
            if held and env.cites is not None:
                env.cites[condition_rule] = None  # type: ignore[index]
            return held
        return condition

    def f_around(self, node: n.Call) -> Fn:
        """The tiles on the board sharing an edge or a corner with a tile."""
        f = self(node.args[0])
        lattice = self.game.lattice

        def around(env: Env) -> tuple[Any, ...]:
            cell = f(env)
            if cell is None:
                return ()
            board = env.state.board
            return tuple(sorted((c for c in lattice.around(cell) if c in board), key=cell_key))
        return around

    def f_neighbours(self, node: n.Call) -> Fn:
        f = self(node.args[0])
        lattice = self.game.lattice

        def neighbours(env: Env) -> tuple[Any, ...]:
            cell = f(env)
            if cell is None:
                return ()
            board = env.state.board
            return tuple(sorted((c for c in lattice.neighbours(cell) if c in board), key=cell_key))
        return neighbours

    def f_faces(self, node: n.Call) -> Fn:
        f = self(node.args[0])
        faces = self.game.catalogue.card_faces
        return lambda env: faces.get(f(env), ())

    def f_fits(self, node: n.Call) -> Fn:
        card, face, cell, rot = (self(a) for a in node.args)
        game = self.game
        return lambda env: game.fits(env.state, card(env), face(env), cell(env), rot(env))

    def f_placeable(self, node: n.Call) -> Fn:
        f = self(node.args[0])
        game = self.game

        def placeable(env: Env) -> bool:
            st = env.state
            if not st.board:
                return True
            return next(placements(game.catalogue, st.frontier, [f(env)], game.match), None) \
                is not None
        return placeable

    def f_reach(self, node: n.Call) -> Fn:
        return self._reach(node, halting=node.args[4] if len(node.args) > 4 else None)

    def f_reach_across(self, node: n.Call) -> Fn:
        """`reach` for a piece that passes one kind of barrier feature."""
        return self._reach(node, across=node.args[4].id)  # type: ignore[attr-defined]

    def f_reach_sites(self, node: n.Call) -> Fn:
        """`reach`, told by site: only the parts of each tile the piece gets into."""
        return self._reach(node, halting=node.args[4] if len(node.args) > 4 else None,
                           sites=True)

    def f_reach_sites_across(self, node: n.Call) -> Fn:
        """`reach_across`, told by site."""
        return self._reach(node, across=node.args[4].id, sites=True)  # type: ignore[attr-defined]

    def _reach(self, node: n.Call, halting: n.Expr | None = None,
               across: str | None = None, sites: bool = False) -> Fn:
        """Where a piece at a site gets to through one kind of area: tiles, or sites.

        The walk goes segment by segment (`walk_segments`), so a barrier that
        splits a tile stops it there; told by tile, a tile counts once any of
        its segments is reached; told by site, only the sites near the
        segments reached count (`sites_near`). What stops the piece may be
        given as tiles or as sites: a site stops it in the segment it lies in.
        """
        setup = self._reach_setup(node, halting, across)
        game = self.game
        faces = game.catalogue.faces

        def reach(env: Env) -> tuple[Any, ...]:
            args = setup(env)
            if args is None:
                return ()
            st = env.state
            memo = env.memo
            key = ("reach_sites" if sites else "reach", args)
            if memo is not None and key in memo:
                return memo[key]
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

    def _reach_setup(self, node: n.Call, halting: n.Expr | None,
                     across: str | None) -> Callable[[Env], tuple[Any, ...] | None]:
        """The kernel's arguments for a `reach` call, from its own: start, moves, tiles..."""
        site_f, steps_f, through_f = (self(a) for a in node.args[:3])
        kind = node.args[3].id  # type: ignore[attr-defined]
        halting_f = self(halting) if halting is not None else None
        halting_sites = halting is not None and halting.type == "set:site"
        barriers = frozenset([across]) if across else frozenset()
        faces = self.game.catalogue.faces

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
            return (cell, tuple(starts), kind, steps_f(env), frozenset(through_f(env)),
                    stop, barriers, stop_at)
        return setup

    def reach_blocked(self, node: n.Call, env: Env, value: Any
                      ) -> tuple[Unreached, int] | None:
        """Why a `reach` call (of any kind) does not give `value`, with its limit of moves.

        None when it does give it, or when there is nothing to say.
        """
        f = node.func
        across = node.args[4].id if f.endswith("across") else None  # type: ignore[attr-defined]
        halting = node.args[4] if len(node.args) > 4 and not across else None
        args = self._reach_setup(node, halting, across)(env)
        if args is None or value is None:
            return None
        st = env.state
        cell = value[0] if f.startswith("reach_sites") else value
        if cell not in st.board:
            return None
        info = self.game.catalogue.faces[st.board[cell][:2]]
        kind = args[2]
        if f.startswith("reach_sites"):
            site = info.sites.get(value[1])
            wanted = touching(info, site.segment, kind) if site is not None else []
        else:
            wanted = [s.index for s in info.segments if s.kind == kind]
        start, starts, _, steps, through, stop, barriers, stop_at = args
        why = unreached(self.game.lattice, st.board, self.game.catalogue, start, starts, kind,
                        steps, through, cell, wanted, stop, barriers, stop_at)
        return None if why is None else (why, steps)

    def f_hops(self, node: n.Call) -> Fn:
        """Tiles within some edge steps of a tile, over whatever the tiles show."""
        tile_f, steps_f, through_f = (self(a) for a in node.args)
        lattice = self.game.lattice

        def hops(env: Env) -> tuple[Any, ...]:
            cell = tile_f(env)
            if cell is None:
                return ()
            found = hop(lattice, env.state.board, cell, steps_f(env), frozenset(through_f(env)))
            return tuple(sorted(found, key=cell_key))
        return hops

    def f_nearest(self, node: n.Call) -> Fn:
        """The members of a collection of tiles or sites on the tiles closest to a tile.

        Distance is counted in edge steps between laid tiles, whatever they
        show; a member on the tile itself is at distance 0.
        """
        tile_f, coll_f = self(node.args[0]), self(node.args[1])
        of_site = node.args[1].type == "set:site"
        lattice = self.game.lattice

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
