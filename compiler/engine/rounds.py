"""Rounds, game attributes, orders of play, who plays next, and steps each player takes.

Compiled once per ruleset into `TurnRules` (on `Game.turn_rules`); the turn machine
(`compiler/engine/turns.py`) asks it who plays next, how many turns a round has,
and in what order the players take a step that belongs to each of them. A ruleset
that declares none of these gets today's behaviour: the next seat plays next, and
every step belongs to the active player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import Env, Fn, RuleError
from compiler.engine.state import Turn
from compiler.ir import model as m

_FRESH = Turn()  # every field at its default: each new turn is made from it

if TYPE_CHECKING:
    from compiler.engine.game import Game


@dataclass(frozen=True)
class CompiledOrder:
    """A named order of play: measures (each player is `it`) and where seat order starts."""

    id: str
    terms: tuple[tuple[str, Fn], ...]
    start: Fn | None
    rule: str | None


class TurnRules:
    """What the ruleset says about rounds, game attributes, orders and the next turn."""

    def __init__(self, game: Game, decls: list[Any]) -> None:
        self.round: m.RoundDecl | None = next(
            (d for d in decls if isinstance(d, m.RoundDecl)), None)
        self.round_turns: Fn | None = game.expr(self.round.turns) if self.round else None
        self.game_attrs: dict[str, m.AttributeDecl] = {
            d.attribute.name: d.attribute for d in decls if isinstance(d, m.GameAttribute)}
        self.orders: dict[str, CompiledOrder] = {
            d.id: CompiledOrder(d.id, tuple((t.direction, game.expr(t.expr)) for t in d.order),
                                game.expr(d.start) if d.start is not None else None, d.rule)
            for d in decls if isinstance(d, m.OrderDecl)}
        nxt = next((d for d in decls if isinstance(d, m.NextTurnDecl)), None)
        self.next_turn: Fn | None = game.expr(nxt.expr) if nxt else None
        self.next_rule = nxt.rule if nxt else None
        # Steps each player takes: seats are named in moves (`red: …`) only if there are any.
        self.each_steps = frozenset(s.id for s in game.steps if s.who == "each")

    # ------------------------------------------------------------ values

    def game_default(self, name: str) -> Any:
        a = self.game_attrs.get(name)
        return None if a is None else {"player": None, "bool": False, "int": 0}[a.type]

    def read(self, env: Env, name: str) -> Any:
        """`game.NAME`: the round's number, or a game attribute (its default until set)."""
        if self.round is not None and name == self.round.id:
            return env.state.turn.round
        return env.state.game_attrs.get(name, self.game_default(name))

    # ------------------------------------------------------------ orders

    def order(self, env: Env, name: str) -> tuple[int, ...]:
        """The players in the order `name`: as fixed for this turn if a step already went
        round in it, else as it stands now."""
        for key, seats in env.state.turn.orders:
            if key == name:
                return seats
        return self.evaluate(env, name)

    def evaluate(self, env: Env, name: str) -> tuple[int, ...]:
        """Sort the players by the order's measures, ties by seat order from its start."""
        o = self.orders[name]
        st = env.state
        n = st.players
        start = o.start(env) if o.start is not None else st.turn.active
        if start is None:
            raise RuleError(f"the order “{name}” starts from no player")
        saved = env.vars
        keys: dict[int, tuple[int, ...]] = {}
        try:
            for p in range(n):
                env.vars = {**saved, "it": p}
                keys[p] = tuple(-(f(env) or 0) if d == "most" else (f(env) or 0)
                                for d, f in o.terms) + ((p - start) % n,)
        finally:
            env.vars = saved
        return tuple(sorted(range(n), key=keys.__getitem__))

    def fix(self, env: Env, name: str) -> tuple[int, ...]:
        """The order `name`, kept for the rest of the turn (a step goes round in it)."""
        st = env.state
        for key, seats in st.turn.orders:
            if key == name:
                return seats
        seats = self.evaluate(env, name)
        st.turn = st.turn.but(orders=st.turn.orders + ((name, seats),))
        return seats

    def queue(self, env: Env, step: m.StepDecl) -> tuple[int, ...]:
        """Who takes a step that belongs to each player, first to last."""
        if step.order is not None:
            return self.fix(env, step.order)
        st = env.state
        return tuple((st.turn.active + i) % st.players for i in range(st.players))

    # ------------------------------------------------------------ turns

    def next_player(self, env: Env) -> int:
        st = env.state
        if self.next_turn is None:
            return (st.turn.active + 1) % st.players
        p = self.next_turn(env)
        if p is None:
            raise RuleError("the rules name no player to play the next turn")
        return int(p)

    def last_of_round(self, turn: Turn) -> bool:
        return self.round is not None and turn.round_turn >= turn.round_turns

    def last_round(self, turn: Turn) -> bool:
        return self.round is not None and turn.round >= self.round.count

    def next_turn_of(self, turn: Turn, player: int) -> Turn:
        """The next turn, built whole (no fields carried over but the round's)."""
        # (from a fresh turn by `but`: a turn a move, made without the frozen `__init__`)
        if self.round is None:
            return _FRESH.but(number=turn.number + 1, active=player)
        if turn.round_turn >= turn.round_turns:  # a new round: its turns are counted at its start
            return _FRESH.but(number=turn.number + 1, active=player, round=turn.round + 1,
                              round_turn=1, round_turns=0)
        return _FRESH.but(number=turn.number + 1, active=player, round=turn.round,
                          round_turn=turn.round_turn + 1, round_turns=turn.round_turns)

    def count_turns(self, env: Env) -> None:
        """How many turns the round that starts now has (after its start-of-round rules)."""
        assert self.round_turns is not None
        k = self.round_turns(env)
        if not isinstance(k, int) or k < 1:
            raise RuleError(f"a {self.round.title if self.round else 'round'} of {k} turns: "
                            f"every round has at least one")
        env.state.turn = env.state.turn.but(round_turns=k)


# ------------------------------------------------------------ positions


def game_block(game: Game, st: Any) -> Any:
    """The `game` block of a position (None for a ruleset without rounds or game attributes)."""
    from compiler.engine.formats import GameState
    rules = game.turn_rules
    if rules.round is None and not rules.game_attrs:
        return None
    attrs = {}
    for k, v in sorted(st.game_attrs.items()):
        decl = rules.game_attrs.get(k)
        if decl is None or v is None or v == rules.game_default(k):
            continue
        attrs[k] = game.seat_id(v) if decl.type == "player" else v
    t = st.turn
    if rules.round is None:
        return GameState(attributes=attrs)
    return GameState(round=t.round or None, turn=t.round_turn or None,
                     turns=t.round_turns or None, attributes=attrs)


def read_game_block(builder: Any, st: Any, n: int) -> None:
    """Read `turn.waiting`, `turn.phase` and the `game` block into the state, reporting what
    no table could show (through the position builder's `bad`)."""
    from compiler.diagnostics import did_you_mean
    game, model = builder.game, builder.m
    rules: TurnRules = game.turn_rules
    t = model.turn
    changes: dict[str, Any] = {}
    if t.waiting is not None:
        step = game.steps[st.turn.step]
        queue: list[int] = []
        if step.who != "each":
            builder.bad("turn.waiting", f"step “{step.title}” is the active player's alone: "
                                        f"nobody waits to take it")
        for i, seat in enumerate(t.waiting):
            p = builder.seat(f"turn.waiting[{i}]", seat, n)
            if p is not None and p in queue:
                builder.bad(f"turn.waiting[{i}]", f"{seat} is waiting twice")
            elif p is not None:
                queue.append(p)
        if step.who == "each" and not t.waiting:
            builder.bad("turn.waiting", "nobody is left to take the step: the position is of "
                                        "the next step (or leave `waiting` out)")
        changes["queue"] = tuple(queue)
    elif game.steps[st.turn.step].who == "each" and (t.phase or "step") == "step":
        # Not said: the whole order is still to take the step, from the first.
        env = Env(game, st)
        env.me = st.turn.active
        changes["queue"] = _safe_queue(builder, env, game.steps[st.turn.step])
    if t.phase not in (None, "step"):
        if t.phase == "round_end" and rules.round is None:
            builder.bad("turn.phase", "the game has no rounds, so no round ends")
        if not st.turn.grants:
            builder.bad("turn.phase", f"play waits at the {t.phase.replace('_', ' of ')} only "
                                      f"for a decision granted there, and no grant is open")
        if st.turn.step != len(game.steps) - 1:
            builder.bad("turn.phase", f"the end of the turn comes after its last step, "
                                      f"“{game.steps[-1].title}”")
        changes["phase"] = t.phase
    g = model.game
    if rules.round is not None:
        count = rules.round.count
        rnd = g.round if g is not None and g.round is not None else 1
        turn = g.turn if g is not None and g.turn is not None else 1
        turns = g.turns if g is not None and g.turns is not None else None
        if rnd > count:
            builder.bad("game.round", f"the game has {count} {rules.round.title}s, not {rnd}")
        if turns is None:
            # The length may depend on which round it is (`turns if game.year == 1 then 6
            # else 7`): the round the position gives is read, not the one the state had.
            st.turn = st.turn.but(round=rnd)
            env = Env(game, st)
            try:
                turns = rules.round_turns(env) if rules.round_turns else 1
            except RuleError as e:
                builder.bad("game.turns", f"say how many turns this {rules.round.title} has: {e}")
                turns = 1
        if turn > turns:
            builder.bad("game.turn", f"turn {turn} of a {rules.round.title} of {turns} turns")
        changes.update(round=rnd, round_turn=turn, round_turns=turns)
    elif g is not None and (g.round, g.turn, g.turns) != (None, None, None):
        builder.bad("game.round", "the game has no rounds")
    if g is not None:
        for name, value in g.attributes.items():
            decl = rules.game_attrs.get(name)
            if decl is None:
                hint = did_you_mean(name, rules.game_attrs)
                builder.bad(f"game.attributes.{name}", "no game attribute of that name"
                            + (f"; {hint}" if hint else ""))
                continue
            ok, v = builder.value(f"game.attributes.{name}", decl.type, value, n)
            if ok and v is not None:
                st.game_attrs[name] = v
    if changes:
        st.turn = st.turn.but(**changes)


def _safe_queue(builder: Any, env: Env, step: m.StepDecl) -> tuple[int, ...]:
    try:
        return env.game.turn_rules.queue(env, step)
    except RuleError as e:
        builder.bad("turn.waiting", f"say who is still to take step “{step.title}”: {e}")
        return ()


def expectation_problem(after: Any, f: m.PositionFact) -> str | None:
    """`expect game NAME value`, `expect round N turn M`, `expect waiting …` against the
    position after the moves: None when it holds, else what differs, in words."""
    g, st = after.game, after.state
    rules: TurnRules = g.turn_rules
    a = f.args
    if f.fact == "game":
        name, want = str(a[0]), a[1]
        if name not in rules.game_attrs:
            return f"the game has no attribute {name}"
        actual = st.game_attrs.get(name, rules.game_default(name))
        if rules.game_attrs[name].type == "player" and actual is not None:
            actual = g.seat_id(actual)
        want = {"true": True, "false": False}.get(want, want) if isinstance(want, str) else want
        if str(actual).lower() != str(want).lower():
            return f"expected the game's {name} to be {want}, but it is {actual}"
        return None
    if f.fact == "round":
        if rules.round is None:
            return "the game has no rounds"
        want_round, want_turn = int(a[0]), int(a[1])  # type: ignore[arg-type]
        t = st.turn
        if (t.round, t.round_turn) != (want_round, want_turn):
            word = rules.round.title
            return f"expected {word} {want_round}, turn {want_turn}, but it is {word} " \
                   f"{t.round}, turn {t.round_turn}"
        return None
    want_seats = [str(x) for x in a]
    got = [g.seat_id(p) for p in st.turn.queue]
    if got != want_seats:
        return f"expected {', '.join(want_seats)} still to take the step, in that order, but " \
               f"{'it is ' + ', '.join(got) if got else 'nobody is'}"
    return None
