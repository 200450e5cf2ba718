"""Checks on cards: kinds, card sets, printed cards, their abilities and looks.

Called from the checker at three points: `collect` (names: kinds, cards,
`like` printings filled in from their originals), `check_bodies` (each card's
ability bodies typed with the parameter types its kind declares, inside the
checker's passes, so calls from them count when definitions are typed) and
`number` (cards numbered within their set, like rules).

Every error says where, what was expected, and what was meant when a name is
close to a known one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.diagnostics import did_you_mean
from compiler.ir import cards as c
from compiler.ir import model as m
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.check import Checker
    from compiler.check.symbols import Symbols
    from compiler.check.types import Scope, TypeChecker

# Attributes every card laid as a tile has, whatever its kind: no property may take their names.
KERNEL_CARD_ATTRS = {"card": "card", "name": "card"}
_LITERAL = {"int": "a whole number", "bool": "true or false", "text": "a quoted string"}


def literal_type(value: int | bool | str) -> str:
    if isinstance(value, bool):
        return "bool"
    return "int" if isinstance(value, int) else "text"


# ------------------------------------------------------------------ symbols


def kind_chain(sy: Symbols, kind: str) -> list[str]:
    """The kind and, along `counts as`, every kind it plays the part of."""
    return c.counts_as_chain(sy.card_kinds, kind)


def properties_of(sy: Symbols, kind: str) -> dict[str, c.PropertyDecl]:
    """The properties a card of `kind` has: its kind's, then those of the kinds it counts as."""
    out: dict[str, c.PropertyDecl] = {}
    for k in kind_chain(sy, kind):
        for p in sy.card_kinds[k].properties:
            out.setdefault(p.name, p)
    return out


def abilities_of(sy: Symbols, kind: str) -> dict[str, c.AbilityDecl]:
    out: dict[str, c.AbilityDecl] = {}
    for k in kind_chain(sy, kind):
        for a in sy.card_kinds[k].abilities:
            out.setdefault(a.name, a)
    return out


def collect(ck: Checker) -> None:
    """Card kinds, abilities, card sets and cards into the symbol table; `like` filled in."""
    sy = ck.sy
    for d in ck.rs.all_decls():
        if isinstance(d, c.CardKind):
            if d.id in sy.kinds:
                first = sy.kinds[d.id][1]
                where = f" (first declared at {first.loc})" if getattr(first, "loc", None) else ""
                ck.report(d.loc, "duplicate", f"kind `{d.id}` is declared twice{where}")
                continue
            sy.kinds[d.id] = ("card", d)
            sy.card_kinds[d.id] = d
    for kind in sy.card_kinds.values():
        _collect_kind(ck, kind)
    for s in ck.rs.cardsets:
        if s.id in sy.cardsets:
            ck.report(s.loc, "duplicate", f"card set `{s.id}` is declared twice")
            continue
        sy.cardsets[s.id] = s
        if s.kind not in sy.card_kinds:
            ck.report(s.loc, "unknown-name", f"card set `{s.id}` is of unknown card kind "
                      f"`{s.kind}`", hint=did_you_mean(s.kind, sy.card_kinds) or _kinds_hint(sy))
        for card in s.cards:
            card.kind = s.kind
            _collect_card(ck, s, card)
    _fill_likes(ck)
    stamp_citations(ck.rs)
    # A card is cited like a rule (`settles`, `illustrates`, `expect illegal per`).
    for card_id, set_id in sy.card_set_of.items():
        sy.rules.setdefault(c.citation_id(set_id, card_id), sy.printed[card_id])


def _kinds_hint(sy: Symbols) -> str:
    if not sy.card_kinds:
        return "declare one in a rule: `card kind NAME \"Title\" { property …: int }`"
    return "card kinds: " + ", ".join(sorted(sy.card_kinds))


def _collect_kind(ck: Checker, kind: c.CardKind) -> None:
    sy = ck.sy
    seen: set[str] = set()
    for p in kind.properties:
        if p.name in seen:
            ck.report(p.loc, "duplicate", f"card kind `{kind.id}` declares property `{p.name}` "
                      "twice")
        seen.add(p.name)
        if p.kind not in c.PROPERTY_TYPES:
            ck.report(p.loc, "type", f"property `{p.name}` is {p.kind}, but a property printed "
                      "on a card is int, bool or text", focus=p.kind)
        if p.name in KERNEL_CARD_ATTRS:
            ck.report(p.loc, "duplicate", f"`{p.name}` is what every card has (`t.{p.name}`): "
                      "call the property something else")
        prior = sy.card_props.get(p.name)
        if prior is not None and prior.kind != p.kind:
            ck.report(p.loc, "type", f"property `{p.name}` is {p.kind} here but {prior.kind} on "
                      "another card kind; a property reads the same on every card")
        sy.card_props.setdefault(p.name, p)
    names: set[str] = set()
    for a in kind.abilities:
        if a.name in names:
            ck.report(a.loc, "duplicate", f"card kind `{kind.id}` declares ability `{a.name}` "
                      "twice")
        names.add(a.name)
        if a.name in sy.effects or a.name in sy.defines:
            what = "an effect" if a.name in sy.effects else "a definition"
            ck.report(a.loc, "duplicate", f"ability `{a.name}` has the name of {what}; "
                      "`apply` and calls could not tell them apart")
        prior_a = sy.abilities.get(a.name)
        if prior_a is not None and (len(prior_a.params) != len(a.params)
                                    or prior_a.returns != a.returns):
            ck.report(a.loc, "type", f"ability `{a.name}` is declared differently on two card "
                      "kinds; declare it once, on a kind the others count as")
        sy.abilities.setdefault(a.name, a)
        first = a.params[0][1] if a.params else None
        if first not in ("card", "tile"):
            ck.report(a.loc, "type", f"the first parameter of ability `{a.name}` is the card "
                      "whose ability it is: make it `: card` or `: tile`", focus=a.name)
        if a.returns == "player" or a.returns not in (None, *c.VALUE_TYPES):
            ck.report(a.loc, "type", f"ability `{a.name}` gives {a.returns}; a value ability "
                      "gives int or bool", focus=a.name)
    if kind.counts_as is not None:
        if kind.counts_as not in sy.card_kinds:
            ck.report(kind.loc, "unknown-name", f"`{kind.id}` counts as unknown card kind "
                      f"`{kind.counts_as}`", hint=did_you_mean(kind.counts_as, sy.card_kinds))
        elif kind.id in kind_chain(sy, kind.counts_as):
            ck.report(kind.loc, "structure", f"`{kind.id}` counts as a kind that counts as it")
    for r in kind.holds:
        if sy.category(r) != "resource":
            ck.report(kind.loc, "unknown-name", f"`{kind.id}` holds unknown resource `{r}`",
                      hint=did_you_mean(r, sy.of("resource")))


def _collect_card(ck: Checker, s: c.CardSet, card: c.CardDef) -> None:
    sy = ck.sy
    if card.id in sy.printed or card.id in sy.cards:
        first = sy.printed.get(card.id) or sy.cards.get(card.id)
        where = f" (first declared at {first.loc})" if first is not None and first.loc else ""
        ck.report(card.loc, "duplicate", f"card `{card.id}` is declared twice{where}; a card "
                  "and a tile are both laid by id, so every id is used once")
        return
    sy.printed[card.id] = card
    sy.card_set_of[card.id] = s.id
    if card.id in sy.kinds:
        ck.report(card.loc, "duplicate", f"card `{card.id}` has the id of the {sy.kinds[card.id][0]} "
                  f"kind `{card.id}`, so `x is {card.id}` could mean either; rename the card",
                  focus=card.id)
    cited = c.citation_id(s.id, card.id)
    for rid in (card.id, cited):
        if rid in sy.rules:
            ck.report(card.loc, "duplicate", f"card `{card.id}` would be cited as `{rid}`, which "
                      "is a rule's id; rename the card (or the rule)", focus=card.id)
    if card.copies < 1:
        ck.report(card.loc, "range", f"card `{card.id}` has copies {card.copies}; a printed card "
                  "comes in at least 1 copy (remove it to leave it out)", focus="copies")


def _fill_likes(ck: Checker) -> None:
    """A `like` card takes what its original has and it does not write itself."""
    sy = ck.sy
    done: set[str] = set()

    def fill(card: c.CardDef, path: tuple[str, ...]) -> None:
        if card.like is None or card.id in done:
            return
        done.add(card.id)
        original = sy.printed.get(card.like)
        if original is None:
            ck.report(card.loc, "unknown-name", f"card `{card.id}` is like unknown card "
                      f"`{card.like}`", hint=did_you_mean(card.like, [x for x in sy.printed
                                                                   if x != card.id]))
            return
        if card.like in path:
            ck.report(card.loc, "structure", f"card `{card.id}` is like a card that is like it")
            return
        if original.kind != card.kind:
            ck.report(card.loc, "type", f"card `{card.id}` is a {card.kind} but is like "
                      f"`{original.id}`, a {original.kind}; `like` makes another printing of a "
                      "card of the same kind", focus=card.like)
            return
        fill(original, (*path, card.id))
        written = set(card.written)
        if "features" not in written:
            card.features = list(original.features)
        card.props = {**original.props, **card.props}
        if "text" not in written:
            card.text = original.text
        if "holds" not in written:
            card.holds = list(original.holds)
        if "faces" not in written:
            card.faces = [f.model_copy(deep=True) for f in original.faces]
        own = {a.name for a in card.abilities}
        # The same bodies, not copies: typed and cited once, as the original wrote them.
        card.abilities = [a for a in original.abilities if a.name not in own] + card.abilities

    for card in list(sy.printed.values()):
        fill(card, ())


# ------------------------------------------------------------------ what cards write


def check_cards(ck: Checker) -> None:
    """Each card against its kind: properties, features, ability bodies' shapes."""
    sy = ck.sy
    held = {r for k in sy.card_kinds.values() for r in k.holds} | \
        {r for card in sy.printed.values() for r in card.holds}
    for k in sy.card_kinds.values():
        for p in k.properties:
            if p.name in held:
                ck.report(p.loc, "duplicate", f"property `{p.name}` has the name of a resource "
                          f"that cards hold: `t.{p.name}` could not tell them apart; call the "
                          "property something else")
    for s in ck.rs.cardsets:
        if s.kind not in sy.card_kinds:
            continue
        props = properties_of(sy, s.kind)
        abilities = abilities_of(sy, s.kind)
        for card in s.cards:
            if sy.printed.get(card.id) is not card:
                continue
            written = set(card.written)  # what a `like` card copied was checked on its original
            for name, value in card.props.items():
                if card.like is not None and "prop:" + name not in written:
                    continue
                decl = props.get(name)
                if decl is None:
                    ck.report(card.loc, "unknown-name", f"card `{card.id}` writes `{name}`, which "
                              f"is no property of a {sy.card_kinds[s.kind].title}",
                              hint=did_you_mean(name, props) or (
                                  "its properties: " + ", ".join(props) if props else
                                  f"card kind `{s.kind}` declares no properties"), focus=name)
                    continue
                got = literal_type(value)
                if got != decl.kind and decl.kind in _LITERAL:
                    ck.report(card.loc, "type", f"`{name}` of card `{card.id}` is {decl.kind}, "
                              f"so write {_LITERAL[decl.kind]}, not {value!r}".replace("'", '"'),
                              focus=name)
            for r in card.holds if card.like is None or "holds" in written else ():
                if sy.category(r) != "resource":
                    ck.report(card.loc, "unknown-name", f"card `{card.id}` holds unknown "
                              f"resource `{r}`", hint=did_you_mean(r, sy.of("resource")),
                              focus=r)
            for f in card.features if card.like is None or "features" in written else ():
                if sy.category(f) != "feature":
                    ck.report(card.loc, "unknown-name", f"card `{card.id}` is `with` unknown "
                              f"feature `{f}`", hint=did_you_mean(f, sy.of("feature")) or
                              f"declare it in a rule: `feature {f} \"…\"`", focus=f)
            seen: set[str] = set()
            for body in card.abilities:
                if card.like is not None and "ability:" + body.name not in written:
                    continue
                decl_a = abilities.get(body.name)
                if decl_a is None:
                    ck.report(body.loc or card.loc, "unknown-name",
                              f"card `{card.id}` writes ability `{body.name}`, which a "
                              f"{sy.card_kinds[s.kind].title} does not have",
                              hint=did_you_mean(body.name, abilities) or (
                                  "its abilities: " + ", ".join(abilities) if abilities else
                                  f"declare it: `ability {body.name}(c: card)` in card kind "
                                  f"`{s.kind}`"), focus=body.name)
                    continue
                if body.name in seen:
                    ck.report(body.loc, "duplicate", f"card `{card.id}` writes ability "
                              f"`{body.name}` twice")
                seen.add(body.name)
                if len(body.params) != len(decl_a.params):
                    declared = ", ".join(p for p, _ in decl_a.params)
                    ck.report(body.loc, "arity", f"ability `{body.name}` takes "
                              f"{len(decl_a.params)} parameter(s) ({declared}), but card "
                              f"`{card.id}` names {len(body.params)}", focus=body.name)
                if decl_a.returns is None and body.body is None:
                    ck.report(body.loc, "type", f"ability `{body.name}` does something: write "
                              f"its body as `{body.name}(…) {{ … }}`, not `= VALUE`",
                              focus=body.name)
                elif decl_a.returns is not None and body.expr is None:
                    ck.report(body.loc, "type", f"ability `{body.name}` is a value "
                              f"({decl_a.returns}): write `{body.name}(…) = VALUE`, not a block",
                              focus=body.name)


def stamp_citations(rs: m.Ruleset) -> None:
    """The statements of a card's abilities cite the card, as a rule's cite the rule."""
    from compiler.parse.transform import _cite_stmt
    for s in rs.cardsets:
        for card in s.cards:
            cited = c.citation_id(s.id, card.id)
            for body in _own(card):
                for stmt in body.body or ():
                    _cite_stmt(stmt, cited)


def _own(card: c.CardDef) -> list[c.AbilityBody]:
    """The ability bodies a card wrote itself (a `like` card shares its original's others)."""
    return [b for b in card.abilities if "ability:" + b.name in card.written]


def check_bodies(ck: Checker) -> None:
    """Type every card's ability bodies with the parameter types its kind declares."""
    sy = ck.sy
    for s in ck.rs.cardsets:
        abilities = abilities_of(sy, s.kind) if s.kind in sy.card_kinds else {}
        for card in s.cards:
            for body in _own(card):
                decl = abilities.get(body.name)
                if decl is None or len(body.params) != len(decl.params):
                    continue
                scope: Scope = {p: t for p, (_, t) in zip(body.params, decl.params)}
                if body.body is not None and decl.returns is None:
                    ck.types.stmts(body.body, scope)
                elif body.expr is not None and decl.returns is not None:
                    ck.types.expect(body.expr, scope, decl.returns,
                                    f"what `{body.name}` of card `{card.id}` gives")


def check_look(ck: Checker, d: c.CardLook) -> None:
    sy = ck.sy
    if d.kind not in sy.card_kinds:
        ck.report(d.loc, "unknown-name", f"`look card` names unknown card kind `{d.kind}`",
                  hint=did_you_mean(d.kind, sy.card_kinds) or _kinds_hint(sy))
        return
    props = properties_of(sy, d.kind)
    for slot in d.slots:
        if slot.slot in ("corner", "badge") and slot.name not in props:
            ck.report(slot.loc, "unknown-name", f"a {sy.card_kinds[d.kind].title} has no "
                      f"property `{slot.name}` to show", hint=did_you_mean(slot.name, props))
        if slot.slot in ("dark", "mark") and sy.category(slot.name) != "feature":
            ck.report(slot.loc, "unknown-name", f"unknown feature `{slot.name}`",
                      hint=did_you_mean(slot.name, sy.of("feature")))
        if slot.slot == "corner" and slot.icon is not None \
                and sy.category(slot.icon) != "resource":
            ck.report(slot.loc, "unknown-name", f"a corner's icon is a resource's look; "
                      f"`{slot.icon}` is no resource",
                      hint=did_you_mean(slot.icon, sy.of("resource")))
        if slot.slot == "mark" and slot.icon not in m.LOOK_SHAPES:
            ck.report(slot.loc, "unknown-name", f"unknown shape `{slot.icon}`",
                      hint=did_you_mean(slot.icon or "", m.LOOK_SHAPES))
        if slot.when is not None:
            ck.types.expect(slot.when, {"it": "card"}, "bool", "the condition after `when`")


def number(rs: m.Ruleset) -> None:
    """Cards are numbered within their set: the set's initial, then the card's place."""
    used: dict[str, int] = {}
    for s in rs.cardsets:
        letter = (s.title[:1] or s.id[:1]).upper()
        used[letter] = used.get(letter, 0) + 1
        prefix = letter if used[letter] == 1 else f"{letter}{used[letter]}"
        for i, card in enumerate(s.cards, 1):
            card.number = f"{prefix}.{i}"


# ------------------------------------------------------------------ expressions


def attr_type(tc: TypeChecker, node: n.Attr, obj: str) -> str | None:
    """The type of `card.NAME` or `tile.NAME` (a property, or what every card has); None: unknown."""
    sy = tc.sy
    if node.name in KERNEL_CARD_ATTRS:
        return KERNEL_CARD_ATTRS[node.name]
    decl = sy.card_props.get(node.name)
    if decl is not None:
        return {"text": "str"}.get(decl.kind, decl.kind)
    return None


def attr_names(sy: Symbols) -> dict[str, str]:
    out = dict(KERNEL_CARD_ATTRS)
    out.update({p: ("str" if d.kind == "text" else d.kind) for p, d in sy.card_props.items()})
    return out


def is_kind(tc: TypeChecker, node: n.IsKind) -> None:
    """`x is K` for a card or a laid card: K is a card kind (or one it counts as) or a card id."""
    sy = tc.sy
    if node.kind in sy.card_kinds or node.kind in sy.printed:
        return
    tc.report(node.loc, "unknown-name", f"`{node.kind}` is no card kind and no card",
              hint=did_you_mean(node.kind, [*sy.card_kinds, *sy.printed]) or _kinds_hint(sy),
              focus=node.kind)


def apply_ability(tc: TypeChecker, s: n.Apply, types: list[str]) -> bool:
    """`apply A(x, …)` where A is an ability: the card x decides. False: A is no ability."""
    decl = tc.sy.abilities.get(s.effect)
    if decl is None:
        return False
    s.ability = True
    if decl.returns is not None:
        tc.report(s.loc, "type", f"ability `{s.effect}` is a value ({decl.returns}): read it as "
                  f"`{s.effect}(…)`, not with `apply`", focus=s.effect)
    _ability_args(tc, s, s.effect, decl, types)
    return True


def call_ability(tc: TypeChecker, node: n.Call, scope: Scope) -> str | None:
    """`A(x, …)` where A is a value ability; None: A is no ability."""
    decl = tc.sy.abilities.get(node.func)
    if decl is None:
        return None
    node.ability = True
    types = [tc.expr(a, scope) for a in node.args]
    if decl.returns is None:
        tc.report(node.loc, "type", f"ability `{node.func}` does something: run it with "
                  f"`apply {node.func}(…)`", focus=node.func)
        return "any"
    _ability_args(tc, node, node.func, decl, types)
    return decl.returns


def _ability_args(tc: TypeChecker, node: Any, name: str, decl: c.AbilityDecl,
                  types: list[str]) -> None:
    from compiler.check.types import fits, words
    if len(types) != len(decl.params):
        tc.report(node.loc, "arity", f"`{name}` takes {len(decl.params)} argument(s), "
                  f"{len(types)} given")
        return
    args = node.args
    for i, ((p, want), got, arg) in enumerate(zip(decl.params, types, args)):
        # The card a tile shows stands for it (not the other way: a card in hand has no cell).
        ok = fits(got, want) or (i == 0 and want == "card" and got == "tile")
        if not ok:
            tc.report(arg.loc, "type", f"`{p}` of `{name}` should be {words(want)}, but this is "
                      f"{words(got)}")
