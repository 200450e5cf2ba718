"""Move notation: every move prints as text and parses back (round trip).

Each action declares a template, e.g. `"jump {p} to {dest}"`; every
`{param}` is written by its type:

    card, face   t17, a               site     2,-1:lake
    cell         2,-1                 piece    pawn@2,-1:lake
    rotation     r2 (the r is part of the template)
    area         any site of it (printed: its first site in reading order)
    player       a seat id            several  pieces separated by spaces

Parsing is strict about meaning and lenient about spacing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from compiler.engine.state import State

if TYPE_CHECKING:
    from compiler.engine.actions import CompiledAction
    from compiler.engine.game import Game

CELL = r"-?\d+,-?\d+"
NAME = r"[A-Za-z0-9_]+"
SITE = rf"{CELL}:{NAME}"
PIECE = rf"[A-Za-z_][A-Za-z0-9_]*@{SITE}"
PATTERNS = {
    "card": NAME, "face": NAME, "cell": CELL, "tile": CELL, "int": r"-?\d+", "site": SITE,
    "piece": PIECE, "area": SITE, "player": r"[A-Za-z0-9_'\-]+", "kind": NAME, "str": r"\S+",
}


class NotationError(ValueError):
    """A move's text cannot be read; the message says what was expected."""


@dataclass(frozen=True)
class Move:
    """An action with its parameter values (runtime values of one position)."""

    action: str
    args: tuple[tuple[str, Any], ...] = ()
    # What chance decided during the move (die rolls, random draws), in the order
    # the rules asked for them; written after `!` in notation.
    chance: tuple[str, ...] = ()

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.args)


PASS_MOVE = Move("pass")


def template(action: CompiledAction) -> str:
    if action.decl.notation:
        return action.decl.notation
    return " ".join([action.id] + [f"{{{p.name}}}" for p in action.params])


class Notation:
    def __init__(self, game: Game) -> None:
        self.game = game
        # A chosen kind is written by its name; only declared resources can be one,
        # so `buy token` is not read as buying a kind called "token".
        names = sorted(game.resources, key=len, reverse=True)
        self.patterns = {**PATTERNS, "kind": "(?:" + "|".join(map(re.escape, names)) + ")"
                         if names else NAME}
        self.regexes: dict[str, re.Pattern[str]] = {}
        for a in game.actions.values():
            self.regexes[a.id] = self._regex(a)

    def _regex(self, action: CompiledAction) -> re.Pattern[str]:
        types = {p.name: p.type for p in action.params}
        out = []
        for part in re.split(r"(\{\w+\})", template(action)):
            m = re.fullmatch(r"\{(\w+)\}", part)
            if m:
                t = types.get(m.group(1), "str")
                pat = self.patterns.get(t[4:] if t.startswith("set:") else t, r"\S+")
                if t.startswith("set:"):
                    pat = rf"{pat}(?:\s+{pat})*"
                out.append(f"(?P<{m.group(1)}>{pat})")
            else:
                out.append(r"\s+".join(re.escape(w) for w in part.split(" ")))
        return re.compile("".join(out))

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
        return self._format(st, move) + luck

    def _format(self, st: State, move: Move) -> str:
        if move.action == "pass":
            return "pass"
        action = self.game.actions[move.action]
        values = move.values
        types = {p.name: p.type for p in action.params}

        def show(m: re.Match[str]) -> str:
            name = m.group(1)
            return self.show(st, values.get(name), types.get(name, "str"))
        return re.sub(r"\{(\w+)\}", show, template(action))

    def show(self, st: State, v: Any, t: str) -> str:
        game = self.game
        if t.startswith("set:"):
            return " ".join(self.show(st, x, t[4:]) for x in v)
        if t in ("cell", "tile"):
            return game.lattice.format_cell(v)
        if t == "site":
            return game.format_site(v)
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
        move = self._parse(st, text, only)
        return replace(move, chance=chance) if chance else move

    def _parse(self, st: State, text: str, only: set[str] | None) -> Move:
        text = " ".join(text.split())
        if text == "pass":
            return Move("pass")
        tried = []
        matched_errors = []
        for aid, rx in self.regexes.items():
            if only is not None and aid not in only:
                continue
            m = rx.fullmatch(text)
            if not m:
                tried.append(aid)
                continue
            action = self.game.actions[aid]
            try:
                values = tuple((p.name, self.read(st, m.group(p.name), p.type))
                               for p in action.params
                               if p.name in rx.groupindex and m.group(p.name) is not None)
            except NotationError as e:
                matched_errors.append(str(e))
                continue
            return Move(aid, tuple(sorted(values)))
        if matched_errors:
            raise NotationError(matched_errors[0])
        shapes = "; ".join(sorted(template(self.game.actions[a]) for a in tried)[:12])
        raise NotationError(f"cannot read {text!r} as a move; moves are written: {shapes}; "
                            f"or `pass`")

    def read(self, st: State, text: str, t: str) -> Any:
        game = self.game
        if t.startswith("set:"):
            return tuple(self.read(st, part, t[4:]) for part in text.split())
        if t in ("cell", "tile"):
            return game.lattice.parse_cell(text)
        if t == "int":
            return int(text)
        if t in ("site", "area"):
            cell_text, name = text.split(":")
            cell = game.lattice.parse_cell(cell_text)
            if cell not in st.board:
                raise NotationError(f"there is no tile at {cell_text}")
            card, face, _ = st.board[cell]
            if name not in game.catalogue.faces[(card, face)].sites:
                sites = ", ".join(game.catalogue.faces[(card, face)].sites)
                raise NotationError(f"{card} {face} at {cell_text} has no `{name}` "
                                    f"(its sites: {sites})")
            site = (cell, name)
            return site if t == "site" else game.site_area(st, site)
        if t == "piece":
            kind, where = text.split("@", 1)
            site = self.read(st, where, "site")
            for pid in reversed(st.stack_of(site)):
                if st.pieces[pid].kind == kind:
                    return pid
            raise NotationError(f"there is no {kind} at {where}")
        if t == "player":
            i = game.seat_index(text, st.players)
            if i is None:
                raise NotationError(f"no player {text!r}")
            return i
        if t == "card" and text not in game.catalogue.card_faces:
            raise NotationError(f"there is no tile {text!r} in this game")
        return text


def notation_clashes(game: Game) -> list[str]:
    """An error, ready to print, for each pair of actions whose notations read the same text."""
    out = []
    for a, b, text in Notation(game).ambiguities():
        loc = game.actions[a].decl.loc
        where = f"{loc.file}:{loc.line}:{loc.column}" if loc else game.ruleset.id
        out.append(f"{where}: error: the notations of actions `{a}` and `{b}` both read "
                   f"`{text}`, so a record could not tell which was played [notation]\n"
                   f"  hint: give one of them words of its own in its `notation`")
    return out
