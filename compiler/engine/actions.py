"""Actions: what a player may choose, what must hold, and what is forbidden.

An action's parameters (`choose`) are enumerated in order; each requirement is
tested as soon as the parameters it mentions are bound, so hopeless branches
are cut early. A complete candidate is then checked against every prohibition
(`forbid`) that applies to the pieces it would bring onto a site: "cannot"
beats "can".

Checking one given candidate (for adjudication) does the same work but does
not stop at the first failure: it collects every rule the move breaks.
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from compiler.engine import zone_play
from compiler.engine.effects import Run, check_site
from compiler.engine.evaluate import Env, Fn, RuleError, areas_having, set_area_attribute
from compiler.engine.explain import Reason, explainer
from compiler.engine.lazy import LazySequence
from compiler.engine.state import Piece, State
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.kernel.tiles import placement_groups, placements
from compiler.library import LIBRARY
from compiler.library.core import UNBOUND, restore_var

if TYPE_CHECKING:
    from compiler.engine.game import Game

SUBSET_LIMIT = 10  # `choose some` enumerates subsets of at most this many elements


@dataclass
class Param:
    name: str
    domain: Fn
    subset: bool
    rule: str | None
    type: str
    node: m.Choose


@dataclass
class Requirement:
    cond: Fn
    rule: str | None
    message: str | None
    depends: frozenset[str]
    node: n.Node


@dataclass
class Arrival:
    """A piece an action brings onto a site: evaluated before the action runs."""

    kind: str | None
    site: Fn
    piece: Fn | None = None
    owner: Fn | None = None
    when: Fn | None = None


@dataclass
class CompiledAction:
    id: str
    decl: m.Action
    params: list[Param]
    requires: list[Requirement]
    effects: Run
    arrivals: list[Arrival]
    ready: list[list[Requirement]] = field(default_factory=list)
    placement: tuple[str, str, str, str] | None = None  # params of a `fits` requirement
    # The requirements other than that `fits`: what a placement the kernel found fitting
    # must still pass (on a shared board, where its index says exactly what fits).
    beyond_fit: list[Requirement] = field(default_factory=list)
    # The prohibitions that may concern an arrival of each kind in this action, worked
    # out once (the kinds and the forbids are fixed when the ruleset is compiled).
    forbids_by_kind: dict[str, list[CompiledForbid]] = field(default_factory=dict)
    # The same prohibitions, for listing: any one that holds refuses a candidate, so
    # their order is free there; the one that last refused one is asked first (see
    # `forbidden`). Checking a move keeps the declared order (its ruling lists them).
    listing_forbids: dict[str, list[CompiledForbid]] = field(default_factory=dict)
    # ... and whether any of them names the piece arriving (`forbid K p entering s`)
    piece_read: dict[str, bool] = field(default_factory=dict)
    # ... and the one name they all bind (the site's), when none names the piece: a
    # listing binds it once for them all
    listing_site: dict[str, str | None] = field(default_factory=dict)
    # For each parameter, an attribute gate or None (see `_attr_gate`).
    gates: list[tuple[str, Fn] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        # A move's key is its values sorted by name (notation.Move.args): the names are
        # the parameters', so their order is worked out once, not sorted for every move.
        self.key_names: tuple[str, ...] = tuple(sorted(p.name for p in self.params))
        self.key_of: Callable[[dict[str, Any]], tuple[tuple[str, Any], ...]] = \
            _keyer(self.key_names)

    @property
    def rule(self) -> str | None:
        return self.decl.rule


def _keyer(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[tuple[str, Any], ...]]:
    """values (a dict holding exactly `names`) -> its items sorted by name."""
    if not names:
        return lambda values: ()
    if len(names) == 1:
        name = names[0]
        return lambda values: ((name, values[name]),)
    get = operator.itemgetter(*names)
    return lambda values: tuple(zip(names, get(values)))


@dataclass
class CompiledForbid:
    decl: m.Forbid
    cond: Fn
    actions: frozenset[str]

    def __post_init__(self) -> None:
        # the names the prohibition binds, read for every candidate a listing asks it of
        self.site_var: str = self.decl.site_var
        self.piece_var: str | None = self.decl.piece_var

    @property
    def rule(self) -> str | None:
        return self.decl.rule


@dataclass
class Violation:
    """One rule a move breaks.

    `message` is the author's own words for it (`else "…"`), if any; `detail`
    says in the game's words which part of the rule failed here, naming the
    pieces and tiles; `because` lists the rules of the definitions that part
    lives in (more specific than `rule`).
    """

    rule: str | None
    code: str
    message: str
    detail: str | None = None
    node: Any = None
    because: list[str] = field(default_factory=list)


_EXPLAIN_ERRORS = (RuleError, KeyError, TypeError, ValueError, IndexError, AttributeError)


def _explained(why: Any) -> Reason | None:
    """A reason, or None where the explainer cannot read this position (the verdict stands)."""
    try:
        return why()  # type: ignore[no-any-return]
    except _EXPLAIN_ERRORS:
        return None


def compile_action(game: Game, d: m.Action) -> CompiledAction:
    params = []
    for p in d.params:
        t = p.domain.type or "set:any"
        if zone_play.reads_zone(p.domain):
            domain = zone_play.choice_domain(game.expr, p.domain)
        else:
            domain = game.expr(p.domain)
        params.append(Param(p.name, domain, p.subset, p.rule,
                            t if p.subset else t[4:], p))
    names = [p.name for p in params]
    requires = [Requirement(game.expr(r.cond), r.rule, r.message,
                            frozenset(n.names_in(r.cond) & set(names)), r.cond)
                for r in d.requires]
    action = CompiledAction(d.id, d, params, requires, game.stmt.block(d.effects),
                            arrivals_of(game, d.effects))
    bound: set[str] = set()
    action.ready = [[r for r in requires if not r.depends]]
    for p in params:
        bound.add(p.name)
        action.ready.append([r for r in requires if r.depends and r.depends <= bound
                             and p.name in r.depends])
    action.gates = [_attr_gate(game, p, level) for p, level in zip(params, action.ready[1:])]
    for r, req in zip(d.requires, requires):
        c = r.cond
        if isinstance(c, n.Call) and not c.defined and LIBRARY[c.func].placement and all(
                isinstance(a, n.Name) and a.ref == "var" and a.id in names for a in c.args):
            action.placement = tuple(a.id for a in c.args)  # type: ignore[assignment]
            action.beyond_fit = [q for q in requires if q is not req]
    return action


def _attr_gate(game: Game, param: Param, level: list[Requirement]) -> tuple[str, Fn] | None:
    """(X, e) if one of the requirements tested as `param` is bound reads `param.X == e`:
    `param` an area, X an attribute the rules declare for areas only as a player (unset, it
    reads none), `e` a plain name bound before `param`. When `e` is not none, an area that
    never had X set fails that requirement whatever else holds, so the areas are first
    narrowed to those that have X set, found in one pass over the areas' attributes (say,
    the areas of a kind a player controls, out of every one on the board). The requirements
    are still all tested on those left: reading a name and an area's attribute cites
    nothing, rolls nothing and changes nothing, so only areas that would fail are skipped."""
    if param.subset or param.type != "area":
        return None
    for r in level:
        c = r.node
        if not (isinstance(c, n.Compare) and c.op == "=="):
            continue
        for attr, other in ((c.left, c.right), (c.right, c.left)):
            if not (isinstance(attr, n.Attr) and isinstance(attr.obj, n.Name)
                    and attr.obj.ref == "var" and attr.obj.id == param.name
                    and isinstance(other, n.Name) and other.id != param.name
                    and other.ref in ("var", "builtin")):
                continue
            name = attr.name
            if not set_area_attribute(game, name):
                continue
            declared = [a for k in game.area_kinds for a in k.attributes if a.name == name]
            if declared and all(a.type == "player" for a in declared):
                return name, game.expr(other)
    return None


def _gate_values(env: Env, gate: tuple[str, Fn], values: Any) -> Any:
    """`values` (areas) narrowed by the gate (see `_attr_gate`): those that have its
    attribute set, in their order, when the value it must equal is not none."""
    name, other = gate
    try:
        want = other(env)
    except RuleError:
        return values
    if want is None:
        return values
    st = env.state
    having = areas_having(st, name)
    if not having:
        return []
    find = st.areas.find
    return [v for v in values if v is not None and find(v) in having]


def arrivals_of(game: Game, body: list[Any], when: Fn | None = None,
                lets: tuple[tuple[str, Fn], ...] = ()) -> list[Arrival]:
    """Where the action's statements would put pieces, judged before it runs.

    A `let` earlier in the body names a value of the position before the
    move (say, where a piece stood before a swap); later arrivals see it.
    """
    out: list[Arrival] = []

    def seen(fn: Fn | None) -> Fn | None:
        if fn is None or not lets:
            return fn
        bound = lets

        def with_lets(env: Env) -> Any:
            # Bind in place and undo in place: callers keep a reference to env.vars.
            missing = object()
            saved = [(name, env.vars.get(name, missing)) for name, _ in bound]
            try:
                for name, value in bound:
                    env.vars[name] = value(env)
                return fn(env)
            finally:
                for name, old in reversed(saved):
                    if old is missing:
                        env.vars.pop(name, None)
                    else:
                        env.vars[name] = old
        return with_lets

    for s in body:
        if isinstance(s, n.Let):
            lets = (*lets, (s.name, game.expr(s.value)))
        elif isinstance(s, n.Place):
            out.append(Arrival(s.kind, seen(game.expr(s.at)),  # type: ignore[arg-type]
                               owner=seen(game.expr(s.owner)) if s.owner else None,
                               when=seen(when)))
        elif isinstance(s, n.StackOn):
            on = game.expr(s.on)

            def site_of(env: Env, on: Fn = on) -> Any:
                p = env.state.pieces.get(on(env))
                return None if p is None else (p.cell, p.site)
            out.append(Arrival(s.kind, seen(site_of), when=seen(when),  # type: ignore[arg-type]
                               owner=seen(game.expr(s.owner)) if s.owner else None))
        elif isinstance(s, n.Move):
            out.append(Arrival(None, seen(game.expr(s.to)),  # type: ignore[arg-type]
                               piece=seen(game.expr(s.piece)), when=seen(when)))
        elif isinstance(s, n.If):
            cond = seen(game.expr(s.cond))
            assert cond is not None
            out += arrivals_of(game, s.then, _both(when, cond), lets)
            out += arrivals_of(game, s.otherwise, _both(when, lambda env, c=cond: not c(env)),
                               lets)
    return out


def _both(a: Fn | None, b: Fn) -> Fn:
    if a is None:
        return b
    return lambda env: a(env) and b(env)


def compile_forbid(game: Game, d: m.Forbid) -> CompiledForbid:
    return CompiledForbid(d, game.expr(d.cond), frozenset(d.actions))


# ------------------------------------------------------------ prohibitions


def forbidden(game: Game, env: Env, action: CompiledAction, first_only: bool
              ) -> list[Violation]:
    """The prohibitions the action's arrivals break, in the state before the action."""
    st = env.state
    out: list[Violation] = []
    for arrival in action.arrivals:
        arriving = _arriving(env, arrival)
        if arriving is None:
            continue
        site, pid, kind = arriving
        phantom = None
        concern = _concern(game, action, kind)
        if arrival.piece is None and (action.piece_read[kind] or not first_only):
            # The piece to come, for the prohibitions that name it (and for a check's
            # reasons); listing asks the others without it.
            owner = arrival.owner(env) if arrival.owner else env.me
            phantom = -1
            st.gone[pid] = Piece(pid, kind, owner, site[0], site[1])
        if first_only:
            concern = action.listing_forbids[kind]
        vars = env.vars
        try:
            for at, f in enumerate(concern):
                # the prohibition's names bound in place, and put back after (the way
                # the evaluator binds an element's name), not in a copy of every name
                site_var, piece_var = f.site_var, f.piece_var
                site_was = vars.get(site_var, UNBOUND)
                vars[site_var] = site
                if piece_var:
                    piece_was = vars.get(piece_var, UNBOUND)
                    vars[piece_var] = pid
                try:
                    hit = bool(f.cond(env))
                except RuleError as e:
                    hit, f_err = True, str(e)
                else:
                    f_err = None
                finally:
                    if piece_var:
                        restore_var(vars, piece_var, piece_was)
                    if site_was is UNBOUND:  # (restore_var, without a call)
                        vars.pop(site_var, None)
                    else:
                        vars[site_var] = site_was
                if hit and first_only:
                    _to_front(concern, at)
                    out.append(Violation(f.rule, "forbidden", f.decl.message or "", f_err,
                                         node=f.decl))
                    return out
                if hit:
                    why = None if f_err else _explained(lambda f=f, pid=pid, kind=kind: _why_forbidden(
                        game, env, f, site, pid, kind, phantom is not None))
                    out.append(Violation(f.rule, "forbidden", f.decl.message or "",
                                         f_err or (why.text if why else None), node=f.decl,
                                         because=why.rules if why else []))
        finally:
            if phantom is not None:
                st.gone.pop(phantom, None)
    return out


def _arriving(env: Env, arrival: Arrival) -> tuple[Any, int, str] | None:
    """Where the arrival brings a piece now, which piece (-1: one not yet on the board)
    and of what kind; None when it brings none (its condition fails, no site, or the
    piece it names has left the board)."""
    if arrival.when is not None and not arrival.when(env):
        return None
    site = arrival.site(env)
    if site is None:
        return None
    if arrival.piece is None:
        return site, -1, arrival.kind or ""
    pid = arrival.piece(env)
    piece = env.state.pieces.get(pid)
    if piece is None:
        return None
    return site, pid, piece.kind


def _concern(game: Game, action: CompiledAction, kind: str) -> list[CompiledForbid]:
    """The prohibitions that may concern a piece of `kind` the action brings, in their
    declared order (worked out at the first arrival of that kind, with what listing keeps
    of them: `listing_forbids`, `piece_read`, `listing_site`)."""
    concern = action.forbids_by_kind.get(kind)
    if concern is None:
        concern = action.forbids_by_kind[kind] = [
            f for f in game.forbids
            if (f.decl.kind == "piece" or game.is_a(kind, f.decl.kind))
            and (not f.actions or action.id in f.actions)]
        action.listing_forbids[kind] = list(concern)
        action.piece_read[kind] = any(f.decl.piece_var for f in concern)
        names = {f.site_var for f in concern}
        action.listing_site[kind] = names.pop() if len(names) == 1 and \
            not action.piece_read[kind] else None
    return concern


def refused(game: Game, env: Env, action: CompiledAction) -> bool:
    """Whether some prohibition refuses the candidate bound in `env`, for listing: a yes or
    no, so the first prohibition that holds ends it and no violation is made for it
    (`forbidden` with `first_only` says which, for whoever asks)."""
    for arrival in action.arrivals:
        arriving = _arriving(env, arrival)
        if arriving is None:
            continue
        site, _, kind = arriving
        if not _concern(game, action, kind):
            continue
        name = action.listing_site[kind]
        if name is None:  # prohibitions that name the piece arriving, or several names
            return bool(forbidden(game, env, action, first_only=True))
        if _refused(env, action.listing_forbids[kind], name, site):
            return True
    return False


def _refused(env: Env, concern: list[CompiledForbid], name: str, site: Any) -> bool:
    """Whether one of a listing's prohibitions refuses a piece arriving at `site`, each
    binding the site to the same `name` and nothing else (bound once for them all)."""
    vars = env.vars
    was = vars.get(name, UNBOUND)
    vars[name] = site
    try:
        for at, f in enumerate(concern):
            try:
                if not f.cond(env):
                    continue
            except RuleError:
                pass  # a prohibition that cannot be read refuses
            _to_front(concern, at)
            return True
    finally:
        restore_var(vars, name, was)
    return False


def _to_front(concern: list[CompiledForbid], at: int) -> None:
    """The listing's prohibition that just refused is asked first from now on: the one
    that refuses most is soon the first asked (see `CompiledAction.listing_forbids`)."""
    if at:
        concern.insert(0, concern.pop(at))


def _why_forbidden(game: Game, env: Env, f: CompiledForbid, site: Any, pid: int, kind: str,
                   new: bool) -> Reason:
    ex = explainer(game)
    names = {f.decl.site_var: site}
    if f.decl.piece_var:
        names[f.decl.piece_var] = pid
    ctx = ex.context(env.state, {**env.vars, **names}, env.action)
    arriving = _article(game.title(kind)) if new else ex.describe(pid, "piece")
    return ex.prohibition(f.decl.cond, ctx, arriving, site)


def _article(word: str) -> str:
    from compiler.ir.english import article
    return article(word)


# -------------------------------------------------------------- enumeration


def state_memo(st: State) -> dict[Any, Any]:
    """The memo for listing or checking moves in `st`: nothing changes the state meanwhile.
    A position's state keeps one for its whole life (`State.memo`), so listing its moves,
    asking whether anyone has a decision and checking the move chosen share what each
    worked out; a state still being changed gets a memo of its own for this one use."""
    return st.memo if st.memo is not None else {}


def listing_env(game: Game, st: State) -> Env:
    """What listing the moves of `st` evaluates in (with the state's memo)."""
    env = Env(game, st)
    env.memo = state_memo(st)
    return env


def candidates(game: Game, st: State, action: CompiledAction, fixed: dict[str, Any]
               ) -> Iterator[dict[str, Any]]:
    """Every legal set of parameter values for `action` in `st` (bound ones fixed)."""
    for batch in candidate_batches(game, st, action, fixed):
        for items in batch:
            yield dict(items)


Key = tuple[tuple[str, Any], ...]


def candidate_batches(game: Game, st: State, action: CompiledAction, fixed: dict[str, Any],
                      env: Env | None = None) -> Iterator[Sequence[Key]]:
    """`candidates`, each as its values sorted by name (a move's key, `Move.args`), made
    straight from the values found, with no dict in between; in batches, in order. The
    kernel's tile placements come all at once (each costs little, and pulled one at a time
    through the generators they cost more than that); the others one by one, as each may
    cost a walk and whoever asks may need only the first.

    `env`, if given, is one made for listing `st` (`listing_env`), used by one action
    after another: its names are cleared here."""
    if env is None:
        env = listing_env(game, st)
    env.vars = {}
    env.action = action.id
    try:
        for r in action.ready[0]:
            if not r.cond(env):
                return
    except RuleError:
        return
    if action.placement is not None and not fixed:
        yield from _placement_candidates(game, env, action)
        return
    yield from _walk(game, env, action, 0, fixed)


def _key(action: CompiledAction, values: dict[str, Any]) -> Key:
    """The values sorted by name; by the names worked out once when they are the action's
    parameters, as they are unless something else was bound meanwhile."""
    if len(values) == len(action.key_names):
        try:
            return action.key_of(values)
        except KeyError:
            pass
    return tuple(sorted(values.items()))


def _values(env: Env, param: Param, fixed: dict[str, Any]) -> Any:
    if param.name in fixed:
        return (fixed[param.name],)
    domain = param.domain(env)
    if not param.subset:
        return domain
    items = list(domain)[:SUBSET_LIMIT]
    return (tuple(c) for k in range(1, len(items) + 1) for c in itertools.combinations(items, k))


def _walk(game: Game, env: Env, action: CompiledAction, i: int, fixed: dict[str, Any]
          ) -> Iterator[tuple[Key]]:
    if i == len(action.params):
        if not action.arrivals or not refused(game, env, action):
            yield (_key(action, env.vars),)
        return
    param = action.params[i]
    try:
        values = _values(env, param, fixed)
    except RuleError:
        return
    gate = action.gates[i] if action.gates else None
    if gate is not None and param.name not in fixed:
        values = _gate_values(env, gate, values)
    ready = action.ready[i + 1]
    last = i + 1 == len(action.params)  # the leaf checked here, not in a walk of its own
    for v in values:
        env.vars[param.name] = v
        ok = True
        try:
            for r in ready:  # a loop, not all(...): no generator made for every value
                if not r.cond(env):
                    ok = False
                    break
        except RuleError:
            ok = False
        if not ok:
            continue
        if not last:
            yield from _walk(game, env, action, i + 1, fixed)
        elif not action.arrivals or not refused(game, env, action):
            yield (_key(action, env.vars),)
    env.vars.pop(param.name, None)


def _placement_candidates(game: Game, env: Env, action: CompiledAction
                          ) -> Iterator[Sequence[Key]]:
    """Tile placements come from the kernel's pattern index, not from a blind product."""
    st = env.state
    card_p, face_p, cell_p, rot_p = action.placement  # type: ignore[misc]
    by_name = {p.name: p for p in action.params}
    cards = list(by_name[card_p].domain(env))
    # On one shared board the kernel's placements are exactly those `fits` accepts: it
    # is not asked again. Boards of their own have limits of their own (game.fits).
    requires = action.requires if game.per_player else action.beyond_fit
    if not requires and not action.arrivals and len(action.params) == 4:
        # nothing else to ask of a fitting tile: its key is its four values by name
        yield _placement_keys(game, st, action, cards)
        return
    if st.board:
        found = placements(game.catalogue, st.frontier, cards, game.match, game.fitting)
    else:
        found = ((c, f, game.first_cell, r) for c in cards
                 for f in game.catalogue.card_faces[c] for r in range(game.lattice.rotations))
    for card, face, cell, rot in found:
        env.vars = {card_p: card, face_p: face, cell_p: cell, rot_p: rot}
        try:
            ok = all(r.cond(env) for r in requires)
        except RuleError:
            ok = False
        if ok and not refused(game, env, action):
            yield (_key(action, env.vars),)


def _placement_keys(game: Game, st: State, action: CompiledAction, cards: list[str]
                    ) -> Sequence[Key]:
    """The key (values sorted by name) of every placement that fits, in the kernel's
    order: a `Placements` that makes each key only when asked for, or (when the same
    card is offered twice, so two groups may hold the same placement) every key at once."""
    card_p, face_p, cell_p, rot_p = action.placement  # type: ignore[misc]
    if st.board:
        groups: Iterable[tuple[str, str, tuple[int, ...], list[Any]]] = placement_groups(
            game.catalogue, st.frontier, cards, game.match, game.fitting)
    else:  # the first tile: every rotation at the first cell
        every = tuple(range(game.lattice.rotations))
        groups = [(c, f, every, [game.first_cell]) for c in cards
                  for f in game.catalogue.card_faces[c]]
    found = Placements(action, groups)
    return found if len(set(cards)) == len(cards) else list(found)


# (a placement's four parameters, the action's names in key order) -> what picks a
# placement's values (card, face, cell, rotation) in the key's order
_KEY_ORDER: dict[tuple[tuple[str, ...], tuple[str, ...]], Callable[[Any], Any]] = {}


class Placements(LazySequence[Key]):
    """The keys of the tile placements that fit, in the kernel's order (each group's
    rotations, each with every cell of the group), each made only when asked for.

    Random play needs how many placements there are and the one drawn: making the key
    of each of a position's hundreds of placements (and putting each in the listing's
    dict) cost about a fifth of a game of tiles. A group is the kernel's (card, face,
    rotations, cells), kept as it came (a position lists dozens, and draws from one); no
    two keys are the same (each cell stands in one group of a card's face), so the
    listing need not look for duplicates."""

    __slots__ = ("_groups", "_starts", "_len", "_get", "_names", "_drawn")

    def __init__(self, action: CompiledAction,
                 groups: Iterable[tuple[str, str, tuple[int, ...], list[Any]]]) -> None:
        names = action.placement
        assert names is not None
        get = _KEY_ORDER.get((names, action.key_names))
        if get is None:  # (the same for every listing of the action: made once)
            where = dict(zip(names, range(4)))
            get = _KEY_ORDER[(names, action.key_names)] = operator.itemgetter(
                *(where[name] for name in action.key_names))
        self._get = get
        self._names = names
        self._groups = found = list(groups)
        # where each group's placements begin, and how many there are in all (a loop: a
        # position lists dozens of groups, and the tools to sum them cost more here)
        starts: list[int] = []
        total = 0
        for _, _, fit, cells in found:
            starts.append(total)
            total += len(fit) * len(cells)
        self._len = total
        self._starts = starts
        # The last key asked for by index: the move random play drew, which is then
        # carried out, and found here again without a search (see `__contains__`).
        self._drawn: Key | None = None

    _missing = "no placement of that index"

    def __len__(self) -> int:
        return self._len

    def _item(self, i: int) -> Key:
        g = bisect.bisect_right(self._starts, i) - 1
        card, face, fit, cells = self._groups[g]
        r, c = divmod(i - self._starts[g], len(cells))
        card_p, face_p, cell_p, rot_p = self._names
        key = self._drawn = self._get(((card_p, card), (face_p, face), (cell_p, cells[c]),
                                       (rot_p, fit[r])))
        return key

    def __iter__(self) -> Iterator[Key]:
        get = self._get
        card_p, face_p, cell_p, rot_p = self._names
        # one comprehension: each key from its group's pairs and the cell's, in name order
        return iter([get((card_pair, face_pair, (cell_p, cell), rot_pair))
                     for card, face, fit, cells in self._groups
                     for card_pair, face_pair in (((card_p, card), (face_p, face)),)
                     for r in fit for rot_pair in ((rot_p, r),)
                     for cell in cells])

    def __contains__(self, items: object) -> bool:
        """Whether `items` is one of the keys (found by its group, not by making them all)."""
        if items == self._drawn:
            return True
        try:
            values = dict(items)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return False
        card_p, face_p, cell_p, rot_p = self._names
        cell, rot = values.get(cell_p), values.get(rot_p)
        for card, face, fit, cells in self._groups:
            if rot in fit and cell in cells and \
                    values.get(card_p) == card and values.get(face_p) == face:
                return bool(self._get(((card_p, card), (face_p, face), (cell_p, cell),
                                       (rot_p, rot))) == items)
        return False


# --------------------------------------------------------------- checking


def check(game: Game, st: State, action: CompiledAction, values: dict[str, Any],
          cites: dict[str, None] | None = None) -> list[Violation]:
    """Every rule the candidate breaks (empty: legal), for adjudication.

    `cites`, if given, collects the rules of the conditions the check found true.
    """
    env = Env(game, st)
    env.memo = state_memo(st)
    env.action = action.id
    env.cites = cites
    env.vars = {}
    out: list[Violation] = []
    broken: set[str] = set()
    ex = explainer(game)
    for param in action.params:
        v = values.get(param.name)
        env.vars[param.name] = v
        try:
            domain = param.domain(env)
            inside = all(x in domain for x in v) if param.subset else v in domain
        except (RuleError, TypeError) as e:
            inside, domain = False, ()
            out.append(Violation(param.rule, "domain", str(e), node=param.node))
        if not inside:
            broken.add(param.name)
            elem = param.type[4:] if param.subset else param.type
            why = _explained(lambda param=param, v=v, elem=elem: ex.domain(
                v, param.node.domain, ex.context(st, env.vars, action.id), param.subset, elem))
            out.append(Violation(param.rule, "domain", "", why.text if why else None,
                                 node=param.node, because=why.rules if why else []))
    for r in action.requires:
        if r.depends & broken:
            continue
        try:
            ok = bool(r.cond(env))
            err = None
        except RuleError as e:
            ok, err = False, str(e)
        if not ok:
            why = None if err else _explained(lambda r=r: ex.requirement(
                r.node, ex.context(st, env.vars, action.id)))
            detail = err or explain(game, st, r, env) or (why.text if why else None)
            out.append(Violation(r.rule, "requirement", r.message or "", detail, node=r.node,
                                 because=why.rules if why else []))
    # A value outside its domain may still be judged by the prohibitions (a
    # destination out of reach that is also forbidden ground): every rule the
    # move breaks is named, but a prohibition that cannot be read for such a
    # value says nothing.
    try:
        out += forbidden(game, env, action, first_only=False)
    except RuleError as e:
        if not broken:
            out.append(Violation(action.rule, "impossible", str(e)))
    return out


def explain(game: Game, st: State, r: Requirement, env: Env) -> str | None:
    """A kernel-level reason for a failed requirement, where the kernel has one."""
    c = r.node
    if isinstance(c, n.Call) and not c.defined:
        return LIBRARY[c.func].explain(game, st, env, c)
    return None


def valid_site(game: Game, st: State, site: Any) -> bool:
    try:
        check_site(game, st, site)
    except RuleError:
        return False
    return True
