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
        if self.round is None:
            return Turn(number=turn.number + 1, active=player)
        if turn.round_turn >= turn.round_turns:  # a new round: its turns are counted at its start
            return Turn(number=turn.number + 1, active=player, round=turn.round + 1,
                        round_turn=1, round_turns=0)
        return Turn(number=turn.number + 1, active=player, round=turn.round,
                    round_turn=turn.round_turn + 1, round_turns=turn.round_turns)

    def count_turns(self, env: Env) -> None:
        """How many turns the round that starts now has (after its start-of-round rules)."""
        assert self.round_turns is not None
        k = self.round_turns(env)
        if not isinstance(k, int) or k < 1:
            raise RuleError(f"a {self.round.title if self.round else 'round'} of {k} turns: "
                            f"every round has at least one")
        env.state.turn = env.state.turn.but(round_turns=k)
