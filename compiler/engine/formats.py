"""Positions as files: the table as players see it, in JSON.

`PositionModel` is the boundary: a position file is validated against it
(its JSON Schema is published in the rulebook), then against the rules: tiles
must match edge to edge and form one group, pieces must stand on real sites
and stack as declared, and every piece and marker must be accounted for.
Every problem is reported with the JSON path where it was found.

Stacks are listed top first; `null` stands for a tile nobody has seen yet.
Omitted supplies, pool and stacks are derived from the set-up.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from compiler.diagnostics import did_you_mean
from compiler.engine import conservation, zone_json, zone_play, zones
from compiler.engine.effects import put
from compiler.engine.evaluate import Env, RuleError
from compiler.engine.notation import NotationError, clip
from compiler.engine.notation import cell as read_cell
from compiler.engine.notation import number as read_number
from compiler.engine.state import SET_ASIDE, STACKS, Grant, Pending, State, Turn
from compiler.kernel.boards import board_of, global_, local

if TYPE_CHECKING:
    from compiler.engine.position import Position, Rules


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# No count on a table is negative or needs more than nine digits; a bound here also
# keeps a 5,000-digit number out of the engine.
LIMIT = 10**9
Count = Annotated[int, Field(ge=0, le=LIMIT)]
Signed = Annotated[int, Field(ge=-LIMIT, le=LIMIT)]
Value = str | bool | Signed | None


class TileAt(_Model):
    board: str | None = Field(None, description="With a board per player: whose board (a seat "
                                                "id); `at` counts from that board's origin.")
    at: str = Field(description="Cell, as `x,y`.", examples=["1,0"])
    tile: str = Field(description="Tile id from the catalogue.")
    face: str = Field(description="Which face is up.")
    rotation: int = Field(0, ge=0, le=LIMIT, description="How the tile is turned (0, 1, 2 ...).")
    holds: dict[str, Count] = Field(default_factory=dict,
                                    description="What the laid tile holds, by resource.")
    attributes: dict[str, Value] = Field(default_factory=dict,
                                         description="The laid tile's own attributes.")


class PieceAt(_Model):
    kind: str = Field(description="Piece kind, as declared in the ruleset.")
    owner: str = Field(description="Seat id of the owner.")
    at: str = Field(description="Site, as `x,y:site`. Pieces on one site stack in list order, "
                                "bottom first.", examples=["1,0:lake"])


class AreaState(_Model):
    at: str = Field(description="Any site of the area, as `x,y:site`.")
    attributes: dict[str, Value] = Field(
        default_factory=dict, description="Declared area attributes; players by seat id. An "
                                          "attribute declared `given as` follows from the board "
                                          "when left out.")
    resources: dict[str, Count] = Field(default_factory=dict)


class PlayerState(_Model):
    seat: str = Field(description="Seat id; the list is in playing order.")
    supply: dict[str, Count] | None = Field(
        None, description="Pieces off the board; omitted (or a kind left out): the set-up "
                          "amount minus those on it.")
    resources: dict[str, Count] = Field(default_factory=dict,
                                        description="Score, markers held...")
    attributes: dict[str, Value] = Field(
        default_factory=dict, description="Declared player attributes; players by seat id.")
    hidden: list[str] | None = Field(None, description=(
        "Secret attributes of this player whose values the others have not seen yet (set "
        "during a choice everyone makes at once; shown when all have chosen)."))


class GrantState(_Model):
    actions: list[str] = Field(min_length=1)
    remaining: int = Field(1, ge=1, le=LIMIT, description="Uses left (a grant used up is gone).")
    bindings: dict[str, str] = Field(default_factory=dict)
    rule: str | None = None
    player: str | None = Field(default=None, description="a seat deciding out of turn")
    must: bool = Field(default=False, description="the choice cannot be declined")
    group: int | None = Field(default=None, ge=1, le=LIMIT, description=(
        "One of the grants made together to each of several players: the `id` of its "
        "entry in `turn.groups`."))


class GroupState(_Model):
    """Grants made together to each of several players (`grant A to each P`), some of them
    still to be answered: when the last is, what follows them runs."""

    id: int = Field(ge=1, le=LIMIT)
    grant: str = Field(description="`RULE#N`: the Nth `grant … to each` of that rule.")
    players: list[str] = Field(description=(
        "Every player granted the choice, in the order asked (those who have answered "
        "included)."))
    me: str = Field(description="Whose rule made the grants (`me` in what follows them).")
    then: list[str | Signed | bool | None] = Field(default_factory=list, description=(
        "The values the arguments of what follows (`then apply E(…)`) had when the grants "
        "were made."))


class PendingState(_Model):
    step: str
    trigger: str = Field(description="`RULE#N`: the Nth triggered declaration of that rule.")
    bindings: dict[str, str | Signed | None] = Field(default_factory=dict)
    player: str | None = Field(None, description=(
        "For a step each player takes: the seat whose part of the step it waits for (it "
        "runs when their part begins); omitted: it runs when the step begins."))


class TurnState(_Model):
    number: int = Field(1, ge=1, le=LIMIT)
    player: str
    step: str
    taken: int = Field(0, ge=0, le=LIMIT, description="Actions already taken in this step.")
    placed: str | None = Field(None, description="Cell of the tile laid this turn.")
    arrived: list[str] = Field(default_factory=list, description=(
        "Pieces put or moved to where they stand during this turn, as `kind@x,y:site` "
        "(what `it.arrived` reads)."))
    grants: list[GrantState] = Field(default_factory=list)
    groups: list[GroupState] | None = Field(None, description=(
        "Grants made together to several players that still wait for answers."))
    pending: list[PendingState] = Field(default_factory=list)
    waiting: list[str] | None = Field(None, description=(
        "In a step each player takes: the seats still to take it, in order, the first "
        "deciding now; omitted: the step is the active player's."))
    phase: Literal["step", "turn_end", "round_end"] | None = Field(None, description=(
        "`turn_end` / `round_end`: the turn's steps are over and a decision granted at the "
        "end of the turn or of the round is being made; omitted: `step`."))


class GameState(_Model):
    """The game as a whole: where the rounds stand and the declared game attributes."""

    round: int | None = Field(None, ge=1, le=LIMIT, description="The round being played, "
                                                              "from 1 (rulesets with rounds).")
    turn: int | None = Field(None, ge=1, le=LIMIT, description="The turn within the round, "
                                                             "from 1.")
    turns: int | None = Field(None, ge=1, le=LIMIT, description="How many turns this round "
                                                              "has.")
    attributes: dict[str, Value] = Field(
        default_factory=dict, description="Declared game attributes; players by seat id.")


class PositionModel(_Model):
    """A game position, as a table shows it."""

    format: Literal["rulebook-position"] = "rulebook-position"
    ruleset: str
    view: str | None = Field(default=None, description=(
        "Whose view of the table this is (a seat id): every card that player cannot see is "
        "null. Omitted: the whole table, as a judge sees it."))
    players: list[PlayerState]
    tiles: list[TileAt] = Field(default_factory=list)
    pieces: list[PieceAt] = Field(default_factory=list)
    areas: list[AreaState] = Field(default_factory=list)
    pool: dict[str, Count] | None = None
    stacks: list[list[str | None]] | None = None
    discarded: list[str] = Field(default_factory=list)
    zones: dict[str, list[list[str | None]] | dict[str, list[str | None] | list[list[str | None]]]] \
        | None = Field(default=None, description=(
            "The cards in each declared zone: a shared zone as a list of piles, a player's "
            "zone by seat; each pile top first; null is a card nobody at the table knows. "
            "Cards said to be nowhere are in the zone the cards start in, face down."))
    partial: bool | None = Field(default=None, description=(
        "true: the position shows only part of the table (a worked example, a test of one "
        "move): the cards it leaves unsaid are in the zone the cards start in, even those the "
        "set-up takes out of it. Omitted: a whole table, where every card the set-up put in "
        "play is somewhere (a zone, a board, or null for a card nobody knows)."))
    revealed: list[str] | None = Field(default=None, description=(
        "Zones turned face up until they next empty: `deck`, or `hand red` for a player's."))
    could_hold: dict[str, list[str] | dict[str, list[str]]] | None = Field(
        default=None, description=(
            "In a view: for each zone whose cards that player cannot see, the cards they "
            "could be (those the table cannot rule out there); a shared zone's as a list, a "
            "player's by seat. Omitted: a null card could be any card unaccounted for."))
    turn: TurnState
    game: GameState | None = None
    finished: bool = False


class PositionError(ValueError):
    """A position file that cannot be a real table, with every reason found."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{path}: {msg}" for path, msg in problems))


# ------------------------------------------------------------------ to state


def to_state(rules: Rules, model: PositionModel) -> State:
    """Build engine state from a position model, or raise `PositionError`."""
    builder = _Builder(rules, model)
    state = builder.build()
    if builder.problems:
        raise PositionError(builder.problems)
    if state.view is not None:  # a view shows what its seat may see, and never more
        from compiler.engine.views import view_state
        state = view_state(rules.game, state, state.view)
    return state


class _Builder:
    def __init__(self, rules: Rules, model: PositionModel) -> None:
        self.rules = rules
        self.game = rules.game
        self.m = model
        self.problems: list[tuple[str, str]] = []
        self.written: dict[tuple[Any, str], str] = {}  # (area, attribute): its JSON path

    def bad(self, path: str, msg: str) -> None:
        self.problems.append((path, msg))

    def cell(self, path: str, text: str, board: str | None = None) -> Any:
        """A cell; with a board per player, `seat/x,y` or `x,y` on `board`'s board."""
        g = self.game
        try:
            if not g.per_player:
                return read_cell(text)
            n = len(self.m.players)
            actor = g.seat_index(board, n) if board is not None else None
            if board is not None and actor is None:
                self.bad(path.rsplit(".", 1)[0] + ".board",
                         f"no seat {clip(board)!r} has a board (seats: "
                         f"{', '.join(g.seat_id(k) for k in range(n))})")
                return None
            return g.parse_cell(text, actor, n)
        except NotationError as e:
            self.bad(path, str(e))
            return None

    def piece(self, st: State, path: str, text: str, skip: list[int] | None = None) -> Any:
        """The piece written `kind@x,y:site`: the topmost of that kind there (passing over
        those in `skip`, already named), or None with the problem reported."""
        kind, at, where = text.partition("@")
        if not at:
            self.bad(path, f"write a piece as kind@x,y:site, not {clip(text)!r}")
            return None
        site = self.site(st, path, where)
        if site is None:
            return None
        pid = next((q for q in reversed(st.stack_of(site)) if st.pieces[q].kind == kind
                    and q not in (skip or ())), None)
        if pid is None:
            self.bad(path, f"there is no {clip(kind)} at {clip(where)}")
        return pid

    def site(self, st: State, path: str, text: str) -> Any:
        if ":" not in text:
            self.bad(path, f"{clip(text)!r} is not a site (write x,y:name, e.g. 1,0:lake)")
            return None
        c, name = text.split(":", 1)
        cell = self.cell(path, c)
        if cell is None:
            return None
        if cell not in st.board:
            self.bad(path, f"there is no tile at {c}")
            return None
        card, face, _ = st.board[cell]
        sites = self.game.catalogue.faces[(card, face)].sites
        if name not in sites:
            self.bad(path, f"{card} {face} has no site `{clip(name)}` (it has: {', '.join(sites)})")
            return None
        return (cell, name)

    def seat(self, path: str, name: str, n: int) -> int | None:
        i = self.game.seat_index(name, n)
        if i is None:
            known = [self.game.seat_id(k) for k in range(n)]
            hint = did_you_mean(name, known)
            self.bad(path, f"no seat {clip(name)!r} (seats: {', '.join(known)})"
                     + (f"; {hint}" if hint else ""))
        return i

    def value(self, path: str, type_: str, value: Any, n: int) -> tuple[bool, Any]:
        """An attribute's value read as its declared type: (ok, value)."""
        if value is None:
            return True, None
        if type_ == "player":
            if isinstance(value, str):
                seat = self.seat(path, value, n)
                return seat is not None, seat
            self.bad(path, f"expected a seat id, not {value!r}")
        elif type_ == "bool":
            if isinstance(value, bool):
                return True, value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return True, value.lower() == "true"
            self.bad(path, f"expected true or false, not {clip(str(value))!r}")
        else:
            if isinstance(value, int) and not isinstance(value, bool):
                return True, value
            if isinstance(value, str):
                try:
                    return True, read_number(value.strip(), "a whole number")
                except NotationError:
                    pass
            self.bad(path, f"expected a whole number, not {clip(str(value))!r}")
        return False, None

    def build(self) -> State:
        g, m, rs = self.game, self.m, self.rules.ruleset
        if m.ruleset.replace("-", "_") != rs.id:
            self.bad("ruleset", f"this position is for {m.ruleset!r}, not {rs.id!r}")
        n = len(m.players)
        if not rs.players_min <= n <= rs.players_max:
            self.bad("players", f"{n} players; the game takes {rs.player_counts}")
            n = max(min(n, rs.players_max), rs.players_min)
        st = State(n)
        seats = [p.seat for p in m.players]
        for i, s in enumerate(seats):
            if g.seat_index(s, n) != i:
                self.bad(f"players[{i}].seat", f"seat {s!r} is not seat {i + 1} of this game "
                         f"(seats in order: {', '.join(g.seat_id(k) for k in range(n))})")
        problem = g.seating_problem(n)
        if problem:
            self.bad("players", problem)
        self._tiles(st)
        self._pieces(st, n)
        self._resources(st, n)
        self._areas(st)
        self._stacks(st)
        zone_json.read(g, st, m.zones, m.revealed or [], self.bad)
        home = zone_play.start_zone(g)
        # `partial` means something only where unsaid cards go to a start zone.
        st.partial = bool(m.partial) and home is not None
        if not st.partial and not self.problems:  # a whole table: every card in play is on it
            lost = conservation.problem(self.rules, st, home is not None and home.id in
                                        (m.zones or {}))
            if lost is not None:
                self.bad(*lost)
        self._turn(st, n)
        self._view(st, n)
        zone_json.read_bounds(g, st, m.could_hold, self.bad)
        if not self.problems:
            self._given(st)
        st.finished = m.finished
        if not self.problems:  # each check below needs a position that holds together
            self._consistent(st, n)
            if st.finished:
                from compiler.engine.standings import Standings
                st.winners = Standings(g, st).winners()
        return st

    def _tiles(self, st: State) -> None:
        g = self.game
        placed: dict[Any, tuple[str, str, int, str]] = {}
        seen_cards: set[str] = set()
        # A printed card with copies may lie on the board as often as the game has
        # it: the count over board and zones is checked with the zones.
        printed = zone_json.copies(g)
        for i, t in enumerate(self.m.tiles):
            path = f"tiles[{i}]"
            if t.board is not None and not g.per_player:
                self.bad(f"{path}.board", "this game has one board that all players share: "
                                          "leave `board` out")
                continue
            cell = self.cell(f"{path}.at", t.at, t.board)
            if t.tile not in g.catalogue.card_faces:
                self.bad(f"{path}.tile", f"there is no tile {t.tile!r} in this game")
                continue
            if (t.tile, t.face) not in g.catalogue.faces:
                self.bad(f"{path}.face", f"{t.tile} has faces {', '.join(g.catalogue.card_faces[t.tile])}")
                continue
            if t.rotation >= g.lattice.rotations:
                self.bad(f"{path}.rotation", f"rotations go from 0 to {g.lattice.rotations - 1}")
                continue
            if t.tile in seen_cards and printed.get(t.tile, 1) == 1:
                self.bad(f"{path}.tile", f"{t.tile} is on the board twice")
            seen_cards.add(t.tile)
            if cell is None:
                continue
            if cell in placed:
                self.bad(f"{path}.at", f"two tiles at {t.at}")
                continue
            placed[cell] = (t.tile, t.face, t.rotation, path)
            self._tile_values(st, cell, t, path)
        if not placed:
            return
        # Lay tiles outward from the first, so areas build as in play; check each edge.
        if g.per_player:  # each board grows from its own origin
            starts = sorted({global_(board_of(c), g.first_cell) for c in placed})
            for o in starts:
                if o not in placed:
                    first = next(c for c in placed if board_of(c) == board_of(o))
                    self.bad(f"{placed[first][3]}.at",
                             f"{g.seat_id(board_of(o))}'s board has tiles but none at its "
                             f"origin {g.lattice.format_cell(g.first_cell)}, where its first "
                             f"tile goes")
            starts = [o for o in starts if o in placed] or [min(placed)]
        else:
            starts = [g.first_cell if g.first_cell in placed
                      else min(placed, key=lambda c: (c[1], c[0]))]
        order, seen, todo = [], set(starts), deque(starts)
        while todo:
            c = todo.popleft()
            order.append(c)
            for nb in g.lattice.neighbours(c):
                if nb in placed and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        for c in placed:
            if c not in seen:
                self.bad(f"{placed[c][3]}.at", f"the tile at {g.format_cell(c)} does not "
                                               f"touch the others")
        env = Env(g, st)
        from compiler.kernel.tiles import mismatches
        for c in order:
            card, face, rot, path = placed[c]
            bad = mismatches(g.catalogue, st.board, card, face, c, rot, g.match, g.format_cell)
            if bad:
                self.bad(path, "edges do not match: " + "; ".join(bad))
            st.own_geometry()
            st.board[c] = (card, face, rot)
            st.frontier.lay(g.lattice, st.board, g.catalogue, c)
            _, merges = st.areas.lay(g.lattice, st.board, g.catalogue, c)
        del env

    def _tile_values(self, st: State, cell: Any, t: TileAt, path: str) -> None:
        """What a laid tile holds and its own attributes."""
        g = self.game
        for res, amount in t.holds.items():
            if not amount:
                continue
            if res not in g.tile_holds:
                said = f"laid tiles hold {', '.join(sorted(g.tile_holds))}" if g.tile_holds \
                    else "no laid tile holds anything in this game"
                self.bad(f"{path}.holds", f"a tile cannot hold {clip(res)!r}: {said}")
            elif not g.holds(t.tile, t.face, res):
                self.bad(f"{path}.holds", f"{clip(t.tile)} ({t.face}) cannot hold {res}: only "
                                          f"cards whose kind says `holds {res}` do")
            elif amount:
                st.tile_res[cell] = {**st.tile_res.get(cell, {}), res: amount}
        for name, value in t.attributes.items():
            decl = g.tile_attr_decls.get(name)
            if decl is None:
                hint = did_you_mean(name, g.tile_attr_decls)
                self.bad(f"{path}.attributes", f"laid tiles have no attribute {clip(name)!r}"
                         + (f"; {hint}" if hint else ""))
                continue
            ok, value = self.value(f"{path}.attributes.{name}", decl.type, value,
                                   len(self.m.players))
            if ok and value is not None:
                st.tile_attrs[cell] = {**st.tile_attrs.get(cell, {}), name: value}

    def _pieces(self, st: State, n: int) -> None:
        g = self.game
        on_board: list[dict[str, int]] = [{} for _ in range(n)]
        for i, p in enumerate(self.m.pieces):
            path = f"pieces[{i}]"
            if g.category(p.kind) != "piece":
                kinds = [k.id for k in g.piece_kinds]
                self.bad(f"{path}.kind", f"no piece kind {p.kind!r} ({', '.join(kinds)})")
                continue
            owner = self.seat(f"{path}.owner", p.owner, n)
            site = self.site(st, f"{path}.at", p.at)
            if owner is None or site is None:
                continue
            below_kind = g.kinds[p.kind][1].on
            stack = st.stack_of(site)
            if below_kind is not None:
                top = st.pieces[stack[-1]] if stack else None
                # Partners build on each other's pieces (a team game); others never do.
                team = g.team_of(n, owner) or (owner,)
                if top is None or not g.is_a(top.kind, below_kind) or top.owner not in team:
                    whose = "its owner's" if len(team) == 1 else "its owner's or a partner's"
                    self.bad(path, f"a {g.title(p.kind)} stands only on {whose} "
                                   f"{g.title(below_kind)}; list that first")
            put(st, p.kind, owner, site, g, arriving=False)
            on_board[owner][p.kind] = on_board[owner].get(p.kind, 0) + 1
        setup = g.supply_table.rows.get(n, {}) if g.supply_table else {}
        for i, pl in enumerate(self.m.players[:n]):
            given = pl.supply or {}
            for kind in given:
                if g.category(kind) != "piece":
                    hint = did_you_mean(kind, [k.id for k in g.piece_kinds])
                    self.bad(f"players[{i}].supply.{kind}", f"no piece kind {clip(kind)!r}"
                             + (f"; {hint}" if hint else ""))
            supply = {}
            # Every kind the game gives, and any other on the board: a kind the file
            # leaves out of `supply` holds what the set-up gives minus what is on the board.
            for kind in sorted(set(setup) | set(on_board[i]) | set(given), key=str):
                if g.category(kind) != "piece":
                    continue
                total, placed = setup.get(kind, 0), on_board[i].get(kind, 0)
                if kind in given:
                    if kind in g.handed_kinds:
                        pass  # partners hand these to each other: counted per team below
                    elif given[kind] + placed != total:
                        self.bad(f"players[{i}].supply.{kind}",
                                 f"{given[kind]} in supply and {placed} on the board make "
                                 f"{given[kind] + placed}; the game gives {total}")
                    supply[kind] = given[kind]
                elif placed > total:
                    self.bad(f"players[{i}]", f"{g.seat_id(i)} has {placed} "
                                              f"{g.title(kind, placed != 1)} on the board; the "
                                              f"game gives {total}")
                    supply[kind] = 0
                elif kind in setup:
                    supply[kind] = total - placed
            st.supply[i] = supply
        for kind in sorted(g.handed_kinds):
            for team in dict.fromkeys(g.team_of(n, i) or (i,) for i in range(n)):
                held = sum(st.supply[i].get(kind, 0) + on_board[i].get(kind, 0) for i in team)
                if held != setup.get(kind, 0) * len(team):
                    names = " and ".join(g.seat_id(i) for i in team)
                    self.bad(f"players[{team[0]}].supply.{kind}",
                             f"{names} have {held} {g.title(kind, held != 1)} in supply and on the "
                             f"board; the game gives {setup.get(kind, 0) * len(team)}")

    def _resources(self, st: State, n: int) -> None:
        g = self.game
        for i, pl in enumerate(self.m.players[:n]):
            for res, amount in pl.resources.items():
                if g.category(res) != "resource":
                    self.bad(f"players[{i}].resources", f"no resource {res!r}")
                    continue
                st.player_res[i][res] = amount
            for name, value in pl.attributes.items():
                decl = g.player_attrs.get(name)
                path = f"players[{i}].attributes.{name}"
                if decl is None:
                    hint = did_you_mean(name, g.player_attrs)
                    self.bad(path, f"no player attribute {clip(name)!r}"
                             + (f"; {hint}" if hint else ""))
                    continue
                ok, value = self.value(path, decl.type, value, st.players)
                if ok:
                    st.player_attrs[i][name] = value
            if pl.hidden:
                from compiler.engine.simultaneous import read_hidden
                read_hidden(self, st, i, pl.hidden)

    def _areas(self, st: State) -> None:
        g = self.game
        for i, a in enumerate(self.m.areas):
            path = f"areas[{i}]"
            site = self.site(st, f"{path}.at", a.at)
            if site is None:
                continue
            root = g.site_area(st, site)
            kind = st.areas.kind(root)
            decl = g.kinds[kind][1]
            declared = {d.name: d.type for d in decl.attributes}
            attrs = dict(st.area_attrs.get(root, {}))
            for name, value in a.attributes.items():
                if name not in declared:
                    self.bad(f"{path}.attributes.{name}",
                             f"a {g.title(kind)} has no attribute {name!r}"
                             + (f" (it has: {', '.join(declared)})" if declared else ""))
                    continue
                ok, value = self.value(f"{path}.attributes.{name}", declared[name], value,
                                       st.players)
                if ok:
                    attrs[name] = value
                    self.written[(root, name)] = f"{path}.attributes.{name}"
            st.area_attrs[root] = attrs
            res = dict(st.area_res.get(root, {}))
            for r, amount in a.resources.items():
                if r not in decl.holds:
                    self.bad(f"{path}.resources.{r}", f"a {g.title(kind)} cannot hold {r!r}")
                    continue
                res[r] = amount
            st.area_res[root] = res
        for name in self.m.pool or {}:
            if name not in g.resources:
                hint = did_you_mean(name, g.resources)
                self.bad(f"pool.{name}", f"no resource {clip(name)!r}"
                         + (f"; {hint}" if hint else ""))
        for res in g.resources.values():
            if res.limit is None:
                continue
            held = sum(st.player_res[p].get(res.id, 0) for p in range(st.players)) + \
                sum(d.get(res.id, 0) for d in st.area_res.values()) + \
                sum(d.get(res.id, 0) for d in st.tile_res.values())
            if self.m.pool is not None and res.id in self.m.pool:
                st.pool[res.id] = self.m.pool[res.id]
                if held + self.m.pool[res.id] != res.limit:
                    self.bad(f"pool.{res.id}", f"{held} held plus {self.m.pool[res.id]} in {self.game.ruleset.pool} "
                                               f"is {held + self.m.pool[res.id]}; there are "
                                               f"{res.limit}")
            else:
                st.pool[res.id] = res.limit - held
                if held > res.limit:
                    self.bad("pool", f"{held} {g.title(res.id, True)} are held; there are only "
                                     f"{res.limit}")

    def _stacks(self, st: State) -> None:
        g = self.game
        on_board = {card for card, _, _ in st.board.values()}
        used = set(on_board) | set(self.m.discarded)
        seen: set[str] = set()
        for i, card in enumerate(self.m.discarded):
            if card not in g.catalogue.card_faces:
                hint = did_you_mean(card, g.catalogue.card_faces)
                self.bad(f"discarded[{i}]", f"there is no tile {clip(card)!r}"
                         + (f"; {hint}" if hint else ""))
            elif card in on_board:
                self.bad(f"discarded[{i}]", f"{card} is on the board; a tile is either laid or "
                                            f"discarded")
            elif card in seen:
                self.bad(f"discarded[{i}]", f"{card} is discarded twice")
            seen.add(card)
        zones.set_up(st, g.zones)
        zones.set_piles(st, SET_ASIDE, [self.m.discarded])
        remaining = [c for c in sorted(g.catalogue.card_faces) if c not in used]
        count = g.zones[STACKS[0]].piles
        if self.m.stacks is None and zone_json.zone_game(g):
            return  # no stacks: the cards not on the board are in the zones (zone_json.read)
        if self.m.stacks is None:
            zones.set_piles(st, STACKS, zones.split([None] * len(remaining), count))
            st.unknown = dict.fromkeys(remaining, 1)
            return
        if len(self.m.stacks) != count:
            self.bad("stacks", f"the game is played with {count} stack{'s' if count != 1 else ''}"
                               f" of tiles, not {len(self.m.stacks)} (an empty stack is [])")
        named: set[str] = set()
        for i, stack in enumerate(self.m.stacks):
            for j, card in enumerate(stack):
                if card is None:
                    continue
                if card not in g.catalogue.card_faces:
                    hint = did_you_mean(card, g.catalogue.card_faces)
                    self.bad(f"stacks[{i}][{j}]", f"there is no tile {clip(card)!r}"
                             + (f"; {hint}" if hint else ""))
                elif card in used or card in named:
                    where = "on the board" if card in on_board else "discarded" \
                        if card in self.m.discarded else "in the stacks already"
                    self.bad(f"stacks[{i}][{j}]", f"{card} is {where}")
                named.add(card)
        zones.set_piles(st, STACKS, [reversed(s) for s in self.m.stacks])
        st.unknown = {c: 1 for c in remaining if c not in named}
        hidden = sum(1 for s in self.m.stacks for c in s if c is None)
        if hidden > len(st.unknown):
            self.bad("stacks", f"{hidden} unknown tiles, but only {len(st.unknown)} tiles are "
                               f"unaccounted for")

    def _turn(self, st: State, n: int) -> None:
        g, t = self.game, self.m.turn
        active = self.seat("turn.player", t.player, n)
        if t.step not in g.step_index:
            self.bad("turn.step", f"no step {t.step!r} (steps: {', '.join(g.step_index)})")
        placed = None
        if t.placed is not None:
            placed = self.cell("turn.placed", t.placed)
            if placed is not None and placed not in st.board:
                self.bad("turn.placed", f"no tile at {t.placed}")
        grants = []
        for i, gr in enumerate(t.grants):
            for j, a in enumerate(gr.actions):
                if a not in g.actions:
                    hint = did_you_mean(a, g.actions)
                    self.bad(f"turn.grants[{i}].actions[{j}]", f"no action {clip(a)!r}"
                             + (f"; {hint}" if hint else ""))
            bindings: list[tuple[str, Any]] = []
            for k, v in gr.bindings.items():
                path = f"turn.grants[{i}].bindings.{k}"
                text = str(v)
                if "@" in text:  # a piece, written kind@x,y:site
                    pid = self.piece(st, path, text)
                    if pid is not None:
                        bindings.append((k, ("piece", pid)))
                elif ":" in text:  # an area, by one of its sites
                    site = self.site(st, path, text)
                    if site is not None:
                        root = g.site_area(st, site)
                        node = st.areas.nodes[root]
                        bindings.append((k, ("area", node.cell, node.segment)))
                elif text.lstrip("-").isascii() and text.lstrip("-").isdigit():
                    try:
                        bindings.append((k, read_number(text)))
                    except NotationError as e:
                        self.bad(path, str(e))
                else:  # a player, by seat
                    seat = self.seat(path, text, n)
                    if seat is not None:
                        bindings.append((k, ("player", seat)))
            player = (self.seat(f"turn.grants[{i}].player", gr.player, n)
                      if gr.player is not None else None)
            grants.append(Grant(tuple(gr.actions), gr.remaining, tuple(bindings), gr.rule,
                                player, gr.must, gr.group))
        pending = []
        for i, p in enumerate(t.pending):
            index = trigger_index(self.game, p.trigger)
            if index is None:
                self.bad(f"turn.pending[{i}].trigger", f"no triggered rule {p.trigger!r}")
                continue
            bindings = []
            for k, v in p.bindings.items():
                if isinstance(v, str) and ":" in v:
                    site = self.site(st, f"turn.pending[{i}].bindings.{k}", v)
                    if site is not None:
                        node = st.areas.nodes[g.site_area(st, site)]
                        bindings.append((k, ("area", node.cell, node.segment)))
                elif isinstance(v, str) and "," in v:  # a laid tile: `red/0,1`
                    cell = self.cell(f"turn.pending[{i}].bindings.{k}", v)
                    if cell is not None:
                        bindings.append((k, cell))
                elif isinstance(v, str):
                    seat = self.seat(f"turn.pending[{i}].bindings.{k}", v, n)
                    if seat is not None:
                        bindings.append((k, seat))
                else:
                    bindings.append((k, v))
            me = self.seat(f"turn.pending[{i}].player", p.player, n) \
                if p.player is not None else None
            pending.append(Pending(p.step, index, tuple(bindings), me))
        arrived: list[int] = []
        for i, text in enumerate(t.arrived):
            pid = self.piece(st, f"turn.arrived[{i}]", text, skip=arrived)
            if pid is not None:
                arrived.append(pid)
        st.turn = Turn(number=t.number, active=active or 0, step=g.step_index.get(t.step, 0),
                       taken=t.taken, grants=tuple(grants), placed=placed, pending=tuple(pending),
                       arrived=tuple(arrived))
        if t.groups is not None or any(gr.group is not None for gr in t.grants):
            from compiler.engine.simultaneous import read_groups
            read_groups(self, st, t.groups or [], n)
        self._turn_order(st, n)
        ids = [p.id for p in st.pieces.values()]
        st.next_id = max(ids, default=0) + 1
        if t.step in g.step_index:
            self._placed_tile(st, t.step, placed)

    def _view(self, st: State, n: int) -> None:
        """`view`: whose view of the table this is (its hidden cards are already null)."""
        if self.m.view is not None:
            st.view = self.seat("view", self.m.view, n)

    def _turn_order(self, st: State, n: int) -> None:
        """`turn.waiting`, `turn.phase` and the `game` block: who is still to take a step each
        player takes, whether the end of the turn waits for a decision, the rounds and the
        game's attributes."""
        from compiler.engine.rounds import read_game_block
        read_game_block(self, st, n)

    def _given(self, st: State) -> None:
        """Attributes declared `given as`: taken from the board where the file is silent, and
        checked against it where the file speaks, except for an area that still has a
        triggered rule pending this turn (it is being settled: the file says how far)."""
        from compiler.engine.effects import from_ref
        g = self.game
        derived = [(k.id, a) for k in g.area_kinds for a in k.attributes if a.given is not None]
        if not derived:
            return
        busy = {st.areas.find(from_ref(st, v)) for p in st.turn.pending for _, v in p.bindings
                if isinstance(v, tuple) and v and v[0] == "area"}
        env = Env(g, st)
        env.me = st.turn.active
        for kind_id, a in derived:
            fn = g.expr(a.given)
            for root in st.areas.roots():
                if st.areas.kind(root) != kind_id or root in busy:
                    continue
                env.vars = {"it": root}
                try:
                    value = fn(env)
                except RuleError:
                    continue
                path = self.written.get((root, a.name))
                attrs = st.area_attrs.get(root, {})
                if path is not None:
                    if attrs.get(a.name) != value:
                        self.bad(path, f"{a.name} of {g.describe_area(st, root)} follows from "
                                       f"the board ({self.rules.english(a.given)}), which makes "
                                       f"it {_shown(value)}, not {_shown(attrs.get(a.name))}; "
                                       f"leave it out, or list the rule still pending for the "
                                       f"area in turn.pending")
                elif value != g.attribute_default(kind_id, a.name):
                    st.area_attrs[root] = {**attrs, a.name: value}

    def _placed_tile(self, st: State, step: str, placed: Any) -> None:
        """`turn.placed` agrees with the step: given once the turn's tile is laid, if the
        step's actions need it, and not given before the step that lays it."""
        g = self.game
        laying = [i for i, s in enumerate(g.steps) if any(lays_tile(g.actions[a])
                                                          for a in (*s.actions, *s.also))]
        if not laying:
            return
        now, first = g.step_index[step], laying[0]
        if placed is not None and now < first:
            self.bad("turn.placed", f"no tile is laid yet in step “{g.steps[now].title}”: the "
                                    f"turn's tile comes in step “{g.steps[first].title}”")
        if placed is None and now > first and zones.size(st, STACKS) + len(st.board) > 0:
            needing = sorted(g.actions[a].decl.title for a in (*g.steps[now].actions,
                                                                *g.steps[now].also)
                             if mentions_builtin(g.actions[a].decl, "placed"))
            if needing:
                named = ", ".join(needing[:3]) + (f" and {len(needing) - 3} more"
                                                  if len(needing) > 3 else "")
                self.bad("turn.placed", f"in step “{g.steps[now].title}” the tile laid this "
                                        f"turn must be given, as its cell (in a worked example: "
                                        f"`placed x,y` on the turn line): {named} "
                                        f"need{'s' if len(needing) == 1 else ''} it")

    def _consistent(self, st: State, n: int) -> None:
        """What no table can show: two pieces where a prohibition allows one, a finished
        game whose end has not come."""
        g, m = self.game, self.m
        env = Env(g, st)
        env.me = st.turn.active
        paths = {}
        for i, p in enumerate(m.pieces):
            paths.setdefault(p.at, []).append(f"pieces[{i}]")
        reported: set[tuple[str | None, Any]] = set()
        for pid, piece in sorted(st.pieces.items()):
            site = (piece.cell, piece.site)
            for f in g.forbids:
                if f.actions or not (f.decl.kind == "piece" or g.is_a(piece.kind, f.decl.kind)):
                    continue  # only a prohibition on every way of entering says what cannot be
                key = (f.rule, g.site_area(st, site) if f.rule else site)
                if key in reported:
                    continue
                # The site itself forbids the piece (its tile alone, nothing else laid), or
                # the pieces around it do. A board that changed later (a tile laid beside
                # it) may have made entering impossible since, which is no contradiction.
                own = _forbids(g, st, f, pid, others=False, tiles=False)
                crowded = not own and _forbids(g, st, f, pid, others=True, tiles=True) and \
                    not _forbids(g, st, f, pid, others=False, tiles=True)
                if own or crowded:
                    reported.add(key)
                    rule = g.rules.get(f.rule) if f.rule else None
                    said = f.decl.message or (f"rule {rule.number} “{rule.title}”" if rule
                                              else "a prohibition")
                    where = g.format_site(site)
                    path = paths.get(where, ["pieces"])[-1]
                    why = "" if own else " with the pieces around it"
                    self.bad(path, f"the {g.title(piece.kind)} of {g.seat_id(piece.owner)} "
                                   f"cannot be at {where}{why}: {said}")
        if m.finished and g.end_cond is not None:
            try:
                over = bool(g.end_cond(env))
            except RuleError:
                over = True
            if not over:
                rule = g.rules.get(g.end_rule) if g.end_rule else None
                self.bad("finished", "the game is not over yet"
                         + (f": by rule {rule.number} “{rule.title}” it goes on"
                            if rule else ""))


def _shown(value: Any) -> str:
    return "true" if value is True else "false" if value is False else \
        "none" if value is None else str(value)


def _forbids(game: Any, st: State, f: Any, pid: int, others: bool, tiles: bool) -> bool:
    """Whether prohibition `f` would stop piece `pid` entering the site it stands on, with
    the other pieces where they are (or none) and the other tiles laid (or only its own)."""
    trial = st.clone()
    piece = trial.pieces.pop(pid)
    site = (piece.cell, piece.site)
    if not tiles:
        trial.board = {piece.cell: st.board[piece.cell]}
    if not others:
        trial.pieces, trial.stacks_at = {}, {}
    else:
        trial.stacks_at[site] = tuple(q for q in trial.stacks_at.get(site, ()) if q != pid)
    trial.gone[pid] = piece
    env = Env(game, trial)
    env.me = piece.owner
    env.vars = {f.decl.site_var: site}
    if f.decl.piece_var:
        env.vars[f.decl.piece_var] = pid
    try:
        return bool(f.cond(env))
    except RuleError:
        return False


def lays_tile(action: Any) -> bool:
    """Whether an action lays a tile (a `fits` placement or a `lay` statement)."""
    return action.placement is not None or _has_node(action.decl.effects, "lay")


def mentions_builtin(node: Any, name: str) -> bool:
    """Whether an IR subtree reads the built-in `name` (say, `placed`)."""
    from compiler.ir import nodes as nd
    if isinstance(node, nd.Name):
        return node.ref == "builtin" and node.id == name
    if isinstance(node, (list, tuple)):
        return any(mentions_builtin(x, name) for x in node)
    if isinstance(node, BaseModel):
        return any(mentions_builtin(getattr(node, k), name) for k in type(node).model_fields
                   if k != "loc")
    return False


def _has_node(node: Any, kind: str) -> bool:
    if isinstance(node, (list, tuple)):
        return any(_has_node(x, kind) for x in node)
    if isinstance(node, BaseModel):
        if getattr(node, "node", None) == kind:
            return True
        return any(_has_node(getattr(node, k), kind) for k in type(node).model_fields
                   if k != "loc")
    return False


def trigger_name(game: Any, index: int) -> str:
    trig = game.triggers[index]
    same = [t for t in game.triggers if t.rule == trig.rule]
    return f"{trig.rule}#{same.index(trig) + 1}"


def trigger_index(game: Any, name: str) -> int | None:
    for i in range(len(game.triggers)):
        if trigger_name(game, i) == name:
            return i
    return None


# ----------------------------------------------------------------- from state


def _binding_text(g: Any, st: State, v: Any) -> str:
    """A grant's fixed value as a position writes it (read back by `_turn`)."""
    from compiler.engine.effects import from_ref
    if isinstance(v, tuple) and v and v[0] == "area":
        return g.format_area(st, from_ref(st, v))
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "piece":
        return g.format_piece(st, v[1])
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "player":
        return g.seat_id(v[1])
    return str(v)


def _groups(g: Any, st: State) -> list[GroupState] | None:
    from compiler.engine.simultaneous import write_groups
    return write_groups(g, st) if st.turn.groups else None


def _tile_attributes(g: Any, st: State, cell: Any) -> dict[str, Any]:
    """A laid tile's own attributes as a position writes them (defaults left out)."""
    out = {}
    for k, v in st.tile_attrs.get(cell, {}).items():
        decl = g.tile_attr_decls.get(k)
        if v is None or decl is None or (v == {"bool": False, "int": 0}.get(decl.type)
                                         and not decl.recorded):  # recorded: 0 is known
            continue
        out[k] = g.seat_id(v) if decl.type == "player" else v
    return out


def from_state(rules: Rules, st: State) -> PositionModel:
    g = rules.game
    fmt = g.lattice.format_cell
    def shown(name: str, v: Any) -> Any:
        decl = g.player_attrs.get(name)
        return g.seat_id(v) if decl is not None and decl.type == "player" and v is not None else v

    players = [PlayerState(seat=g.seat_id(i), supply=dict(st.supply[i]),
                           resources={k: v for k, v in st.player_res[i].items()},
                           attributes={k: shown(k, v) for k, v in st.player_attrs[i].items()
                                       if v is not None and v != g.player_default(k)},
                           hidden=sorted(a for p, a in st.hidden_attrs if p == i) or None)
               for i in range(st.players)]
    if g.per_player:
        tiles = [TileAt(board=g.seat_id(board_of(c)), at=g.lattice.format_cell(local(c)),
                        tile=card, face=face, rotation=rot,
                        holds={k: v for k, v in st.tile_res.get(c, {}).items() if v},
                        attributes=_tile_attributes(g, st, c))
                 for c, (card, face, rot) in sorted(
                     st.board.items(), key=lambda kv: (board_of(kv[0]), kv[0][1], kv[0][0]))]
        fmt = g.format_cell
    else:
        tiles = [TileAt(at=fmt(c), tile=card, face=face, rotation=rot)
                 for c, (card, face, rot) in sorted(st.board.items(),
                                                    key=lambda kv: (kv[0][1], kv[0][0]))]
    pieces = []
    for site, stack in sorted(st.stacks_at.items(), key=lambda kv: (kv[0][0][1], kv[0][0][0], kv[0][1])):
        for pid in stack:
            p = st.pieces[pid]
            pieces.append(PieceAt(kind=p.kind, owner=g.seat_id(p.owner), at=g.format_site(site)))
    areas = []
    for root in g.sorted_areas(st, set(st.area_attrs) | set(st.area_res)):
        attrs = {}
        kind = st.areas.kind(root)
        types = {a.name: a.type for a in g.kinds[kind][1].attributes}
        for k, v in st.area_attrs.get(root, {}).items():
            if v is None or v == g.attribute_default(kind, k):
                continue
            attrs[k] = g.seat_id(v) if types.get(k) == "player" else v
        res = {k: v for k, v in st.area_res.get(root, {}).items() if v}
        if attrs or res:
            areas.append(AreaState(at=g.format_area(st, root), attributes=attrs, resources=res))
    from compiler.engine.effects import from_ref
    grants = [GrantState(actions=list(gr.actions), remaining=gr.remaining, rule=gr.rule,
                         bindings={k: _binding_text(g, st, v) for k, v in gr.bindings},
                         player=g.seat_id(gr.player) if gr.player is not None else None,
                         must=gr.must, group=gr.group)
              for gr in st.turn.grants]
    pending = []
    for p in st.turn.pending:
        b: dict[str, str | int | None] = {}
        for k, v in p.bindings:
            if isinstance(v, tuple) and v and v[0] == "area":
                b[k] = g.format_area(st, from_ref(st, v))
            elif isinstance(v, int):
                b[k] = g.seat_id(v)
            elif isinstance(v, tuple) and len(v) == 2:  # a laid tile, by its cell
                b[k] = fmt(v)
            else:
                b[k] = v
        pending.append(PendingState(step=p.step, trigger=trigger_name(g, p.trigger), bindings=b,
                                    player=g.seat_id(p.me) if p.me is not None else None))
    t = st.turn
    turn = TurnState(number=t.number, player=g.seat_id(t.active), step=g.steps[t.step].id,
                     taken=t.taken, placed=fmt(t.placed) if t.placed else None, grants=grants,
                     groups=_groups(g, st),
                     pending=pending,
                     arrived=[g.format_piece(st, pid) for pid in t.arrived if pid in st.pieces],
                     waiting=[g.seat_id(p) for p in t.queue] if t.queue else None,
                     phase=t.phase if t.phase != "step" else None)  # type: ignore[arg-type]
    from compiler.engine.rounds import game_block
    stacks = [list(reversed(s)) for s in zones.piles(st, STACKS)]
    pool = {k: v for k, v in st.pool.items() if k in g.resources and
            g.resources[k].limit is not None}  # an unlimited resource has no pool to count
    held, revealed = zone_json.write(g, st)
    view = g.seat_id(st.view) if st.view is not None else None
    return PositionModel(ruleset=rules.ruleset.id, view=view, players=players, tiles=tiles,
                         pieces=pieces,
                         areas=areas, pool=pool, stacks=stacks,
                         discarded=st.discarded, zones=held, revealed=revealed or None,
                         could_hold=zone_json.write_bounds(g, st),
                         turn=turn, game=game_block(g, st),
                         finished=st.finished, partial=True if st.partial else None)


def position_from_model(rules: Rules, model: PositionModel) -> Position:
    from compiler.engine.position import Position
    seats = [p.seat for p in model.players]
    declared = [s.id for s in rules.ruleset.seats]
    if seats != declared[:len(seats)] and all(s in declared for s in seats) \
            and len(set(seats)) == len(seats):
        rules = rules.seated(seats)  # the table seats other seats than the first ones
    return Position(rules, to_state(rules, model))


def position_schema() -> dict[str, Any]:
    """The JSON Schema of position files, as published in the rulebook."""
    schema = PositionModel.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Position"
    return schema
