"""Move notation: every move prints as text and parses back (round trip).

Each action declares a template, e.g. `"jump {p} to {dest}"`; every
`{param}` is written by its type:

    card, face   t17, a               site     2,-1:lake
    cell         2,-1                 piece    pawn@2,-1:lake
    rotation     r2 (the r is part of the template)
    area         any site of it (printed: its first site in reading order)
    player       a seat id            several  values separated by spaces; none: `-`

A part of a template in brackets is written only when its parameters are not
empty: `"build {c} at {cell}[ paying {src}]"` reads `build lab at 1,0` and
`build lab at 1,0 paying 0,0`.

Parsing is strict about meaning and lenient about spacing. Text that is not
a move at all is *unreadable* (`NotationError`: the message says what moves
look like); a well-formed move that names something not on the table (a tile
at an empty cell, a site a tile lacks, a piece that is not there) is
`NotThere`, which the engine refuses as ILLEGAL citing the rule that needed
the thing named. Numbers are ASCII digits, at most `MAX_DIGITS` of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from compiler.diagnostics import Diagnostic
from compiler.engine.lazy import LazySequence
from compiler.engine.state import State

if TYPE_CHECKING:
    from compiler.engine.actions import CompiledAction
    from compiler.engine.game import Game

MAX_DIGITS = 9  # no count, cell or rotation on a table needs more
CELL = r"-?[0-9]+,-?[0-9]+"
NAME = r"[A-Za-z0-9_]+"
SITE = rf"{CELL}:{NAME}"
PIECE = rf"[A-Za-z_][A-Za-z0-9_]*@{SITE}"
PATTERNS = {
    "card": NAME, "face": NAME, "cell": CELL, "tile": CELL, "int": r"-?[0-9]+", "site": SITE,
    "piece": PIECE, "area": SITE, "player": r"[A-Za-z0-9_'\-]+", "kind": NAME, "str": r"\S+",
}


# How each parameter type is shown where a message says what a move looks like.
SHAPES = {
    "card": "TILE", "face": "FACE", "cell": "x,y", "tile": "x,y", "int": "N", "site": "x,y:site",
    "area": "x,y:site", "piece": "kind@x,y:site", "player": "SEAT", "kind": "KIND", "str": "WORD",
}


class NotationError(ValueError):
    """A move's text cannot be read; the message says what was expected.

    `detail`, when given, lists what moves look like (one per line).
    """

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail


class NotThere(NotationError):
    """A well-formed move of `action` whose parameter `param` names nothing on the table."""

    def __init__(self, message: str, action: str = "", param: str = "") -> None:
        super().__init__(message)
        self.action = action
        self.param = param


def number(text: str, what: str = "a number", digits_max: int = MAX_DIGITS) -> int:
    """A whole number written in ASCII digits (a sign allowed), of at most `digits_max` digits."""
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or not digits.isascii() or not digits.isdigit():
        raise NotationError(f"`{clip(text)}` is not {what} (write digits 0-9)")
    if len(digits) > digits_max:
        raise NotationError(f"{what} of {len(digits)} digits is too large: no table needs more "
                            f"than {digits_max}")
    return int(text)


def cell(text: str) -> tuple[int, int]:
    """A cell written `x,y` (see the coordinate picture on the formats page)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise NotationError(f"`{clip(text)}` is not a cell (write x,y, e.g. 1,0)")
    return (number(parts[0].strip(), "a cell coordinate"),
            number(parts[1].strip(), "a cell coordinate"))


def clip(text: str, width: int = 40) -> str:
    """Quoted input, shortened: a message never repeats a megabyte back."""
    return text if len(text) <= width else text[:width - 1] + "…"


@dataclass(frozen=True)
class Move:
    """An action with its parameter values (runtime values of one position)."""

    action: str
    args: tuple[tuple[str, Any], ...] = ()
    # What chance decided during the move (die rolls, random draws), in the order
    # the rules asked for them; written after `!` in notation.
    chance: tuple[str, ...] = ()
    # The seat that decides, when the move names it (`red: research`); None: whoever
    # decides now. Never part of a move's identity among the legal moves.
    seat: int | None = field(default=None, compare=False)

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.args)

    @classmethod
    def all_listed(cls, keys: Iterable[tuple[str, tuple[tuple[str, Any], ...]]]) -> list[Move]:
        """A move for every (action, args) of a listing, in order: each the same as
        `Move(action, args)`, made without the frozen `__init__` setting field by field
        (a position lists dozens of moves, a game thousands)."""
        new = object.__new__
        rest = _LISTED_DEFAULTS  # every other field at its default, as __init__ would
        out = []
        for action, args in keys:
            move = new(cls)
            # set one by one, then the defaults: no keyword dict made for every move, and
            # the fields in __init__'s order
            d = move.__dict__
            d["action"] = action
            d["args"] = args
            d.update(rest)
            out.append(move)
        return out


class ListedMoves(LazySequence[Move]):
    """The legal moves of a position, each made into a `Move` only when it is asked for.

    Random play needs only how many moves there are and the one drawn (`rng.choice`
    asks `len` and one index): making every move of a position (hundreds of tile
    placements) to keep one of them cost more than anything else in listing them. The
    moves are the listing's keys, in the listing's order, then `pass` where the mover may
    decline: index for index the list `Position.legal_moves` gives, so a seed draws the
    same move from either."""

    __slots__ = ("_keys", "_passing")

    def __init__(self, keys: Iterable[tuple[str, tuple[tuple[str, Any], ...]]],
                 passing: bool) -> None:
        # a listing's `Keys` is read where asked, not copied: a run of tile placements
        # then makes only the key drawn (asked of the type: an ABC's isinstance is slow)
        self._keys = keys if hasattr(type(keys), "__getitem__") else list(keys)
        self._passing = passing and bool(self._keys)  # nothing to decline when nothing is legal

    _missing = "no legal move of that index"

    def __len__(self) -> int:
        return len(self._keys) + self._passing

    def _item(self, i: int) -> Move:
        if i == len(self._keys):  # one past the keys only when the mover may pass
            return Move("pass")
        return Move.all_listed((self._keys[i],))[0]

    def __iter__(self) -> Iterator[Move]:
        yield from Move.all_listed(self._keys)
        if self._passing:
            yield Move("pass")


# The fields `all_listed` leaves at their defaults: read from the class, so a field added
# to Move later is never forgotten there.
_LISTED_DEFAULTS = {f.name: f.default for f in fields(Move) if f.name not in ("action", "args")}

PASS_MOVE = Move("pass")


def template(action: CompiledAction) -> str:
    if action.decl.notation:
        return action.decl.notation
    return " ".join([action.id] + [f"{{{p.name}}}" for p in action.params])


def _written(template: str) -> list[tuple[list[str], list[str]]]:
    """A notation template split once, for writing moves: its parts in order, each with
    the parameters it needs (an optional part `[…]` is left out when one is empty; the
    others need none) and its pieces, text and parameter names by turns."""
    parts = []
    for i, part in enumerate(re.split(r"\[([^\]]*)\]", template)):
        pieces = re.split(r"\{(\w+)\}", part)
        parts.append((pieces[1::2] if i % 2 else [], pieces))
    return parts


class Notation:
    def __init__(self, game: Game) -> None:
        self.game = game
        # A chosen kind is written by its name; only declared resources can be one,
        # so `buy token` is not read as buying a kind called "token".
        names = sorted(game.resources, key=len, reverse=True)
        self.patterns = {**PATTERNS, "kind": "(?:" + "|".join(map(re.escape, names)) + ")"
                         if names else NAME}
        if game.per_player:  # a cell on another player's board: `blue/0,1`
            board_cell = rf"(?:{PATTERNS['player']}/)?{CELL}"
            self.patterns.update({
                "cell": board_cell, "tile": board_cell, "site": rf"{board_cell}:{NAME}",
                "area": rf"{board_cell}:{NAME}",
                "piece": rf"[A-Za-z_][A-Za-z0-9_]*@{board_cell}:{NAME}"})
        self.regexes: dict[str, re.Pattern[str]] = {}
        self.written: dict[str, list[tuple[list[str], list[str]]]] = {}
        for a in game.actions.values():
            self.regexes[a.id] = self._regex(a)
            self.written[a.id] = _written(template(a))

    def _regex(self, action: CompiledAction) -> re.Pattern[str]:
        out = []
        for part in re.split(r"(\[[^\]]*\])", template(action)):
            if part.startswith("[") and part.endswith("]"):
                # An optional part: written only when its parameter is not empty.
                out.append(f"(?:{self._regex_part(action, part[1:-1])})?")
            else:
                out.append(self._regex_part(action, part))
        return re.compile("".join(out))

    def _regex_part(self, action: CompiledAction, text: str) -> str:
        types = {p.name: p.type for p in action.params}
        out = []
        for part in re.split(r"(\{\w+\})", text):
            m = re.fullmatch(r"\{(\w+)\}", part)
            if m:
                t = types.get(m.group(1), "str")
                pat = self.patterns.get(t[4:] if t.startswith("set:") else t, r"\S+")
                if t.startswith("set:"):
                    pat = rf"(?:-|{pat}(?:\s+{pat})*)"  # `-`: none at all
                out.append(f"(?P<{m.group(1)}>{pat})")
            else:
                out.append(r"\s+".join(re.escape(w) for w in part.split(" ")))
        return "".join(out)

    def ambiguities(self) -> list[tuple[str, str, str]]:
        """Pairs of actions whose notations read the same text, with a text they share.

        Each action's template is filled with a plausible value of each
        parameter's type; if another action's pattern reads that text too,
        moves written that way would be read as whichever comes first, and a
        record would not say what was played. The author must tell them apart.
        """
        game = self.game
        cards = sorted(game.catalogue.card_faces)
        sample = {"card": cards[0] if cards else "t1", "face": "a", "cell": "0,0", "tile": "0,0",
                  "int": "1", "site": "0,0:x", "area": "0,0:x", "piece": "x@0,0:x",
                  "player": game.seat_id(0), "kind": min(game.resources, default="x"),
                  "str": "x"}
        found: list[tuple[str, str, str]] = []
        pairs: set[frozenset[str]] = set()
        for action in self.game.actions.values():
            types = {p.name: p.type for p in action.params}

            def fill(m: re.Match[str]) -> str:
                t = types.get(m.group(1), "str")
                return sample.get(t.removeprefix("set:"), "x")
            text = " ".join(re.sub(r"\{(\w+)\}", fill, template(action)).split())
            for other, rx in self.regexes.items():
                pair = frozenset((action.id, other))
                if other != action.id and pair not in pairs and rx.fullmatch(text):
                    pairs.add(pair)
                    found.append((action.id, other, text))
        return found

    # ------------------------------------------------------------ writing

    def format(self, st: State, move: Move) -> str:
        luck = f" ! {' '.join(move.chance)}" if move.chance else ""
        return self.seat_prefix(st, move) + self._format(st, move) + luck

    def seat_prefix(self, st: State, move: Move) -> str:
        """`red: ` before a decision that is not simply the active player's: in a step each
        player takes, or granted to another player. Only in rulesets with a step each player
        takes, so that every other ruleset's records read as they always have."""
        if not self.game.turn_rules.each_steps and not self.game.grant_eachs:
            return ""
        turn = st.turn
        if move.seat is None and not turn.queue and turn.actor == turn.active:
            return ""
        seat = move.seat if move.seat is not None else turn.actor
        return f"{self.game.seat_id(seat)}: "

    def _format(self, st: State, move: Move) -> str:
        if move.action == "pass":
            return "pass"
        action = self.game.actions[move.action]
        values = move.values
        types = {p.name: p.type for p in action.params}

        actor = move.seat if move.seat is not None else st.turn.actor
        out: list[str] = []
        for needs, pieces in self.written[move.action]:
            if any(values.get(x) in (None, (), []) for x in needs):
                continue  # an optional part whose parameter is empty is left out
            for i, piece in enumerate(pieces):  # text, a parameter's name, text, …
                out.append(self.show(st, values.get(piece), types.get(piece, "str"), actor)
                           if i % 2 else piece)
        return "".join(out)

    def show(self, st: State, v: Any, t: str, actor: int | None = None) -> str:
        """One parameter's value in words; a cell on `actor`'s own board without its seat."""
        game = self.game
        actor = st.turn.actor if actor is None else actor
        if t.startswith("set:"):
            return " ".join(self.show(st, x, t[4:], actor) for x in v) if v else "-"
        if t in ("cell", "tile"):
            return game.format_cell(v, actor)
        if t == "site":
            return game.format_site(v, actor)
        if t == "piece":
            return game.format_piece(st, v)
        if t == "area":
            return game.format_area(st, v)
        if t == "player":
            return game.seat_id(v)
        return str(v)

    # ------------------------------------------------------------ reading

    def parse(self, st: State, text: str, only: set[str] | None = None) -> Move:
        """Read a move. `only` limits which actions are tried (e.g. those open now).

        Chance outcomes, if the move needs any, follow a `!`: `build x ! red 4`.
        """
        text, _, luck = text.partition("!")
        chance = tuple(luck.split())
        seat, text = self._seat(st, text)
        move = self._parse(st, text, only, seat)
        if seat is not None:
            move = replace(move, seat=seat)
        return replace(move, chance=chance) if chance else move

    def _seat(self, st: State, text: str) -> tuple[int | None, str]:
        """An optional `SEAT: ` before the move: the seat (by id or name) and the rest."""
        m = re.match(r"\s*([^\s:]+)\s*:(?=\s|$)", text)
        if m is None:
            return None, text
        seat = self.game.seat_index(m.group(1), st.players)
        if seat is None:
            from compiler.diagnostics import did_you_mean
            seats = [self.game.seat_id(k) for k in range(st.players)]
            hint = did_you_mean(m.group(1), seats)
            raise NotationError(f"`{clip(m.group(1))}:` names no seat at this table (seats: "
                                f"{', '.join(seats)})" + (f"; {hint}" if hint else ""))
        return seat, text[m.end():]

    def _parse(self, st: State, text: str, only: set[str] | None,
               seat: int | None = None) -> Move:
        text = " ".join(text.split())
        if not text:
            raise NotationError("no move given: write a move, or `pass`", self.shapes())
        if text == "pass":
            return Move("pass")
        absent: NotThere | None = None
        unreadable: NotationError | None = None
        for aid, rx in self.regexes.items():
            if only is not None and aid not in only:
                continue
            m = rx.fullmatch(text)
            if not m:
                continue
            action = self.game.actions[aid]
            values = []
            try:
                for p in action.params:
                    if p.name in rx.groupindex and m.group(p.name) is not None:
                        try:
                            value = self.read(st, m.group(p.name), p.type, seat)
                            if _payment(p):  # one payment, whatever order it is written in
                                from compiler.engine.evaluate import cell_key
                                value = tuple(sorted(value, key=cell_key))
                            values.append((p.name, value))
                        except NotThere as e:
                            raise NotThere(str(e), aid, p.name) from None
                    elif p.name in rx.groupindex and p.type.startswith("set:"):
                        values.append((p.name, ()))  # an optional part left out: none
            except NotThere as e:
                absent = absent or e
                continue
            except NotationError as e:
                unreadable = unreadable or e
                continue
            return Move(aid, tuple(sorted(values)))
        if absent is not None:
            raise absent
        if unreadable is not None:
            raise NotationError(str(unreadable), self.shapes())
        raise self._unreadable(text)

    def _unreadable(self, text: str) -> NotationError:
        """Why `text` is not a move, in words: the shape of the move it seems to start."""
        from compiler.diagnostics import did_you_mean
        word = text.split()[0]
        starts = {}
        for a in self.game.actions.values():
            lead = template(a).split()[0]
            if "{" not in lead:
                starts.setdefault(lead, []).append(a)
        if word in starts:
            forms = "; ".join(f"“{a.decl.title}” is written `{self.shape(a)}`"
                              for a in starts[word])
            return NotationError(f"cannot read `{clip(text)}` as a move: {forms}",
                                 self.shapes())
        hint = did_you_mean(word, [*starts, "pass"])
        return NotationError(f"cannot read `{clip(text)}` as a move"
                             + (f" ({hint})" if hint else "")
                             + "; moves are written as listed below", self.shapes())

    def shape(self, action: CompiledAction) -> str:
        """The action's notation with each parameter shown by its type: `send x,y:site`."""
        types = {p.name: p.type for p in action.params}

        # A game of printed cards and no tile sets names a card CARD, not TILE.
        cards_only = bool(self.game.cards.cards) and not self.game.ruleset.tiles()

        def show(m: re.Match[str]) -> str:
            t = types.get(m.group(1), "str")
            one = SHAPES.get(t.removeprefix("set:"), m.group(1).upper())
            if one == "TILE" and cards_only:
                one = "CARD"
            return f"{one} {one} ..." if t.startswith("set:") else one
        return re.sub(r"\{(\w+)\}", show, template(action))

    def shapes(self) -> str:
        """What every move of this ruleset looks like, one per line, for an unreadable move."""
        rows = sorted((self.shape(a), a.decl.title) for a in self.game.actions.values())
        rows.append(("pass", "end the step, or decline a choice"))
        return "moves are written:\n" + "\n".join(f"  {shape}  ({title})" for shape, title in rows)

    def read(self, st: State, text: str, t: str, actor: int | None = None) -> Any:
        """One parameter's value; `NotThere` if it names nothing on the table. A cell
        without a seat is on `actor`'s board (by default whoever decides now)."""
        game = self.game
        actor = st.turn.actor if actor is None else actor
        if t.startswith("set:"):
            if text.strip() == "-":
                return ()
            return tuple(self.read(st, part, t[4:], actor) for part in text.split())
        if t in ("cell", "tile"):
            return game.parse_cell(text, actor, st.players)
        if t == "int":
            return number(text)
        if t in ("site", "area"):
            cell_text, name = text.split(":", 1)
            where = game.parse_cell(cell_text, actor, st.players)
            if where not in st.board:
                raise NotThere(f"there is no tile at {cell_text}")
            card, face, _ = st.board[where]
            if name not in game.catalogue.faces[(card, face)].sites:
                sites = ", ".join(game.catalogue.faces[(card, face)].sites)
                raise NotThere(f"{card} {face} at {cell_text} has no `{name}` "
                               f"(its sites: {sites})")
            site = (where, name)
            return site if t == "site" else game.site_area(st, site)
        if t == "piece":
            kind, where = text.split("@", 1)
            site = self.read(st, where, "site", actor)
            for pid in reversed(st.stack_of(site)):
                if st.pieces[pid].kind == kind:
                    return pid
            if game.category(kind) != "piece":
                from compiler.diagnostics import did_you_mean
                hint = did_you_mean(kind, [k.id for k in game.piece_kinds])
                raise NotThere(f"there is no kind of piece called `{clip(kind)}`"
                               + (f" ({hint})" if hint else ""))
            raise NotThere(f"there is no {game.title(kind)} at {where}")
        if t == "player":
            i = game.seat_index(text, st.players)
            if i is None:
                seats = ", ".join(game.seat_id(k) for k in range(st.players))
                raise NotThere(f"no player `{clip(text)}` at this table (seats: {seats})")
            return i
        if t == "card" and text not in game.catalogue.card_faces:
            from compiler.diagnostics import did_you_mean
            noun = "card" if game.cards.cards else "tile"  # a game of printed cards says card
            hint = did_you_mean(text, sorted(game.catalogue.card_faces))
            raise NotThere(f"there is no {noun} `{clip(text)}` in this game"
                           + (f" ({hint})" if hint else ""))
        return text


def _payment(param: Any) -> bool:
    """Whether a parameter is chosen from `ways(…)`: tiles listed in a sorted order."""
    domain = getattr(param.node, "domain", None)
    return getattr(domain, "func", None) == "ways"


def notation_clashes(game: Game) -> list[Diagnostic]:
    """An error for each pair of actions whose notations read the same text, at the first
    action's declaration: a record could not say which was played."""
    out = []
    fallback = game.ruleset.loc.file if game.ruleset.loc else game.ruleset.id
    for a, b, text in Notation(game).ambiguities():
        loc = game.actions[a].decl.loc
        out.append(Diagnostic(
            file=loc.file if loc else fallback, line=loc.line if loc else 0,
            column=loc.column if loc else 0, code="notation",
            message=f"the notations of actions `{a}` and `{b}` both read `{text}`, so a "
                    f"record could not tell which was played",
            hint="give one of them words of its own in its `notation`"))
    return out
