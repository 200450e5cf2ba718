"""Checks of zones: their declarations, the expressions that name them (`deck`,
`hand of p`, `cards in Z`), the statements that move cards between them, and
where a card was taken from (its provenance).

Types: `zone` is one zone (`deck`, `hand of p`); a zone that belongs to each
player, named without `of`, is all of them at once and is only meaningful to
`rotate` and `reveal` (which take its name), so elsewhere it is an error that
asks "whose?". `cards in Z` is `set:card`, listed top first.

Provenance: `move c to W` must know which zone `c` leaves. An expression
`cards in Z …`, `first`/`only` of one, and a variable chosen from, `let`-bound
to or walked over one remember `Z`; anything else needs `from Z`. The scope
records it under `NAME@from` (never a name an author can write), pointing into
`ZoneTypes.origins`, so it follows the scope's own nesting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.diagnostics import did_you_mean
from compiler.ir import model as m
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.check import Checker
    from compiler.check.types import Scope, TypeChecker

ZONE = "zone"


def collect(ck: Checker) -> None:
    """Every zone by name; `cards start in Z` names one, at most once."""
    sy = ck.sy
    for d in ck.rs.all_decls():
        if isinstance(d, m.ZoneDecl) and not d.legacy:
            if d.id in sy.zones or d.id in sy.kinds:
                ck.report(d.loc, "duplicate", f"`{d.id}` is declared twice (a zone needs a name "
                                              f"of its own)")
                continue
            sy.zones[d.id] = d
    starts = [d for d in ck.rs.all_decls() if isinstance(d, m.CardsStart)]
    for d in starts[1:]:
        ck.report(d.loc, "duplicate", "`cards start in` is said twice: the cards start in one "
                                      "zone")


def check_decl(ck: Checker, d: m.ZoneDecl | m.CardsStart) -> None:
    sy = ck.sy
    if isinstance(d, m.CardsStart):
        z = sy.zones.get(d.zone)
        if z is None:
            ck.report(d.loc, "unknown-name", f"unknown zone `{d.zone}`",
                      hint=did_you_mean(d.zone, sy.zones))
        elif z.per_player:
            ck.report(d.loc, "structure", f"`{d.zone}` is each player's: the cards start in a "
                                          f"shared zone (deal them out from there)")
        return
    if d.piles < 1:
        ck.report(d.loc, "range", f"a zone has at least 1 pile, not {d.piles}", focus="piles")


class ZoneTypes:
    """The checker's rules for zones; a mixin of `TypeChecker`."""

    sy: Any
    origins: dict[str, n.Expr]

    # Provided by TypeChecker.
    def report(self, *args: Any, **kwargs: Any) -> None: ...  # pragma: no cover
    def expr(self, node: Any, scope: Scope) -> str: ...  # pragma: no cover
    def expect(self, node: n.Node, scope: Scope, expected: str, what: str) -> str: ...  # pragma: no cover

    # ------------------------------------------------------------ expressions

    def zone_name(self: TypeChecker, node: n.Name, scope: Scope) -> str | None:
        """The type of a name that is a zone (None: it is not one)."""
        d = self.sy.zones.get(node.id)
        if d is None or node.id in scope:
            return None
        node.ref, node.category = "kind", "zone"
        if d.per_player:
            self.report(node.loc, "type", f"`{node.id}` is each player's {d.title}: whose? "
                        f"write `{node.id} of p`", hint=f"e.g. `{node.id} of me`")
            return "zones:" + node.id
        return ZONE

    def zone_collection(self: TypeChecker, node: n.Collection, scope: Scope) -> str | None:
        """`hand of p` (a zone), or `cards in Z [of p]` (its cards); None: neither."""
        src = node.source
        if isinstance(src, n.Name) and src.id in self.sy.zones and src.id not in scope:
            d = self.sy.zones[src.id]
            src.ref, src.category, src.type = "kind", "zone", ZONE
            if node.within is not None or node.alias is not None:
                self.report(node.loc, "type", f"`{src.id}` is a zone: say `cards in {src.id}` "
                            f"for its cards")
            if node.owner is None:
                return self.zone_name(src, scope)
            if not d.per_player:
                self.report(node.owner.loc, "type", f"`{src.id}` is shared: there is one "
                            f"{d.title} for the table, so no `of` is needed")
            self.expect(node.owner, scope, "player", "whose zone, after `of`")
            return ZONE
        within = node.within
        if within is None:
            return None
        zone_within = (isinstance(within, n.Name) and within.id in self.sy.zones
                       and within.id not in scope)
        if not zone_within and not (isinstance(within, n.Collection) and
                                    isinstance(within.source, n.Name) and
                                    within.source.id in self.sy.zones):
            return None
        src_t = self.expr(src, scope)
        if not src_t.startswith("set:") or src_t[4:] not in ("card", "any"):
            self.report(src.loc, "type", f"a zone holds cards: write `cards in …`, not "
                                         f"{_words(src_t)} in a zone")
        if node.owner is not None and isinstance(within, n.Name):
            # `cards in hand of p`: the owner is the zone's, not the cards'.
            node.within = within = n.Collection(source=within, owner=node.owner,
                                                loc=_span(within.loc, node.owner.loc))
            node.owner = None
        got = self.expr(within, scope)
        if got not in (ZONE, "any") and not got.startswith("zones:"):  # "whose?" is said
            self.report(within.loc, "type", f"where the cards are, after `in`, should be a "
                                            f"zone, but this is {_words(got)}")
        return "set:card"

    # -------------------------------------------------------------- provenance

    def origin(self: TypeChecker, node: Any, scope: Scope) -> n.Expr | None:
        """The zone a card (or cards) written this way is taken from, if it says."""
        if isinstance(node, n.Filtered):
            return self.origin(node.collection, scope)
        if isinstance(node, n.Collection) and node.within is not None \
                and (node.within.type or "").startswith(ZONE) and node.type == "set:card":
            return node.within
        if isinstance(node, n.Call) and node.func in ("first", "only") and node.args:
            return self.origin(node.args[0], scope)
        if isinstance(node, n.Name) and node.id in scope:
            key = scope.get(node.id + "@from")
            return self.origins.get(key) if key else None
        return None

    def bind(self: TypeChecker, scope: Scope, name: str, value: Any) -> None:
        """`name` is now bound to `value` (or an element of it): remember its zone, if any."""
        where = self.origin(value, scope)
        if where is None:
            scope.pop(name + "@from", None)
            return
        key = f"{len(self.origins)}"
        self.origins[key] = where
        scope[name + "@from"] = key

    # -------------------------------------------------------------- statements

    def s_move(self: TypeChecker, s: n.Move, scope: Scope) -> None:
        """`move c [from Z] to W` for a card or cards, or a piece to a site."""
        from compiler.check.types import fits, words
        what = self.expr(s.piece, scope)
        if what not in ("card", "set:card"):
            if not fits(what, "piece"):
                self.report(s.piece.loc, "type", f"what `move` moves should be a piece, but "
                                                 f"this is {words(what)}")
            if s.source is not None:
                self.report(s.source.loc, "type", "`from` says which zone a card leaves; a "
                            "piece moves from where it stands")
            self.expect(s.to, scope, "site", "where `move` goes")
            return
        s.what = "card"
        if s.source is None or s.inferred:
            s.source = self.origin(s.piece, scope)
            s.inferred = s.source is not None
            if s.source is None:
                shown = s.piece.id if isinstance(s.piece, n.Name) else "the card"
                self.report(s.piece.loc, "type", f"say where {shown} is taken from: "
                            f"`move {shown} from ZONE to …`",
                            hint="a card chosen from `cards in ZONE` remembers its zone")
        else:
            self.expect(s.source, scope, ZONE, "where the card is taken from, after `from`")
        self.expect(s.to, scope, ZONE, "where the card goes, after `to`")

    def lay_source(self: TypeChecker, s: n.Lay, scope: Scope) -> None:
        """A card laid comes from the zone written after `from`, or the one it was chosen
        from; with neither, from the stacks (a tile game's `lay`)."""
        if s.source is None or s.inferred:
            s.source = self.origin(s.card, scope)
            s.inferred = s.source is not None
        else:
            self.expect(s.source, scope, ZONE, "where the card is taken from, after `from`")

    def s_deal(self: TypeChecker, s: n.Deal, scope: Scope) -> None:
        self.expect(s.count, scope, "int", "how many cards are dealt")
        self.expect(s.source, scope, ZONE, "where the cards are dealt from")
        self.expect(s.target, scope, ZONE, "where the cards are dealt to")
        d = self._decl_of(s.source)
        if d is not None and not d.ordered:
            self.report(s.source.loc, "type", f"cards are dealt from the top of an ordered "
                        f"zone, and `{d.id}` is unordered",
                        hint="move chosen cards instead: `move c from … to …`")

    def s_shuffle(self: TypeChecker, s: n.Shuffle, scope: Scope) -> None:
        self.expect(s.zone, scope, ZONE, "what `shuffle` shuffles")
        d = self._decl_of(s.zone)
        if d is not None and not d.ordered:
            self.report(s.zone.loc, "type", f"`{d.id}` is unordered: it has no order to "
                                            f"shuffle")

    def s_rotate(self: TypeChecker, s: n.Rotate, scope: Scope) -> None:
        d = self._zone_named(s.zone, s.loc)
        if d is not None and not d.per_player:
            self.report(s.loc, "type", f"`{s.zone}` is shared: only a zone each player has "
                        f"can pass from player to player")
        self.expect(s.by, scope, "int", "how many seats the zones pass on")

    def s_reveal(self: TypeChecker, s: n.Reveal, scope: Scope) -> None:
        if self.reveal_attribute(s, scope):  # a secret player attribute (check/simultaneous.py)
            return
        d = self._zone_named(s.zone, s.loc)
        if s.owner is not None:
            self.expect(s.owner, scope, "player", "whose zone is revealed, after `of`")
            if d is not None and not d.per_player:
                self.report(s.owner.loc, "type", f"`{s.zone}` is shared: reveal it without "
                                                 f"`of`")

    def _zone_named(self: TypeChecker, name: str, loc: Any) -> m.ZoneDecl | None:
        d = self.sy.zones.get(name)
        if d is None:
            self.report(loc, "unknown-name", f"unknown zone `{name}`",
                        hint=did_you_mean(name, self.sy.zones))
        return d

    def _decl_of(self: TypeChecker, node: Any) -> m.ZoneDecl | None:
        if isinstance(node, n.Collection):
            node = node.source
        if isinstance(node, n.Name) and node.category == "zone":
            return self.sy.zones.get(node.id)
        return None


def _words(t: str) -> str:
    from compiler.check.types import words
    return words(t)


def _span(a: n.Loc | None, b: n.Loc | None) -> n.Loc | None:
    if a is None or b is None:
        return a or b
    return n.Loc(file=a.file, line=a.line, column=a.column, end_line=b.end_line,
                 end_column=b.end_column)


def zone_of(node: Any) -> str | None:
    """The zone name a zone expression names (`deck`, `hand of p`)."""
    if isinstance(node, n.Collection):
        node = node.source
    if isinstance(node, n.Name) and node.category == "zone":
        return node.id
    return None
