"""Expression and statement nodes of the IR.

One small class per construct. The engine compiles these into closures and the
rulebook renders them into English and MathML; both walk the same nodes, so a
formula printed in the rulebook is the formula the engine computes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field


class Loc(BaseModel):
    """Where a node was written: file, 1-based line and column."""

    model_config = ConfigDict(frozen=True)
    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")
    loc: Loc | None = Field(default=None, repr=False)
    # The static type the checker inferred for an expression ("int", "piece",
    # "set:tile", ...). The engine compiles on it; statements leave it unset.
    type: str | None = Field(default=None, repr=False)


# ------------------------------------------------------------------ expressions


class Number(Node):
    node: Literal["number"] = "number"
    value: int


class Text(Node):
    node: Literal["text"] = "text"
    value: str


class Boolean(Node):
    node: Literal["bool"] = "bool"
    value: bool


class NoneValue(Node):
    node: Literal["none"] = "none"


class Name(Node):
    """A name, resolved by the checker.

    `ref` says what it turned out to be: a bound variable, a kind (which as an
    expression means "every object of that kind"), or a built-in of the kernel.
    `category` is the kind's category (piece, feature, area, resource).
    """

    node: Literal["name"] = "name"
    id: str
    ref: Literal["unresolved", "var", "kind", "builtin", "card"] = "unresolved"
    category: str | None = None


class Attr(Node):
    node: Literal["attr"] = "attr"
    obj: Expr
    name: str


class Call(Node):
    node: Literal["call"] = "call"
    func: str
    args: list[Expr]
    # Set by the checker when `func` is a `define` of the ruleset.
    defined: bool = False
    # Set by the checker when `func` is a value ability of a card kind: the card decides.
    ability: bool = False


class Collection(Node):
    """`KIND [as v] [in X] [of P]`: objects of a kind, narrowed."""

    node: Literal["collection"] = "collection"
    source: Expr
    alias: str | None = None
    within: Expr | None = None
    owner: Expr | None = None


class Filtered(Node):
    """`COLLECTION where COND`: the elements for which COND holds.

    Inside COND the element is `it`, or the collection's alias.
    """

    node: Literal["filtered"] = "filtered"
    collection: Expr
    cond: Expr


class Arith(Node):
    """A left-to-right chain of + - or * / (integer division rounds down)."""

    node: Literal["arith"] = "arith"
    first: Expr
    rest: list[tuple[Literal["+", "-", "*", "/"], Expr]]


class Neg(Node):
    node: Literal["neg"] = "neg"
    value: Expr


class Logic(Node):
    node: Literal["logic"] = "logic"
    op: Literal["and", "or"]
    items: list[Expr]


class Not(Node):
    node: Literal["not"] = "not"
    value: Expr


class Compare(Node):
    node: Literal["compare"] = "compare"
    op: Literal["==", "!=", "<", "<=", ">", ">="]
    left: Expr
    right: Expr


class IsKind(Node):
    """`x is KIND`: the kind of a piece, site or area."""

    node: Literal["is_kind"] = "is_kind"
    value: Expr
    kind: str
    negated: bool = False


class IsNone(Node):
    node: Literal["is_none"] = "is_none"
    value: Expr
    negated: bool = False


class IsIn(Node):
    node: Literal["is_in"] = "is_in"
    value: Expr
    collection: Expr
    negated: bool = False


class Has(Node):
    """`x has KIND`: x (a tile, site, area or set of tiles) holds one of KIND."""

    node: Literal["has"] = "has"
    value: Expr
    kind: str


class IfExpr(Node):
    node: Literal["if_expr"] = "if_expr"
    cond: Expr
    then: Expr
    otherwise: Expr


Expr = Annotated[
    Union[
        Number, Text, Boolean, NoneValue, Name, Attr, Call, Collection, Filtered,
        Arith, Neg, Logic, Not, Compare, IsKind, IsNone, IsIn, Has, IfExpr,
    ],
    Field(discriminator="node"),
]


# ------------------------------------------------------------------- statements


class Stmt(Node):
    # The rule that this statement applies; consequences cite it.
    rule: str | None = None


class Place(Stmt):
    """Take a piece of `kind` from its owner's supply and put it at a site."""

    node: Literal["place"] = "place"
    kind: str
    owner: Expr | None = None
    at: Expr


class StackOn(Stmt):
    """Take a piece of `kind` from a supply and put it on the target piece.

    The supply is the target's owner's, unless `of` names another player
    (a partner building on a teammate's piece).
    """

    node: Literal["stack"] = "stack"
    kind: str
    on: Expr
    owner: Expr | None = None


class Move(Stmt):
    """Move a piece to a site, or a card (or every card of a collection) to a zone.

    `source` is the zone a card is taken from: written `from Z`, or filled in by
    the checker from where the card was chosen (its provenance). `what` is set
    by the checker from the type of `piece`.
    """

    node: Literal["move"] = "move"
    piece: Expr
    to: Expr
    source: Expr | None = None
    what: Literal["piece", "card"] = "piece"
    inferred: bool = False  # `source` is the card's provenance, not written


class Return(Stmt):
    """Return a piece (or every piece of a collection) to its owner's supply."""

    node: Literal["return"] = "return"
    what: Expr


class Draw(Stmt):
    """Move `count` units, one at a time, each of a kind chance picks among `kinds`.

    Each pick is weighted by how many of that kind the source holds; what came
    up is an outcome of the move, supplied with it (or sampled in random play)
    and written in the game record.
    """

    node: Literal["draw"] = "draw"
    count: Expr
    source: Expr
    target: Expr
    kinds: list[str]


class Give(Stmt):
    """Move up to `amount` of a resource from a holder (default: the pool) to another.

    When the source runs short, only what it holds moves: the rulebook prints
    "up to". Unlimited resources never run short.
    """

    node: Literal["give"] = "give"
    amount: Expr
    resource: str
    source: Expr | None = None
    target: Expr
    # Set by the checker when `resource` names a bound kind value (`give 1 c …`).
    kind_var: bool = False


class SetAttr(Stmt):
    node: Literal["set_attr"] = "set_attr"
    target: Attr
    value: Expr


class ClearAttr(Stmt):
    node: Literal["clear_attr"] = "clear_attr"
    target: Attr


class GrantOne(Stmt):
    """Grant one extra use of an action, with parameters fixed.

    By default to the active player; `to` names another player, who then
    decides before play goes on (a choice the rules give someone else).
    """

    node: Literal["grant_one"] = "grant_one"
    action: str
    # `grant must a or b`: further actions offered as alternatives in the same choice.
    alternatives: list[str] = []
    to: Expr | None = None
    must: bool = False  # a choice that cannot be declined
    bindings: list[tuple[str, Expr]] = []


class GrantMany(Stmt):
    """Grant up to `count` extra uses, each any one of `actions`."""

    node: Literal["grant_many"] = "grant_many"
    count: Expr
    actions: list[str]


class GrantEach(Stmt):
    """One choice of `action` for each of `players`, in seat order, all in one group.

    `at_once`: the choices are made in secret (any of the players still to choose may
    choose first; `secret` attributes they set stay hidden until the last has chosen).
    When the last grant of the group is used or declined, `then` runs, with the values
    its arguments had when the grants were made.
    """

    node: Literal["grant_each"] = "grant_each"
    action: str
    players: Expr
    must: bool = False
    at_once: bool = False
    then: Apply | None = None


class ForEach(Stmt):
    node: Literal["for_each"] = "for_each"
    var: str
    collection: Expr
    body: list[Statement]


class If(Stmt):
    node: Literal["if"] = "if"
    cond: Expr
    then: list[Statement]
    otherwise: list[Statement] = []


class Let(Stmt):
    node: Literal["let"] = "let"
    name: str
    value: Expr


class Lay(Stmt):
    """Put a tile (a card) on the board: from the stacks, or from a zone (`source`:
    written `from Z`, or the card's provenance); its first face up and unturned unless
    `face` and `rotation` say otherwise."""

    node: Literal["lay"] = "lay"
    card: Expr
    face: Expr | None = None
    cell: Expr
    rotation: Expr | None = None
    source: Expr | None = None
    inferred: bool = False  # `source` is the card's provenance, not written


class Discard(Stmt):
    """Take a tile out of the stacks and out of the game."""

    node: Literal["discard"] = "discard"
    card: Expr


class Deal(Stmt):
    """Up to `count` cards, one at a time, from the top of one zone onto another."""

    node: Literal["deal"] = "deal"
    count: Expr
    source: Expr
    target: Expr


class Shuffle(Stmt):
    """Put a zone's cards in a new order: a chance event."""

    node: Literal["shuffle"] = "shuffle"
    zone: Expr


class Reveal(Stmt):
    """Turn a zone face up (every player's of that name, or `owner`'s) until it next empties."""

    node: Literal["reveal"] = "reveal"
    zone: str
    owner: Expr | None = None
    # Set by the checker when the name is a `secret` player attribute, not a zone:
    # the values of it that were hidden are shown (every player's, or `owner`'s).
    attribute: bool = False


class Rotate(Stmt):
    """Every player's zone of that name passes `by` seats on, all at once."""

    node: Literal["rotate"] = "rotate"
    zone: str
    by: Expr
class RemoveTile(Stmt):
    """Take a laid tile off the board into a zone: what it holds goes to the pool, its
    own attributes go, and the cells next to the board are worked out again."""

    node: Literal["remove_tile"] = "remove_tile"
    tile: Expr
    zone: str


class TurnDown(Stmt):
    """Turn a laid tile face down where it lies: it keeps its cell (distances run
    through it) but shows no kind, no features, no properties, and holds nothing."""

    node: Literal["turn_down"] = "turn_down"
    tile: Expr


class Apply(Stmt):
    """Run a named `effect` with these arguments bound to its parameters."""

    node: Literal["apply"] = "apply"
    effect: str
    args: list[Expr] = []
    # Set by the checker when `effect` is an ability of a card kind: the card's own body runs.
    ability: bool = False


Statement = Annotated[
    Union[
        Place, StackOn, Move, Return, Give, Draw, SetAttr, ClearAttr, GrantOne, GrantMany,
        GrantEach, ForEach, If, Let, Lay, Discard, Apply, Deal, Shuffle, Reveal, Rotate, RemoveTile,
        TurnDown,
    ],
    Field(discriminator="node"),
]

def names_in(node: object) -> set[str]:
    """The variable names an expression mentions (what must be bound to evaluate it)."""
    out: set[str] = set()
    if isinstance(node, Name) and node.ref == "var":
        out.add(node.id)
    if isinstance(node, Node):
        for value in node.__dict__.values():
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, tuple):
                    v = v[1]
                if isinstance(v, Node):
                    out |= names_in(v)
    return out


for _model in (Attr, Call, Collection, Filtered, Arith, Neg, Logic, Not, Compare, IsKind,
               IsNone, IsIn, Has, IfExpr, Place, Move, Return, Give, Draw, SetAttr, ClearAttr,
               GrantOne, GrantMany, GrantEach, ForEach, If, Let, Lay, Discard, StackOn, Apply, Deal,
               Shuffle, Reveal, Rotate, RemoveTile, TurnDown):
    _model.model_rebuild()


def walk(value: Any) -> Iterator[Any]:
    """Every IR node inside `value` (a node, or lists and tuples of them), depth first: what a
    pass looks through when it needs every grant, give or attribute of some declarations."""
    if isinstance(value, (list, tuple)):
        for x in value:
            yield from walk(x)
    elif isinstance(value, BaseModel):
        yield value
        for name in type(value).model_fields:
            yield from walk(getattr(value, name))
