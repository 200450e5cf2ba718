"""Checks of choices made at once: `each player at once` steps, `grant … to each … at once`,
`secret` player attributes and `reveal NAME` of one.

**The commit rule.** Where every player chooses at the same time, the engine still takes
the choices one after another (in seat order, or whoever names their seat first). That is
fair only if nothing a player does while choosing can be seen by the others before they
choose. So the actions of an `at once` step (and the action an `at once` grant offers) may
only

* move cards into a zone of `me` that is `private` or `hidden`,
* set `secret` attributes of `me`,
* and use `let`, `if` and `for each` around those.

Anything else is refused here, at the statement, saying why (the others would see the
choice before making theirs) and what to write instead (`at end of step …`, a later step,
or what follows the choices: `then apply …`). Checked statically, so that no game's legal
moves can ever depend on a choice its mover cannot see.
"""

from __future__ import annotations

from typing import Any

from compiler.diagnostics import did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n

Scope = dict[str, str]

# The word a statement starts with, for messages.
KEYWORDS = {
    "place": "place", "stack": "stack", "move": "move", "return": "return", "give": "give",
    "draw": "draw", "set_attr": "set", "clear_attr": "clear", "grant_one": "grant",
    "grant_many": "grant", "grant_each": "grant", "lay": "lay", "discard": "discard",
    "apply": "apply", "deal": "deal", "shuffle": "shuffle", "reveal": "reveal",
    "rotate": "rotate", "remove_tile": "remove", "turn_down": "turn … face down",
}


class SimultaneousTypes:
    """`grant … to each …` and `reveal NAME` of a secret attribute; a mixin of `TypeChecker`."""

    sy: Any

    # Provided by TypeChecker.
    def report(self, *args: Any, **kwargs: Any) -> None: ...  # pragma: no cover
    def expect(self, node: n.Node, scope: Scope, expected: str, what: str) -> str: ...  # pragma: no cover
    def stmt(self, s: Any, scope: Scope) -> None: ...  # pragma: no cover

    def s_grant_each(self, s: n.GrantEach, scope: Scope) -> None:
        self.expect(s.players, scope, "set:player",
                    "who is granted the choice, after `to each`,")
        if s.action not in self.sy.actions:
            self.report(s.loc, "unknown-name", f"unknown action `{s.action}`",
                        hint=did_you_mean(s.action, self.sy.actions))
        if s.then is not None:
            self.stmt(s.then, scope)

    def reveal_attribute(self, s: n.Reveal, scope: Scope) -> bool:
        """`reveal NAME [of p]` where NAME is a player attribute rather than a zone: check
        it (it must be `secret`) and mark the statement; False when NAME is no attribute."""
        decl = self.sy.player_attrs.get(s.zone)
        if s.zone in self.sy.zones or decl is None:
            return False
        s.attribute = True
        if not decl.secret:
            self.report(s.loc, "structure", f"player attribute `{s.zone}` is not secret: "
                        f"everyone always sees it, so there is nothing to reveal",
                        hint=f"declare it `player attribute {s.zone}: {decl.type} secret` if "
                             f"players choose it in secret", focus=s.zone)
        if s.owner is not None:
            self.expect(s.owner, scope, "player", "whose value is revealed, after `of`")
        return True


class SimultaneousChecks:
    """The commit rule and `secret` declarations; a mixin of `Checker`."""

    rs: m.Ruleset
    sy: Any

    def report(self, *args: Any, **kwargs: Any) -> None:  # provided by Checker
        raise NotImplementedError

    def check_simultaneous(self) -> None:
        """Every action chosen at once reveals nothing before everyone has chosen."""
        for d in self.rs.all_decls():
            if isinstance(d, m.StepDecl) and d.at_once:
                where = (f"in a step where every player chooses at once (step `{d.id}`)",
                         f"`at end of step {d.id}`, or in a later step")
                for a in dict.fromkeys(d.actions + d.also):
                    self._commit_action(a, where)
        for node in n.walk([self.rs.all_decls(), self.rs.cardsets]):
            if isinstance(node, n.GrantEach) and node.at_once:
                where = (f"in a choice every player makes at once (`grant {node.action} to "
                         f"each … at once`)",
                         "in what follows the choices (`then apply …`)")
                self._commit_action(node.action, where)

    def _commit_action(self, action_id: str, where: tuple[str, str]) -> None:
        action = self.sy.actions.get(action_id)
        if action is not None:
            self._commit_stmts(action.effects, where)

    def _commit_stmts(self, body: list[Any], where: tuple[str, str]) -> None:
        for s in body:
            if isinstance(s, n.Let):
                continue
            if isinstance(s, n.If):
                self._commit_stmts(s.then, where)
                self._commit_stmts(s.otherwise, where)
            elif isinstance(s, n.ForEach):
                self._commit_stmts(s.body, where)
            elif isinstance(s, n.Move) and s.what == "card":
                self._commit_move(s, where)
            elif isinstance(s, n.SetAttr) and s.target.obj.type == "player":
                self._commit_set(s, where)
            else:
                said, later = where
                word = KEYWORDS.get(s.node, s.node)
                self.report(s.loc, "commit", f"{said}, `{word}` would show the others what "
                            f"you chose before they choose",
                            hint=f"do it {later}; while choosing, only move cards into a "
                                 f"private or hidden zone of your own and set secret "
                                 f"attributes of `me`", focus=word.split()[0])

    def _commit_move(self, s: n.Move, where: tuple[str, str]) -> None:
        said, later = where
        target = s.to.source if isinstance(s.to, n.Collection) else s.to
        name = target.id if isinstance(target, n.Name) else None
        zone = self.sy.zones.get(name) if name else None
        owner = s.to.owner if isinstance(s.to, n.Collection) else None
        mine = isinstance(owner, n.Name) and owner.ref == "builtin" and owner.id == "me"
        if zone is None or not zone.per_player or not mine:
            shown = f"`move … to {name}`" if name else "`move`"
            self.report(s.loc, "commit", f"{said}, {shown} would show the others what you "
                        f"chose before they choose: a card chosen in secret goes into a zone "
                        f"of your own (`… of me`)",
                        hint=f"move it to a private or hidden zone each player has (`move c "
                             f"to chosen of me`); move it where others see it {later}",
                        focus="move")
        elif zone.visible not in ("owner", "nobody"):
            self.report(s.loc, "commit", f"{said}, `move … to {name} of me` would show the "
                        f"others what you chose before they choose: zone `{name}` is "
                        f"{'public' if zone.visible == 'everyone' else 'showing its top'}",
                        hint=f"declare the zone `private` (its owner sees it) or `hidden`, "
                             f"and show it later with `reveal {name}`", focus="move")

    def _commit_set(self, s: n.SetAttr, where: tuple[str, str]) -> None:
        said, later = where
        name = s.target.name
        decl = self.sy.player_attrs.get(name)
        obj = s.target.obj
        mine = isinstance(obj, n.Name) and obj.ref == "builtin" and obj.id == "me"
        if decl is not None and not decl.secret:
            self.report(s.loc, "commit", f"{said}, `set … .{name}` would show the others what "
                        f"you chose before they choose: player attribute `{name}` is not "
                        f"secret", hint=f"declare it `player attribute {name}: {decl.type} "
                                        f"secret`, so it stays hidden until everyone has "
                                        f"chosen; or set it {later}", focus="set")
        elif not mine:
            self.report(s.loc, "commit", f"{said}, each player sets only their own secret "
                        f"values: `set … .{name}` here changes another player's",
                        hint=f"write `set me.{name} to …`; set other players' values {later}",
                        focus="set")
