"""Places: which cards a hidden zone could hold, as far as the table can tell.

A judge knows where every card is; the players know less. When a view hides a
zone's cards, a choice among them offers every card that could be there — and
"could" is not "any card I cannot see": a card set aside in the box at set-up
for a larger table, or an objective left in its own deck, can never be in an
opponent's hand. So the engine keeps, beside the zones, what the table knows of
each zone it cannot name card by card (`State.could_hold`): the cards it could
hold. A zone not in that map is one whose content everyone could name (the box
at the start, a pile sorted in the open); a zone everyone sees never needs it.

How cards move decides what the table knows:

- in the open (`move cards in Z where …` from a zone the table can name, a card
  laid or taken off a board, the whole of a zone dealt): the moved cards are
  known, and the target can still be named if it could;
- otherwise (a deal of some cards, a card chosen in secret, anything taken
  from a zone the table cannot name): the target could now also hold anything
  the source could, and the source itself can no longer be named.

It is a bound, never a guess: a card is left out of a zone only when the table
could rule it out. It is kept only for games where some zone hides cards
(`views.hides_anything`), so other games pay nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from compiler.engine.state import State, ZoneKey

if TYPE_CHECKING:
    from compiler.engine.game import Game


def tracked(game: Game) -> bool:
    """Whether the game keeps `could_hold` (some zone hides cards); computed once."""
    found = getattr(game, "_tracks_places", None)
    if found is None:
        from compiler.engine.views import hides_anything
        found = hides_anything(game)
        game._tracks_places = found  # type: ignore[attr-defined]
    return found


def _public(game: Game, key: ZoneKey) -> bool:
    return game.zones[key[0]].visible == "everyone"


def could(st: State, key: ZoneKey) -> frozenset[str]:
    """Every card the zone at `key` could hold: the table's bound if it has one, else the
    cards it holds (an unknown one could be any card unaccounted for)."""
    bound = st.could_hold.get(key)
    if bound is not None:
        return bound
    content = [c for p in st.zones.get(key, ()) for c in p]
    named = frozenset(c for c in content if c is not None)
    return named | frozenset(st.unknown) if None in content else named


def _widen(st: State, key: ZoneKey, more: Iterable[str]) -> None:
    held = st.could_hold
    st.could_hold = {**held, key: could(st, key) | frozenset(more)}


def moving(game: Game, st: State, src: ZoneKey | None, dst: ZoneKey | None,
           cards: Iterable[str], openly: bool) -> None:
    """Before cards go from `src` to `dst` (None: a board), note what the table will know.

    `openly`: the move names its cards to everyone (a set moved by its condition, a card
    laid on or taken off a board, a whole zone dealt); it counts only if the table could
    name the source's cards, or sees them."""
    if not tracked(game):
        return
    cards = list(cards)
    if src is None or _public(game, src) or (openly and src not in st.could_hold):
        if dst is not None and dst in st.could_hold:
            _widen(st, dst, cards)
        return
    pool = could(st, src)
    if src not in st.could_hold:
        st.could_hold = {**st.could_hold, src: pool}
    if dst is not None and not _public(game, dst):
        _widen(st, dst, pool)


def settle(st: State, *keys: ZoneKey) -> None:
    """An emptied zone can be named again (it holds nothing)."""
    if not st.could_hold:
        return
    gone = [k for k in keys if k in st.could_hold and not any(st.zones.get(k, ()))]
    if gone:
        st.could_hold = {k: v for k, v in st.could_hold.items() if k not in gone}


def rotated(st: State, zone: int, by: int) -> None:
    """Every player's zone passed `by` seats on: what the table knew passes with it."""
    if not st.could_hold or not st.players:
        return
    n = st.players
    st.could_hold = {((i, (p + by) % n) if i == zone and p >= 0 else (i, p)): v
                     for (i, p), v in st.could_hold.items()}


def candidates(st: State, key: ZoneKey) -> list[str]:
    """The cards an unknown card of the zone at `key` could be, sorted: those unaccounted for
    (`State.unknown`) that the zone could hold."""
    bound = st.could_hold.get(key)
    if bound is None:
        return sorted(st.unknown)
    return sorted(c for c in st.unknown if c in bound)


def could_be(st: State, key: ZoneKey, card: str) -> bool:
    """Whether an unknown card of the zone at `key` could be `card`."""
    if not st.unknown.get(card):
        return False
    bound = st.could_hold.get(key)
    return bound is None or card in bound
