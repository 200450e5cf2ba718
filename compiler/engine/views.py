"""Views: the table as one player sees it.

A judge sees everything; a player sees the public zones, their own private
ones, the top card of a pile that shows its top, and whatever has been turned
face up (`reveal`). A view is the position with every other card made unknown
(`None` in its pile, one more copy in `State.unknown`), and `State.view` saying
whose view it is. It is an ordinary position: it lists moves, judges them,
serialises (`"view": "red"` and `null` cards) and loads back, so a bot or a
player's screen can be handed exactly what that player may know, and a test
can check that no player's legal moves depend on what they cannot see.

Visibility is for views, bots and the book, never for legality: the engine
judges a move the same way in a view as at the full table, and where a choice
needs a card the view hides, it offers every card that could be there.

Cards laid on a board are public, face-down ones included: everyone saw where
they went. The set-up's shuffles are not part of a position, so a view has
nothing to hide there; a view record hides them (`records_view`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from compiler.engine.state import State, ZoneKey

if TYPE_CHECKING:
    from compiler.engine.game import Game
    from compiler.engine.zones import Zone

# How much of a zone a seat sees: every card, the top card of each pile, or none.
ALL, TOP, NONE = "all", "top", "none"


def hides_anything(game: Game) -> bool:
    """Whether some zone of the game keeps cards from some player (one neither public nor
    showing its top): only then can a player's view differ from the table in its zones."""
    return any(z.visible not in ("everyone", "top") for z in game.zones)


def sight(zone: Zone, key: ZoneKey, seat: int, revealed: frozenset[ZoneKey]) -> str:
    """How much of the zone at `key` the player at `seat` sees: ALL, TOP or NONE.

    `everyone`: all of it; `owner`: all of it if it is theirs; `nobody`: none of it;
    `top`: the top card of each pile. A zone turned face up (`reveal`) shows all of it
    to everyone until it is next empty.
    """
    if zone.visible == "everyone" or key in revealed:
        return ALL
    if zone.visible == "owner":
        return ALL if key[1] == seat else NONE
    if zone.visible == "top":
        return TOP
    return NONE


def view_state(game: Game, st: State, seat: int) -> State:
    """A clone of `st` with every card `seat` cannot see made unknown.

    A state already a view of `seat` comes back as it is (a clone); a view of another
    seat cannot be seen through (ValueError): what it hides is gone.
    """
    if not 0 <= seat < st.players:
        raise ValueError(f"there is no seat {seat + 1} at a table of {st.players}")
    if st.view is not None and st.view != seat:
        raise ValueError(f"this is {game.seat_id(st.view)}'s view of the table: "
                         f"{game.seat_id(seat)}'s cannot be made from it")
    out = st.clone()
    out.view = seat
    hidden: Counter[str] = Counter()
    for key, piles in st.zones.items():
        zone = game.zones[key[0]]
        seen = sight(zone, key, seat, st.revealed)
        if seen == ALL:
            continue
        new = []
        for pile in piles:
            keep = 1 if seen == TOP and pile else 0
            cut = len(pile) - keep
            hidden.update(c for c in pile[:cut] if c is not None)
            new.append((None,) * cut + pile[cut:])
        out.zones[key] = tuple(new)
    if hidden:
        unknown = Counter(st.unknown)
        unknown.update(hidden)
        out.unknown = {c: unknown[c] for c in sorted(unknown)}
    return out


def seat_of(game: Game, players: int, seat: int | str) -> int:
    """A seat given by index or id, or ValueError naming the table's seats."""
    if isinstance(seat, int):
        if 0 <= seat < players:
            return seat
    else:
        found = game.seat_index(seat, players)
        if found is not None:
            return found
    seats = ", ".join(game.seat_id(i) for i in range(players))
    raise ValueError(f"no seat {seat!r} at this table (seats: {seats})")
