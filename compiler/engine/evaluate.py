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

import operator
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from compiler.engine import chance, zone_play
from compiler.engine.state import POOL, State
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.library import ATTRIBUTES, LIBRARY
from compiler.engine.hoist import hoisted_and
from compiler.engine.inline import inlined
from compiler.library.core import UNBOUND as _MISSING
from compiler.library.core import element_alias as _alias
from compiler.library.core import restore_var as _restore

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


_NO_ORIGINS: Mapping[str, Any] = MappingProxyType({})  # (see `Env.origins`)


class Env:
    """What an expression can see: the state, the active player, bound names."""

    __slots__ = ("state", "game", "me", "vars", "log", "events", "action", "chance", "drawn",
                 "sampler", "memo", "cites", "trace", "decided", "own", "guessed_at", "source",
                 "origins")

    def __init__(self, game: Game, state: State, me: int | None = None,
                 vars: dict[str, Any] | None = None) -> None:
        self.game = game
        self.state = state
        self.me = state.turn.actor if me is None else me
        self.vars: dict[str, Any] = vars if vars is not None else {}
        # The consequences noted while a move is recorded (effects.note makes the list:
        # an empty tuple until then, as most environments note nothing).
        self.log: list[Any] | tuple[()] = ()
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.action: str | None = None
        # Outcomes supplied with the move, not yet used (replaced by a list when given).
        self.chance: list[str] | tuple[()] = ()
        self.drawn: list[str] = []       # outcomes used, in order (they go into the record)
        self.sampler: Any = None         # a random.Random when the engine may decide chance
        # Results of costly pure functions, kept only while nothing can change the
        # state: while moves are listed and checked (the position's own, State.memo),
        # and while effects run, between two statements that may change it (a block
        # starts one, each such statement drops it: engine/effects.py). None elsewhere.
        self.memo: dict[Any, Any] | None = None
        # While a move is judged: the rules of the conditions found true, in order.
        self.cites: dict[str, None] | None = None
        # While a move is carried out: the rules of the definitions that took effect
        # (a true condition, a non-zero number, a non-empty set), so that each
        # consequence can cite the ones it follows from. None while moves are listed.
        self.trace: list[str] | None = None
        # Rules of definitions that took effect in a statement that showed nothing
        # (a piece an exemption kept in place): they decided the move all the same.
        # Replaced, never extended in place (so the empty tuple it starts as is shared).
        self.decided: list[str] | tuple[()] = ()
        # How many of `drawn` are the move's own: once the turn is over (the end of a
        # round, the next turn) chance is the table's, and a record writes its
        # outcomes as a decision of their own after the move (`! deck:…`). None while
        # every outcome drawn is the move's.
        self.own: int | None = None
        # In a view: how many consequences had been noted when a move first read a value
        # the view cannot see (engine/views.py); None while none was read.
        self.guessed_at: int | None = None
        # While a move is judged: the card ability running now, in the words of its title
        # ("the end-of-game effect of the Bakery at -1,0"), so that what it gives
        # says where it comes from. None outside abilities, and while moves are listed.
        self.source: str | None = None
        # While a move is judged: for each parameter of the effect running now, the
        # expression its caller passed, with the caller's variables and origins, so that
        # an amount passed down ("give n points") can be read as the caller wrote it.
        # Replaced, never changed in place: all start with the same empty one.
        self.origins: Mapping[str, tuple[Any, dict[str, Any], Mapping[str, Any]]] = _NO_ORIGINS

    def outcome(self, choices: list[str], weights: list[int] | None, what: str) -> str:
        """The next chance outcome: the one supplied with the move, else a sampled one.

        Chance is never decided silently: without a supplied outcome or a
        sampler (random play), the move cannot be carried out, and the ruling
        says which outcome is missing.
        """
        if not choices:
            raise RuleError(f"{what}: nothing can come of it")
        what = self.at_table(what)
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

    def shuffle(self, key: tuple[int, int], what: str, rule: str | None = None) -> None:
        """Shuffle a zone: its new order is a chance outcome (`deck:c3,c1,…`, top first),
        supplied, else sampled, else asked for (see `compiler/engine/chance.py`); `rule`
        is the rule that shuffles, cited if the outcome is missing or impossible."""
        chance.shuffle(self, key, self.at_table(what), rule)

    def at_table(self, what: str) -> str:
        """A chance event as a ruling names it: the table's are said to follow the move."""
        return what if self.own is None else f"{AT_TABLE}{what}"

    def to_table(self) -> None:
        """From here on, what chance decides is the table's, not the move's."""
        if self.own is None:
            self.own = len(self.drawn)

    def table_drawn(self) -> list[str]:
        """The outcomes the table drew after the move's own (a deal at the next round)."""
        return self.drawn[self.own:] if self.own is not None else []


AT_TABLE = "then, at the table, "  # how a ruling names chance that follows the move


class ChanceError(Exception):
    """A move needs a chance outcome it was not given, or was given an impossible one.

    `rule` is the rule whose statement called on chance (a shuffle's), when known: a
    ruling cites it rather than the move's own rule."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


def cell_key(cell: tuple[int, int]) -> tuple[int, int]:
    """Reading order: row, then column."""
    return (cell[1], cell[0])


def kept(env: Env, key: Any, compute: Callable[[Env], Any]) -> Any:
    """`compute(env)`, worked out once per memo under `key`: while moves are listed or
    checked the state cannot change, so a whole-board value need not be rebuilt at every
    use. Without a memo it is simply computed."""
    memo = env.memo
    if memo is None:
        return compute(env)
    found = memo.get(key)
    if found is None:
        found = memo[key] = compute(env)
    return found


_BOARD_ORDER = ("board in reading order",)


def board_in_order(env: Env) -> tuple[tuple[int, int], ...]:
    """Every laid tile's cell in reading order; many builtins start from it."""
    return kept(env, _BOARD_ORDER,  # type: ignore[no-any-return]
                lambda e: tuple(sorted(e.state.board, key=cell_key)))


_PIECES_BY_CELL = ("pieces by cell",)


def _pieces_by_cell(env: Env) -> dict[Any, list[Any]]:
    index: dict[Any, list[Any]] = {}
    for p in env.state.pieces.values():
        index.setdefault(p.cell, []).append(p)
    return index


def pieces_at(env: Env, cell: Any) -> list[Any]:
    """The pieces on a tile, in the order of the state's pieces (indexed by cell once per
    memo, not scanned at every question)."""
    if env.memo is None:
        return [p for p in env.state.pieces.values() if p.cell == cell]
    return kept(env, _PIECES_BY_CELL, _pieces_by_cell).get(cell, [])  # type: ignore[no-any-return]


_PIECES_BY_AREA = ("pieces by area",)
_ID = operator.attrgetter("id")  # a piece's id


def _pieces_by_area(env: Env) -> dict[Any, list[Any]] | bool:
    """The board's pieces by the area their site lies in, in the order of the state's pieces;
    False if some piece stands where no area is (then every question scans the pieces)."""
    st = env.state
    # `Game.site_area` written out, its lookups held in locals: asked of every piece
    board, faces, area_of = st.board, env.game.catalogue.faces, st.areas.area_of
    index: dict[Any, list[Any]] = {}
    try:
        for p in st.pieces.values():
            cell = p.cell
            card, face, _ = board[cell]
            index.setdefault(area_of(cell, faces[(card, face)].sites[p.site].segment),
                             []).append(p)
    except KeyError:
        return False
    return index


def counting_as(game: Game, kind: str) -> frozenset[str]:
    """The piece kinds that count as `kind` (itself, and those that `count as` it): whether
    a piece counts as `kind` (`Game.is_a`) is then a set lookup, not a call, for piece
    after piece. (The table of kinds is complete before any expression is compiled.)"""
    return frozenset([kind, *(k for k, chain in game.piece_is.items() if kind in chain)])


def cells_holding(env: Env, kind: str, counted: frozenset[str]) -> frozenset[Any]:
    """The cells where a piece that counts as `kind` (one of `counted`, see `counting_as`)
    stands, worked out once per memo: `t has K` asked of every tile (a filter over the
    board) becomes a set lookup."""
    def holding(env: Env) -> frozenset[Any]:
        board = env.state.board
        return frozenset([p.cell for p in env.state.pieces.values()
                          if p.kind in counted and p.cell in board])
    return kept(env, (_CELLS_HOLDING, kind), holding)  # type: ignore[no-any-return]


_CELLS_HOLDING = object()


def areas_holding(env: Env, kind: str, counted: frozenset[str]) -> frozenset[Any] | None:
    """The areas where a piece that counts as `kind` (one of `counted`, see `counting_as`)
    stands, worked out once per memo (one pass over the pieces, as one question `a has K`
    makes): `a has K` asked of area after area becomes a set lookup. None if such a piece
    stands where no area is (then each question looks at the pieces itself)."""
    def holding(env: Env) -> frozenset[Any] | bool:
        game, st = env.game, env.state
        try:
            return frozenset([game.site_area(st, (p.cell, p.site)) for p in st.pieces.values()
                              if p.kind in counted])
        except KeyError:
            return False
    found = kept(env, (_AREAS_HOLDING, kind), holding)
    return None if found is False else found  # type: ignore[no-any-return]


_AREAS_HOLDING = object()


def conjunction(items: list[Fn]) -> Fn:
    """`a and b and …`, stopping at the first false one. Two to four terms (the usual
    filter condition) are tested directly: a filter runs its condition for every tile or
    site, and a generator per test would cost more than the test."""
    if len(items) == 2:
        a, b = items
        return lambda env: bool(a(env) and b(env))
    if len(items) == 3:
        a, b, c = items
        return lambda env: bool(a(env) and b(env) and c(env))
    if len(items) == 4:
        a, b, c, d = items
        return lambda env: bool(a(env) and b(env) and c(env) and d(env))

    def every(env: Env) -> bool:
        for f in items:
            if not f(env):
                return False
        return True
    return every


def disjunction(items: list[Fn]) -> Fn:
    """`a or b or …`, stopping at the first true one (see `conjunction`)."""
    if len(items) == 2:
        a, b = items
        return lambda env: bool(a(env) or b(env))
    if len(items) == 3:
        a, b, c = items
        return lambda env: bool(a(env) or b(env) or c(env))
    if len(items) == 4:
        a, b, c, d = items
        return lambda env: bool(a(env) or b(env) or c(env) or d(env))

    def some(env: Env) -> bool:
        for f in items:
            if f(env):
                return True
        return False
    return some


_SITES_BY_KIND = ("sites by kind",)
_UNKEYED = object()


def phantom_in(env: Env, values: Any) -> bool:
    """Whether `values` hold the piece a prohibition imagines arriving (`forbidden` puts it
    aside as piece -1 while it asks): a different piece for each candidate, never a key."""
    return bool(env.state.gone) and -1 in env.state.gone and -1 in values


def cited_once(env: Env, memo: dict[Any, Any], key: Any, compute: Callable[..., Any],
               *args: Any) -> Any:
    """`compute()`, worked out once per memo for `key`, while the state stands still (moves
    listed or checked; effects between two statements that change something).

    The conditions found true while it was worked out (what a check cites, `Env.cites`) are
    kept with the value and cited again, in the same order, wherever it is used: a value
    worked out while moves were listed (nobody citing) serves the check of the move chosen,
    which cites what it would have found. While a move is carried out, the definitions
    that took effect (`Env.trace`) are kept and traced again the same way; a value kept
    without them (worked out while nothing traced) is worked out again. A key that cannot
    be one is worked out each time. (`compute(*args)`: no closure made at every call.)"""
    try:
        found = memo.get(key, _UNKEYED)
    except TypeError:  # an argument that cannot be a key: no shortcut
        return compute(*args)
    outer = env.cites
    trace = env.trace
    if found is _UNKEYED or (trace is not None and found[2] is None):
        env.cites = inner = {}
        if trace is not None:
            env.trace = traced = []
        try:
            value = compute(*args)
        finally:
            env.cites = outer
            if outer is not None:
                for r in inner:
                    outer[r] = None
            if trace is not None:
                env.trace = trace
                for r in traced:
                    if r not in trace:
                        trace.append(r)
        memo[key] = (value, tuple(inner), None if trace is None else tuple(traced))
        return value
    value, cited, traced = found
    if outer is not None:
        for r in cited:
            outer[r] = None
    if trace is not None:
        for r in traced:
            if r not in trace:
                trace.append(r)
    return value


def _reads_area(node: Any, names: set[Any]) -> bool:
    """Whether `node` only reads the area bound to one of `names`: its kind, its attributes,
    combined with `and`, `or`, `not` (what cites nothing, rolls nothing, fails nowhere)."""
    if isinstance(node, n.Name):
        return node.ref == "var" and node.id in names
    if isinstance(node, n.IsKind):
        return _reads_area(node.value, names)
    if isinstance(node, n.Attr):
        return isinstance(node.obj, n.Name) and _reads_area(node.obj, names)
    if isinstance(node, n.Not):
        return _reads_area(node.value, names)
    if isinstance(node, n.Logic):
        return all(_reads_area(x, names) for x in node.items)
    return False


def set_area_attribute(game: Game, name: str) -> bool:
    """Whether `name`, read of an area, is an attribute the rules set on areas (not a
    builtin one, a resource or a family): unset, it reads its default."""
    return ATTRIBUTES.get(("area", name)) is None and \
        game.category(name) not in ("resource", "family")


def areas_having(st: State, name: str) -> set[Any]:
    """The roots of the areas that have their attribute `name` set (an area's attributes
    are kept under its root)."""
    return {r for r, d in st.area_attrs.items() if name in d}


def _gated(coll: Fn, name: str) -> Fn:
    """The areas of `coll` (every area's root: the `areas` builtin) that have their attribute
    `name` set (see `_area_attr_gate`)."""
    def gated(env: Env) -> tuple[Any, ...]:
        items = coll(env)
        # The areas are roots (every area's, as the area map has them now), and an area's
        # attributes are kept under its root: those that have `name` set, once, then each
        # area looked up in them.
        having = areas_having(env.state, name)
        if not having or not items:
            return ()
        return tuple(a for a in items if a in having)
    return gated


def _site_kind_first(node: n.Filtered, alias: str | None) -> tuple[str, Any] | None:
    """(K, the rest of the condition or None) if `node` is `sites where it is K and …`: every
    site of the board, filtered first by its kind. Testing the kind is pure (no rule is cited
    for it), so keeping only K's sites from an index, then testing the rest, is the same."""
    coll = node.collection
    if not (isinstance(coll, n.Collection) and coll.within is None and coll.owner is None
            and isinstance(coll.source, n.Name) and coll.source.ref == "builtin"
            and coll.source.id == "sites"):
        return None
    cond = node.cond
    items = list(cond.items) if isinstance(cond, n.Logic) and cond.op == "and" else [cond]
    first = items[0]
    if not (isinstance(first, n.IsKind) and not first.negated and first.value.type == "site"
            and isinstance(first.value, n.Name) and first.value.ref == "var"
            and first.value.id in ("it", alias)):
        return None
    rest = items[1:]
    if not rest:
        return first.kind, None
    return first.kind, rest[0] if len(rest) == 1 else n.Logic(op="and", items=rest)


class ExprCompiler:
    def __init__(self, game: Game) -> None:
        self.game = game
        self._defines: dict[str, m.Define] | None = None
        self._bodies: dict[str, Any] | None = None

    def defines(self) -> dict[str, m.Define]:
        """The ruleset's definitions by id (found at the first call that needs them)."""
        if self._defines is None:
            self._defines = {d.id: d for d in self.game.decls if isinstance(d, m.Define)}
        return self._defines

    def rolls(self, node: Any) -> bool:
        """Whether evaluating `node` may call on chance (then no memo keeps its value)."""
        if self._bodies is None:
            self._bodies = {k: d.expr for k, d in self.defines().items()}
        return chance.rolls(node, self._bodies)

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
            return LIBRARY[name].compile(self, node)
        if node.ref == "card" or (node.ref == "kind" and node.category == "card"):
            from compiler.engine.cards import compile_name
            return compile_name(self, node)
        if node.ref == "kind":
            if node.category == "zone":
                return zone_play.zone_key(self, node)
            return self._kind_collection(node.id, node.category or "", None, None, None)
        if node.ref == "order":  # a named order of play (see compiler/engine/rounds.py)
            game = self.game  # its turn rules may be compiling this very expression
            return lambda env: game.turn_rules.order(env, name)
        raise RuleError(f"unresolved name `{name}`")

    # --------------------------------------------------------- collections

    def _kind_collection(self, kind: str | None, category: str, within: Fn | None,
                         within_type: str | None, owner: Fn | None) -> Fn:
        game = self.game
        if category == "piece" or (category == "" and kind is None):
            counted = None if kind is None else counting_as(game, kind)

            def pieces(env: Env) -> tuple[int, ...]:
                st = env.state
                if within is None and owner is not None:
                    # `K of p`: one pass over the pieces (say, a player's pawns)
                    o = owner(env)
                    if counted is None:
                        return tuple([p.id for p in st.pieces.values() if p.owner == o])
                    return tuple([p.id for p in st.pieces.values()
                                  if p.kind in counted and p.owner == o])
                if within_type == "tile" and env.memo is not None:
                    # The pieces on one tile (the index, in the same order), then the rest.
                    o = owner(env) if owner is not None else None
                    index = env.memo.get(_PIECES_BY_CELL)  # `pieces_at`, without its calls
                    if index is None:
                        index = kept(env, _PIECES_BY_CELL, _pieces_by_cell)
                    here = index.get(within(env))  # type: ignore[misc]
                    if not here:
                        return ()
                    return tuple([p.id for p in here
                                  if (counted is None or p.kind in counted)
                                  and (owner is None or p.owner == o)])
                if within_type == "area" and env.memo is not None:
                    # The pieces in one area (an index kept per memo, in the same order).
                    index = kept(env, _PIECES_BY_AREA, _pieces_by_area)
                    if index is not False:
                        o = owner(env) if owner is not None else None
                        here = index.get(within(env), ())  # type: ignore[union-attr]
                        if not here:
                            return ()
                        return tuple([p.id for p in here
                                      if (counted is None or p.kind in counted)
                                      and (owner is None or p.owner == o)])
                if counted is None:
                    ps = list(st.pieces.values())
                else:
                    ps = [p for p in st.pieces.values() if p.kind in counted]
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
                        # only pieces on the area's tiles can be in it: a set lookup
                        # first, the site's area only for those
                        on = st.areas.cells.get(w)
                        ps = [p for p in ps if (on is None or p.cell in on)
                              and game.site_area(st, (p.cell, p.site)) == w]
                    elif within_type == "site":
                        ps = [p for p in ps if (p.cell, p.site) == w]
                    elif within_type == "set:site":
                        at = set(w)
                        ps = [p for p in ps if (p.cell, p.site) in at]
                return tuple(map(_ID, ps))  # the ids without a generator's step for each
            return pieces
        if category in ("feature", "site"):
            def sites(env: Env) -> tuple[Any, ...]:
                st = env.state
                cells: Any
                w = within(env) if within is not None else None
                if within is None:
                    cells = board_in_order(env)
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
                    if kind is None:
                        return game.all_areas(st)
                    return game.areas_of_kind(st, kind)
                roots = [r for r in roots if kind is None or st.areas.kind(r) == kind]
                return tuple(game.sorted_areas(st, roots))
            return areas
        if category == "tile":
            def tiles(env: Env) -> tuple[Any, ...]:
                st = env.state
                if within is None:
                    return board_in_order(env)
                w = within(env)
                if within_type == "area":
                    return tuple(sorted(st.areas.cells.get(w, ()), key=cell_key))
                return tuple(sorted((c for c in w if c in st.board), key=cell_key))
            return tiles
        raise RuleError(f"cannot collect `{kind}`")

    def c_collection(self, node: n.Collection) -> Fn:
        src = node.source
        if node.type == "zone":
            return zone_play.zone_key(self, node)
        if zone_play.is_zone(node.within):
            return zone_play.cards_in(self, node)
        within = self(node.within) if node.within is not None else None
        within_type = node.within.type if node.within is not None else None
        owner = self(node.owner) if node.owner is not None else None
        elem = (node.type or "").removeprefix("set:")
        if owner is not None and self.game.per_player and elem in ("tile", "cell", "site"):
            return self._on_board(node, elem, owner)
        if isinstance(src, n.Name) and src.ref == "kind":
            return self._kind_collection(src.id, src.category or "", within, within_type, owner)
        everything = LIBRARY.get(src.id) if isinstance(src, n.Name) and src.ref == "builtin" \
            else None
        if everything is not None and everything.narrows is not None and (within or owner):
            return self._kind_collection(None, everything.narrows, within, within_type, owner)
        base = self(src)
        if within is None and owner is None:
            return base
        raise RuleError("`in`/`of` narrow a kind or pieces/sites/areas/tiles")

    def _tile_attr(self, name: str, obj: Fn) -> Fn:
        """What a laid tile holds of a resource (0), or one of its own attributes."""
        if name in self.game.tile_holds:
            def held(env: Env) -> int:
                c = obj(env)
                return 0 if c is None else env.state.tile_res.get(c, {}).get(name, 0)
            return held
        decl = self.game.tile_attr_decls[name]
        # A `recorded` attribute a position left out is unknown: it reads none. Cards
        # laid in play have it from the start (`lay_tile`), so it is known for them.
        default = None if decl.recorded else {"player": None, "bool": False, "int": 0}.get(decl.type)

        def attr(env: Env) -> Any:
            c = obj(env)
            return default if c is None else env.state.tile_attrs.get(c, {}).get(name, default)
        return attr

    def _on_board(self, node: n.Collection, elem: str, owner: Fn) -> Fn:
        """`tiles of p`, `frontier of p`, `sites of p`: those on player p's board."""
        from compiler.kernel.boards import board_of
        items = self(node.model_copy(update={"owner": None}))
        pure = node.within is None  # the whole board's, read per player: kept while listing
        token = object()

        def on_board(env: Env) -> tuple[Any, ...]:
            found = items(env)
            if not found:
                return ()
            who = owner(env)
            memo = env.memo if pure else None
            if memo is not None:
                kept = memo.get((token, who))
                if kept is not None:
                    return kept
            if elem == "site":
                out = tuple(s for s in found if board_of(s[0]) == who)
            else:
                out = tuple(c for c in found if board_of(c) == who)
            if memo is not None:
                memo[(token, who)] = out
            return out
        return on_board

    def c_filtered(self, node: n.Filtered) -> Fn:
        return self.filtering(self(node.collection), node)

    def filtering(self, coll: Fn, node: n.Filtered) -> Fn:
        """`… where COND` over the collection `coll` computes (which may be another reading of
        `node.collection`: a choice among a zone's cards, see zone_play.choice_domain)."""
        alias = _alias(node.collection)
        by_kind = _site_kind_first(node, alias)
        if by_kind is not None:
            # `sites where it is K and …`: only K's sites are looked at, from an index.
            kind, rest = by_kind
            coll = self._sites_of_kind(kind)
            if rest is None:
                return coll
            node = node.model_copy(update={"cond": rest})
        gate = self._area_attr_gate(node, alias)
        if gate is not None:
            coll = _gated(coll, gate)
        hoisted = hoisted_and(self, node.cond, alias)
        if hoisted is None:
            cond = self(node.cond)
        else:
            cond, begin, end = hoisted
            plain = self._filter_loop(coll, cond, alias)

            def filtered_hoisted(env: Env) -> tuple[Any, ...]:
                saved = begin()
                try:
                    return plain(env)
                finally:
                    end(saved)
            return filtered_hoisted
        return self._filter_loop(coll, cond, alias)

    def _area_attr_gate(self, node: n.Filtered, alias: str | None) -> str | None:
        """X if `node` is `areas where … and it.X and …`, X an attribute the rules declare
        for areas, after nothing but plain readings of the area (its kind, its attributes):
        an area that never had X set reads X as its default, which is false, so the
        condition fails there at X whatever came before, and the area need not be tested
        (reading an area's kind or attribute cites nothing and changes nothing)."""
        coll = node.collection
        if not (isinstance(coll, n.Name) and coll.ref == "builtin" and coll.id == "areas"):
            return None
        names = {"it", alias} - {None}
        cond = node.cond
        items = list(cond.items) if isinstance(cond, n.Logic) and cond.op == "and" else [cond]
        for item in items:
            if isinstance(item, n.Attr) and isinstance(item.obj, n.Name) and \
                    item.obj.ref == "var" and item.obj.id in names and \
                    set_area_attribute(self.game, item.name):
                return item.name
            if not _reads_area(item, names):
                return None
        return None

    def _sites_of_kind(self, kind: str) -> Fn:
        """The board's sites of one kind, in the order of `sites` (indexed once per memo)."""
        faces = self.game.catalogue.faces

        def index(env: Env) -> dict[str, tuple[Any, ...]]:
            board = env.state.board
            found: dict[str, list[Any]] = {}
            for cell in board_in_order(env):
                card, face, _ = board[cell]
                for name, info in faces[(card, face)].sites.items():
                    found.setdefault(info.kind, []).append((cell, name))
            return {k: tuple(v) for k, v in found.items()}

        def of_kind(env: Env) -> tuple[Any, ...]:
            if env.memo is None:  # nothing keeps an index: only this kind's are looked for
                board = env.state.board
                return tuple((cell, name) for cell in board_in_order(env)
                             for name, info in faces[board[cell][:2]].sites.items()
                             if info.kind == kind)
            return kept(env, _SITES_BY_KIND, index).get(kind, ())  # type: ignore[no-any-return]
        return of_kind

    def _filter_loop(self, coll: Fn, cond: Fn, alias: str | None) -> Fn:
        """The elements of `coll` for which `cond` holds, each bound to `it` (and `alias`)."""
        def filtered(env: Env) -> tuple[Any, ...]:
            items = coll(env)
            if not items:  # most tiles hold no piece: nothing to bind or test
                return ()
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
        if node.op == "and":
            return conjunction([self(i) for i in node.items])
        return self._site_of_kinds(node) or disjunction([self(i) for i in node.items])

    def _site_of_kinds(self, node: n.Logic) -> Fn | None:
        """`s is K1 or s is K2 or ...` for one named site, as one look at the site's kind
        in a set (prohibitions ask it of every site a piece may go to); None for any other
        disjunction. The same answer, and the same error for an unbound name."""
        items = node.items
        first = items[0] if items else None
        if not isinstance(first, n.IsKind) or not isinstance(first.value, n.Name) \
                or first.value.ref != "var" or first.value.type != "site":
            return None
        name = first.value.id
        if not all(isinstance(i, n.IsKind) and not i.negated and isinstance(i.value, n.Name)
                   and i.value.ref == "var" and i.value.id == name and i.value.type == "site"
                   for i in items):
            return None
        return self._site_kind_in(self(first.value),
                                  frozenset(i.kind for i in items))  # type: ignore[attr-defined]

    def _site_kind_in(self, f: Fn, kinds: frozenset[str]) -> Fn:
        """Whether the site `f` names is of one of `kinds` (no site: false): `s is K`, and
        `s is K1 or s is K2 …` in one look (see `_site_of_kinds`)."""
        faces = self.game.catalogue.faces

        def site_kind_in(env: Env) -> bool:
            s = f(env)
            if s is None:
                return False
            card, face, _ = env.state.board[s[0]]  # `Game.site_info`, without its call
            return faces[(card, face)].sites[s[1]].kind in kinds
        return site_kind_in

    def c_not(self, node: n.Not) -> Fn:
        f = self(node.value)
        return lambda env: not f(env)

    def c_compare(self, node: n.Compare) -> Fn:
        a, b = self(node.left), self(node.right)
        op = node.op
        if isinstance(node.right, n.Number):
            # against a number as written (`count(…) > 0`, the usual case): the number is
            # taken as it stands, not from a call at every comparison
            w = node.right.value
            z = w or 0
            if op == "==":
                return lambda env: a(env) == w
            if op == "!=":
                return lambda env: a(env) != w
            if op == "<":
                return lambda env: (a(env) or 0) < z
            if op == "<=":
                return lambda env: (a(env) or 0) <= z
            if op == ">":
                return lambda env: (a(env) or 0) > z
            return lambda env: (a(env) or 0) >= z
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
        v = self(node.value)
        coll = node.collection
        if isinstance(coll, n.Collection) and coll.owner is None and coll.within is not None \
                and coll.within.type == "area" and isinstance(coll.source, n.Name) \
                and coll.source.ref == "builtin" and coll.source.id == "tiles":
            # `x is in (tiles in a)`: asked of the area's own set of cells, not of a sorted
            # copy made for each question (the same cells, so the same answer).
            area = self(coll.within)
            neg = node.negated

            def in_area(env: Env) -> bool:
                x = v(env)
                return (x in env.state.areas.cells.get(area(env), ())) != neg
            return in_area
        c = self(coll)
        if node.negated:
            return lambda env: v(env) not in c(env)
        return lambda env: v(env) in c(env)

    def c_is_kind(self, node: n.IsKind) -> Fn:
        f = self(node.value)
        kind = node.kind
        game = self.game
        t = node.value.type
        neg = node.negated
        if t in ("card", "tile"):
            from compiler.engine.cards import compile_is
            return compile_is(self, node)
        if t == "kind":
            def test(env: Env) -> bool:
                return f(env) == kind
        elif t == "player":
            def test(env: Env) -> bool:
                p = f(env)
                return p is not None and game.seat_id(p) == kind
        elif t == "piece":
            counted = counting_as(game, kind)

            def test(env: Env) -> bool:
                p = f(env)
                if p is None:
                    return False
                st = env.state  # `State.piece`, without its call: asked of piece after piece
                return (st.pieces.get(p) or st.gone[p]).kind in counted
        elif t == "site":
            test = self._site_kind_in(f, frozenset((kind,)))
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
        if t == "card":
            from compiler.engine.cards import compile_has
            return compile_has(self, node)
        is_piece = game.category(kind) == "piece"
        counted = counting_as(game, kind)

        faces = game.catalogue.faces

        def piece_on(env: Env, cell: Any) -> bool:
            """Whether a piece that counts as `kind` stands on the tile at `cell`."""
            if cell is None or cell not in env.state.board:
                return False
            if env.memo is not None:
                return cell in cells_holding(env, kind, counted)
            return any(p.kind in counted for p in pieces_at(env, cell))

        if t == "tile":
            if not is_piece:
                def tile_has_feature(env: Env) -> bool:
                    # the laid face read in place: asked of site after site
                    laid = env.state.board.get(f(env))
                    return laid is not None and kind in faces[(laid[0], laid[1])].features
                return tile_has_feature
            holding_key = (_CELLS_HOLDING, kind)

            def tile_has_piece(env: Env) -> bool:
                cell = f(env)
                memo = env.memo
                if memo is None:
                    return piece_on(env, cell)
                holding = memo.get(holding_key)  # `cells_holding`, kept
                if holding is None:
                    holding = cells_holding(env, kind, counted)
                return cell in holding
            return tile_has_piece
        if t == "set:tile":
            # `neighbours(t) has K`: a builtin of bound names, which cites nothing and rolls
            # nothing, need not be worked out when no piece of kind K stands anywhere.
            v = node.value
            quiet = isinstance(v, n.Call) and not v.defined and not v.ability and \
                v.func != "die" and all(isinstance(a, n.Name) and a.ref == "var" for a in v.args)

            if not is_piece:
                def some_tile_has_feature(env: Env) -> bool:
                    board = env.state.board
                    for c in f(env):
                        laid = board.get(c)
                        if laid is not None and kind in faces[(laid[0], laid[1])].features:
                            return True
                    return False
                return some_tile_has_feature

            def some_tile_has_piece(env: Env) -> bool:
                if env.memo is not None:  # one set asked for every tile
                    holding = cells_holding(env, kind, counted)
                    if not holding and quiet:
                        return False
                    return any(c in holding for c in f(env))
                return any(piece_on(env, c) for c in f(env))
            return some_tile_has_piece
        if t == "area":
            def area_has(env: Env) -> bool:
                a = f(env)
                if a is None:
                    return False
                st = env.state
                if is_piece:
                    if env.memo is not None:
                        held = areas_holding(env, kind, counted)
                        if held is not None:
                            return a in held
                    return any(p.kind in counted and game.site_area(st, (p.cell, p.site)) == a
                               for p in st.pieces.values())
                return st.areas.features[st.areas.find(a)].get(kind, 0) > 0
            return area_has

        def site_has(env: Env) -> bool:
            s = f(env)
            if s is None:
                return False
            st = env.state
            if is_piece:
                return any(st.piece(p).kind in counted for p in st.stack_of(s))
            info = game.site_info(st, s)
            card, face, _ = st.board[s[0]]
            return kind in faces[(card, face)].segments[info.segment].features
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
        kernel = ATTRIBUTES.get((t or "", name))
        if kernel is not None:
            return kernel.compile(self, node, obj)
        if t == "tile" and name == "owner" and game.per_player:
            from compiler.kernel.boards import board_of
            return lambda env: None if (c := obj(env)) is None else board_of(c)
        if t == "tile" and (name in game.tile_holds or name in game.tile_attr_decls):
            return self._tile_attr(name, obj)
        if t in ("card", "tile") and game.cards.kinds:
            from compiler.engine.cards import compile_attr
            return compile_attr(self, node, obj)
        if t == "area":
            if game.category(name) in ("resource", "family"):
                members = game.families.get(name, (name,))

                if len(members) == 1:  # one resource, not a family: no sum to make
                    def area_resource(env: Env) -> int:
                        a = obj(env)
                        if a is None:
                            return 0
                        st = env.state
                        held = st.area_res.get(st.areas.find(a))
                        return 0 if held is None else held.get(name, 0)
                    return area_resource

                def area_amount(env: Env) -> int:
                    a = obj(env)
                    if a is None:
                        return 0
                    st = env.state
                    held = st.area_res.get(st.areas.find(a), {})
                    return sum(held.get(r, 0) for r in members)
                return area_amount
            defaults: dict[str, Any] = {}  # by the area's kind (`Game.attribute_default`)

            def area_attr(env: Env) -> Any:
                a = obj(env)
                if a is None:
                    return None
                st = env.state
                areas = st.areas
                root = areas.find(a)
                attrs = st.area_attrs.get(root)
                if attrs is not None and name in attrs:
                    return attrs[name]
                kind = areas.nodes[root].kind  # `AreaMap.kind`, without its call
                try:
                    return defaults[kind]
                except KeyError:
                    found = defaults[kind] = game.attribute_default(kind, name)
                    return found
            return area_attr
        if t == "game":
            return lambda env: game.turn_rules.read(env, name)
        if t == "player" and name in game.player_attrs:
            default = game.player_default(name)

            def player_attr(env: Env) -> Any:
                p = obj(env)
                if p is None:
                    return default
                st = env.state
                if st.unseen_attrs and (p, name) in st.unseen_attrs:
                    from compiler.engine.views import stand_in_read
                    stand_in_read(env, p, name)
                return st.player_attrs[p].get(name, default)
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
        if node.ability:
            from compiler.engine.cards import compile_call
            return compile_call(self, node)
        return LIBRARY[node.func].compile(self, node)

    def _define_call(self, node: n.Call) -> Fn:
        game = self.game
        name = node.func
        define = self.defines().get(name)
        rule = define.rule if define is not None else None
        chancy = self.rolls(node)
        in_place = None if chancy else self._in_place(node, rule)
        if in_place is not None:
            return self._cited(name, in_place)
        args = [self(a) for a in node.args]

        def call(env: Env) -> Any:
            values = [a(env) for a in args]
            memo = env.memo
            trace = env.trace
            if memo is not None and not chancy and \
                    not (env.state.gone and phantom_in(env, values)):
                # The state stands still while a memo lives (see `Env.memo`), so a
                # definition is worked out once for its arguments (its body sees only
                # them, the player and the state), with the conditions it found true and
                # the definitions that took effect, cited and traced again at each use.
                key = (name, env.me, tuple(values))
                try:
                    found = memo.get(key)
                except TypeError:  # an argument that cannot be a key (cited_once says so)
                    found = None
                if found is not None and (trace is None or found[2] is not None):
                    # Kept: `cited_once`'s own shortcut, without a call.
                    value, cited, traced = found
                    if cited and env.cites is not None:
                        for r in cited:
                            env.cites[r] = None
                    if traced and trace is not None:
                        for r in traced:
                            if r not in trace:
                                trace.append(r)
                else:
                    body, params = game.defines[name]
                    value = cited_once(env, memo, key,
                                       call_scoped, env, body, params, values)
            else:
                body, params = game.defines[name]
                value = call_scoped(env, body, params, values)
            if trace is not None and value and rule and rule not in trace:
                trace.append(rule)
            return value

        return self._cited(name, call)

    def _in_place(self, node: n.Call, rule: str | None) -> Fn | None:
        """The call with its definition's body compiled in place, when that body is flat
        (engine/inline.py); None: the call is kept in the memo."""
        defines = self.defines()
        define = defines.get(node.func)
        return None if define is None else inlined(self, node, define, rule, defines)

    def _cited(self, name: str, call: Fn) -> Fn:
        """A call of the definition `name`, citing its rule where it holds if it is a
        condition."""
        condition_rule = self.game.conditions.get(name)
        if condition_rule is None:
            return call

        def condition(env: Env) -> Any:
            held = call(env)
            if held and env.cites is not None:
                env.cites[condition_rule] = None  # type: ignore[index]
            return held
        return condition
