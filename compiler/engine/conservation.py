"""Cards in play are conserved: a position accounts for every card the set-up put in play.

When the rules say where every card starts (`cards start in box`), the set-up takes
some of them out of that zone and leaves the rest there; from then on a card in
play is always somewhere on the table (a zone, a board, or a card nobody knows),
and the start zone changes only through the rules of play that move cards into or
out of it. A position leaves cards unsaid only if it says it is `partial` (a worked
example, a test of one move: the cards unsaid are then in the start zone);
otherwise cards it lost or forgot would silently go back to the start zone, and a
game whose deck is empty in its first round would look legal. This module says how many cards the set-up leaves in the start zone and
whether play can change that, and refuses a table that disagrees.

It is game-agnostic: it reads the rules' statements, never a game's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from compiler.engine import zone_json, zone_play, zones
from compiler.ir import nodes as n
from compiler.ir.model import Trigger

if TYPE_CHECKING:
    from compiler.engine.game import Game
    from compiler.engine.position import Rules
    from compiler.engine.state import State

# Set-ups played to learn what they leave in the start zone: two seeds, so that a
# set-up whose count depends on chance is noticed (and then not judged).
SEEDS = (1, 2)


def play_changes(game: Game, zone: str) -> tuple[bool, bool]:
    """Whether a rule of play (anything but the set-up, `at start of game`) may put cards
    into `zone`, and whether one may take cards out of it: read from the statements, and
    erring towards "may" where a statement only names the zone."""
    found = getattr(game, "_zone_changes", None)
    if found is None:
        found = game._zone_changes = {}  # type: ignore[attr-defined]
    if zone not in found:
        seen: set[str] = set()
        _walk(game.ruleset, zone, seen)
        found[zone] = ("in" in seen, "out" in seen)
    return found[zone]


def _is_setup(node: Any) -> bool:
    ev = node.event
    return ev.type == "moment" and ev.moment == "start" and ev.target == "game"


def _walk(node: Any, zone: str, seen: set[str]) -> None:
    if isinstance(node, Trigger) and _is_setup(node):
        return
    if isinstance(node, n.Stmt):
        _statement(node, zone, seen)
        return
    for value in _children(node):
        _walk(value, zone, seen)


def _children(node: Any) -> list[Any]:
    if isinstance(node, (list, tuple)):
        return list(node)
    if isinstance(node, BaseModel):
        return list(node.__dict__.values())
    return []


def _names(node: Any, zone: str) -> bool:
    """Whether the expression (or statement) names the zone anywhere."""
    if isinstance(node, n.Name):
        return node.category == "zone" and node.id == zone
    return any(_names(v, zone) for v in _children(node))


def _statement(s: n.Stmt, zone: str, seen: set[str]) -> None:
    if isinstance(s, n.If):  # the condition only reads
        for body in (s.then, s.otherwise):
            _walk(body, zone, seen)
    elif isinstance(s, n.ForEach):
        if _names(s.collection, zone):  # the body may move the cards it goes through
            seen.add("out")
        _walk(s.body, zone, seen)
    elif isinstance(s, (n.Move, n.Deal, n.Draw)):
        into = s.to if isinstance(s, n.Move) else s.target
        if _names(into, zone):
            seen.add("in")
        if any(_names(v, zone) for k, v in s.__dict__.items()
               if v is not into and k not in ("loc", "rule")):
            seen.add("out")
    elif isinstance(s, n.RemoveTile):
        if s.zone == zone:
            seen.add("in")
    elif isinstance(s, n.Lay):
        if _names(s, zone):
            seen.add("out")
    elif isinstance(s, (n.Shuffle, n.Reveal, n.Rotate)):
        return  # the same cards, in another order or face
    elif _names(s, zone):  # named some other way (an effect's argument, a variable)
        seen.update(("in", "out"))


def left_at_setup(rules: Rules, players: int) -> int | None:
    """How many cards the set-up of this table leaves in the start zone, or None if chance
    changes that number (or the set-up cannot be played here)."""
    from compiler.engine.position import Position
    game = rules.game
    cache = getattr(game, "_left_at_setup", None)
    if cache is None:
        cache = game._left_at_setup = {}  # type: ignore[attr-defined]
    if players not in cache:
        home = zone_play.start_zone(game)
        counts = set()
        for seed in SEEDS if home is not None else ():
            try:
                pos = Position.start(rules, players, seed=seed)
            except ValueError:
                counts.add(None)
                break
            counts.add(zones.size(pos.state, home.key()))
        cache[players] = counts.pop() if len(counts) == 1 else None
    return cache[players]


def problem(rules: Rules, st: State, given: bool) -> tuple[str, str] | None:
    """Why the cards in play on this table cannot be those of a real game, or None.

    `given`: the position lists the start zone itself (else its cards are those the
    position leaves unsaid)."""
    game = rules.game
    home = zone_play.start_zone(game)
    if home is None or not zone_json.zone_game(game):
        return None
    left = left_at_setup(rules, st.players)
    if left is None:
        return None
    into, out_of = play_changes(game, home.id)
    there = zones.size(st, home.key())
    total = sum(zone_json.copies(game).values())
    title = zone_play.zone_title(game, home.key())
    setup = f"the set-up leaves {left} of the game's {total} cards in {title}"
    if there > left and not into:
        missing = there - left
        if not given:
            return "zones", (
                f"the position accounts for {total - there} of the {total - left} cards in "
                f"play: {missing} {'are' if missing != 1 else 'is'} missing ({setup}, and no "
                f"rule of play puts any back there); say where every card in play is (`null` "
                f"for one nobody knows), or write `\"partial\": true` for a position that shows "
                f"only part of the table")
        return f"zones.{home.id}", (
            f"{title} holds {there} cards, but {setup} and no rule of play puts any back "
            f"there: {missing} card{'s' if missing != 1 else ''} in play "
            f"{'are' if missing != 1 else 'is'} missing from the table")
    if there < left and not out_of:
        extra = left - there
        return f"zones.{home.id}" if given else "zones", (
            f"{title} holds {there} cards, but {setup} and no rule of play takes any out: "
            f"{extra} card{'s' if extra != 1 else ''} too many {'are' if extra != 1 else 'is'} "
            f"in play")
    return None
