"""The judge's requests and replies as pydantic models: what /openapi.json documents.

The replies reuse the engine's own models where one says the thing already (a position is
formats.PositionModel, a ruling is ruling.Ruling, a situation is ruling.Situation), so the
API cannot drift from what the CLI writes.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from compiler.engine.formats import PositionModel
from compiler.engine.ruling import RuleCitation, Ruling, Situation

# ------------------------------------------------------------------ requests


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    ruleset: str = Field(max_length=100, description="A ruleset id from GET /api/rulesets.")


class NewIn(_In):
    players: int = Field(ge=1, le=64, strict=True)  # strict: `true` is not 1 player
    seed: int = Field(1, ge=0, le=2**63 - 1, strict=True)


class ExampleIn(_In):
    example: str = Field(max_length=200)


class RecordIn(_In):
    record: str = Field(description="A game record's text, as `rulebook replay` reads it.")
    upto: int | None = Field(default=None, ge=0, le=1_000_000, strict=True,
                             description="Stop after this many turn lines (null: all).")


class PositionIn(_In):
    position: dict[str, Any] = Field(description="A position (GET /api/schema).")


class MovesIn(PositionIn):
    at: str | None = Field(default=None, max_length=100,
                           description='Only moves touching this cell "x,y" or site "x,y:site".')
    seat: str | None = Field(default=None, alias="as", max_length=100,
                             description="Judge as this seat sees the table.")


class FitsIn(PositionIn):
    tile: str = Field(max_length=100)
    face: str | None = Field(default=None, max_length=100)


class AdjudicateIn(PositionIn):
    move: str = Field(max_length=10_000, description='A move in notation; "MOVE ! outcome" '
                                                     "gives what chance decided.")
    seat: str | None = Field(default=None, alias="as", max_length=100)


# ------------------------------------------------------------------- replies


class Players(BaseModel):
    min: int
    max: int


class RulesetSummary(BaseModel):
    id: str
    title: str
    subtitle: str
    players: Players
    base: str | None = Field(description="The ruleset this one is a variant of.")
    rulebook: str = Field(description="URL of its rulebook's first page.")


class RulesetList(BaseModel):
    rulesets: list[RulesetSummary]


class Seat(BaseModel):
    id: str
    name: str
    colour: str


class Step(BaseModel):
    id: str
    title: str


class Face(BaseModel):
    face: str
    shows: str = Field(description="What the face shows, in words a search matches.")
    svg: str


class Tile(BaseModel):
    id: str
    faces: list[Face]


class Piece(BaseModel):
    kind: str
    name: str
    svg: str


class Resource(BaseModel):
    id: str
    name: str
    holders: list[Literal["player", "area", "tile"]] = Field(
        description="What may hold it in a position: players, areas (an area kind declared "
                    "to hold it), laid tiles (a card or kind declared to hold it).")


class Card(BaseModel):
    id: str
    name: str
    svg: str = Field(description="The printed card, small.")


class Zone(BaseModel):
    id: str
    title: str
    whose: Literal["shared", "player"] = Field(description="One zone for the table, or one "
                                                           "per player (position.zones by seat).")
    piles: int
    visible: str = Field(description="Who sees its cards: everyone, owner, nobody, top.")
    cards: list[str] = Field(description="The cards that can be in it (ids of `cards`).")


class Example(BaseModel):
    id: str
    number: str = Field(description="Its id across the site, as the rulebook shows it: "
                                    "`TD-E36` (the declaring ruleset's code, then E and a number).")
    title: str
    rule: str | None = Field(description="The rule it illustrates first.")
    url: str = Field(description="The example itself, on the rulebook page that shows it.")


class RulesetInfo(BaseModel):
    id: str
    title: str
    players: Players
    seats: list[Seat]
    steps: list[Step]
    tiles: list[Tile] = Field(description="The catalogue; a card game's cards laid as tiles "
                                          "are drawn as cards.")
    pieces: list[Piece]
    resources: list[Resource]
    zones: list[Zone]
    cards: list[Card]
    per_player_board: bool
    rotations: int
    examples: list[Example]
    rulebook: str


class SituationReply(Situation):
    # `said` is Situation's method that says it; the reply carries what it said.
    words: str = Field(alias="said", description="The situation in words, as the CLI says it.")


class PositionReply(BaseModel):
    position: PositionModel
    situation: SituationReply
    svg: str = Field(description="The board as the rulebook draws it, with click targets "
                                 "(data-cell, data-site, data-piece, data-board).")
    open_cells: list[str] = Field(description='Cells "x,y" where a tile could be laid.')
    problems: list[str] = []

    @field_serializer("position", mode="wrap")
    def _position(self, value: PositionModel, handler: Any) -> Any:
        # A position is written as a position file is: what is unsaid is left out.
        return value.model_dump(mode="json", exclude_none=True)


class ExampleGiven(BaseModel):
    id: str
    number: str = Field(description="Its id across the site, as the rulebook shows it (`TD-E36`).")
    title: str
    moves: list[str]
    verdict: str = Field(description="The verdict the rulebook expects for its moves.")


class ExampleReply(PositionReply):
    example: ExampleGiven


class Stop(BaseModel):
    number: int = Field(description="The turn line's number.")
    seat: str | None = Field(description="Whose turn line it is (null past a line that could "
                                         "not be replayed).")
    player: str | None = Field(description="That player's name.")
    move: str


class RecordStops(BaseModel):
    decisions: list[Stop]
    upto: int | None
    total: int


class RecordReply(PositionReply):
    record: RecordStops


class MoveAt(BaseModel):
    notation: str
    at: list[str] = Field(description='The cells "x,y" and sites "x,y:site" it touches.')


class MovesReply(BaseModel):
    situation: SituationReply
    moves: list[MoveAt]
    count: int


class Placement(BaseModel):
    at: str
    face: str
    rotation: int


class FitsReply(BaseModel):
    placements: list[Placement]


class Chance(BaseModel):
    message: str
    rule: RuleCitation | None


class AdjudicationReply(BaseModel):
    verdict: str
    text: str = Field(description="The ruling read aloud, as the CLI prints it.")
    ruling: Ruling
    chance: Chance | None = Field(description="Set when the move needs an outcome: re-send it "
                                               'as "MOVE ! outcome".')
    after: PositionReply | None


class Problem(BaseModel):
    path: str
    message: str


class ErrorBody(BaseModel):
    code: str
    message: str
    problems: list[Problem]


class ErrorReply(BaseModel):
    error: ErrorBody
