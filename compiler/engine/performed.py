"""A legal move carried out, with its ruling written only when someone asks for it.

Carrying a move out changes the table; writing its ruling is work of its own: the
rules that decided the move, each consequence as a cited effect, the move's canonical
text, the models a ruling is made of. In a game of tiles that is about a third of a
move's time, and random play, benchmarks and simulations never read it: they need
the next position and what chance decided. So `Position.perform` keeps here what the
ruling is made of, and `ruling()` writes it on first asking, exactly as it would have
been written at once (`Position.play` asks at once).

Even noting what a ruling is made of while the move runs (the definitions that took
effect, how each amount was reached: `Recorded`) costs a move a tenth of its time. A
move performed without it is carried out again, recording, when one of them is first
asked for: from the same position, with the same values and what chance decided, it is
the same move (a record replays a game the same way).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from compiler.engine.actions import Arrival, CompiledAction, check
from compiler.engine.effects import Consequence
from compiler.engine.evaluate import Env, RuleError
from compiler.engine.explain import deciding, explainer
from compiler.engine.notation import Move
from compiler.engine.ruling import Effect, MoveRuling, RuleCitation

if TYPE_CHECKING:
    from compiler.engine.position import Position, Rules


@dataclass(eq=False, slots=True)
class Recorded:
    """What a move's ruling is made of, noted while it was carried out."""

    held: dict[str, None]  # the rules of the conditions that held while it was carried out
    log: list[Consequence]  # what followed, in order
    decided: list[str]  # rules that took effect without a consequence of their own
    guessed_at: int | None  # in a view: how many consequences came before a guess


@dataclass(eq=False, slots=True)
class Performed:
    """A move carried out: `after` is the position it leads to, `chance` what chance
    decided during it (its own outcomes, then the table's), `ruling()` its ruling."""

    before: Position  # where the move was judged
    after: Position
    action: CompiledAction | None  # None: a pass
    source: int  # the step's list, its `also` list or the grant that allowed it
    values: dict[str, Any]
    # The rules of the conditions that held while the move was checked. None: it was not
    # checked, as it was listed as legal where it was played; found when asked.
    checked: dict[str, None] | None
    chance: tuple[str, ...]
    table_chance: tuple[str, ...]  # the last outcomes of `chance` that were the table's
    recorded: Recorded | None  # None: not noted yet (see `record`)
    _ruling: MoveRuling | None = None

    def record(self) -> Recorded:
        """What the ruling is made of: noted while the move was carried out, or noted now,
        carrying it out again from `before` (see the module's docstring)."""
        if self.recorded is None:
            before, action = self.before, self.action
            move = Move(action.id if action is not None else "pass",
                        tuple(sorted(self.values.items())) if action is not None else (),
                        self.chance)
            again = before._perform(move, action, self.source, self.values, self.chance,
                                    None, self.checked)
            if not isinstance(again, Performed) or again.recorded is None:
                raise RuleError("the move could not be carried out again the same way to write "
                                "its ruling")
            self.recorded = again.recorded
        return self.recorded

    @property
    def held(self) -> dict[str, None]:
        """The rules of the conditions that held while the move was carried out."""
        return self.record().held

    @property
    def log(self) -> list[Consequence]:
        """What followed the move, in order."""
        return self.record().log

    @property
    def decided(self) -> list[str]:
        """The rules that took effect without a consequence of their own."""
        return self.record().decided

    @property
    def guessed_at(self) -> int | None:
        """In a view: how many consequences came before a guess."""
        return self.record().guessed_at

    def ruling(self) -> MoveRuling:
        """The move's ruling (LEGAL), written once."""
        if self._ruling is None:
            self._ruling = self._write()
        return self._ruling

    def _write(self) -> MoveRuling:
        before, action = self.before, self.action
        rules = before.rules
        checked = self.checked
        if checked is None and action is not None and Standing.of(rules, action).cites:
            # Listed as legal, so checked again only for the conditions that held: where
            # none can (`Standing.cites`), a check cites nothing.
            checked = {}
            check(before.game, before.state, action, self.values, checked)
        decided = decided_by(before, action, self.source, self.values,
                             [*(checked or ()), *self.held, *self.decided])
        canonical = before.notation(
            Move(action.id if action is not None else "pass",
                 tuple(sorted(self.values.items())) if action is not None else (), self.chance))
        said = [rules.effect(c) for c in self.log]
        unseen: list[str] = []
        st = self.after.state
        if st.guessed:  # a view read what it cannot see: stop where it did (engine/views.py)
            from compiler.engine.views import unknown_from
            unseen, line = unknown_from(before.game, st)
            cut = 0 if before.state.guessed or self.guessed_at is None else self.guessed_at
            said = said[:cut] + [Effect(kind="unknown", rule=None, text=line)]
        return MoveRuling(move=canonical, verdict="LEGAL", action=action.id if action else "pass",
                          action_rule=rules.cite(action.rule) if action else None,
                          decided_by=decided, consequences=said,
                          table_chance=list(self.table_chance),
                          depends_on_unseen=unseen)


def decided_by(pos: Position, action: CompiledAction | None, source: int,
               values: dict[str, Any] | None = None,
               conditions: list[str] | tuple[str, ...] = ()) -> list[RuleCitation]:
    """The rules that decided a move at `pos`, most general first: the step, the grant,
    the action and its parameters and requirements, the prohibitions that could have
    stopped it, the definitions that took effect, then `conditions` (the rules of the
    conditions that held, and of what took effect as the move was carried out); each
    cited once, where it first comes."""
    game, st, rules = pos.game, pos.state, pos.rules
    head: tuple[str, ...] = ()
    step = game.steps[st.turn.step]
    if step.rule and st.turn.phase == "step":  # after the steps, the step decides nothing
        head = (step.rule,)
    if action is None:
        return _cite_new(rules, [*head, *conditions], [], set())
    if source >= 0 and st.turn.grants[source].rule:
        head += (st.turn.grants[source].rule,)  # type: ignore[operator]
    standing = Standing.of(rules, action)
    kinds = standing.kinds
    if standing.moved:
        # The piece moved is known: only prohibitions on its kind decided the move.
        found = set(kinds)
        env = Env(game, st)
        env.vars = dict(values or {})
        for a in standing.moved:
            try:  # an arrival in a branch not taken names no piece
                if a.when is not None and not a.when(env):
                    continue
                pid = a.piece(env)  # type: ignore[misc]
            except RuleError:
                continue
            found.add(st.pieces[pid].kind if pid in st.pieces else None)
        kinds = frozenset(found)
    cited, seen = standing.cited(head, kinds)
    # The definitions that took effect here (a skill that applies, a piece
    # that counts as blocked) name the most specific rules of all.
    more = [*deciding(game, st, action, values or {}), *conditions] if standing.decides \
        else conditions
    return _cite_new(rules, more, list(cited), set(seen)) if more else list(cited)


def _cite_new(rules: Rules, ids: Iterable[str], out: list[RuleCitation], seen: set[str]
              ) -> list[RuleCitation]:
    """`out` with the citation of each rule of `ids` not `seen` yet (which it notes), in
    order (a rule that cannot be cited is skipped)."""
    cite = rules.cite
    for rid in ids:
        if rid not in seen:
            seen.add(rid)
            c = cite(rid)
            if c:
                out.append(c)
    return out


@dataclass(eq=False, slots=True)
class Standing:
    """What every ruling of one action cites whatever the move: the action's rule, its
    parameters' and requirements', and the prohibitions that could have stopped a piece of
    the kinds it brings. All fixed once the ruleset is compiled, so worked out once per
    action (`Standing.of`), and cited once per step and grant it is taken in, not per
    ruling."""

    action: CompiledAction
    rules: Rules
    kinds: frozenset[str | None]  # of the pieces it brings that are not on the table yet
    moved: list[Arrival]  # its arrivals of a piece on the table: only the move says its kind
    # Whether a definition can take effect in allowing a move of it (`deciding`), and
    # whether a condition can hold (what its check cites): else it is not worked out
    # again to find none (see `Explainer.may_decide`).
    decides: bool
    cites: bool
    _by_kinds: dict[frozenset[str | None], tuple[str, ...]] = field(default_factory=dict)
    _cited: dict[tuple[tuple[str, ...], frozenset[str | None]],
                 tuple[tuple[RuleCitation, ...], frozenset[str]]] = field(default_factory=dict)

    @staticmethod
    def of(rules: Rules, action: CompiledAction) -> Standing:
        """`action`'s, made at its first ruling and kept on `rules.standing`."""
        found = rules.standing.get(action.id)
        if found is None:
            ex = explainer(rules.game)
            found = rules.standing[action.id] = Standing(
                action, rules, frozenset(a.kind for a in action.arrivals if a.piece is None),
                [a for a in action.arrivals if a.piece is not None],
                ex.may_decide(action), ex.may_cite(action))
        return found

    def ids(self, kinds: frozenset[str | None]) -> tuple[str, ...]:
        """The rules that decide a move bringing pieces of `kinds` (None: a piece whose
        kind is not known), in the order a ruling lists them."""
        found = self._by_kinds.get(kinds)
        if found is None:
            game, action = self.rules.game, self.action
            ids = [r for r in [action.rule] + [p.rule for p in action.params] +
                   [r.rule for r in action.requires] if r]
            ids += [f.rule for f in game.forbids if f.rule and (
                f.decl.kind == "piece" or None in kinds
                or any(game.is_a(k, f.decl.kind) for k in kinds if k is not None))
                and (not f.actions or action.id in f.actions)]
            found = self._by_kinds[kinds] = tuple(ids)
        return found

    def cited(self, head: tuple[str, ...], kinds: frozenset[str | None]
              ) -> tuple[tuple[RuleCitation, ...], frozenset[str]]:
        """The citations of the rules `head` (the step's, the grant's) then `ids(kinds)`,
        each once, with the rules they cover (a rule cited is not cited again after)."""
        key = (head, kinds)
        found = self._cited.get(key)
        if found is None:
            seen: set[str] = set()
            out = _cite_new(self.rules, [*head, *self.ids(kinds)], [], seen)
            found = self._cited[key] = (tuple(out), frozenset(seen))
        return found
