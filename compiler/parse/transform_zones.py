"""Parse tree -> IR for zones: declarations, the statements that move cards between
zones, and the example facts that say what a zone holds.

A mixin of `ToIR` (see `transform.py`), so this slice's productions stay in one
file; construction only, as everywhere in the transformer.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import model as m
from compiler.ir import nodes as n


class _Option:
    """One optional part of a `zone` declaration, by the field it sets."""

    __slots__ = ("field", "value")

    def __init__(self, field: str, value: Any) -> None:
        self.field = field
        self.value = value


class _Unknown:
    """A `?` card in an example fact (None would vanish from an optional list)."""


UNKNOWN = _Unknown()


@v_args(meta=True)
class ZonesTransformer(Transformer_NonRecursive):
    """Methods for the productions of the zones section of `grammar/rules.lark`."""

    # Provided by ToIR.
    def _loc(self, meta: Meta) -> n.Loc | None: ...  # pragma: no cover
    def _fact(self, meta: Meta, fact: str, args: list[Any]) -> m.PositionFact: ...  # pragma: no cover

    # ------------------------------------------------------------ declarations

    def zone_decl(self, meta: Meta, c: list[Any]) -> m.ZoneDecl:
        from compiler.parse.transform import _Tagged, unquote

        fields: dict[str, Any] = {}
        plural = None
        for x in c[2:]:
            if isinstance(x, _Option):
                fields[x.field] = x.value
            elif isinstance(x, _Tagged) and x.tag == "plural":
                plural = x.value
        per_player = fields.pop("per_player", False)
        # An order nobody wrote: a shared zone is a pile (a deck), a player's is a hand.
        fields.setdefault("ordered", not per_player)
        return m.ZoneDecl(id=str(c[0]), title=unquote(c[1]), plural=plural,
                          per_player=per_player, loc=self._loc(meta), **fields)

    def zone_shared(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("per_player", False)

    def zone_each(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("per_player", True)

    def zone_ordered(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("ordered", True)

    def zone_unordered(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("ordered", False)

    def see_everyone(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("visible", "everyone")

    def see_owner(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("visible", "owner")

    def see_nobody(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("visible", "nobody")

    def see_top(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("visible", "top")

    def zone_piles(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("piles", int(c[0]))

    def zone_in_play(self, meta: Meta, c: list[Any]) -> _Option:
        return _Option("in_play", True)

    def cards_start(self, meta: Meta, c: list[Any]) -> m.CardsStart:
        return m.CardsStart(zone=str(c[0]), loc=self._loc(meta))

    # -------------------------------------------------------------- statements

    def move(self, meta: Meta, c: list[Any]) -> n.Move:
        source = c[1].value if len(c) == 3 else None
        return n.Move(piece=c[0], source=source, to=c[-1], loc=self._loc(meta))

    def move_from(self, meta: Meta, c: list[Any]) -> Any:
        from compiler.parse.transform import _Tagged
        return _Tagged("from", c[0])

    def deal(self, meta: Meta, c: list[Any]) -> n.Deal:
        return n.Deal(count=c[0], source=c[1], target=c[2], loc=self._loc(meta))

    def shuffle(self, meta: Meta, c: list[Any]) -> n.Shuffle:
        return n.Shuffle(zone=c[0], loc=self._loc(meta))

    def reveal(self, meta: Meta, c: list[Any]) -> n.Reveal:
        return n.Reveal(zone=str(c[0]), owner=c[1] if len(c) > 1 else None, loc=self._loc(meta))

    def rotate(self, meta: Meta, c: list[Any]) -> n.Rotate:
        return n.Rotate(zone=str(c[0]), by=c[1], loc=self._loc(meta))

    # ------------------------------------------------------------------- facts

    def pos_zone(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "zone", _zone_args(c))

    def expect_zone(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        return self._fact(meta, "zone", _zone_args(c))

    def expect_zone_size(self, meta: Meta, c: list[Any]) -> m.PositionFact:
        seat = str(c[1]) if len(c) > 2 else None
        return self._fact(meta, "zone_size", [str(c[0]), seat, int(c[-1])])

    def zone_cards(self, meta: Meta, c: list[Any]) -> list[str | None]:
        return [None if x is UNKNOWN else str(x) for x in c]

    def card_entry(self, meta: Meta, c: list[Any]) -> str:
        return str(c[0])

    def unknown_card(self, meta: Meta, c: list[Any]) -> _Unknown:
        return UNKNOWN


def _zone_args(c: list[Any]) -> list[Any]:
    """`zone NAME [SEAT] [cards]` as [zone, seat or None, cards top first]."""
    seat = str(c[1]) if len(c) > 2 else None
    return [str(c[0]), seat, c[-1]]
