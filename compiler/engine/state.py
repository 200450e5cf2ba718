"""The mutable state of a game, built for cheap copies.

The engine never changes a position in place: a move is tried on a clone,
and the clone replaces the position only when the whole move succeeded. So
the state is plain containers whose values are immutable (pieces, grants,
the turn, the piles of every zone) or copied on write (per-area dictionaries,
the cards unaccounted for); the geometry (board,
frontier, areas), which only changes when a tile is laid, is shared between
clones until one of them lays a tile.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from compiler.kernel.areas import AreaMap, Node
from compiler.kernel.lattice import Cell
from compiler.kernel.tiles import Frontier, Placed

Site = tuple[Cell, str]


@dataclass(frozen=True, slots=True)
class Piece:
    id: int
    kind: str
    owner: int
    cell: Cell
    site: str


@dataclass(frozen=True, slots=True)
class Grant:
    """Extra uses of actions granted for the rest of the current step."""

    actions: tuple[str, ...]
    remaining: int
    bindings: tuple[tuple[str, Any], ...] = ()
    rule: str | None = None
    player: int | None = None  # someone other than the active player decides
    must: bool = False         # the choice cannot be declined
    group: int | None = None   # one of the grants made together to each of several players


@dataclass(frozen=True, slots=True)
class GrantGroup:
    """Grants made together, one to each of several players (`grant A to each P`): when
    the last of them is used or declined, the values they set in secret are shown and
    `then` runs (see engine/simultaneous.py)."""

    id: int
    seats: tuple[int, ...]          # who was granted the choice, in the order they were
    at_once: bool                   # chosen in secret: anyone still to choose may go first
    then: int | None                # which `grant … to each` (Game.grant_eachs) made it
    args: tuple[Any, ...] = ()      # the values of `then`'s arguments when it was made
    rule: str | None = None
    me: int = 0                     # whose rule made the grants (`me` when `then` runs)


@dataclass(frozen=True, slots=True)
class Pending:
    """A triggered rule waiting for its step. Areas are kept as (cell, segment)."""

    step: str
    trigger: int
    bindings: tuple[tuple[str, Any], ...]
    # Who queued it, when it waits for a step that each player takes in turn: it runs
    # when that player's part of the step begins (None: when the step begins).
    me: int | None = None


@dataclass(frozen=True)
class Turn:
    """Where the game stands in its turns: whose, which step, what is granted and waiting.

    Without slots, unlike the other records here: a move makes several turns (`but`), and
    a copy of its `__dict__` with the changes is the cheapest copy Python makes (a third of
    the time of setting sixteen slots one by one)."""

    number: int = 1
    active: int = 0
    step: int = 0
    taken: int = 0
    grants: tuple[Grant, ...] = ()
    placed: Cell | None = None
    pending: tuple[Pending, ...] = ()
    # The pieces put or moved to where they stand during this turn (`it.arrived`):
    # "a pawn that came to a ferry may sail from it in a later turn".
    arrived: tuple[int, ...] = ()
    # In a step each player takes in turn: the seats still to act, the first deciding now.
    queue: tuple[int, ...] = ()
    # The orders of play fixed this turn (by name), so that every step of the turn
    # follows the order as it stood when first needed.
    orders: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # With rounds: the round, the turn within it, and how many turns it has.
    round: int = 0
    round_turn: int = 0
    round_turns: int = 0
    # "step" while the steps are played; the phase of the end of the turn that waits
    # for a decision granted there ("turn_end", "round_end").
    phase: str = "step"
    # Grants made together to several players, still waiting for some of them.
    groups: tuple[GrantGroup, ...] = ()

    def but(self, **changes: Any) -> Turn:
        """This turn with some fields changed (`dataclasses.replace`, done directly: the
        engine makes thousands of these a game)."""
        new = object.__new__(Turn)
        values = self.__dict__.copy()  # (a copy of the whole table: no key inserted one by one)
        values.update(changes)
        if len(values) != _TURN_FIELDS:  # a name that is no field was added (rarely asked)
            raise TypeError(f"a turn has no {', '.join(n for n in changes if n not in _TURN_NAMES)}")
        _SET(new, "__dict__", values)  # as __init__ would set them, without its checks
        return new

    @property
    def principal(self) -> int:
        """Whose part of the turn it is: the first seat still to act in a step each player
        takes, else the active player."""
        return self.queue[0] if self.queue else self.active

    @property
    def actor(self) -> int:
        """Who decides now: a player granted a choice out of turn, else the principal."""
        me = self.queue[0] if self.queue else self.active
        for g in self.grants:
            if g.player is not None and g.player != me:
                return g.player
        return me


_SET = object.__setattr__  # (a frozen dataclass refuses its own)
_TURN_NAMES = frozenset(f.name for f in fields(Turn))  # what `Turn.but` may change
_TURN_FIELDS = len(_TURN_NAMES)  # how many a turn has: `but` counts them

POOL = ("pool",)

ZoneKey = tuple[int, int]              # (zone index, owner seat or -1 for a shared zone)
Pile = tuple[str | None, ...]          # bottom first; None: a card nobody here knows
Piles = tuple[Pile, ...]
STACKS: ZoneKey = (0, -1)              # the legacy stacks (`stacks N`): see engine/zones.py
SET_ASIDE: ZoneKey = (1, -1)           # the cards set out of the game (`discard`)


class State:
    __slots__ = ("players", "board", "frontier", "areas", "pieces", "stacks_at", "supply",
                 "player_res", "player_attrs", "pool", "area_res", "area_attrs", "zones", "unknown",
                 "could_hold", "revealed",
                 "tile_res", "tile_attrs",
                 "turn", "next_id", "finished", "winners", "gone",
                 "game_attrs", "hidden_attrs", "view", "unseen_attrs", "partial", "guessed",
                 "_shared_geometry", "memo")

    def __init__(self, players: int) -> None:
        self.players = players
        self.board: dict[Cell, Placed] = {}
        self.frontier = Frontier()
        self.areas = AreaMap()
        self.pieces: dict[int, Piece] = {}
        self.stacks_at: dict[Site, tuple[int, ...]] = {}
        self.supply: list[dict[str, int]] = [{} for _ in range(players)]
        self.player_res: list[dict[str, int]] = [{} for _ in range(players)]
        # Each player's attributes: a dict replaced, never changed in place once the state
        # is a clone's (clones share them).
        self.player_attrs: list[dict[str, Any]] = [{} for _ in range(players)]
        self.pool: dict[str, int] = {}
        self.area_res: dict[Node, dict[str, int]] = {}
        self.area_attrs: dict[Node, dict[str, Any]] = {}
        # What laid tiles hold (`holds R` on a card kind) and their attributes, by cell;
        # each inner dict is replaced, never changed in place, so clones share them.
        self.tile_res: dict[Cell, dict[str, int]] = {}
        self.tile_attrs: dict[Cell, dict[str, Any]] = {}
        # Every zone's piles (engine/zones.py changes them). The values are immutable
        # tuples and `unknown` is replaced, never changed in place, so clones share both.
        self.zones: dict[ZoneKey, Piles] = {}
        self.unknown: dict[str, int] = {}  # cards that may be behind a None, with their copies
        # What the table knows of zones it cannot name card by card: the cards each could
        # hold (engine/places.py). Replaced, never changed in place.
        self.could_hold: dict[ZoneKey, frozenset[str]] = {}
        self.revealed: frozenset[ZoneKey] = frozenset()  # zones turned face up until emptied
        self.turn = Turn()
        self.next_id = 1
        self.finished = False
        self.winners: tuple[int, ...] | None = None
        self.gone: dict[int, Piece] = {}  # pieces returned during the current move
        self.game_attrs: dict[str, Any] = {}  # `game attribute`s set so far (replaced on set)
        # (seat, attribute): `secret` player attributes set during a choice made at once,
        # not yet shown to the others (engine/simultaneous.py).
        self.hidden_attrs: frozenset[tuple[int, str]] = frozenset()
        # The seat whose view this is (engine/views.py): what it cannot see is unknown here.
        # None: the full table, as a judge sees it.
        self.view: int | None = None
        # In a view: the others' secret values it cannot know (they read as the default).
        self.unseen_attrs: frozenset[tuple[int, str]] = frozenset()
        # A partial table (a position file's `partial`): the cards it left unsaid are in the
        # start zone, even those the set-up took out (engine/conservation.py).
        self.partial = False
        # In a view: the unseen values that moves carried out here have read (as their
        # default, a stand-in): (seat, attribute), or (-1, what) of a card the view does not
        # know. From then on the view's table is a guess (engine/views.py).
        self.guessed: frozenset[tuple[int, str]] = frozenset()
        self._shared_geometry = False
        # What listing and checking moves worked out here (see `Env.memo`), kept while the
        # state stands still: from when it becomes a position's (which nothing changes any
        # more: a move is carried out on a clone) for as long as it lives. None for a state
        # still being changed: a clone starts without one.
        self.memo: dict[Any, Any] | None = None

    def clone(self) -> State:
        """A copy to carry out a move on (dict.copy: the fastest copy of a dict there is)."""
        s = State.__new__(State)
        s.players = self.players
        s.board = self.board
        s.frontier = self.frontier
        s.areas = self.areas
        s._shared_geometry = True
        self._shared_geometry = True
        s.pieces = self.pieces.copy()
        s.stacks_at = self.stacks_at.copy()
        s.supply = list(map(dict.copy, self.supply))
        s.player_res = list(map(dict.copy, self.player_res))
        s.player_attrs = self.player_attrs[:]  # each replaced, never changed in place
        s.pool = self.pool.copy()
        s.area_res = self.area_res.copy()
        s.area_attrs = self.area_attrs.copy()
        s.tile_res = self.tile_res.copy()
        s.tile_attrs = self.tile_attrs.copy()
        s.zones = self.zones.copy()
        s.unknown = self.unknown
        s.could_hold = self.could_hold
        s.revealed = self.revealed
        s.turn = self.turn
        s.next_id = self.next_id
        s.finished = self.finished
        s.winners = self.winners
        s.gone = {}
        s.game_attrs = self.game_attrs  # replaced, never changed in place: clones share it
        s.hidden_attrs = self.hidden_attrs
        s.view = self.view
        s.unseen_attrs = self.unseen_attrs
        s.partial = self.partial
        s.guessed = self.guessed
        s.memo = None
        return s

    def own_geometry(self) -> None:
        """Copy the shared board, frontier and areas before changing them."""
        if self._shared_geometry:
            self.board = self.board.copy()
            self.frontier = self.frontier.copy()
            self.areas = self.areas.copy()
            self._shared_geometry = False

    # ------------------------------------------------------------ pieces

    def piece(self, pid: int) -> Piece:
        p = self.pieces.get(pid)
        if p is None:
            p = self.gone[pid]
        return p

    def stack_of(self, site: Site) -> tuple[int, ...]:
        return self.stacks_at.get(site, ())

    # ------------------------------------------------------------ stacks

    @property
    def stacks(self) -> list[list[str | None]]:
        """The legacy stacks, bottom first (a copy: change them through engine/zones.py)."""
        return [list(p) for p in self.zones.get(STACKS, ())]

    @property
    def discarded(self) -> list[str]:
        """The tiles set out of the game, in the order they were set aside (a copy)."""
        return [c for p in self.zones.get(SET_ASIDE, ()) for c in p if c is not None]
