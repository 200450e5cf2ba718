"""Parse tree -> IR for cards: card kinds, card sets, printed cards, card looks.

A mixin of `ToIR` (construction only, like the rest of the transformer): what
a card writes is kept as written; `like` cards are filled in from their
original when the ruleset is loaded, and every name is checked by
`compiler.check.cards`.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer_NonRecursive, v_args
from lark.tree import Meta

from compiler.ir import cards as c
from compiler.ir import model as m
from compiler.ir import nodes as n


class _Item:
    """One line of a card or card kind, tagged with what it is."""

    __slots__ = ("tag", "value")

    def __init__(self, tag: str, value: Any) -> None:
        self.tag = tag
        self.value = value


@v_args(meta=True)
class CardsTransformer(Transformer_NonRecursive):
    """The card constructs of the grammar's "cards" section."""

    file: str

    def _loc(self, meta: Meta) -> n.Loc | None:  # provided by ToIR
        raise NotImplementedError

    # ------------------------------------------------------------ card kinds

    def card_kind_decl(self, meta: Meta, ch: list[Any]) -> c.CardKind:
        from compiler.parse.transform import _tags, unquote
        t = _tags(ch[2:])
        kind = c.CardKind(id=str(ch[0]), title=unquote(ch[1]), plural=t.get("plural"),
                          counts_as=t.get("counts_as"), loc=self._loc(meta))
        for item in ch[2:]:
            if isinstance(item, c.PropertyDecl):
                kind.properties.append(item)
            elif isinstance(item, c.AbilityDecl):
                kind.abilities.append(item)
            elif isinstance(item, m.AttributeDecl):
                kind.attributes.append(item)
            elif getattr(item, "tag", None) == "holds":
                kind.holds += item.value
        return kind

    def property_decl(self, meta: Meta, ch: list[Any]) -> c.PropertyDecl:
        from compiler.parse.transform import unquote
        phrase = unquote(ch[2]) if len(ch) > 2 else None
        return c.PropertyDecl(name=str(ch[0]), kind=str(ch[1]), phrase=phrase,
                              loc=self._loc(meta))

    def prop_type(self, meta: Meta, ch: list[Any]) -> str:
        return str(ch[0])

    def text_prop(self, meta: Meta, ch: list[Any]) -> str:
        return "text"

    def ability_decl(self, meta: Meta, ch: list[Any]) -> c.AbilityDecl:
        from compiler.parse.transform import unquote
        params = [x for x in ch[1:] if isinstance(x, tuple)]
        returns = next((x.value for x in ch[1:] if isinstance(x, _Item)), None)
        title = next((unquote(x) for x in ch[1:] if isinstance(x, Token) and x.type == "STRING"),
                     None)
        return c.AbilityDecl(name=str(ch[0]), params=params, returns=returns, title=title,
                             loc=self._loc(meta))

    def ability_result(self, meta: Meta, ch: list[Any]) -> _Item:
        return _Item("returns", ch[0])

    def typed_param(self, meta: Meta, ch: list[Any]) -> tuple[str, str]:
        return (str(ch[0]), ch[1])

    def value_type(self, meta: Meta, ch: list[Any]) -> str:
        return str(ch[0])

    def tile_type(self, meta: Meta, ch: list[Any]) -> str:
        return "tile"

    def card_type(self, meta: Meta, ch: list[Any]) -> str:
        return "card"

    # ------------------------------------------------------------- card sets

    def cardset(self, meta: Meta, ch: list[Any]) -> c.CardSet:
        from compiler.parse.transform import _tags, unquote
        t = _tags(ch[3:])
        kind = str(ch[2])
        cards = [x for x in ch[3:] if isinstance(x, c.CardDef)]
        for card in cards:
            card.kind = kind
        return c.CardSet(id=str(ch[0]), title=unquote(ch[1]), kind=kind, text=t.get("text", ""),
                         cards=cards, loc=self._loc(meta))

    def card(self, meta: Meta, ch: list[Any]) -> c.CardDef:
        from compiler.parse.transform import _Tagged, unquote
        card = c.CardDef(id=str(ch[0]), title=unquote(ch[1]), loc=self._loc(meta))
        written: list[str] = []
        for item in ch[2:]:
            if isinstance(item, _Tagged) and item.tag == "text":
                card.text = "\n\n".join(x for x in (card.text, item.value) if x)
                written.append("text")
            elif isinstance(item, m.Face):
                card.faces.append(item)
                written.append("faces")
            elif isinstance(item, c.AbilityBody):
                card.abilities.append(item)
                written.append("ability:" + item.name)
            elif isinstance(item, _Tagged) and item.tag == "holds":
                card.holds += item.value
                written.append("holds")
            elif isinstance(item, _Item):
                if item.tag == "like":
                    card.like = item.value
                elif item.tag == "copies":
                    card.copies = item.value
                    written.append("copies")
                elif item.tag == "features":
                    card.features += item.value
                    written.append("features")
                elif item.tag == "prop":
                    name, value = item.value
                    card.props[name] = value
                    written.append("prop:" + name)
        card.written = written
        return card

    def card_like(self, meta: Meta, ch: list[Any]) -> _Item:
        return _Item("like", str(ch[0]))

    def card_copies(self, meta: Meta, ch: list[Any]) -> _Item:
        return _Item("copies", int(ch[0]))

    def card_tags(self, meta: Meta, ch: list[Any]) -> _Item:
        return _Item("features", [str(x) for x in ch])

    def card_prop(self, meta: Meta, ch: list[Any]) -> _Item:
        return _Item("prop", (str(ch[0]), ch[1]))

    def prop_value(self, meta: Meta, ch: list[Any]) -> int:
        return ch[0]

    def prop_text(self, meta: Meta, ch: list[Any]) -> str:
        from compiler.parse.transform import unquote
        return unquote(ch[0])

    def prop_true(self, meta: Meta, ch: list[Any]) -> bool:
        return True

    def prop_false(self, meta: Meta, ch: list[Any]) -> bool:
        return False

    def ability_block(self, meta: Meta, ch: list[Any]) -> c.AbilityBody:
        return c.AbilityBody(name=str(ch[0]), params=ch[1], body=ch[2], loc=self._loc(meta))

    def ability_value(self, meta: Meta, ch: list[Any]) -> c.AbilityBody:
        return c.AbilityBody(name=str(ch[0]), params=ch[1], expr=ch[2], loc=self._loc(meta))

    # ------------------------------------------------------------ card looks

    def card_look_decl(self, meta: Meta, ch: list[Any]) -> c.CardLook:
        return c.CardLook(kind=str(ch[0]), slots=list(ch[1:]), loc=self._loc(meta))

    def band_slot(self, meta: Meta, ch: list[Any]) -> c.CardSlot:
        return c.CardSlot(slot="band", loc=self._loc(meta))

    def corner_slot(self, meta: Meta, ch: list[Any]) -> c.CardSlot:
        names = [str(x) for x in ch[1:] if isinstance(x, Token)]
        when = next((x for x in ch[1:] if not isinstance(x, Token)), None)
        return c.CardSlot(slot="corner", corner=ch[0], name=names[0],
                          icon=names[1] if len(names) > 1 else None, when=when,
                          loc=self._loc(meta))

    def badge_slot(self, meta: Meta, ch: list[Any]) -> c.CardSlot:
        from compiler.parse.transform import unquote
        return c.CardSlot(slot="badge", name=str(ch[0]), text=unquote(ch[1]),
                          loc=self._loc(meta))

    def dark_slot(self, meta: Meta, ch: list[Any]) -> c.CardSlot:
        return c.CardSlot(slot="dark", name=str(ch[0]), loc=self._loc(meta))

    def mark_slot(self, meta: Meta, ch: list[Any]) -> c.CardSlot:
        return c.CardSlot(slot="mark", name=str(ch[0]), icon=str(ch[1]), loc=self._loc(meta))

    def top_left(self, meta: Meta, ch: list[Any]) -> str:
        return "top_left"

    def top_right(self, meta: Meta, ch: list[Any]) -> str:
        return "top_right"

    def bottom_left(self, meta: Meta, ch: list[Any]) -> str:
        return "bottom_left"

    def bottom_right(self, meta: Meta, ch: list[Any]) -> str:
        return "bottom_right"
