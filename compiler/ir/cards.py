"""Cards: kinds of card, the printed cards of a catalogue, and how a card is drawn.

A *card kind* is declared in a rule, like a piece or an area: the properties
printed on every card of the kind (typed), the abilities a card of the kind
may have (each card writes its own body, or none), what it holds and the
attributes it carries in play. A *card set* is a catalogue of printed cards of
one kind, written at the top level like a tile set. A card is its id: copies
of a printing are indistinguishable, so nothing but the id is ever stored.

This module imports only the expression and statement nodes; `model` imports
it for the `Declaration` union and resolves the two names it borrows from
there (`AttributeDecl`, `Face`) once they exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from compiler.ir.nodes import Expr, Node, Statement

if TYPE_CHECKING:
    from compiler.ir.model import AttributeDecl, Face

PROPERTY_TYPES = ("int", "bool", "text")
VALUE_TYPES = ("int", "bool", "player", "tile", "card")
# What a card that does not write a property has: the author writes only what a card shows.
PROPERTY_DEFAULTS: dict[str, int | bool | str] = {"int": 0, "bool": False, "text": ""}
# What a value ability gives for a card that writes no body for it.
RESULT_DEFAULTS: dict[str, int | bool | None] = {"int": 0, "bool": False, "player": None,
                                                  "tile": None, "card": None}


class PropertyDecl(Node):
    """`property cost: int "the cost"`: printed on every card of the kind."""

    name: str
    kind: str                      # int, bool or text (player is refused by the checker)
    phrase: str | None = None      # how English reads `c.cost`: "the cost of {card}"


class AbilityDecl(Node):
    """`ability effect(t: tile) "the effect of {t}"`: what a card of the kind may do.

    Without a result type the ability is statements, run by `apply effect(t)`;
    with one (`ability measure(c: card): int`) it is a value, read like a
    definition, `measure(c)`. The first parameter is the card (or the tile it
    is laid as) whose body decides.
    """

    name: str
    params: list[tuple[str, str]]
    returns: str | None = None
    title: str | None = None


class CardKind(Node):
    decl: Literal["card_kind"] = "card_kind"
    rule: str | None = None
    id: str
    title: str
    plural: str | None = None
    counts_as: str | None = None   # another card kind this one plays the part of
    properties: list[PropertyDecl] = []
    abilities: list[AbilityDecl] = []
    holds: list[str] = []
    attributes: list[AttributeDecl] = []


class AbilityBody(Node):
    """One card's body for an ability of its kind: statements, or a value."""

    name: str
    params: list[str]
    body: list[Statement] | None = None
    expr: Expr | None = None


class CardDef(Node):
    """A printed card. `like` another: the same card in another printing, which copies
    the original's title, features, properties, text and abilities, then overrides
    what it writes (filled in when the ruleset is loaded)."""

    id: str
    title: str
    kind: str = ""                 # from its set
    like: str | None = None
    copies: int = 1
    features: list[str] = []
    props: dict[str, int | bool | str] = {}
    text: str = ""
    number: str = ""               # numbered like a rule, within its set: "L.17"
    abilities: list[AbilityBody] = []
    faces: list[Face] = []
    holds: list[str] = []          # resources this card can hold, beyond its kind's
    # What the card wrote itself (for a `like` card: what it overrides).
    written: list[str] = []


class CardSet(Node):
    id: str
    title: str
    kind: str
    text: str = ""
    cards: list[CardDef] = []


CORNERS = ("top_left", "top_right", "bottom_left", "bottom_right")


class CardSlot(Node):
    """One part of a card's picture: a band, a corner number, a badge, a dark text box, a mark."""

    slot: Literal["band", "corner", "badge", "dark", "mark"]
    corner: str | None = None      # for a corner: top_left … bottom_right
    name: str = ""                 # a property (corner, badge), a feature (dark, mark)
    icon: str | None = None        # a resource (corner) or a shape (mark)
    when: Expr | None = None       # a corner shown only when this holds (`it`: the card)
    text: str = ""                 # a badge's words, {value} the property


class CardLook(Node):
    """`look card KIND { … }`: how the rulebook draws every card of a kind."""

    decl: Literal["card_look"] = "card_look"
    rule: str | None = None
    kind: str
    slots: list[CardSlot] = []


def citation_id(cardset: str, card: str) -> str:
    """How a card is cited, like a rule: `locations.turret`."""
    return f"{cardset}.{card}"


def counts_as_chain(kinds: Mapping[str, CardKind], kind: str) -> list[str]:
    """The kind and, along `counts as`, every kind it plays the part of (a loop stops it)."""
    chain: list[str] = []
    k: str | None = kind
    while k is not None and k not in chain and k in kinds:
        chain.append(k)
        k = kinds[k].counts_as
    return chain
