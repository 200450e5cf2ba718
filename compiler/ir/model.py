"""Declarations, prose and the compiled ruleset.

A `Ruleset` is complete on its own: the engine and the rulebook read only this
model. Every semantic declaration carries the id of the rule it sits in, so
the engine can cite the rule and the rulebook can print the declaration under
the rule's heading.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from compiler.ir.cards import AbilityBody, CardDef, CardKind, CardLook, CardSet
from compiler.ir.nodes import Expr, Loc, Node, Statement


class Decl(Node):
    rule: str | None = None


# ------------------------------------------------------------------ the board


class LatticeDecl(Decl):
    decl: Literal["lattice"] = "lattice"
    name: str


class EdgeLabel(Decl):
    decl: Literal["edge"] = "edge"
    id: str
    title: str


class MatchDecl(Decl):
    """Which edge labels may touch. `same`: a label matches only itself."""

    decl: Literal["match"] = "match"
    same: bool = True
    pairs: list[tuple[str, str]] = []


class FeatureKind(Decl):
    decl: Literal["feature"] = "feature"
    id: str
    title: str
    plural: str | None = None


class AttributeDecl(Node):
    name: str
    type: Literal["player", "bool", "int"]
    # How consequences describe it: "the area is now <phrase>"; {value} is the value.
    phrase: str | None = None
    reset_each_turn: bool = False
    # For an area's attribute: its value in a position set up on the table (a
    # position file, an example), which follows from the board (`it`: the area).
    given: Expr | None = None
    # For a card's attribute: a position may leave it unrecorded, and then it reads none.
    recorded: bool = False
    # For a player's attribute: a value set while a choice made at once is open stays
    # hidden from the other players until every player has chosen (or `reveal NAME`).
    secret: bool = False


class AreaKind(Decl):
    decl: Literal["area"] = "area"
    id: str
    title: str
    plural: str | None = None
    crosses: list[str]
    holds: list[str] = []
    attributes: list[AttributeDecl] = []


class PieceKind(Decl):  # noqa: D101
    decl: Literal["piece"] = "piece"
    id: str
    title: str
    plural: str | None = None
    on: str | None = None
    # kinds it always stands above when they share a site, whichever came first
    above: list[str] = []
    counts_as: str | None = None  # a kind this one plays the part of


class ResourceKind(Decl):
    decl: Literal["resource"] = "resource"
    id: str
    title: str
    plural: str | None = None
    limit: int | None = None  # None: unlimited


class FamilyDecl(Decl):
    """Resources that are kinds of one thing: the name reads their total."""

    decl: Literal["family"] = "family"
    id: str
    title: str
    plural: str | None = None
    members: list[str]


class PlayerAttribute(Decl):
    """Something every player has (a flag, a count, a player), changed by rules."""

    decl: Literal["player_attribute"] = "player_attribute"
    attribute: AttributeDecl


class ScoreDecl(Decl):
    decl: Literal["score"] = "score"
    resource: str


# ------------------------------------------------------------------- setup


class SupplyTable(Decl):
    decl: Literal["supply"] = "supply"
    rows: dict[int, dict[str, int]]


class TeamsDecl(Decl):
    """Partnerships: for a player count, the teams as lists of seat ids."""

    decl: Literal["teams"] = "teams"
    rows: dict[int, list[list[str]]]


class ZoneDecl(Decl):
    """A place cards are kept off the board: a deck, a hand, a discard pile, the stacks.

    `stacks N hiding … dealing …` is the legacy form (`legacy`): the face-down
    stacks the tiles are shuffled into, one shared ordered zone of N piles whose
    top cards show. Its serialisation (`stacks` in position files, `[Stacks]` in
    records) and its sentence in the rulebook are those of the old declaration.
    """

    decl: Literal["zone"] = "zone"
    id: str
    title: str
    plural: str | None = None
    per_player: bool = False             # `each`: one zone per player
    ordered: bool = True                 # else kept sorted: the order cards came in is no fact
    piles: int = 1
    visible: Literal["everyone", "owner", "nobody", "top"] = "everyone"
    in_play: bool = False                # its cards' abilities count
    hiding: list[str] = []               # features no top card may show (legacy stacks)
    dealt: dict[int, int] = {}  # players -> tiles dealt into the stacks (else all)
    dealt_from: dict[int, list[str]] = {}  # players -> the tile sets dealt from (else all used)
    legacy: bool = False                 # written `stacks …`


class CardsStart(Decl):
    """`cards start in Z`: where every card is when the game is set up (and, in a
    position, every card not said to be elsewhere)."""

    decl: Literal["cards_start"] = "cards_start"
    zone: str


class FirstTileDecl(Decl):
    decl: Literal["first_tile"] = "first_tile"
    cell: tuple[int, int]


class BoardDecl(Decl):
    """`board NAME "title" each player`: every player builds a board of their own.

    Without it there is one board the players share. `lattice`, `edge`,
    `match` and `first tile at` mean the same on each player's board.
    """

    decl: Literal["board"] = "board"
    id: str
    title: str
    per_player: bool = True


class UseTiles(Decl):
    decl: Literal["use_tiles"] = "use_tiles"
    tilesets: list[str]


# --------------------------------------------------------------- turn, actions


class StepDecl(Decl):
    decl: Literal["step"] = "step"
    id: str
    title: str
    mode: Literal["must_one", "may_one", "may_any", "automatic"]
    actions: list[str] = []
    also: list[str] = []
    # "each": every player takes the step in turn (in `order`, else seat order
    # from the active player), each deciding their own part before the next.
    who: Literal["active", "each"] = "active"
    order: str | None = None
    # `each player at once`: a step each player takes (in seat order, `who` "each"),
    # whose choices are secret until all have chosen; anyone still to choose may
    # choose first.
    at_once: bool = False


class Choose(Node):
    name: str
    domain: Expr
    subset: bool = False
    rule: str | None = None


class Require(Node):
    cond: Expr
    message: str | None = None
    rule: str | None = None


class Action(Decl):
    decl: Literal["action"] = "action"
    id: str
    title: str
    notation: str | None = None
    params: list[Choose] = []
    requires: list[Require] = []
    effects: list[Statement] = []
    # `alongside X`: offered wherever X is, in its steps and its grants (compiler/alongside.py).
    alongside: list[str] = []


class Forbid(Decl):
    """A prohibition. "Cannot" beats "can": it holds against every action."""

    decl: Literal["forbid"] = "forbid"
    kind: str
    piece_var: str | None = None
    site_var: str
    actions: list[str] = []
    cond: Expr
    message: str | None = None


class Event(Node):
    type: Literal["closes", "laid", "enters", "leaves", "returns", "moment"]
    kind: str | None = None  # area kind / piece kind ("area", "piece": any)
    var: str | None = None
    site_var: str | None = None
    moment: Literal["start", "end"] | None = None
    target: Literal["step", "turn", "game", "round"] | None = None
    step: str | None = None
    round: str | None = None


class Trigger(Decl):
    """Runs after its event. The triggers on one event run in reading order, but one with
    `after` runs just after the triggers of that rule (and the rules inside it) on the same
    event: a variant's addition waits for the base's (engine/game.py `in_order`)."""
    decl: Literal["trigger"] = "trigger"
    event: Event
    where: Expr | None = None
    defer_to: str | None = None
    after: str | None = None
    body: list[Statement]


class Define(Decl):
    decl: Literal["define"] = "define"
    id: str
    params: list[str] = []
    title: str | None = None
    expr: Expr
    # A `condition`: true or false, and cited by the rulings it helps decide.
    cited: bool = False


class Effect(Decl):
    """A named sequence of statements, run by `apply NAME(args)`."""

    decl: Literal["effect"] = "effect"
    id: str
    params: list[str] = []
    title: str | None = None
    body: list[Statement]


class EndDecl(Decl):
    decl: Literal["end"] = "end"
    cond: Expr


class Tiebreak(Node):
    direction: Literal["most", "fewest"]
    expr: Expr


class RoundDecl(Decl):
    """The game is played in `count` rounds of `turns` turns each (evaluated as each round
    starts); it ends after the last turn of the last round. `game.<id>` is the round."""

    decl: Literal["round"] = "round"
    id: str
    title: str
    count: int
    turns: Expr


class GameAttribute(Decl):
    """Something the game as a whole has (a flag, a count, a player), read as `game.NAME`."""

    decl: Literal["game_attribute"] = "game_attribute"
    attribute: AttributeDecl


class OrderDecl(Decl):
    """A named order of play: the players by the measures (each player is `it`), ties
    broken by seat order from `start` (by default the active player)."""

    decl: Literal["order"] = "order"
    id: str
    title: str
    order: list[Tiebreak] = []
    start: Expr | None = None


class NextTurnDecl(Decl):
    """Who plays the next turn (without it: the next seat)."""

    decl: Literal["next_turn"] = "next_turn"
    expr: Expr


class WinnerDecl(Decl):
    decl: Literal["winner"] = "winner"
    order: list[Tiebreak]


LOOK_SHAPES = ("fill", "line", "band", "color", "circle", "ring", "square", "diamond", "hexagon",
               "star", "gear", "triangle", "cross")


class Look(Decl):
    """How the rulebook draws something: `look lake: fill "#3b6fa0"`."""

    decl: Literal["look"] = "look"
    target: str
    shape: str
    color: str


# -------------------------------------------------------------------- audits


class BreachDecl(Node):
    """One kind of mistake an audit finds: every element of `collection` is one,
    a breach of `rule` (the rule the audit sits in unless `per` says otherwise)."""

    message: str
    collection: Expr
    rule: str | None = None


class AuditDecl(Decl):
    """A check of a whole position (`audit NAME "…" { breach … }`): see engine/audit.py."""

    decl: Literal["audit"] = "audit"
    id: str
    title: str
    breaches: list[BreachDecl]


Declaration = Annotated[
    Union[
        LatticeDecl, EdgeLabel, MatchDecl, FeatureKind, AreaKind, PieceKind, ResourceKind,
        FamilyDecl, PlayerAttribute, ScoreDecl, SupplyTable, TeamsDecl, ZoneDecl, CardsStart,
        FirstTileDecl, BoardDecl, UseTiles, StepDecl, Action,
        Forbid, Trigger, Define, Effect, EndDecl, WinnerDecl, Look, CardKind, CardLook,
        RoundDecl, GameAttribute, OrderDecl, NextTurnDecl, AuditDecl,
    ],
    Field(discriminator="decl"),
]


# ---------------------------------------------------------------------- tiles


class Segment(Node):
    """A connected part of a tile face: an area kind, the edges it reaches, its features."""

    kind: str
    edges: list[int] = []
    features: list[str] = []


class Face(Node):
    name: str
    edges: list[str]
    segments: list[Segment]


class TileDef(Node):
    id: str
    faces: list[Face]


class TileSet(Node):
    id: str
    title: str
    text: str = ""
    tiles: list[TileDef]
    copy_of: str | None = None   # filled in from that set when the ruleset is loaded
    suffix: str = ""


# ----------------------------------------------------------------------- prose


class Rule(Node):
    id: str
    title: str
    text: str = ""
    number: str = ""
    rules: list[Rule] = []
    decls: list[Declaration] = []


class Chapter(Node):
    id: str
    title: str
    text: str = ""
    number: str = ""
    rules: list[Rule] = []
    decls: list[Declaration] = []
    # The rulebook gives each of its rules a page of its own (compiler/links.py rule_pages).
    page_per_rule: bool = False


class Term(Node):
    id: str
    title: str
    text: str = ""
    plural: str | None = None
    also: list[str] = []


class Ruling(Node):
    id: str
    title: str
    number: str = ""
    question: str = ""
    text: str = ""
    reason: str = ""
    settles: list[str] = []


# -------------------------------------------------------------------- examples


class PositionFact(Node):
    """One line of a `given` block or an expectation: what a table shows."""

    fact: Literal[
        "players", "turn", "tile", "piece", "amount", "area", "player", "supply", "stacks",
        "legal", "illegal", "delta", "no_piece", "closed", "open", "winner", "step",
        "game", "round", "waiting", "zone", "zone_size", "breach", "no_breach", "start",
        "card", "no_card", "value",
    ]
    # Words and numbers as written; a card fact adds a flag and its `with` pairs,
    # `expect value` an expression (typed by the checker, evaluated by the engine).
    args: list[Any] = []


class Example(Node):
    id: str
    title: str
    number: str = ""
    text: str = ""
    illustrates: list[str] = []
    given: list[PositionFact] = []
    play: list[str] = []
    end_game: bool = False
    expect: list[PositionFact] = []


# -------------------------------------------------------------------- variants


Editable = Literal["rule", "chapter", "tiles", "tile", "term", "ruling", "example", "cards",
                   "card", "action", "define", "effect", "player_attribute", "game_attribute",
                   "area", "trigger", "forbid"]


class Edit(Node):
    """One edit a variant makes to the ruleset it extends (as written)."""

    op: Literal["replace", "remove", "add_to", "replace_in", "remove_in"]
    kind: Editable
    ids: list[str] = []
    nth: int | None = None    # `replace trigger 2 in RULE`: which of the rule's own
    item: Any = None          # the replacing item, for `replace`
    items: list[Any] = []     # what is added, for `add to`
    text: str = ""            # prose added after a rule's or chapter's own, for `add to`


class Change(BaseModel):
    """What a variant changed, by id, as the compiled ruleset remembers it.

    The engine never reads this; the rulebook's "What changes" page and
    `rulebook diff` do.
    """

    op: Literal["added", "replaced", "removed"]
    kind: Editable
    id: str
    parent: str | None = None  # for a rule: the chapter or rule it sits in
    loc: Loc | None = None
    # For a replaced rule: the names its base version declared and the replacement does not
    # (an action, a definition, an attribute…), to blame the `replace` when the base misses them.
    drops: list[str] = []


# --------------------------------------------------------------------- ruleset


class Seat(BaseModel):
    id: str
    name: str


def seat_by_place(name: str) -> int | None:
    """`p1`, `p2` …: a seat named by its place in every game, as an index from 0 (never
    `int()` of a '²' or of 5,000 digits)."""
    if name[:1].lower() == "p" and name[1:].isascii() and name[1:].isdigit() and len(name) < 6:
        return int(name[1:]) - 1
    return None


class VersionChange(BaseModel):
    """One change in a version of the rules: what it is, in words, and what it touched."""
    model_config = ConfigDict(extra="forbid")

    text: str
    rules: list[str] = []
    rulings: list[str] = []


class VersionNote(BaseModel):
    """One version of a ruleset's rules, from its changelog (compiler/changelog.py)."""
    model_config = ConfigDict(extra="forbid")

    number: str
    date: datetime.date
    summary: str = ""
    change: list[VersionChange] = []


class Ruleset(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    title: str = ""
    subtitle: str = ""
    version: str = "1"
    source: str = ""
    # What the game calls its general supply, as the rulings say it ("the bank").
    pool: str = "the pool"
    extends: str | None = None
    # The short code that prefixes the ids of the rulings and examples this ruleset writes
    # itself (`TD-R5`); empty: derived from the id (compiler.numbering.code_of).
    code: str = ""
    tiles_from: str | None = None  # a ruleset whose tile sets this one borrows
    header: list[str] = []        # the header fields this ruleset wrote itself
    changes: list[Change] = []    # for a variant: what it changed in its base
    retired: list[str] = []       # numbers of removed chapters and rules: never given again
    players_min: int = 2
    players_max: int = 4
    seats: list[Seat] = []
    contents: list[str] = []
    chapters: list[Chapter] = []
    decls: list[Declaration] = []
    tilesets: list[TileSet] = []
    cardsets: list[CardSet] = []
    terms: list[Term] = []
    rulings: list[Ruling] = []
    examples: list[Example] = []
    files: list[str] = []
    history: list[VersionNote] = []  # its versions, newest first (changelog.toml)
    loc: Loc | None = None

    @property
    def player_counts(self) -> str:
        """The player counts the game takes, as every message and page says them: "2 to 4"."""
        return f"{self.players_min} to {self.players_max}"

    # ------------------------------------------------------------- walking

    def all_rules(self) -> list[Rule]:
        """Every rule, depth first in reading order."""
        out: list[Rule] = []

        def walk(rules: list[Rule]) -> None:
            for r in rules:
                out.append(r)
                walk(r.rules)

        for c in self.chapters:
            walk(c.rules)
        return out

    def all_decls(self) -> list[Declaration]:
        """Every declaration in reading order: chapter decls, then each rule's."""
        out: list[Declaration] = list(self.decls)

        def walk(rules: list[Rule]) -> None:
            for r in rules:
                out.extend(r.decls)
                walk(r.rules)

        for c in self.chapters:
            out.extend(c.decls)
            walk(c.rules)
        return out

    def rule_index(self) -> dict[str, Rule]:
        return {r.id: r for r in self.all_rules()}

    def cards(self) -> list[CardDef]:
        """Every printed card of every card set, in reading order."""
        return [c for s in self.cardsets for c in s.cards]

    def tiles(self) -> list[TileDef]:
        used: list[str] | None = None
        for d in self.all_decls():
            if isinstance(d, UseTiles):
                used = (used or []) + d.tilesets
        sets = [s for s in self.tilesets if used is None or s.id in used]
        return [t for s in sets for t in s.tiles]


for _card_model in (CardKind, AbilityBody, CardDef, CardSet, CardLook):
    _card_model.model_rebuild(_types_namespace={"AttributeDecl": AttributeDecl, "Face": Face})
for _model in (Rule, Chapter, Action, Trigger, Define, Effect, EndDecl, WinnerDecl, Forbid, Choose,
               Require, Tiebreak, RoundDecl, OrderDecl, NextTurnDecl, Example, Ruleset, BreachDecl,
               AuditDecl):
    _model.model_rebuild()
