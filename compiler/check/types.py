"""Name resolution and static types for expressions and statements.

Types are short strings: "int", "bool", "player", "piece", "site", "tile",
"cell", "card", "face", "area", "holder", "str", "none", "any", and
"set:<element>". Every expression node gets its type written in `node.type`;
the engine compiles on it. Unknown names are errors with a "did you mean";
nothing unknown silently means "anything".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compiler.check import cards as card_rules
from compiler.check.symbols import (BUILTIN_VALUES, CATEGORY_ELEMENT, EVENT_VALUES, FUNCTIONS,
                                    Symbols)
from compiler.check.simultaneous import SimultaneousTypes
from compiler.check.zones import ZoneTypes
from compiler.diagnostics import did_you_mean
from compiler.ir import nodes as n
from compiler.library import LIBRARY, attributes_of

Report = Callable[..., None]

WORDS = {
    "int": "a number", "bool": "a yes/no condition", "player": "a player", "piece": "a piece",
    "site": "a site", "tile": "a tile on the board", "cell": "a cell", "card": "a tile card",
    "face": "a tile face", "area": "an area", "holder": "the pool", "str": "a string",
    "none": "none", "any": "anything", "game": "the game", "zone": "a zone",
}


PLURALS = {
    "int": "numbers", "bool": "conditions", "player": "players", "piece": "pieces",
    "site": "sites", "tile": "tiles", "cell": "cells", "card": "tile cards", "face": "faces",
    "area": "areas", "str": "strings", "any": "things",
}


def words(t: str) -> str:
    if t.startswith("set:"):
        return f"a collection of {PLURALS.get(t[4:], t[4:] + 's')}"
    return WORDS.get(t, t)


def element(t: str) -> str:
    return t[4:] if t.startswith("set:") else "any"


def fits(actual: str, expected: str) -> bool:
    if "any" in (actual, expected) or actual == expected:
        return True
    if actual == "none":
        return not expected.startswith("set:") and expected not in ("int", "bool")
    if actual.startswith("set:") and expected.startswith("set:"):
        return fits(actual[4:], expected[4:])
    return False


Scope = dict[str, str]


def _literal_int(node: n.Node) -> int | None:
    """The value of a number written out (`6`, `-6`), or None for anything computed."""
    if isinstance(node, n.Number):
        return node.value
    if isinstance(node, n.Neg):
        inner = _literal_int(node.value)
        return None if inner is None else -inner
    return None


class TypeChecker(ZoneTypes, SimultaneousTypes):
    """Resolves names and infers types; reports through `report(loc, code, message, hint=)`."""

    def __init__(self, symbols: Symbols, report: Report) -> None:
        self.sy = symbols
        self._report = report
        self.reported = 0  # how many problems so far: a later one caused by them is not repeated
        self.origins: dict[str, n.Expr] = {}  # the zones cards were taken from (check/zones.py)

    def report(self, *args: Any, **kwargs: Any) -> None:
        self.reported += 1
        self._report(*args, **kwargs)

    # ------------------------------------------------------------ helpers

    def expect(self, node: n.Node, scope: Scope, expected: str, what: str) -> str:
        got = self.expr(node, scope)
        if not fits(got, expected):
            self.report(node.loc, "type",
                        f"{what} should be {words(expected)}, but this is {words(got)}")
        return got

    def kind_name(self, node: Any, categories: tuple[str, ...], what: str) -> str | None:
        """A name that must be a kind of one of `categories` (e.g. `supply(p, pawn)`)."""
        if not isinstance(node, n.Name):
            self.report(node.loc, "type", f"{what} should be the name of a kind")
            return None
        cat = self.sy.category(node.id)
        if cat not in categories:
            candidates = [k for c in categories for k in self.sy.of(c)]
            self.report(node.loc, "unknown-name",
                        f"`{node.id}` is not a {' or '.join(categories)} kind",
                        hint=did_you_mean(node.id, candidates))
            return None
        node.ref, node.category, node.type = "kind", cat, "kind"
        return node.id

    def check_kind(self, loc: Any, kind: str, categories: tuple[str, ...], what: str,
                   extra: tuple[str, ...] = ()) -> str | None:
        if kind in extra:
            return kind
        cat = self.sy.category(kind)
        if cat in categories:
            return cat
        candidates = [k for c in categories for k in self.sy.of(c)] + list(extra)
        self.report(loc, "unknown-name", f"unknown {what} `{kind}`",
                    hint=did_you_mean(kind, candidates))
        return None

    # -------------------------------------------------------- expressions

    def expr(self, node: Any, scope: Scope) -> str:
        t = self._expr(node, scope)
        node.type = t
        return t

    def _expr(self, node: Any, scope: Scope) -> str:
        method = getattr(self, f"e_{node.node}")
        return method(node, scope)

    def e_number(self, node: n.Number, scope: Scope) -> str:
        return "int"

    def e_text(self, node: n.Text, scope: Scope) -> str:
        return "str"

    def e_bool(self, node: n.Boolean, scope: Scope) -> str:
        return "bool"

    def e_none(self, node: n.NoneValue, scope: Scope) -> str:
        return "none"

    def e_name(self, node: n.Name, scope: Scope) -> str:
        zone = self.zone_name(node, scope)
        if zone is not None:
            return zone
        if node.id in scope:
            node.ref = "var"
            return scope[node.id]
        if node.id in BUILTIN_VALUES:
            node.ref = "builtin"
            b = LIBRARY.get(node.id)
            return b.check(self, node, scope) if b is not None else BUILTIN_VALUES[node.id]
        if node.id in self.sy.orders:  # a named order of play: the players in that order
            node.ref = "order"
            return "set:player"
        cat = self.sy.category(node.id)
        if node.id in self.sy.printed:  # a printed card: the card itself
            node.ref = "card"
            return "card"
        if cat == "card":  # a card kind: every printed card of the kind
            node.ref, node.category = "kind", cat
            return "set:card"
        if cat == "family":
            self.report(node.loc, "type",
                        f"`{node.id}` is a family of resources: read the total as "
                        f"`HOLDER.{node.id}`, or choose one of `kinds({node.id})`")
            return "any"
        if cat is not None:
            if cat == "resource":
                self.report(node.loc, "type",
                            f"`{node.id}` is a resource: read an amount as `HOLDER.{node.id}`")
                return "any"
            node.ref, node.category = "kind", cat
            return "set:" + CATEGORY_ELEMENT[cat]
        if node.id in EVENT_VALUES:
            self.report(node.loc, "unknown-name",
                        f"`{node.id}` is only known in a rule triggered when an area closes")
            return "any"
        known = [k for k in scope if "@" not in k] + list(self.sy.zones) + list(BUILTIN_VALUES) + [k for k, (c, _) in self.sy.kinds.items()
                                                       if c != "resource"]
        # The names bound where it stands (a trigger's `a` and `closer`, an action's choices):
        # what an author most often meant, and what a far-fetched did-you-mean would hide.
        bound = [k for k in scope if "@" not in k and k and scope[k] != "any"]
        here = "bound here: " + ", ".join(f"`{k}` ({words(scope[k])})" for k in bound[:6]) \
            if bound else None
        guess = did_you_mean(node.id, known)
        self.report(node.loc, "unknown-name", f"unknown name `{node.id}`",
                    hint="; ".join(x for x in (guess, here) if x) or None)
        return "any"

    def e_attr(self, node: n.Attr, scope: Scope) -> str:
        before = self.reported
        obj = self.expr(node.obj, scope)
        name = node.name
        table = attributes_of(obj)  # the kernel's (`compiler/library/attributes.py`)
        if obj == "tile":
            if self.sy.boards_per_player:  # the player whose board holds it
                table["owner"] = "player"
            table.update({r: "int" for r in self.sy.tile_holds})
            table.update({a.name: a.type for a in self.sy.tile_attrs.values()})
        if obj in ("card", "tile") and self.sy.card_kinds:
            # What is printed on a card, or on the card a tile shows.
            table.update(card_rules.attr_names(self.sy))
        if obj == "area":
            table.update({a.name: a.type for a in self.sy.area_attrs.values()})
            table.update({r: "int" for r in self.sy.area_holds})
            table.update({f: "int" for f, d in self.sy.families.items()
                          if any(r in self.sy.area_holds for r in d.members)})
        elif obj == "game":
            table = {r: "int" for r in self.sy.rounds}
            table.update({a.name: a.type for a in self.sy.game_attrs.values()})
        elif obj in ("player", "holder"):
            table = {r: "int" for r in self.sy.of("resource")}
            table.update({f: "int" for f in self.sy.families})
            if obj == "player":
                table.update({a.name: a.type for a in self.sy.player_attrs.values()})
        elif obj == "any":
            # The engine reads an attribute by the kind of thing it belongs to;
            # when nothing says what that is, the rule cannot be carried out.
            if self.reported == before:
                what = f"`{node.obj.id}`" if isinstance(node.obj, n.Name) else "this"
                self.report(node.loc, "type", f"cannot tell what {what} is, so its attribute "
                            f"`{name}` cannot be read",
                            hint="a definition's parameters take their kinds from its calls: "
                                 "call it with a value, or read the attribute where the kind "
                                 "is known", focus=name)
            return "any"
        if name in table:
            return table[name]
        self.report(node.loc, "unknown-name", f"{words(obj)} has no attribute `{name}`",
                    hint=did_you_mean(name, table) or (
                        f"{words(obj)} has: " + ", ".join(sorted(table)) if table else None))
        return "any"

    def e_call(self, node: n.Call, scope: Scope) -> str:
        f = node.func
        if f in self.sy.defines:
            node.defined = True
            d = self.sy.defines[f]
            if len(node.args) != len(d.params):
                self.report(node.loc, "arity",
                            f"`{f}` takes {len(d.params)} argument(s), {len(node.args)} given")
            types = [self.expr(a, scope) for a in node.args]
            self.sy.call_args.setdefault(f, []).append(types)
            return self.sy.define_types.get(f, "any")
        if f in self.sy.abilities:
            return card_rules.call_ability(self, node, scope) or "any"
        if f not in FUNCTIONS:
            self.report(node.loc, "unknown-name", f"unknown function `{f}`",
                        hint=did_you_mean(f, list(FUNCTIONS) + list(self.sy.defines)))
            for a in node.args:
                self.expr(a, scope)
            return "any"
        return LIBRARY[f].check(self, node, scope)

    def _arity(self, node: n.Call, count: int) -> bool:
        if len(node.args) != count:
            self.report(node.loc, "arity",
                        f"`{node.func}` takes {count} argument(s), {len(node.args)} given")
            return False
        return True

    def _per_element(self, coll: Any, elem: str, scope: Scope) -> Scope:
        inner = dict(scope)
        inner["it"] = elem
        alias = _alias_of(coll)
        if alias:
            inner[alias] = elem
        return inner

    def e_collection(self, node: n.Collection, scope: Scope) -> str:
        zone = self.zone_collection(node, scope)
        if zone is not None:
            return zone
        src = self.expr(node.source, scope)
        if not src.startswith("set:") and src != "any":
            self.report(node.source.loc, "type",
                        f"`in`, `of` and `as` narrow a collection, but this is {words(src)}")
            return "any"
        elem = element(src)
        if node.within is not None:
            t = self.expr(node.within, scope)
            ok = {"piece": ("tile", "set:tile", "area", "site", "set:site"),
                  "site": ("tile", "set:tile", "area"),
                  "tile": ("area", "set:tile"),
                  "area": ("tile",)}.get(elem, ())
            if t != "any" and elem != "any" and t not in ok:
                self.report(node.within.loc, "type",
                            f"{words(src)} cannot be taken `in` {words(t)}")
        if node.owner is not None:
            self.expect(node.owner, scope, "player", "the owner after `of`")
            on_boards = ("tile", "cell", "site") if self.sy.boards_per_player else ()
            if elem not in ("piece", "any", *on_boards):
                self.report(node.owner.loc, "type", f"only pieces have owners, not {words(src)}",
                            hint="tiles, cells and sites belong to a player only when every "
                                 "player builds a board of their own (`board NAME \"…\" "
                                 "each player`)" if elem in ("tile", "cell", "site") else None)
        return src

    def e_filtered(self, node: n.Filtered, scope: Scope) -> str:
        t = self.expect(node.collection, scope, "set:any", "what `where` filters")
        inner = self._per_element(node.collection, element(t), scope)
        self.expect(node.cond, inner, "bool", "the condition after `where`")
        return t

    def e_arith(self, node: n.Arith, scope: Scope) -> str:
        first = self.expr(node.first, scope)
        if node.rest and node.rest[0][0] == "+" and first.startswith("set:"):
            for _, e in node.rest:
                self.expect(e, scope, first, "what `+` joins to a collection")
            return first
        if not fits(first, "int"):
            self.report(node.first.loc, "type", f"arithmetic needs numbers, not {words(first)}")
        for _, e in node.rest:
            self.expect(e, scope, "int", "an operand")
        return "int"

    def e_neg(self, node: n.Neg, scope: Scope) -> str:
        self.expect(node.value, scope, "int", "what `-` negates")
        return "int"

    def e_logic(self, node: n.Logic, scope: Scope) -> str:
        for item in node.items:
            self.expect(item, scope, "bool", f"each side of `{node.op}`")
        return "bool"

    def e_not(self, node: n.Not, scope: Scope) -> str:
        self.expect(node.value, scope, "bool", "what `not` negates")
        return "bool"

    def e_compare(self, node: n.Compare, scope: Scope) -> str:
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        if node.op in ("<", "<=", ">", ">="):
            for side, t in ((node.left, left), (node.right, right)):
                if not fits(t, "int"):
                    self.report(side.loc, "type", f"`{node.op}` compares numbers, not {words(t)}")
        elif not (fits(left, right) or fits(right, left)):
            self.report(node.loc, "type", f"`{node.op}` compares {words(left)} with {words(right)}")
        return "bool"

    def e_is_kind(self, node: n.IsKind, scope: Scope) -> str:
        t = self.expr(node.value, scope)
        if t == "kind":
            self.check_kind(node.loc, node.kind, ("resource",), "resource")
            return "bool"
        if t in ("card", "tile") and self.sy.card_kinds:  # a card kind, or a printed card
            card_rules.is_kind(self, node)
            return "bool"
        if t == "player":  # `p is red`: which seat a player sits in
            seats = [s.id for s in self.sy.seats]
            if node.kind not in seats:
                self.report(node.loc, "unknown-name", f"unknown seat `{node.kind}`",
                            hint=did_you_mean(node.kind, seats))
            return "bool"
        allowed = {"piece": ("piece",), "site": ("area", "feature"), "area": ("area",)}.get(
            t, ("piece", "area", "feature"))
        if t not in ("piece", "site", "area", "any"):
            self.report(node.value.loc, "type", f"`is KIND` tests a piece, site or area, "
                                                f"not {words(t)}")
        self.check_kind(node.loc, node.kind, allowed, "kind")
        return "bool"

    def e_is_none(self, node: n.IsNone, scope: Scope) -> str:
        self.expr(node.value, scope)
        return "bool"

    def e_is_in(self, node: n.IsIn, scope: Scope) -> str:
        t = self.expr(node.value, scope)
        self.expect(node.collection, scope, "set:" + t, "the collection after `is in`")
        return "bool"

    def e_has(self, node: n.Has, scope: Scope) -> str:
        t = self.expr(node.value, scope)
        if t == "card":  # a card's features, written `with …`
            self.check_kind(node.loc, node.kind, ("feature",), "feature")
            return "bool"
        if t not in ("tile", "site", "area", "set:tile", "any"):
            self.report(node.value.loc, "type",
                        f"`has` looks into a tile, site, area or tiles, not {words(t)}")
        self.check_kind(node.loc, node.kind, ("feature", "piece"), "feature or piece kind")
        return "bool"

    def e_if_expr(self, node: n.IfExpr, scope: Scope) -> str:
        self.expect(node.cond, scope, "bool", "the condition of `if`")
        a = self.expr(node.then, scope)
        b = self.expr(node.otherwise, scope)
        if fits(a, b):
            return b if a == "none" else a
        if fits(b, a):
            return a
        self.report(node.loc, "type", f"the two branches give {words(a)} and {words(b)}")
        return "any"

    # --------------------------------------------------------- statements

    def stmts(self, body: list[Any], scope: Scope) -> None:
        scope = dict(scope)
        for s in body:
            self.stmt(s, scope)

    def stmt(self, s: Any, scope: Scope) -> None:
        getattr(self, f"s_{s.node}")(s, scope)

    def s_place(self, s: n.Place, scope: Scope) -> None:
        self.check_kind(s.loc, s.kind, ("piece",), "piece kind")
        if s.owner is not None:
            self.expect(s.owner, scope, "player", "the owner")
        self.expect(s.at, scope, "site", "where a piece is placed")

    def s_stack(self, s: n.StackOn, scope: Scope) -> None:
        self.check_kind(s.loc, s.kind, ("piece",), "piece kind")
        self.expect(s.on, scope, "piece", "what a piece is stacked on")
        if s.owner is not None:
            self.expect(s.owner, scope, "player", "whose piece is stacked")

    def s_return(self, s: n.Return, scope: Scope) -> None:
        t = self.expr(s.what, scope)
        if not (fits(t, "piece") or fits(t, "set:piece")):
            self.report(s.what.loc, "type", f"`return` takes a piece or pieces, not {words(t)}")

    def s_give(self, s: n.Give, scope: Scope) -> None:
        self.expect(s.amount, scope, "int", "the amount given")
        if scope.get(s.resource) == "kind":
            s.kind_var = True
        elif s.resource in self.sy.of("piece"):
            # Pieces change hands between supplies (partners sharing out what came back).
            if s.source is None:
                self.report(s.loc, "type", f"pieces come out of a player's supply: say whose, "
                            f"`give ... {s.resource} from p to q`")
            for holder in (s.source, s.target):
                if holder is not None and self.expr(holder, scope) not in ("player", "any"):
                    self.report(holder.loc, "type", "pieces off the board are held in players' "
                                "supplies, so both sides of the `give` must be players")
            return
        elif s.resource in self.sy.families:
            self.report(s.loc, "type", f"`{s.resource}` is a family: give one of its kinds, "
                        f"e.g. a value chosen from `kinds({s.resource})`")
        else:
            self.check_kind(s.loc, s.resource, ("resource",), "resource")
        for holder in (s.source, s.target):
            if holder is not None:
                t = self.expr(holder, scope)
                if t == "tile" and s.resource in self.sy.tile_holds:
                    continue
                if t == "area" and not s.kind_var and s.resource not in self.sy.area_holds \
                        and s.resource not in self.sy.of("piece"):
                    held = sorted(self.sy.area_holds)
                    self.report(holder.loc, "type",
                                f"no kind of area holds `{s.resource}`, so an area can be "
                                f"given none",
                                hint=(f"areas hold {', '.join(f'`{r}`' for r in held)}; "
                                      if held else "no area holds anything; ")
                                + "an area kind holds a resource when it says "
                                  f"`holds {s.resource}`")
                    continue
                if t not in ("player", "area", "holder", "any"):
                    self.report(holder.loc, "type",
                                f"resources are held by players, areas or the pool, not {words(t)}",
                                hint=f"a laid tile holds `{s.resource}` only if its card kind "
                                     f"says `holds {s.resource}`" if t == "tile" else None)

    def s_draw(self, s: n.Draw, scope: Scope) -> None:
        self.expect(s.count, scope, "int", "how many are drawn")
        # A family among the kinds stands for all its members, in declared order.
        s.kinds = [r for k in s.kinds
                   for r in (self.sy.families[k].members if k in self.sy.families else [k])]
        for kind in s.kinds:
            self.check_kind(s.loc, kind, ("resource",), "resource")
        for holder in (s.source, s.target):
            t = self.expr(holder, scope)
            if t not in ("player", "area", "holder", "any"):
                self.report(holder.loc, "type",
                            f"resources are held by players, areas or the pool, not {words(t)}")

    def _attr_target(self, target: n.Attr, scope: Scope) -> str:
        obj = self.expr(target.obj, scope)
        if obj == "player":
            pdecl = self.sy.player_attrs.get(target.name)
            if pdecl is None and self.sy.category(target.name) == "resource":
                self.report(target.loc, "type", f"`{target.name}` is a resource, not an "
                            f"attribute: it is given and taken, not set",
                            hint=f"`give 3 {target.name} to me`, or `give 1 {target.name} from "
                                 f"me to pool` to take one away")
                return "any"
            if pdecl is None:
                self.report(target.loc, "unknown-name", f"unknown player attribute "
                            f"`{target.name}`", hint=did_you_mean(target.name,
                                                                 self.sy.player_attrs))
                return "any"
            target.type = pdecl.type
            return pdecl.type
        if obj == "game":
            gdecl = self.sy.game_attrs.get(target.name)
            if gdecl is None:
                said = (f"`game.{target.name}` is the number of the round, which the turns "
                        f"keep: rules read it but do not set it") \
                    if target.name in self.sy.rounds else \
                    f"unknown game attribute `{target.name}`"
                self.report(target.loc, "unknown-name", said,
                            hint=None if target.name in self.sy.rounds else
                            did_you_mean(target.name, self.sy.game_attrs) or
                            f"declare it: `game attribute {target.name}: bool \"…\"`")
                return "any"
            target.type = gdecl.type
            return gdecl.type
        if obj == "tile" and self.sy.tile_attrs:
            tdecl = self.sy.tile_attrs.get(target.name)
            if tdecl is None:
                self.report(target.loc, "unknown-name", f"laid tiles have no attribute "
                            f"`{target.name}`", hint=did_you_mean(target.name,
                                                                 self.sy.tile_attrs))
                return "any"
            target.type = tdecl.type
            return tdecl.type
        if obj not in ("area", "any"):
            self.report(target.loc, "type",
                        f"only areas and players have attributes to set, not {words(obj)}")
            return "any"
        decl = self.sy.area_attrs.get(target.name)
        if decl is None:
            self.report(target.loc, "unknown-name", f"unknown area attribute `{target.name}`",
                        hint=did_you_mean(target.name, self.sy.area_attrs))
            return "any"
        target.type = decl.type
        return decl.type

    def s_set_attr(self, s: n.SetAttr, scope: Scope) -> None:
        t = self._attr_target(s.target, scope)
        self.expect(s.value, scope, t, f"the value of `{s.target.name}`")

    def s_clear_attr(self, s: n.ClearAttr, scope: Scope) -> None:
        self._attr_target(s.target, scope)

    def s_grant_one(self, s: n.GrantOne, scope: Scope) -> None:
        if s.to is not None:
            self.expect(s.to, scope, "player", "the player granted the action")
        for name, value in s.bindings:
            self.expr(value, scope)
        for action_id in (s.action, *s.alternatives):
            action = self.sy.actions.get(action_id)
            if action is None:
                self.report(s.loc, "unknown-name", f"unknown action `{action_id}`",
                            hint=did_you_mean(action_id, self.sy.actions))
                continue
            params = {p.name for p in action.params}
            for name, value in s.bindings:
                if name not in params:
                    self.report(value.loc, "unknown-name",
                                f"action `{action_id}` has no parameter `{name}`",
                                hint=did_you_mean(name, params))

    def s_apply(self, s: n.Apply, scope: Scope) -> None:
        d = self.sy.effects.get(s.effect)
        types = [self.expr(a, scope) for a in s.args]
        if d is None and card_rules.apply_ability(self, s, types):
            return
        if d is None:
            self.report(s.loc, "unknown-name", f"unknown effect `{s.effect}`",
                        hint=did_you_mean(s.effect, self.sy.effects))
            return
        if len(s.args) != len(d.params):
            self.report(s.loc, "arity",
                        f"`{s.effect}` takes {len(d.params)} argument(s), {len(s.args)} given")
        self.sy.call_args.setdefault(s.effect, []).append(types)

    def s_grant_many(self, s: n.GrantMany, scope: Scope) -> None:
        self.expect(s.count, scope, "int", "how many actions are granted")
        for a in s.actions:
            if a not in self.sy.actions:
                self.report(s.loc, "unknown-name", f"unknown action `{a}`",
                            hint=did_you_mean(a, self.sy.actions))

    def s_for_each(self, s: n.ForEach, scope: Scope) -> None:
        t = self.expect(s.collection, scope, "set:any", "what `for each` walks through")
        inner = dict(scope)
        inner[s.var] = element(t)
        self.bind(inner, s.var, s.collection)
        self.stmts(s.body, inner)

    def s_if(self, s: n.If, scope: Scope) -> None:
        self.expect(s.cond, scope, "bool", "the condition of `if`")
        self.stmts(s.then, scope)
        self.stmts(s.otherwise, scope)

    def s_let(self, s: n.Let, scope: Scope) -> None:
        scope[s.name] = self.expr(s.value, scope)
        self.bind(scope, s.name, s.value)

    def s_lay(self, s: n.Lay, scope: Scope) -> None:
        for e, t in ((s.card, "card"), (s.face, "face"), (s.cell, "cell"), (s.rotation, "int")):
            if e is not None:
                self.expect(e, scope, t, "an operand of `lay`")
        self.lay_source(s, scope)

    def s_discard(self, s: n.Discard, scope: Scope) -> None:
        self.expect(s.card, scope, "card", "what `discard` removes")

    def _takes_tiles_away(self, s: Any, what: str) -> None:
        """`remove` and `turn … face down` rebuild the cells next to the board, but areas
        only ever merge: a ruleset with areas cannot split one yet."""
        areas = self.sy.of("area")
        if areas:
            self.report(s.loc, "not-supported", f"not yet: areas are merge-only, so `{what}` "
                        f"cannot take a tile out of an area ({', '.join(areas)})",
                        hint="a ruleset with area kinds cannot remove tiles or turn them "
                             "face down yet")

    def s_remove_tile(self, s: n.RemoveTile, scope: Scope) -> None:
        self.expect(s.tile, scope, "tile", "what `remove` takes off the board")
        zones = ["set_aside", *self.sy.zone_ids]
        if s.zone not in zones:
            self.report(s.loc, "unknown-name", f"`remove … to {s.zone}`: no zone `{s.zone}`",
                        hint=did_you_mean(s.zone, zones) or f"zones: {', '.join(zones)}",
                        focus=s.zone)
        self._takes_tiles_away(s, "remove")

    def s_turn_down(self, s: n.TurnDown, scope: Scope) -> None:
        self.expect(s.tile, scope, "tile", "what `turn … face down` turns")
        self._takes_tiles_away(s, "turn … face down")


def _alias_of(node: Any) -> str | None:
    if isinstance(node, n.Filtered):
        return _alias_of(node.collection)
    if isinstance(node, n.Collection):
        return node.alias
    return None
