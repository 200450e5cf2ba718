"""The symbol table of a ruleset: every name an author can use, and where it was declared."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.ir import model as m

from compiler.library import LIBRARY, events
from compiler.library.core import MAX_DIE_SIDES, MAX_UPTO  # noqa: F401  (re-exported)

# Kernel vocabulary: names every ruleset can use, all of them in `compiler/library/`.
# Types are the checker's ("set:tile" is a collection of placed tiles).
# The order the language reference lists them in (its built-in names table and
# functions line), until the reference builds its tables from the library alone.
_VALUE_ORDER = ("me", "placed", "players", "tiles", "sites", "pieces", "areas", "pool",
                "drawable", "stock", "cards", "frontier", "rotations", "game")
_FUNCTION_ORDER = ("count", "sum", "top", "min", "max", "only", "neighbours", "faces", "fits",
                   "placeable", "supply", "reach", "allies", "captain", "die", "upto", "kinds",
                   "held", "clockwise", "first", "around", "reach_across", "reach_sites",
                   "reach_sites_across", "hops", "nearest", "distance", "splits", "ways",
                   "highest", "next", "faulty")

BUILTIN_VALUES: dict[str, str] = {k: LIBRARY[k].returns for k in _VALUE_ORDER}

# Names bound only by some events.
EVENT_VALUES = {b.name: b.returns for b in events()}

FUNCTIONS = tuple(f for f in _FUNCTION_ORDER if f in LIBRARY)

# Limits of the language, checked where a value is written and enforced where
# it is computed (those of `die` and `upto` live with them, in the library).
MAX_PLAYERS = 100          # `players A to B`

CATEGORY_ELEMENT = {"piece": "piece", "feature": "site", "area": "area"}


@dataclass
class Symbols:
    lattice: str = "triangle"
    boards_per_player: bool = False  # `board NAME "…" each player`
    zone_ids: list[str] = field(default_factory=list)  # declared zones (besides set_aside)
    tile_holds: set[str] = field(default_factory=set)  # resources laid tiles may hold
    tile_attrs: dict[str, m.AttributeDecl] = field(default_factory=dict)  # laid tiles' own
    edges: dict[str, m.EdgeLabel] = field(default_factory=dict)
    kinds: dict[str, tuple[str, Any]] = field(default_factory=dict)  # id -> (category, decl)
    area_attrs: dict[str, m.AttributeDecl] = field(default_factory=dict)
    area_holds: dict[str, set[str]] = field(default_factory=dict)  # resource -> area kinds
    actions: dict[str, m.Action] = field(default_factory=dict)
    steps: dict[str, m.StepDecl] = field(default_factory=dict)
    defines: dict[str, m.Define] = field(default_factory=dict)
    effects: dict[str, m.Effect] = field(default_factory=dict)
    families: dict[str, m.FamilyDecl] = field(default_factory=dict)
    seats: list[m.Seat] = field(default_factory=list)
    player_attrs: dict[str, m.AttributeDecl] = field(default_factory=dict)
    define_types: dict[str, str] = field(default_factory=dict)
    define_params: dict[str, dict[str, str]] = field(default_factory=dict)
    call_args: dict[str, list[list[str]]] = field(default_factory=dict)
    rules: dict[str, m.Rule] = field(default_factory=dict)
    chapters: dict[str, m.Chapter] = field(default_factory=dict)
    terms: dict[str, m.Term] = field(default_factory=dict)
    rulings: dict[str, m.Ruling] = field(default_factory=dict)
    examples: dict[str, m.Example] = field(default_factory=dict)
    cards: dict[str, m.TileDef] = field(default_factory=dict)
    tilesets: dict[str, m.TileSet] = field(default_factory=dict)
    score: str | None = None
    # Rounds, game attributes and orders of play (see `compiler/check/turns.py`).
    rounds: dict[str, m.RoundDecl] = field(default_factory=dict)
    game_attrs: dict[str, m.AttributeDecl] = field(default_factory=dict)
    orders: dict[str, m.OrderDecl] = field(default_factory=dict)
    # Cards (see `compiler.check.cards`): kinds, printed cards by id, the set of each,
    # every property and ability by name.
    card_kinds: dict[str, Any] = field(default_factory=dict)
    printed: dict[str, Any] = field(default_factory=dict)
    card_set_of: dict[str, str] = field(default_factory=dict)
    cardsets: dict[str, Any] = field(default_factory=dict)
    card_props: dict[str, Any] = field(default_factory=dict)
    abilities: dict[str, Any] = field(default_factory=dict)
    zones: dict[str, m.ZoneDecl] = field(default_factory=dict)  # declared zones (not `stacks`)
    audits: dict[str, m.AuditDecl] = field(default_factory=dict)
    auditing: set[str] = field(default_factory=set)  # audits being typed (see check/audits.py)

    def of(self, category: str) -> list[str]:
        return [k for k, (c, _) in self.kinds.items() if c == category]

    def category(self, name: str) -> str | None:
        entry = self.kinds.get(name)
        return entry[0] if entry else None
