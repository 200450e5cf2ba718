"""A ruleset compiled for play: the tables and closures the engine runs on.

`Game` is built once per ruleset from the checked IR. It knows nothing a
ruleset did not declare; the words it prints (piece names, seat names) come
from the ruleset too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compiler.engine.audit import compile_audits
from compiler.engine.cards import NEUTRAL, CardTable
from compiler.engine.evaluate import ExprCompiler, Fn
from compiler.engine.state import State
from compiler.engine.zones import zone_table
from compiler.ir import model as m
from compiler.kernel.areas import Node
from compiler.kernel.boards import REACH, SPAN, board_of, global_, local, too_wide
from compiler.kernel.lattice import LATTICES, Cell, Lattice
from compiler.kernel.tiles import Catalogue, Matcher, SiteInfo, fits_labels


def _fill(phrase: str, value: Any, game: Game) -> str:
    """A phrase with its value, the noun after a 1 in the singular ("owed 1 pawn")."""
    text = phrase.replace("{value}", str(value))
    if value == 1 and "{value} " in phrase:
        after = phrase.split("{value} ", 1)[1]
        singular = {d[1].plural or d[1].title + "s": d[1].title for d in game.kinds.values()
                    if getattr(d[1], "title", None)}
        known = next((p for p in sorted(singular, key=len, reverse=True)
                      if after == p or after.startswith(p + " ")), None)
        if known is not None:
            word, one = known, singular[known]
        else:
            word = after.split(" ", 1)[0]
            # "1 points" → "1 point", but "1 this turn", "1 bonus", "1 gas" stay.
            plural = word.isalpha() and word.endswith("s") and \
                not word.endswith(("ss", "is", "us", "as"))
            one = word[:-1] if plural else word
        text = text.replace(f"1 {word}", f"1 {one}", 1)
    return text


def _no_longer(said: str) -> str:
    """"is settled" → "is no longer settled"; "may still roll" → "may no longer roll"."""
    head, _, rest = said.partition(" ")
    if head in ("is", "are", "was", "were"):
        return f"{head} no longer {rest}"
    if head in ("may", "can", "must", "will", "should"):
        return f"{head} no longer {rest.removeprefix('still ')}"
    return f"no longer {said}"


@dataclass
class CompiledTrigger:
    index: int
    decl: m.Trigger
    where: Fn | None
    body: Any  # compiled statements (see effects)
    rule: str | None


class Game:
    def __init__(self, ruleset: m.Ruleset, seating: tuple[str, ...] | None = None) -> None:
        from compiler.engine.actions import compile_action, compile_forbid
        from compiler.engine.effects import StmtCompiler

        self.ruleset = ruleset
        decls = ruleset.all_decls()
        self.decls = decls
        self._attribute_defaults: dict[tuple[str, str], Any] = {}  # see attribute_default
        lattice_name = next((d.name for d in decls if isinstance(d, m.LatticeDecl)), "triangle")
        self.lattice: Lattice = LATTICES[lattice_name]
        # Cards are tiles too: a card without faces of its own is laid by `front` or `down`.
        self.cards = CardTable(ruleset)
        self.catalogue = Catalogue(ruleset.tiles() + self.cards.tiles(self.lattice.sides),
                                   self.lattice)
        self.cards.mark_features(self.catalogue)
        # Which tile set each tile comes from, for stacks dealt from some sets only.
        self.tile_set: dict[str, str] = {t.id: s.id for s in ruleset.tilesets for t in s.tiles}
        # The rule that brings each tile into the game (its set's `use tiles`): a
        # tile laid cites it.
        self.tile_rules: dict[str, str] = {}
        sets = {s.id: s for s in ruleset.tilesets}
        for d in decls:
            if isinstance(d, m.UseTiles) and d.rule:
                for ts in d.tilesets:
                    for t in sets[ts].tiles if ts in sets else ():
                        self.tile_rules.setdefault(t.id, d.rule)
        match = next((d for d in decls if isinstance(d, m.MatchDecl)), None)
        pairs = list(match.pairs) if match else []
        if self.cards.cards:  # the neutral edges of cards meet each other, whatever the table
            pairs.append((NEUTRAL, NEUTRAL))
        self.match = Matcher(match.same if match else True, pairs)
        # The rotations of each face that fit each edge pattern (by face, then pattern;
        # faces alike share theirs), learnt while moves are listed (kernel/tiles.placements):
        # catalogue and matcher never change.
        self.fitting: dict[Any, dict[Any, tuple[int, ...]]] = {}
        self.kinds: dict[str, tuple[str, Any]] = {}
        for d in decls:
            if isinstance(d, m.FeatureKind):
                self.kinds[d.id] = ("feature", d)
            elif isinstance(d, m.AreaKind):
                self.kinds[d.id] = ("area", d)
            elif isinstance(d, m.PieceKind):
                self.kinds[d.id] = ("piece", d)
            elif isinstance(d, m.ResourceKind):
                self.kinds[d.id] = ("resource", d)
        self.area_kinds = [d for d in decls if isinstance(d, m.AreaKind)]
        self.area_order = {a.id: i for i, a in enumerate(self.area_kinds)}
        self.piece_kinds = [d for d in decls if isinstance(d, m.PieceKind)]
        # The kinds each piece kind counts as: itself, and along `counts as`.
        parent = {d.id: d.counts_as for d in self.piece_kinds}
        self.piece_is: dict[str, frozenset[str]] = {}
        for d in self.piece_kinds:
            chain, k = [], d.id
            while k is not None and k not in chain:
                chain.append(k)
                k = parent.get(k)
            self.piece_is[d.id] = frozenset(chain)
        # The kinds that must stand above each kind on a shared site (`above`).
        self.stands_over: dict[str, frozenset[str]] = {
            k: frozenset(d.id for d in self.piece_kinds
                         if any(a in self.piece_is[k] for a in d.above))
            for k in self.piece_is}
        self.resources = {d.id: d for d in decls if isinstance(d, m.ResourceKind)}
        self.families = {d.id: d.members for d in decls if isinstance(d, m.FamilyDecl)}
        for d in decls:
            if isinstance(d, m.FamilyDecl):
                self.kinds[d.id] = ("family", d)
        self.player_attrs = {d.attribute.name: d.attribute for d in decls
                             if isinstance(d, m.PlayerAttribute)}
        self.score = next((d.resource for d in decls if isinstance(d, m.ScoreDecl)), "points")
        self.supply_table = next((d for d in decls if isinstance(d, m.SupplyTable)), None)
        # The zones by index (the legacy stacks first), and `stacks N …` if written.
        self.zones, self.stacks_zone = zone_table(decls)
        self.teams_decl = next((d for d in decls if isinstance(d, m.TeamsDecl)), None)
        # `team_of` by (players, player): asked for every piece a team rule tests, and the
        # seats and teams never change once the game is made.
        self._teams: dict[tuple[int, int], tuple[int, ...]] = {}
        first = next((d for d in decls if isinstance(d, m.FirstTileDecl)), None)
        self.first_cell: Cell = first.cell if first else (0, 0)
        # A board per player (`board NAME "…" each player`): kernel/boards.py embeds
        # them side by side in one plane; `format_cell`/`parse_cell` translate.
        self.board_decl = next((d for d in decls if isinstance(d, m.BoardDecl)), None)
        self.per_player = self.board_decl is not None
        # What laid tiles may hold, and the attributes each laid tile has of its own
        # (from card kinds: `holds R`, `attribute a: T`), kept in st.tile_res / tile_attrs.
        self.tile_holds: frozenset[str] = frozenset(
            {r for k in self.cards.kinds.values() for r in k.holds}
            | {r for card in ruleset.cards() for r in card.holds})
        self.tile_attr_decls: dict[str, m.AttributeDecl] = {
            a.name: a for k in self.cards.kinds.values() for a in k.attributes}
        # A card laid in play starts with its `recorded` attributes at their defaults
        # (a position may leave them out, and then they are unknown).
        self.tile_recorded: dict[str, Any] = {
            a.name: {"bool": False, "int": 0}.get(a.type) for a in self.tile_attr_decls.values()
            if a.recorded}
        self.steps = [d for d in decls if isinstance(d, m.StepDecl)]
        self.step_index = {s.id: i for i, s in enumerate(self.steps)}
        # Each step's own actions as the turn offers them, made once (turns._step_offers).
        self.step_offers: dict[int, list[Any]] = {}
        # The attributes reset at the end of every turn: of areas, of players, of the game
        # (found on the first turn's end, turns._turn_resets).
        self.turn_resets: tuple[frozenset[str], frozenset[str], tuple[str, ...]] | None = None
        # Who sits where: by default the first seats declared; a table may seat
        # any of them, in playing order (`seating`, by seat id).
        if seating:
            by_id = {s.id: s for s in ruleset.seats}
            self.seats = [by_id[s] for s in seating] + [s for s in ruleset.seats
                                                        if s.id not in seating]
        else:
            self.seats = ruleset.seats
        self.looks: dict[str, tuple[str, str]] = {
            d.target: (d.shape, d.color) for d in decls if isinstance(d, m.Look)}
        self.rules = ruleset.rule_index()

        # Piece kinds the rules hand from one player's supply to another's (`give`).
        self.handed_kinds: set[str] = set()
        # Every `grant … to each` compiled, in order: a group of grants names its own by
        # index, so that what follows the last choice runs (engine/simultaneous.py).
        self.grant_eachs: list[Any] = []
        self.expr = ExprCompiler(self)
        self.stmt = StmtCompiler(self)
        from compiler.engine.rounds import TurnRules
        self.turn_rules = TurnRules(self, decls)  # before any rule that reads `game.…`
        self.defines: dict[str, tuple[Fn, list[str]]] = {}
        # Conditions, by name, with the rule a ruling cites when one holds.
        self.conditions: dict[str, str | None] = {
            d.id: d.rule for d in decls if isinstance(d, m.Define) and d.cited}
        for d in decls:
            if isinstance(d, m.Define):
                self.defines[d.id] = (self.expr(d.expr), d.params)
        # Effects may apply each other, so each body is looked up when applied.
        self.effects: dict[str, tuple[Any, list[str]]] = {}
        for d in decls:
            if isinstance(d, m.Effect):
                self.effects[d.id] = (self.stmt.block(d.body), d.params)

        # Audits, by name (`faulty` reads them when it runs, so any rule may use any audit).
        self.audits = compile_audits(self, decls)
        self.actions = {d.id: compile_action(self, d) for d in decls if isinstance(d, m.Action)}
        self.forbids = [compile_forbid(self, d) for d in decls if isinstance(d, m.Forbid)]
        self.triggers: list[CompiledTrigger] = []
        for d in decls:
            if isinstance(d, m.Trigger):
                self.triggers.append(CompiledTrigger(
                    index=len(self.triggers), decl=d,
                    where=self.expr(d.where) if d.where is not None else None,
                    body=self.stmt.block(d.body), rule=d.rule))
        # The triggers of each moment (`at the start of step X`, …), in declaration order:
        # the engine asks at every step's start and end; and of each other event (a piece
        # enters, an area closes, …), asked at every such event.
        self.at_moment: dict[tuple[str, str, str | None], list[CompiledTrigger]] = {}
        self.on_event: dict[str, list[CompiledTrigger]] = {}
        for trig in self.triggers:
            ev = trig.decl.event
            self.on_event.setdefault(ev.type, []).append(trig)
            if ev.type == "moment":
                which = ev.step if ev.target == "step" else ev.round if ev.target == "round" \
                    else None
                self.at_moment.setdefault((ev.moment, ev.target, which), []).append(trig)
        self.on_event = {k: in_order(v) for k, v in self.on_event.items()}
        self.at_moment = {k: in_order(v) for k, v in self.at_moment.items()}
        # The triggers of an event that a piece or an area of one kind can set off, by
        # (event, kind), in the order of `on_event`: found at the first such event
        # (effects.triggers_for), not by testing every trigger's kind at each one.
        self.event_triggers: dict[tuple[str, str], tuple[CompiledTrigger, ...]] = {}
        end = next((d for d in decls if isinstance(d, m.EndDecl)), None)
        self.end_rule = end.rule if end else None
        self.end_cond: Fn | None = self.expr(end.cond) if end else None
        winner = next((d for d in decls if isinstance(d, m.WinnerDecl)), None)
        self.winner_rule = winner.rule if winner else None
        self.winner_terms: list[m.Tiebreak] = list(winner.order) if winner else []
        self.winner_order: list[tuple[str, Fn]] = (
            [(t.direction, self.expr(t.expr)) for t in winner.order] if winner else [])

    # ------------------------------------------------------------ kinds

    def category(self, kind: str) -> str | None:
        entry = self.kinds.get(kind)
        return entry[0] if entry else None

    def title(self, kind: str, plural: bool = False) -> str:
        entry = self.kinds.get(kind)
        if entry is None:
            return kind
        decl = entry[1]
        if plural:
            return decl.plural or decl.title + "s"
        return decl.title

    def attribute_default(self, area_kind: str, name: str) -> Any:
        """What an area's attribute reads before it is set (found once per kind and name:
        rules read it of every area, again and again)."""
        key = (area_kind, name)
        try:
            return self._attribute_defaults[key]
        except KeyError:
            pass
        decl = self.kinds[area_kind][1]
        found = next(({"player": None, "bool": False, "int": 0}[a.type]
                      for a in decl.attributes if a.name == name), None)
        self._attribute_defaults[key] = found
        return found

    def is_a(self, piece_kind: str, kind: str) -> bool:
        """Whether a piece of `piece_kind` counts as `kind` (itself or along `counts as`)."""
        return kind in self.piece_is.get(piece_kind, (piece_kind,))

    def player_default(self, name: str) -> Any:
        a = self.player_attrs.get(name)
        return None if a is None else {"player": None, "bool": False, "int": 0}[a.type]

    def describe_game_attribute(self, name: str, value: Any, *, cleared: bool = False
                                ) -> str | None:
        """"now plays clockwise", "no longer …": how a change of the game reads after "the
        game". None when clearing changes nothing a reader sees."""
        return self._describe(self.turn_rules.game_attrs.get(name), name, value, cleared,
                              verb="")

    def describe_player_attribute(self, name: str, value: Any, *, cleared: bool = False
                                  ) -> str | None:
        """"has a battle bonus of 3", "no longer has …": how a player's change reads
        after the player's name. None when clearing changes nothing a reader sees."""
        return self._describe(self.player_attrs.get(name), name, value, cleared, verb="")

    def attribute(self, area_kind: str, name: str) -> m.AttributeDecl | None:
        decl = self.kinds[area_kind][1]
        return next((a for a in decl.attributes if a.name == name), None)

    def describe_attribute(self, area_kind: str, name: str, value: Any, *, cleared: bool = False
                           ) -> str | None:
        """"is now controlled by Xemh", "is no longer settled": how an area's change reads
        after the area. None when clearing changes nothing a reader sees."""
        return self._describe(self.attribute(area_kind, name), name, value, cleared, verb="is")

    def describe_card_attribute(self, name: str, value: Any) -> str | None:
        """A laid card's attribute in its declared phrase ("has brought 1 point"); None
        without a phrase (or without a value)."""
        decl = self.tile_attr_decls.get(name)
        if decl is None or decl.phrase is None:
            return None
        return self._describe(decl, name, value, False, verb="")

    def _describe(self, decl: Any, name: str, value: Any, cleared: bool, *, verb: str
                  ) -> str | None:
        """An attribute's change in the words of its declared phrase, or plain words without one.

        `value` is the new value, or for `cleared` the value taken away. A value
        never reads as a program would print it: a player by name, a number
        with its noun agreeing ("owed 1 pawn"), nothing at all as "no longer".
        """
        kind = decl.type if decl is not None else None
        default = {"player": None, "bool": False, "int": 0}.get(kind or "", None)
        if value is None or (cleared and value == default):
            return None  # it held nothing (or is set to nothing): nothing a reader sees
        shown = self.seat_name(value) if kind == "player" and value is not None else value
        if decl is None or decl.phrase is None:
            word = name.replace("_", " ")
            said = f"{verb or 'has'} {word} {shown}" if kind != "bool" else f"{verb or 'is'} {word}"
        else:
            said = f"{verb} {_fill(decl.phrase, shown, self)}".strip()
        if cleared or (kind == "bool" and not value):
            return _no_longer(said)
        return f"{verb} now {said[len(verb):].strip()}" if verb else said

    def fill(self, phrase: str, value: Any) -> str:
        """A declared phrase with its value, the noun after a 1 in the singular ("costs 1
        coin" from "costs {value} coins")."""
        return _fill(phrase, value, self)

    def area_holds(self, area_kind: str, resource: str) -> bool:
        return resource in self.kinds[area_kind][1].holds

    def team_of(self, players: int, player: int | None) -> tuple[int, ...]:
        """The seats of `player`'s team, in seat order (just the player without teams)."""
        if player is None:
            return ()
        key = (players, player)
        team = self._teams.get(key)
        if team is None:
            team = self._teams[key] = self._team_of(players, player)
        return team

    def _team_of(self, players: int, player: int) -> tuple[int, ...]:
        """`team_of` worked out from the teams declaration and the seats."""
        row = self.teams_decl.rows.get(players) if self.teams_decl else None
        if row:
            me = self.seat_id(player)
            for team in row:
                if me in team:
                    found = [self.seat_index(s, players) for s in team]
                    return tuple(sorted(i for i in found if i is not None))
        return (player,)

    def team_seating(self, players: int) -> tuple[str, ...] | None:
        """The seats of a team game in playing order, or None without teams for `players`.

        Teams take turns: the first seat of each team in the order the row
        lists them, then the second seat of each, and so on.
        """
        row = self.teams_decl.rows.get(players) if self.teams_decl else None
        if not row:
            return None
        longest = max(len(team) for team in row)
        return tuple(team[i] for i in range(longest) for team in row if i < len(team))

    def seating_problem(self, players: int) -> str | None:
        """Why the table's seats cannot play this team game, or None when they can.

        Every seat must belong to one of the teams declared for this number of
        players, and the teams must take turns: seats that far apart in playing
        order (as many seats as there are teams) are partners.
        """
        row = self.teams_decl.rows.get(players) if self.teams_decl else None
        if not row:
            return None
        team_of = {s: i for i, team in enumerate(row) for s in team}
        seats = [self.seat_id(i) for i in range(players)]
        teams = " against ".join(" and ".join(team) for team in row)
        order = f"the teams are {teams}, seated in turn: {', '.join(self.team_seating(players) or ())}"
        strays = [s for s in seats if s not in team_of]
        if strays:
            return f"{strays[0]} has no team in a game of {players} ({order})"
        period = len(row)
        for i in range(period):
            for j in range(i):
                if team_of[seats[i]] == team_of[seats[j]]:
                    return (f"seats {j + 1} and {i + 1} ({seats[j]}, {seats[i]}) are partners, "
                            f"but the teams take turns ({order})")
        for i in range(period, players):
            j = i - period
            if team_of[seats[i]] != team_of[seats[j]]:
                return (f"seats {j + 1} and {i + 1} ({seats[j]}, {seats[i]}) must be partners, "
                        f"so that the teams take turns ({order})")
        return None

    def seat_name(self, player: int) -> str:
        if player < len(self.seats):
            return self.seats[player].name
        return f"Player {player + 1}"

    def seat_id(self, player: int) -> str:
        if player < len(self.seats):
            return self.seats[player].id
        return f"p{player + 1}"

    def seat_index(self, name: str, players: int) -> int | None:
        for i in range(players):
            if name in (self.seat_id(i), self.seat_name(i)):
                return i
        i = m.seat_by_place(name)
        return i if i is not None and 0 <= i < players else None

    # -------------------------------------------------------- geometry

    def site_info(self, st: State, site: tuple[Cell, str]) -> SiteInfo:
        card, face, _ = st.board[site[0]]
        return self.catalogue.faces[(card, face)].sites[site[1]]

    def site_area(self, st: State, site: tuple[Cell, str]) -> Node:
        # `site_info` written out: asked for piece after piece, its call was a third of this
        cell = site[0]
        card, face, _ = st.board[cell]
        return st.areas.area_of(cell, self.catalogue.faces[(card, face)].sites[site[1]].segment)

    def all_areas(self, st: State) -> tuple[Node, ...]:
        """Every area, in the order `sorted_areas` gives (kept by the areas until a tile is
        laid)."""
        return st.areas.ordered(self.area_order)

    def areas_of_kind(self, st: State, kind: str) -> tuple[Node, ...]:
        """The areas of one kind, in the order of `all_areas` (kept as they are)."""
        return st.areas.ordered_of_kind(self.area_order, kind)

    def sorted_areas(self, st: State, roots: Any) -> list[Node]:
        areas = st.areas
        return sorted({areas.find(r) for r in roots},
                      key=lambda r: (self.area_order.get(areas.kind(r), 99), areas.sort_key(r)))

    def fits(self, st: State, card: str, face: str, cell: Cell, rotation: int) -> bool:
        if card not in self.catalogue.card_faces or (card, face) not in self.catalogue.faces:
            return False
        if not 0 <= rotation < self.lattice.rotations or cell in st.board:
            return False
        if self.per_player:
            if too_wide(local(cell)):
                return False
            origin = global_(board_of(cell), self.first_cell)
            if cell == origin:
                return not self.board_holds_tiles(st, board_of(cell)) and \
                    0 <= board_of(cell) < st.players
        elif not st.board:
            return cell == self.first_cell
        need = st.frontier.need.get(cell)
        if need is None:
            return False
        return fits_labels(self.catalogue.faces[(card, face)].rotated[rotation], need, self.match)

    def holds(self, card: str, face: str, res: str) -> bool:
        """Whether a laid card (face up) may hold resource `res`: its kind (or one it
        counts as) or the card itself says `holds res`. A card face down holds nothing."""
        info = self.cards.cards.get(card)
        if info is None or face == "down":
            return False
        own = {r for cd in self.ruleset.cards() if cd.id == card for r in cd.holds}
        return res in own or any(res in self.cards.kinds[k].holds for k in info.kinds)

    def board_holds_tiles(self, st: State, board: int) -> bool:
        """Whether player `board`'s board has a tile (always the whole board if shared)."""
        if not self.per_player:
            return bool(st.board)
        lo, hi = board * SPAN - SPAN // 2, board * SPAN + SPAN // 2
        return any(lo <= x < hi for x, _ in st.board)

    def origins(self, st: State) -> tuple[Cell, ...]:
        """Where a first tile may go: the origin of every board still empty."""
        if not self.per_player:
            return () if st.board else (self.first_cell,)
        return tuple(global_(p, self.first_cell) for p in range(st.players)
                     if not self.board_holds_tiles(st, p))

    # ----------------------------------------------------------- words

    def format_cell(self, cell: Cell, actor: int | None = None) -> str:
        """A cell as a person reads it: `0,1` on the shared board or on `actor`'s own
        board; `blue/0,1` on another player's board (or on any, without an actor).

        Every message, notation and position that shows a cell goes through here, so
        the plane the boards are embedded in never shows (kernel/boards.py)."""
        if not self.per_player:
            return self.lattice.format_cell(cell)
        board = board_of(cell)
        text = self.lattice.format_cell(local(cell))
        return text if board == actor else f"{self.seat_id(board)}/{text}"

    def parse_cell(self, text: str, actor: int | None = None, players: int | None = None
                   ) -> Cell:
        """A cell as `format_cell` writes it. Without a seat, the cell is on `actor`'s
        board; a `NotationError` says what is wrong (a seat not at the table, a board
        this wide)."""
        from compiler.engine.notation import NotationError, cell as read_cell, clip
        seat, slash, rest = text.rpartition("/")
        if not self.per_player:
            if slash:
                raise NotationError(f"`{clip(text)}`: this game has one board, so a cell "
                                    f"is written x,y without a seat")
            return read_cell(text)
        where = read_cell(rest)
        if too_wide(where):
            raise NotationError(f"`{clip(text)}` is more than {REACH} cells from its board's "
                                f"origin: a board this wide is not supported (at most {REACH} "
                                f"either way)")
        if slash:
            board = self.seat_index(seat.strip(), players or len(self.seats))
            if board is None:
                known = ", ".join(self.seat_id(k) for k in range(players or len(self.seats)))
                raise NotationError(f"`{clip(text)}`: no seat `{clip(seat)}` has a board "
                                    f"(seats: {known})")
        elif actor is None:
            raise NotationError(f"`{clip(text)}`: say whose board, e.g. "
                                f"{self.seat_id(0)}/{rest.strip()}")
        else:
            board = actor
        return global_(board, where)

    def card_title(self, card: str) -> str | None:
        """A printed card's name ("Command Post"), or None for a tile of a tile set, which
        a reader knows by its id and face."""
        info = self.cards.cards.get(card)
        return info.title if info is not None else None

    def plain_card(self, card: str) -> bool:
        """Whether `card` is a printed card without faces of its own: it lies face up or
        face down, never turned, so its face and rotation say nothing worth reading."""
        info = self.cards.cards.get(card)
        return info is not None and info.synthetic

    def laid_card_words(self, st: State, cell: Cell, actor: int | None = None, *,
                        whose: bool = False) -> str | None:
        """A laid printed card as a judge names it: "the Command Post at 2,1" ("…, face
        down, at 2,1"); with `whose`, on a board per player, "Blue's Command Post at 2,1"
        (a finding read to the whole table belongs to nobody's turn). None where the cell
        holds no printed card (a tile keeps its own wording: "tile 2,1")."""
        laid = st.board.get(cell)
        title = self.card_title(laid[0]) if laid is not None else None
        if laid is None or title is None:
            return None
        down = ", face down," if laid[1] == "down" and self.plain_card(laid[0]) else ""
        if whose and self.per_player:
            seat = self.seat_name(board_of(cell))
            poss = f"{seat}\u2019" if seat.endswith("s") else f"{seat}\u2019s"
            return f"{poss} {title}{down} at {self.lattice.format_cell(local(cell))}"
        return f"the {title}{down} at {self.format_cell(cell, actor)}"

    def format_site(self, site: tuple[Cell, str], actor: int | None = None) -> str:
        return f"{self.format_cell(site[0], actor)}:{site[1]}"

    def format_area(self, st: State, root: Node) -> str:
        anchor = st.areas.anchor(root)
        return f"{self.format_cell(anchor.cell, st.turn.actor)}:{anchor.site}"

    def describe_area(self, st: State, root: Node) -> str:
        return f"the {self.title(st.areas.kind(root))} at {self.format_area(st, root)}"

    def format_piece(self, st: State, pid: int) -> str:
        p = st.piece(pid)
        return f"{p.kind}@{self.format_site((p.cell, p.site), st.turn.actor)}"


def in_order(triggers: list[CompiledTrigger]) -> list[CompiledTrigger]:
    """The triggers on one event in the order they run: reading order, except that one
    written `after RULE` runs just after the last trigger of RULE (or of a rule inside it)
    on this event. Without such a trigger here it keeps its place; each is moved once, so
    two that name each other cannot loop."""
    ordered = list(triggers)
    for trig in [t for t in triggers if t.decl.after]:
        want = trig.decl.after or ""
        rest = [t for t in ordered if t is not trig]
        last = max((i for i, t in enumerate(rest)
                    if t.rule == want or (t.rule or "").startswith(want + ".")), default=None)
        if last is not None:
            rest.insert(last + 1, trig)
            ordered = rest
    return ordered
