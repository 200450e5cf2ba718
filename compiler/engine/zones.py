"""Zones: the places cards are kept off the board (stacks, decks, hands, discard piles).

A zone's content lives in `State.zones`, keyed by (zone index, owner seat or -1
for a shared zone), as a tuple of piles, each a tuple of cards bottom first
(`None`: a card nobody here knows, one of `State.unknown`). The values are
immutable, so a clone copies one small dict and a move that changes a zone
writes new tuples: this is what keeps a trial move cheap when a game has many
zones, and why every operation here returns nothing but replaces what it
changes.

Every zone operation of the engine is here, so the legacy stacks of a tile
game and the decks and hands of a card game behave alike: `tops` is what a
player may draw, `take` and `take_top` remove one copy of a card, `put` adds
one, `deal`, `rotate` and `shuffle` move many at once. An unordered zone keeps
its cards sorted, so a position compares equal whatever order they arrived in
and move lists come out in one order.

Zone indexes are fixed by `zone_table`: the legacy stacks are zone 0 and the
cards set out of the game zone 1, in every game, so the hot path of a tile
game reads them by constant keys; declared zones follow in source order.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from compiler.engine.places import candidates, could_be
from compiler.engine.state import SET_ASIDE, STACKS, Pile, Piles, State, ZoneKey
from compiler.ir import model as m

__all__ = ["SET_ASIDE", "STACKS", "UNKNOWN", "Zone", "ZoneKey", "cards", "deal", "piles", "put",
           "rotate", "cards_top_first", "set_piles", "set_up", "shuffle", "size", "split", "take", "take_top",
           "possible_top_first", "tops", "zone_table"]

# A card a zone holds that nobody here knows, as a value in expressions (`None` in the
# piles themselves). It is no card id: card ids are names, and `?` is how positions and
# records write an unknown card.
UNKNOWN = "?"


@dataclass(frozen=True, slots=True)
class Zone:
    """What the engine needs of a zone's declaration, indexed once per game."""

    index: int
    id: str
    per_player: bool = False
    ordered: bool = True
    piles: int = 1
    visible: str = "everyone"

    def key(self, owner: int = -1) -> ZoneKey:
        return (self.index, owner if self.per_player else -1)

    def keys(self, players: int) -> list[ZoneKey]:
        """Every key of this zone at a table of `players`: one, or one per player."""
        if self.per_player:
            return [(self.index, p) for p in range(players)]
        return [(self.index, -1)]


def zone_table(decls: Iterable[object]) -> tuple[tuple[Zone, ...], m.ZoneDecl | None]:
    """The game's zones by index, and the legacy `stacks` declaration if it has one.

    Every game has the legacy stacks (one pile unless `stacks N` says otherwise)
    and the pile of cards set out of the game, since `lay` and `discard` take
    from the one and put on the other whether or not the rules mention them.
    """
    decls = [d for d in decls if isinstance(d, m.ZoneDecl)]
    legacy = next((d for d in decls if d.legacy), None)
    table = [Zone(STACKS[0], "stacks", piles=legacy.piles if legacy else 1, visible="top"),
             Zone(SET_ASIDE[0], "set_aside")]
    for d in decls:
        if not d.legacy:
            table.append(Zone(len(table), d.id, d.per_player, d.ordered, d.piles, d.visible))
    return tuple(table), legacy


def set_up(st: State, table: Sequence[Zone]) -> None:
    """Give every zone of the table its empty piles (one zone per player where it is each
    player's), so that every key exists from the start."""
    for z in table:
        for key in z.keys(st.players):
            st.zones[key] = ((),) * z.piles


# ---------------------------------------------------------------- reading


def piles(st: State, key: ZoneKey) -> Piles:
    return st.zones.get(key, ())


def size(st: State, key: ZoneKey) -> int:
    """How many cards the zone holds, known or not."""
    return sum(len(p) for p in st.zones.get(key, ()))


def tops(st: State, key: ZoneKey) -> list[str]:
    """The card on top of each pile, each once, in pile order: what may be drawn now.

    An unknown top card could be any card still unaccounted for that the zone could hold
    (engine/places.py), so it offers them all, sorted (never in a set's order, which differs between processes).
    """
    out: list[str] = []
    for pile in st.zones.get(key, ()):
        if not pile:
            continue
        top = pile[-1]
        if top is None:
            for c in candidates(st, key):
                if c not in out:
                    out.append(c)
        elif top not in out:
            out.append(top)
    return out


def cards(st: State, key: ZoneKey) -> list[str]:
    """The cards in the zone, pile by pile, bottom first; each unknown one stands for one of
    the cards unaccounted for (taken in sorted order), so the count is exact."""
    known = [c for p in st.zones.get(key, ()) for c in p if c is not None]
    hidden = sum(1 for p in st.zones.get(key, ()) for c in p if c is None)
    if not hidden:
        return known
    return known + _unknown_cards(st, key)[:hidden]


def cards_top_first(st: State, key: ZoneKey, ordered: bool = True) -> list[str]:
    """The cards in the zone as a player reads it: pile by pile, each from its top (what
    `cards in Z` lists, so `first(cards in deck)` is the card on top); an unordered zone's
    in their sorted order.

    A card nobody here knows is `UNKNOWN`: it counts, it can be moved (as a card still
    unknown) and it reads like a face-down card, but it is no particular card, so two
    zones with unknown cards never seem to hold the same one. A choice among the zone's
    cards offers every card it could be instead (`possible_top_first`).
    """
    content = st.zones.get(key, ())
    step = -1 if ordered else 1
    return [UNKNOWN if c is None else c for p in content for c in p[::step]]


def possible_top_first(st: State, key: ZoneKey, ordered: bool = True) -> list[str]:
    """What a player choosing a card of the zone may name: its known cards top first, then,
    if it holds any card nobody here knows, every card that could be one of them (each
    card unaccounted for that the zone could hold, sorted: engine/places.py), as an unknown top tile offers every tile not yet seen."""
    content = st.zones.get(key, ())
    step = -1 if ordered else 1
    known = [c for p in content for c in p[::step] if c is not None]
    if any(c is None for p in content for c in p):
        return known + candidates(st, key)
    return known


def _unknown_cards(st: State, key: ZoneKey) -> list[str]:
    return [c for c in candidates(st, key) for _ in range(st.unknown[c])]


# ---------------------------------------------------------------- changing


def set_piles(st: State, key: ZoneKey, content: Iterable[Iterable[str | None]]) -> None:
    """Replace the zone's content (piles bottom first)."""
    st.zones[key] = tuple(tuple(p) for p in content)


def take_top(st: State, key: ZoneKey, card: str) -> bool:
    """Take `card` from the top of a pile (the first pile showing it, else the first whose
    unknown top could be it); False, and nothing changed, if no pile offers it.
    `UNKNOWN` takes an unknown top card, which stays unknown wherever it goes."""
    content = st.zones.get(key, ())
    if card == UNKNOWN:
        card = None  # type: ignore[assignment]
    for i, pile in enumerate(content):
        if pile and pile[-1] == card:
            st.zones[key] = _replace(content, i, pile[:-1])
            return True
    if could_be(st, key, card):
        for i, pile in enumerate(content):
            if pile and pile[-1] is None:
                st.zones[key] = _replace(content, i, pile[:-1])
                _known(st, card)
                return True
    return False


def take(st: State, key: ZoneKey, card: str) -> bool:
    """Take one copy of `card` from anywhere in the zone (the highest, in the first pile that
    has it; else an unknown card that could be it); False, and nothing changed, if the zone
    cannot hold it. `UNKNOWN` takes the highest card nobody here knows, as it is."""
    content = st.zones.get(key, ())
    if card == UNKNOWN:
        card = None  # type: ignore[assignment]
    for i, pile in enumerate(content):
        for j in range(len(pile) - 1, -1, -1):
            if pile[j] == card:
                st.zones[key] = _replace(content, i, pile[:j] + pile[j + 1:])
                return True
    if could_be(st, key, card):
        for i, pile in enumerate(content):
            for j in range(len(pile) - 1, -1, -1):
                if pile[j] is None:
                    st.zones[key] = _replace(content, i, pile[:j] + pile[j + 1:])
                    _known(st, card)
                    return True
    return False


def put(st: State, key: ZoneKey, card: str | None, *, ordered: bool = True, top: bool = True,
        pile: int = 0) -> None:
    """Put `card` on top (or at the bottom) of a pile; in an unordered zone, in its place in
    the sorted pile (unknown cards first). `UNKNOWN` puts a card nobody here knows."""
    if card == UNKNOWN:
        card = None
    content = st.zones.get(key) or ((),)
    old = content[pile]
    if not ordered:
        new = list(old)
        insort(new, card, key=_sort_key)
        st.zones[key] = _replace(content, pile, tuple(new))
    else:
        st.zones[key] = _replace(content, pile, old + (card,) if top else (card,) + old)


def deal(st: State, source: ZoneKey, target: ZoneKey, count: int, *,
         ordered: bool = True) -> int:
    """Up to `count` cards, one at a time, from the top of the source (the first pile that has
    cards) onto the target's first pile; how many were dealt."""
    dealt = 0
    while dealt < count:
        content = st.zones.get(source, ())
        i = next((i for i, p in enumerate(content) if p), None)
        if i is None:
            break
        pile = content[i]
        st.zones[source] = _replace(content, i, pile[:-1])
        put(st, target, pile[-1], ordered=ordered)
        dealt += 1
    return dealt


def rotate(st: State, zone: int, by: int) -> None:
    """Every player's zone passes `by` seats on, at once: what player p held, player
    p + by holds (a negative `by` passes the other way)."""
    n = st.players
    if not n:
        return
    old = {p: st.zones.get((zone, p)) for p in range(n)}
    for p, content in old.items():
        key = (zone, (p + by) % n)
        if content is None:
            st.zones.pop(key, None)
        else:
            st.zones[key] = content


def shuffle(st: State, key: ZoneKey, rng: random.Random) -> None:
    """Shuffle the zone's cards with the table's random source and deal them back into as
    many piles, as the stacks are dealt at the start (`split`)."""
    content = st.zones.get(key, ())
    if not content:
        return
    deck = [c for p in content for c in reversed(p)]  # top first
    rng.shuffle(deck)
    st.zones[key] = split(deck, len(content))


def split(deck: Sequence[str | None], count: int) -> Piles:
    """Cards listed top first, dealt round into `count` piles (the first card tops the first
    pile, the second the second…), each stored bottom first."""
    return tuple(tuple(reversed(deck[i::count])) for i in range(count))


# ---------------------------------------------------------------- helpers


def _replace(content: Piles, i: int, pile: Pile) -> Piles:
    return content[:i] + (pile,) + content[i + 1:]


def _known(st: State, card: str) -> None:
    """One copy of `card` is no longer unaccounted for (a new dict: clones share the old)."""
    unknown = dict(st.unknown)
    if unknown[card] > 1:
        unknown[card] -= 1
    else:
        del unknown[card]
    st.unknown = unknown


def _sort_key(card: str | None) -> tuple[bool, str]:
    return (card is not None, card or "")
