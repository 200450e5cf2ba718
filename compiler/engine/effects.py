"""Statements -> closures, and the event queue that runs triggered rules.

An effect changes the state and writes a `Consequence` that cites the rule it
applies. Effects raise events (a tile laid, an area closed, a piece entering
or leaving a site). After an action's effects (or a triggered rule's) have all
run, `drain` resolves the queued events: every matching trigger, in the order
the triggers are declared, events first-in first-out. A trigger deferred to a
later step of the turn waits in the turn's pending list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from compiler.engine import places, simultaneous, zone_play, zones
from compiler.engine.evaluate import Env, Fn, RuleError, _MISSING, _restore, call_scoped, cell_key
from compiler.engine.state import POOL, SET_ASIDE, STACKS, Grant, Pending, Piece, State
from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.english import article, counted
from compiler.kernel.boards import board_of
from compiler.kernel.tiles import Frontier

if TYPE_CHECKING:
    from compiler.engine.game import CompiledTrigger, Game

Run = Callable[[Env], None]


@dataclass(slots=True)
class Consequence:
    kind: str
    rule: str | None
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    # Rules of the definitions that decided it (how much, for whom), more specific
    # than `rule`: say, the rule defining who leads an area, for the points it pays.
    also: list[str] = field(default_factory=list)


def note(env: Env, what: str, rule: str | None, text: str, *, also: tuple[str, ...] = (),
         **data: Any) -> None:
    """Say a consequence of the move, for its ruling: only while it is recorded (a move
    carried out unrecorded is carried out again to write its ruling: engine/performed.py)."""
    if env.trace is None:
        return
    found = list(also)
    if env.trace:
        found += [r for r in env.trace if r not in found]
        env.trace.clear()
    said = Consequence(what, rule, text, data, [r for r in found if r != rule])
    if env.log:
        env.log.append(said)  # type: ignore[union-attr]
    else:  # the first: the list is made now (see `Env.log`)
        env.log = [said]


# Statements that change nothing themselves (what they run may: each statement of their
# bodies is judged on its own).
_READ_ONLY = frozenset({"for_each", "if", "let", "apply"})


def _changes(run: Run) -> Run:
    """A statement that may change the state: it runs without a memo (a value it works out
    after its change must see the change), and the memo its block kept is dropped after it,
    for a fresh one: nothing worked out before the change is trusted after it."""
    def changes(env: Env) -> None:
        if env.memo is None:
            run(env)
            return
        env.memo = None
        try:
            run(env)
        finally:
            env.memo = {}
    return changes


class StmtCompiler:
    def __init__(self, game: Game) -> None:
        from compiler.engine.formula import FormulaReader
        self.game = game
        self.expr = game.expr
        self.formulas = FormulaReader(game)

    def block(self, body: list[Any]) -> Run:
        steps = [self(s) for s in body]

        def statements(env: Env) -> None:
            for s in steps:
                if env.trace is None:
                    s(env)
                    continue
                shown = len(env.log)
                s(env)
                if env.trace and len(env.log) == shown:
                    # Definitions took effect but nothing followed (an exemption
                    # spared a piece): they still decided the move.
                    env.decided = [*env.decided,  # (replaced: see `Env.decided`)
                                   *(r for r in env.trace if r not in env.decided)]
                    env.trace.clear()

        def run(env: Env) -> None:
            if env.memo is not None:  # a block within a block: its memo goes on
                statements(env)
                return
            # Effects begin: what their expressions work out is kept until a statement
            # changes the state (see `_changes`); the code that runs between effects
            # (the turn moving on) writes the state too, so the memo ends with them.
            env.memo = {}
            try:
                statements(env)
            finally:
                env.memo = None
        return run

    def __call__(self, node: Any) -> Run:
        run = getattr(self, f"s_{node.node}")(node)
        return run if node.node in _READ_ONLY else _changes(run)

    # ------------------------------------------------------------ pieces

    def s_place(self, s: n.Place) -> Run:
        game, kind, rule = self.game, s.kind, s.rule
        owner = self.expr(s.owner) if s.owner is not None else None
        at = self.expr(s.at)

        def place(env: Env) -> None:
            st = env.state
            who = owner(env) if owner is not None else env.me
            site = at(env)
            check_site(game, st, site)
            if st.supply[who].get(kind, 0) <= 0:
                raise RuleError(f"{game.seat_name(who)} has no {game.title(kind)} left")
            st.supply[who][kind] -= 1
            pid = put(st, kind, who, site, game)
            if env.trace is not None:  # recorded: said (see `note`)
                note(env, "placed", rule,
                     f"{game.seat_name(who)} puts {article(game.title(kind))} on "
                     f"{game.format_site(site)}" + beneath(game, st, pid),
                     piece=game.format_piece(st, pid), player=who)
            env.events.append(("enters", {"piece": pid, "site": site}))
        return place

    def s_stack(self, s: n.StackOn) -> Run:
        game, kind, rule = self.game, s.kind, s.rule
        on = self.expr(s.on)
        owner = self.expr(s.owner) if s.owner is not None else None
        below_kind = game.kinds[kind][1].on

        def stack(env: Env) -> None:
            st = env.state
            target = st.pieces.get(on(env))
            if target is None:
                raise RuleError(f"there is no piece to put the {game.title(kind)} on")
            site = (target.cell, target.site)
            if st.stack_of(site)[-1] != target.id:
                raise RuleError(f"{game.format_piece(st, target.id)} is covered")
            if below_kind is not None and not game.is_a(target.kind, below_kind):
                raise RuleError(f"a {game.title(kind)} goes only on a {game.title(below_kind)}")
            who = target.owner if owner is None else owner(env)
            if st.supply[who].get(kind, 0) <= 0:
                raise RuleError(f"{game.seat_name(who)} has no {game.title(kind)} left")
            st.supply[who][kind] -= 1
            pid = put(st, kind, who, site, game)
            note(env, "placed", rule,
                 f"{game.seat_name(who)} puts {article(game.title(kind))} on "
                 f"{_poss(game.seat_name(target.owner))} {game.title(target.kind)} at "
                 f"{game.format_site(site)}",
                 piece=game.format_piece(st, pid), player=who)
            env.events.append(("enters", {"piece": pid, "site": site}))
        return stack

    def s_move(self, s: n.Move) -> Run:
        game, rule = self.game, s.rule
        if s.what == "card":
            return zone_play.move_cards(game, self.expr, s, note)
        what, to = self.expr(s.piece), self.expr(s.to)

        def move(env: Env) -> None:
            st = env.state
            pid = what(env)
            p = st.pieces.get(pid)
            if p is None:
                raise RuleError("there is no such piece to move")
            dest = to(env)
            check_site(game, st, dest)
            origin = (p.cell, p.site)
            stack = st.stack_of(origin)
            # The piece takes with it what is built on it (kinds declared `on`
            # another); anything else standing on top stays where it is.
            above = stack[stack.index(pid) + 1:]
            built = tuple(q for q in above if game.kinds[st.pieces[q].kind][1].on is not None)
            carried = (pid, *built)
            st.stacks_at[origin] = tuple(q for q in stack if q not in carried)
            if not st.stacks_at[origin]:
                del st.stacks_at[origin]
            for c in carried:
                q = st.pieces[c]
                st.pieces[c] = Piece(q.id, q.kind, q.owner, dest[0], dest[1])
            land(st, dest, carried, game)
            st.turn = st.turn.but(arrived=st.turn.arrived + carried)
            note(env, "moved", rule,
                 f"{_poss(game.seat_name(p.owner))} {game.title(p.kind)} moves from "
                 f"{game.format_site(origin)} to {game.format_site(dest)}"
                 + beneath(game, st, pid),
                 piece=game.format_piece(st, pid), origin=game.format_site(origin))
            env.events.append(("leaves", {"piece": pid, "site": origin}))
            env.events.append(("enters", {"piece": pid, "site": dest}))
        return move

    def s_return(self, s: n.Return) -> Run:
        game, rule = self.game, s.rule
        what = self.expr(s.what)
        many = (s.what.type or "").startswith("set:")

        def ret(env: Env) -> None:
            value = what(env)
            for pid in (value if many else (value,)):
                if pid is not None and pid in env.state.pieces:
                    take_back(env, game, pid, rule)
        return ret

    # --------------------------------------------------------- resources

    def s_give(self, s: n.Give) -> Run:
        game, rule = self.game, s.rule
        amount = self.expr(s.amount)
        source = self.expr(s.source) if s.source is not None else None
        target = self.expr(s.target)
        # `give 1 c …` with `c` a chosen kind: which resource is known only when it runs.
        which = self.expr(n.Name(id=s.resource, ref="var")) if s.kind_var else None
        src_type = s.source.type if s.source is not None else "holder"
        tgt_type = s.target.type
        if not s.kind_var and game.category(s.resource) == "piece" and source is not None:
            game.handed_kinds.add(s.resource)
            return self._hand_over(s.resource, amount, source, target, rule)
        formulas = self.formulas
        showing = formulas.worth_showing(s.amount)

        def give(env: Env) -> None:
            st = env.state
            want = amount(env)
            if want is None or want <= 0:
                return
            # While a move is judged, the consequence shows how the amount was
            # reached, with this position's numbers ("2 × 3 tiles = 6").
            how = formulas.shown(s.amount, env) if showing and env.trace is not None else None
            about = formulas.areas(s.amount, env) if how else []
            res = which(env) if which is not None else s.resource
            limited = game.resources[res].limit is not None
            src = source(env) if source is not None else POOL
            tgt = target(env)
            bank = src == POOL and not limited
            have = None if bank else holding(st, src, src_type, res)
            got = want if have is None else min(want, have)
            if tgt_type == "area" and not game.area_holds(st.areas.kind(tgt), res):
                raise RuleError(f"{game.describe_area(st, tgt)} cannot hold {game.title(res, True)}")
            if tgt_type == "tile" and (tgt not in st.board or
                                       not game.holds(st.board[tgt][0], st.board[tgt][1], res)):
                raise RuleError(f"{describe_holder(game, st, tgt, tgt_type)} cannot hold "
                                f"{game.title(res, True)}")
            if got > 0:
                if not bank:
                    adjust(st, src, src_type, res, -got)
                adjust(st, tgt, tgt_type, res, got)
            if env.trace is None:  # not recorded: nothing to say (see `note`)
                return
            short = "" if got == want else f" ({want} due, only {got} left)"
            if how and how in (f"{want} {game.title(res, want != 1)}",
                               f"{want} {game.title(res)}"):
                how = None  # "7 coins: 7 coins" says nothing the amount does not
            receiver = describe_holder(game, st, tgt, tgt_type)
            if how and how.startswith(receiver + " "):
                how = "it" + how[len(receiver):]  # "the Well at 1,0 receives 2 …: it holds …"
            if how:
                holders = {st.areas.find(h) for h, t in ((src, src_type), (tgt, tgt_type))
                           if t == "area" and h is not None and h != POOL}
                named = [game.describe_area(st, a) for a in about if a not in holders]
                how = (f" for {' and '.join(named)}" if named else "") + f": {how}"
            amount_words = f"{got} {game.title(res, got != 1)}{short}"
            giver = None if src == POOL else describe_holder(game, st, src, src_type)
            if tgt == POOL and giver is not None and src_type == "player":  # a player pays
                said = f"{giver} pays {amount_words} to {receiver}"
            elif tgt == POOL and giver is not None:
                said = f"{amount_words} {'goes' if got == 1 else 'go'} from {giver} to {receiver}"
            else:
                said = f"{receiver} receives {amount_words}" + \
                    ("" if giver is None else f" from {giver}")
            # Given by a card's ability: which card, in the words of the ability's title.
            by = f" ({env.source})" if env.source else ""
            note(env, "gave", rule, said + by + (how or ""),
                 resource=res, amount=got, due=want,
                 to=holder_ref(game, st, tgt, tgt_type),
                 source=holder_ref(game, st, src, src_type))
        return give

    def _hand_over(self, kind: str, amount: Fn, source: Fn, target: Fn, rule: str | None) -> Run:
        """`give n pawn from p to q`: pieces pass from one player's supply to another's."""
        game = self.game

        def hand(env: Env) -> None:
            st = env.state
            want, src, tgt = amount(env), source(env), target(env)
            if want is None or want <= 0 or src is None or tgt is None:
                return
            got = min(want, st.supply[src].get(kind, 0))
            if got > 0:
                st.supply[src][kind] -= got
                st.supply[tgt][kind] = st.supply[tgt].get(kind, 0) + got
            short = "" if got == want else f" ({want} due, only {got} left)"
            note(env, "gave", rule,
                 f"{game.seat_name(tgt)} receives {got} {game.title(kind, got != 1)} from "
                 f"{_poss(game.seat_name(src))} supply{short}",
                 resource=kind, amount=got, due=want, to=game.seat_id(tgt),
                 source=game.seat_id(src))
        return hand

    def s_draw(self, s: n.Draw) -> Run:
        game, rule, kinds = self.game, s.rule, list(s.kinds)
        count, source, target = self.expr(s.count), self.expr(s.source), self.expr(s.target)
        src_type, tgt_type = s.source.type or "holder", s.target.type or "holder"

        def draw(env: Env) -> None:
            st = env.state
            src, tgt = source(env), target(env)
            got: list[str] = []
            for _ in range(max(0, count(env) or 0)):
                have = [holding(st, src, src_type, k) for k in kinds]
                if sum(have) == 0:
                    break  # the source has run dry: what is left is what comes
                options = [k for k, h in zip(kinds, have) if h > 0]
                kind = env.outcome(options, [h for h in have if h > 0],
                                   f"a draw from {describe_holder(game, st, src, src_type)}")
                adjust(st, src, src_type, kind, -1)
                adjust(st, tgt, tgt_type, kind, 1)
                got.append(kind)
            if got:
                said = ", ".join(f"{got.count(k)} {game.title(k, got.count(k) != 1)}"
                                 for k in kinds if k in got)
                note(env, "drew", rule, f"{describe_holder(game, st, tgt, tgt_type)} draws "
                     f"{said} at random from {describe_holder(game, st, src, src_type)}",
                     drawn=got, to=holder_ref(game, st, tgt, tgt_type))
        return draw

    # -------------------------------------------------------- attributes

    def s_set_attr(self, s: n.SetAttr) -> Run:
        game, rule, name = self.game, s.rule, s.target.name
        obj, value = self.expr(s.target.obj), self.expr(s.value)
        vtype = s.value.type
        if s.target.obj.type == "player":
            decl = game.player_attrs.get(name)
            secret = decl is not None and decl.secret

            def set_player(env: Env) -> None:
                p = obj(env)
                if p is None:
                    return
                v = value(env)
                old = env.state.player_attrs[p].get(name)
                env.state.player_attrs[p] = {**env.state.player_attrs[p], name: v}
                if (p, name) in env.state.unseen_attrs:  # set here: a view knows it now
                    env.state.unseen_attrs = env.state.unseen_attrs - {(p, name)}
                if secret:  # chosen in secret: hidden until everyone has chosen
                    simultaneous.set_secret(env, p, name)
                shown = game.seat_id(v) if vtype == "player" and v is not None else v
                # Set to nothing, it reads as taken away.
                said = game.describe_player_attribute(name, v) if v is not None else \
                    game.describe_player_attribute(name, old, cleared=True)
                if said is not None:
                    note(env, "set", rule, f"{game.seat_name(p)} {said}",
                         player=game.seat_id(p), attribute=name, value=shown)
            return set_player
        if s.target.obj.type == "game":
            return self._set_game(s.target.name, value, vtype, rule)
        if s.target.obj.type == "tile":
            return self._set_tile(name, obj, value, vtype, rule)

        def set_attr(env: Env) -> None:
            st = env.state
            root = st.areas.find(obj(env))
            v = value(env)
            attrs = dict(st.area_attrs.get(root, {}))
            old = attrs.get(name)
            attrs[name] = v
            st.area_attrs[root] = attrs
            if env.trace is None:  # not recorded: nothing to say (see `note`)
                return
            shown = game.seat_id(v) if vtype == "player" and v is not None else v
            kind = st.areas.kind(root)
            words = game.describe_attribute(kind, name, v) if v is not None else \
                game.describe_attribute(kind, name, old, cleared=True)
            if words is not None:
                note(env, "set", rule, f"{game.describe_area(st, root)} {words}",
                     area=game.format_area(st, root), attribute=name, value=shown)
        return set_attr

    def s_clear_attr(self, s: n.ClearAttr) -> Run:
        game, rule, name = self.game, s.rule, s.target.name
        obj = self.expr(s.target.obj)
        if s.target.obj.type == "player":
            def clear_player(env: Env) -> None:
                p = obj(env)
                if p is None or name not in env.state.player_attrs[p]:
                    return  # nothing to clear: nothing happens, nothing is logged
                attrs = dict(env.state.player_attrs[p])
                old = attrs.pop(name)
                env.state.player_attrs[p] = attrs
                said = game.describe_player_attribute(name, old, cleared=True)
                if said is not None:
                    note(env, "cleared", rule, f"{game.seat_name(p)} {said}",
                         player=game.seat_id(p), attribute=name)
            return clear_player
        if s.target.obj.type == "game":
            return self._set_game(name, None, None, rule)
        if s.target.obj.type == "tile":
            return self._set_tile(name, obj, None, None, rule)

        def clear(env: Env) -> None:
            st = env.state
            root = st.areas.find(obj(env))
            attrs = dict(st.area_attrs.get(root, {}))
            old = attrs.pop(name, None)
            st.area_attrs[root] = attrs
            words = game.describe_attribute(st.areas.kind(root), name, old, cleared=True)
            if words is not None:
                note(env, "cleared", rule, f"{game.describe_area(st, root)} {words}",
                     area=game.format_area(st, root), attribute=name)
        return clear

    def _set_tile(self, name: str, obj: Any, value: Any, vtype: str | None,
                  rule: str | None) -> Run:
        """`set t.NAME to …` on a laid tile (`clear t.NAME` when `value` is None)."""
        game = self.game

        def set_tile(env: Env) -> None:
            st = env.state
            cell = obj(env)
            if cell is None or cell not in st.board:
                raise RuleError(f"no tile is laid there, so its `{name}` cannot be set")
            attrs = dict(st.tile_attrs.get(cell, {}))
            v = value(env) if value is not None else None
            if v is None:
                if attrs.pop(name, None) is None:
                    return
            else:
                if attrs.get(name, _MISSING) == v:
                    return  # nothing changes, and nothing is said
                attrs[name] = v
            st.tile_attrs[cell] = attrs
            shown = game.seat_id(v) if vtype == "player" and v is not None else v
            where = game.format_cell(cell, env.me)
            card = game.laid_card_words(st, cell, env.me) or f"{st.board[cell][0]} at {where}"
            phrased = game.describe_card_attribute(name, shown) if v is not None else None
            if phrased is not None:  # "the Depot at 2,0 has brought 1 point"
                said = f"{card} {phrased}"
            else:
                said = f"{card}: {name} " + ("cleared" if v is None else f"is {shown}")
            note(env, "set" if v is not None else "cleared", rule, said,
                 tile=where, attribute=name, value=shown)
        return set_tile

    def _set_game(self, name: str, value: Any, vtype: str | None, rule: str | None) -> Run:
        """`set game.NAME to …` (and `clear game.NAME`, when `value` is None)."""
        game = self.game

        def set_game(env: Env) -> None:
            st = env.state
            old = st.game_attrs.get(name)
            v = value(env) if value is not None else None
            if value is None:
                if name not in st.game_attrs:
                    return  # nothing to clear: nothing happens, nothing is logged
                st.game_attrs = {k: x for k, x in st.game_attrs.items() if k != name}
            else:
                st.game_attrs = {**st.game_attrs, name: v}
            said = game.describe_game_attribute(name, v) if v is not None else \
                game.describe_game_attribute(name, old, cleared=True)
            shown = game.seat_id(v) if vtype == "player" and v is not None else v
            if said is not None:
                note(env, "set" if value is not None else "cleared", rule, f"the game {said}",
                     attribute=name, value=shown)
        return set_game

    # ------------------------------------------------------------ grants

    def s_grant_one(self, s: n.GrantOne) -> Run:
        game, rule, action = self.game, s.rule, s.action
        actions = (s.action, *s.alternatives)
        bindings = [(name, self.expr(e), e.type) for name, e in s.bindings]
        to = self.expr(s.to) if s.to is not None else None
        must = s.must

        def grant(env: Env) -> None:
            st = env.state
            bound = tuple((name, to_ref(st, f(env), t)) for name, f, t in bindings)
            player = to(env) if to is not None else None
            if player is None and to is not None:
                return
            who = env.me if player is None else player
            st.turn = st.turn.but(grants=st.turn.grants + (
                Grant(actions, 1, bound, rule, player if player != st.turn.principal else None,
                      must),))
            said = " or ".join(_third_person(game.actions[a].decl.title) for a in actions)
            note(env, "granted", rule,
                 f"{game.seat_name(who)} {'must' if must else 'may'} now {said}",
                 actions=list(actions), player=game.seat_id(who))
        return grant

    def s_grant_each(self, s: n.GrantEach) -> Run:
        return simultaneous.compile_grant_each(self, s)

    def s_grant_many(self, s: n.GrantMany) -> Run:
        game, rule, actions = self.game, s.rule, tuple(s.actions)
        count = self.expr(s.count)

        def grant(env: Env) -> None:
            st = env.state
            k = count(env)
            if k <= 0:
                return
            st.turn = st.turn.but(grants=st.turn.grants + (Grant(actions, k, (), rule),))
            names = " or ".join(_third_person(game.actions[a].decl.title) for a in actions)
            note(env, "granted", rule, f"{game.seat_name(env.me)} may now take up to "
                                       f"{counted(k, 'more action', 'more actions')}: {names}",
                 actions=list(actions), count=k)
        return grant

    # ------------------------------------------------------------- flow

    def s_apply(self, s: n.Apply) -> Run:
        if s.ability:
            from compiler.engine.cards import compile_apply
            return compile_apply(self.game, s)
        game, name = self.game, s.effect
        args = [self.expr(a) for a in s.args]
        # The rule the effect is declared in applies too, even where nothing shows.
        declared = next((d.rule for d in game.decls if isinstance(d, m.Effect) and d.id == name
                         and d.rule != s.rule), None)

        nodes = list(s.args)

        def apply(env: Env) -> None:
            body, params = game.effects[name]
            values = [a(env) for a in args]
            if env.trace is None:
                call_scoped(env, body, params, values)
                return
            if declared and declared not in env.trace:
                env.trace.append(declared)
            outer = env.origins
            env.origins = {p: (x, env.vars, outer) for p, x in zip(params, nodes)}
            try:
                call_scoped(env, body, params, values)
            finally:
                env.origins = outer
        return apply

    def s_for_each(self, s: n.ForEach) -> Run:
        coll, body, var = self.expr(s.collection), self.block(s.body), s.var

        def for_each(env: Env) -> None:
            items = tuple(coll(env))
            saved = env.vars.get(var, _MISSING)
            try:
                for x in items:
                    env.vars[var] = x
                    body(env)
            finally:
                _restore(env.vars, var, saved)
        return for_each

    def s_if(self, s: n.If) -> Run:
        cond, then, other = self.expr(s.cond), self.block(s.then), self.block(s.otherwise)

        def if_(env: Env) -> None:
            (then if cond(env) else other)(env)
        return if_

    def s_let(self, s: n.Let) -> Run:
        value, name = self.expr(s.value), s.name

        def let(env: Env) -> None:
            env.vars[name] = value(env)
        return let

    # ------------------------------------------------------------- tiles

    def s_lay(self, s: n.Lay) -> Run:
        game, rule = self.game, s.rule
        card, cell = self.expr(s.card), self.expr(s.cell)
        if s.face is None or s.rotation is None or s.source is not None:
            return zone_play.lay(game, self.expr, s, card, cell, lay_tile)
        face, rot = self.expr(s.face), self.expr(s.rotation)

        def lay(env: Env) -> None:
            st = env.state
            c, f, x, r = card(env), face(env), cell(env), rot(env)
            if not game.fits(st, c, f, x, r):
                raise RuleError(f"{c} {f} does not fit at {game.format_cell(x, env.me)} r{r}")
            if not zones.take_top(st, STACKS, c):
                raise RuleError(f"{c} is not on top of a stack")
            lay_tile(env, game, c, f, x, r, rule)
        return lay

    def s_deal(self, s: n.Deal) -> Run:
        return zone_play.deal(self.game, self.expr, s, note)

    def s_shuffle(self, s: n.Shuffle) -> Run:
        return zone_play.shuffle(self.game, self.expr, s, note)

    def s_rotate(self, s: n.Rotate) -> Run:
        return zone_play.rotate(self.game, self.expr, s, note)

    def s_reveal(self, s: n.Reveal) -> Run:
        if s.attribute:  # a secret player attribute, not a zone
            return simultaneous.reveal_statement(self.game, self.expr, s)
        return zone_play.reveal(self.game, self.expr, s, note)

    def s_discard(self, s: n.Discard) -> Run:
        game, rule = self.game, s.rule
        card = self.expr(s.card)

        def discard(env: Env) -> None:
            st = env.state
            c = card(env)
            if not zones.take_top(st, STACKS, c):
                raise RuleError(f"{c} is not on top of a stack")
            zones.put(st, SET_ASIDE, c)
            note(env, "discarded", rule, f"{c} is set aside, out of the game", card=c)
        return discard


    def s_remove_tile(self, s: n.RemoveTile) -> Run:
        game, rule = self.game, s.rule
        tile = self.expr(s.tile)
        zone = next(z for z in game.zones if z.id == s.zone)

        def remove(env: Env) -> None:
            st = env.state
            cell = tile(env)
            named = game.laid_card_words(st, cell, env.me)
            card = _take_off(game, st, cell, "removed")
            owner = board_of(cell) if game.per_player else env.me
            places.moving(game, st, None, zone.key(owner), [card], openly=True)
            zones.put(st, zone.key(owner), card, ordered=zone.ordered)
            if named is not None:  # a printed card goes to a zone a reader knows by name
                said = f"{named} is taken off the board and put on " \
                       f"{zone_play.zone_title(game, zone.key(owner))}"
            else:
                where = "aside, out of the game" if zone.id == "set_aside" else \
                    f"to the {zone.id.replace('_', ' ')}"
                said = f"{card} at {game.format_cell(cell, env.me)} is taken off the board " \
                       f"and put {where}"
            note(env, "removed", rule, said, card=card, cell=game.format_cell(cell),
                 zone=zone.id)
        return remove

    def s_turn_down(self, s: n.TurnDown) -> Run:
        game, rule = self.game, s.rule
        tile = self.expr(s.tile)

        def turn_down(env: Env) -> None:
            st = env.state
            cell = tile(env)
            named = game.laid_card_words(st, cell, env.me)
            card = _take_off(game, st, cell, "turned face down")
            if (card, "down") not in game.catalogue.faces:
                raise RuleError(f"{card} has no face `down` to turn to")
            st.board[cell] = (card, "down", 0)
            st.frontier = Frontier.rebuild(game.lattice, st.board, game.catalogue)
            named = named or f"{card} at {game.format_cell(cell, env.me)}"
            note(env, "turned", rule, f"{named} is turned face down where it lies", card=card,
                 cell=game.format_cell(cell))
        return turn_down


# ------------------------------------------------------------------ helpers


def _take_off(game: Game, st: State, cell: Any, what: str) -> str:
    """Empty a laid tile before it leaves the board or turns face down: what it holds
    goes to the pool, its attributes go. The board is the state's own afterwards, and
    the cells next to it are worked out again (the tile may have been anywhere)."""
    if cell is None or cell not in st.board:
        raise RuleError(f"no tile is laid there to be {what}")
    if any(p.cell == cell for p in st.pieces.values()):
        raise RuleError(f"the tile at {game.format_cell(cell, st.turn.actor)} carries pieces, "
                        f"so it cannot be {what}")
    for res, amount in st.tile_res.pop(cell, {}).items():
        if amount and game.resources[res].limit is not None:
            st.pool[res] = st.pool.get(res, 0) + amount
    st.tile_attrs.pop(cell, None)
    card = st.board[cell][0]
    st.own_geometry()
    del st.board[cell]
    st.frontier = Frontier.rebuild(game.lattice, st.board, game.catalogue)
    return card


def _third_person(title: str) -> str:
    """An action's title ("leave your pawns") said of a named player ("their")."""
    return re.sub(r"\byour\b", "their", re.sub(r"\byours\b", "theirs", title))


def _poss(name: str) -> str:
    return f"{name}’" if name.endswith("s") else f"{name}’s"


def check_site(game: Game, st: State, site: Any) -> None:
    if site is None or site[0] not in st.board:
        raise RuleError("there is no tile there")
    card, face, _ = st.board[site[0]]
    if site[1] not in game.catalogue.faces[(card, face)].sites:
        raise RuleError(f"{card} {face} has no site `{site[1]}`")


def put(st: State, kind: str, owner: int, site: tuple[Any, str], game: Game | None = None,
        arriving: bool = True) -> int:
    """A new piece on a site: on top, or under what must stand above it (see `land`)."""
    pid = st.next_id
    st.next_id += 1
    st.pieces[pid] = Piece(pid, kind, owner, site[0], site[1])
    land(st, site, (pid,), game)
    if arriving:  # in play; a position being set out says what arrived this turn
        st.turn = st.turn.but(arrived=st.turn.arrived + (pid,))
    return pid


def beneath(game: Game, st: State, pid: int) -> str:
    """", under X's Y" when a piece came to stand under one declared `above` it."""
    p = st.pieces[pid]
    over = game.stands_over.get(p.kind)
    stack = st.stack_of((p.cell, p.site))
    top = next((q for q in stack[stack.index(pid) + 1:] if over and st.pieces[q].kind in over),
               None)
    if top is None:
        return ""
    q = st.pieces[top]
    return f", under {_poss(game.seat_name(q.owner))} {game.title(q.kind)}"


def land(st: State, site: tuple[Any, str], carried: tuple[int, ...],
         game: Game | None) -> None:
    """Add pieces (the first one and what is built on it) to the stack on a site.

    They go on top, unless pieces already there are of a kind declared to
    stand `above` the first one: then they slip in under the lowest of
    those, so the order the rules ask for holds whichever came first.
    """
    stack = st.stack_of(site)
    over = game.stands_over.get(st.pieces[carried[0]].kind) if game is not None else None
    at = next((i for i, q in enumerate(stack) if st.pieces[q].kind in over), len(stack)) \
        if over else len(stack)
    st.stacks_at[site] = stack[:at] + carried + stack[at:]


def take_back(env: Env, game: Game, pid: int, rule: str | None) -> None:
    """Return a piece to its owner's supply, with the pieces built on it.

    Pieces of a kind declared `on` another (a tower on a pawn) go with it;
    anything else standing on top stays where it is.
    """
    st = env.state
    p = st.pieces[pid]
    site = (p.cell, p.site)
    stack = st.stack_of(site)
    i = stack.index(pid)
    above = stack[i + 1:]
    built = [q for q in above if game.kinds[st.pieces[q].kind][1].on is not None]
    stays = tuple(q for q in above if q not in built)
    for q in reversed((pid, *built)):
        piece = st.pieces.pop(q)
        st.gone[q] = piece
        st.supply[piece.owner][piece.kind] = st.supply[piece.owner].get(piece.kind, 0) + 1
        if env.trace is not None:  # recorded: said (see `note`)
            note(env, "returned", rule,
                 f"{_poss(game.seat_name(piece.owner))} {game.title(piece.kind)} on "
                 f"{game.format_site(site)} goes back to {_poss(game.seat_name(piece.owner))} "
                 f"supply", piece=f"{piece.kind}@{game.format_site(site)}", player=piece.owner)
        env.events.append(("leaves", {"piece": q, "site": site}))
        env.events.append(("returns", {"piece": q}))
    rest = stack[:i] + stays
    if rest:
        st.stacks_at[site] = rest
    else:
        st.stacks_at.pop(site, None)


def lay_tile(env: Env, game: Game, card: str, face: str, cell: Any, rot: int,
             rule: str | None) -> None:
    """Put a tile on the board and raise its events (laid, then each area it closed)."""
    st = env.state
    st.own_geometry()
    st.board[cell] = (card, face, rot)
    if game.tile_recorded:
        st.tile_attrs[cell] = {**game.tile_recorded}
    st.frontier.lay(game.lattice, st.board, game.catalogue, cell)
    closed, merges = st.areas.lay(game.lattice, st.board, game.catalogue, cell)
    for absorbed, into in merges:
        merge_area_values(st, absorbed, into)
    st.turn = st.turn.but(placed=cell)
    said = env.trace is not None  # recorded: the consequences are said (see `note`)
    if said:
        used = game.tile_rules.get(card)
        title = game.card_title(card)
        where = game.format_cell(cell, env.me)
        if game.plain_card(card):  # a printed card lies face up or down, never turned
            text = f"{game.seat_name(env.me)} lays the {title}" + \
                (" face down" if face == "down" else "") + f" at {where}"
        else:
            named = card if title is None else f"the {title} ({card})"
            text = f"{game.seat_name(env.me)} lays {named} (face {face}) at {where}, " \
                   f"rotation {rot}"
        note(env, "laid", rule, text,
             also=(used,) if used else (), card=card, face=face, cell=where, rotation=rot)
    env.events.append(("laid", {"tile": cell}))
    for root in game.sorted_areas(st, closed) if len(closed) > 1 else closed:
        if said:
            tiles = len(st.areas.cells[root])
            kind_rule = game.kinds[st.areas.kind(root)][1].rule
            note(env, "closed", kind_rule,
                 f"{game.describe_area(st, root)} ({tiles} tile{'s' if tiles != 1 else ''}) "
                 f"is closed", area=game.format_area(st, root), kind=st.areas.kind(root),
                 tiles=tiles, closer=env.me)
        env.events.append(("closes", {"area": root, "closer": env.me}))


def merge_area_values(st: State, absorbed: int, into: int) -> None:
    res_a, res_b = st.area_res.pop(absorbed, None), st.area_res.get(into)
    if res_a:
        merged = dict(res_b or {})
        for k, v in res_a.items():
            merged[k] = merged.get(k, 0) + v
        st.area_res[into] = merged
    att_a, att_b = st.area_attrs.pop(absorbed, None), st.area_attrs.get(into)
    if att_a:
        merged_attrs = dict(att_a)
        merged_attrs.update({k: v for k, v in (att_b or {}).items() if v is not None})
        st.area_attrs[into] = merged_attrs


def holding(st: State, holder: Any, htype: str | None, res: str) -> int:
    if holder == POOL or htype == "holder":
        return st.pool.get(res, 0)
    if htype == "player":
        return st.player_res[holder].get(res, 0)
    if htype == "tile":
        return st.tile_res.get(holder, {}).get(res, 0)
    root = st.areas.find(holder)
    return st.area_res.get(root, {}).get(res, 0)


def adjust(st: State, holder: Any, htype: str | None, res: str, delta: int) -> None:
    if holder == POOL or htype == "holder":
        st.pool[res] = st.pool.get(res, 0) + delta
    elif htype == "player":
        st.player_res[holder][res] = st.player_res[holder].get(res, 0) + delta
    elif htype == "tile":  # copy on write: clones share the inner dicts
        held = dict(st.tile_res.get(holder, {}))
        held[res] = held.get(res, 0) + delta
        st.tile_res[holder] = held
    else:
        root = st.areas.find(holder)
        d = dict(st.area_res.get(root, {}))
        d[res] = d.get(res, 0) + delta
        st.area_res[root] = d


def describe_holder(game: Game, st: State, holder: Any, htype: str | None) -> str:
    if holder == POOL or htype == "holder":
        return game.ruleset.pool
    if htype == "player":
        return game.seat_name(holder)
    if htype == "tile":
        named = game.laid_card_words(st, holder, st.turn.actor)
        if named is not None:
            return named
        card = st.board[holder][0] if holder in st.board else "the tile"
        return f"{card} at {game.format_cell(holder, st.turn.actor)}"
    return game.describe_area(st, holder)


def holder_ref(game: Game, st: State, holder: Any, htype: str | None) -> str:
    if holder == POOL or htype == "holder":
        return "pool"
    if htype == "player":
        return game.seat_id(holder)
    if htype == "tile":
        return game.format_cell(holder)
    return game.format_area(st, holder)


def to_ref(st: State, value: Any, vtype: str | None) -> Any:
    """A value made safe to keep across moves: areas become (cell, segment), and
    pieces and players say what they are, so a record of them reads back."""
    if vtype == "area" and value is not None:
        node = st.areas.nodes[st.areas.find(value)]
        return ("area", node.cell, node.segment)
    if vtype in ("piece", "player") and value is not None:
        return (vtype, value)
    return value


def from_ref(st: State, value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 3 and value[0] == "area":
        return st.areas.area_of(value[1], value[2])
    if isinstance(value, tuple) and len(value) == 2 and value[0] in ("piece", "player"):
        return value[1]
    return value


def refers_to_lost_piece(st: State, value: Any) -> bool:
    """Whether a kept value names a piece that has left the board."""
    return isinstance(value, tuple) and len(value) == 2 and value[0] == "piece" \
        and value[1] not in st.pieces


# ------------------------------------------------------------------ events


def triggers_for(game: Game, event: str, data: dict[str, Any], st: State) -> list[
        tuple[CompiledTrigger, dict[str, Any]]]:
    out: list[tuple[CompiledTrigger, dict[str, Any]]] = []
    every = game.on_event.get(event)
    if not every:
        return out
    if event == "laid":
        for trig in every:
            out.append((trig, {trig.decl.event.var: data["tile"]}))
        return out
    if event == "closes":
        kind = st.areas.kind(data["area"])
    elif event in ("enters", "leaves", "returns"):
        kind = st.piece(data["piece"]).kind
    else:
        return out
    for trig in _set_off(game, event, kind, every):
        ev = trig.decl.event
        if event == "closes":
            out.append((trig, {ev.var: data["area"], "closer": data["closer"]}))
        elif event == "returns":
            out.append((trig, {ev.var: data["piece"]}))
        else:
            out.append((trig, {ev.var: data["piece"], ev.site_var: data["site"]}))
    return out


def _set_off(game: Game, event: str, kind: str, every: list[CompiledTrigger]
             ) -> tuple[CompiledTrigger, ...]:
    """The triggers of `event` that an area of `kind` closing, or a piece of `kind` (itself
    or what it counts as) entering, leaving or returning, sets off; kept by the game."""
    found = game.event_triggers.get((event, kind))
    if found is None:
        if event == "closes":
            found = tuple(t for t in every if t.decl.event.kind in ("area", kind))
        else:
            found = tuple(t for t in every if t.decl.event.kind == "piece"
                          or game.is_a(kind, t.decl.event.kind or ""))
        game.event_triggers[(event, kind)] = found
    return found


def run_trigger(env: Env, trig: CompiledTrigger, bindings: dict[str, Any]) -> None:
    saved = env.vars
    env.vars = dict(bindings)
    mark = len(env.trace) if env.trace is not None else 0
    try:
        if trig.where is None or trig.where(env):
            trig.body(env)
        elif env.trace is not None:
            del env.trace[mark:]  # a rule that did not apply decided nothing
    finally:
        env.vars = saved


def drain(env: Env) -> None:
    """Resolve queued events until none is left (deferred ones wait in the turn)."""
    game = env.game
    budget = 10_000
    while env.events:
        budget -= 1
        if budget < 0:
            raise RuleError("triggered rules keep triggering each other without end")
        event, data = env.events.pop(0)
        st = env.state
        for trig, bindings in triggers_for(game, event, data, st):
            defer = trig.decl.defer_to
            if defer is not None and game.step_index[defer] > st.turn.step:
                refs = tuple((k, to_ref(st, v, "area" if k == trig.decl.event.var
                                        and event == "closes" else None))
                             for k, v in bindings.items())
                me = env.me if defer in game.turn_rules.each_steps else None
                st.turn = st.turn.but(pending=st.turn.pending + (
                    Pending(defer, trig.index, refs, me),))
            else:
                run_trigger(env, trig, bindings)


def run_pending(env: Env, step: str) -> None:
    """Run the triggered rules that waited for `step`, in the order they were queued."""
    st = env.state
    if not st.turn.pending:  # (most steps: nothing waits for them)
        return
    due = [p for p in st.turn.pending if p.step == step]
    if not due:
        return
    st.turn = st.turn.but(pending=tuple(p for p in st.turn.pending if p.step != step))
    for p in due:
        bindings = {k: from_ref(env.state, v) for k, v in p.bindings}
        run_trigger(env, env.game.triggers[p.trigger], bindings)
        drain(env)


def sorted_cells(cells: Any) -> list[Any]:
    return sorted(cells, key=cell_key)
