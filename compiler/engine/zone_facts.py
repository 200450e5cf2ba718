"""Zones in worked examples: the fact `zone NAME [SEAT] [a, b, ?]` (what a zone holds,
top card first, `?` a card nobody knows) and the expectations `expect zone …` (its
cards, in order if the zone is ordered) and `expect zone NAME [SEAT] holds N` (how
many cards it holds, known or not)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.engine import zone_play, zones

if TYPE_CHECKING:
    from compiler.engine.game import Game
    from compiler.engine.position import Position


def given(held: dict[str, Any], game: Game, args: list[Any]) -> None:
    """Add one `zone` fact to a position file's `zones`."""
    name, seat, cards = str(args[0]), args[1], list(args[2])
    z = zone_play.table(game).get(name)
    if seat is not None or (z is not None and z.per_player):
        held.setdefault(name, {})[str(seat)] = cards
    else:
        held[name] = [cards]


def expected(pos: Position, fact: str, args: list[Any]) -> str | None:
    """What is wrong with an expectation about a zone, or None."""
    g, st = pos.game, pos.state
    name, seat = str(args[0]), args[1]
    z = zone_play.table(g).get(name)
    if z is None:
        return f"there is no zone {name}"
    if z.per_player and seat is None:
        return f"{name} is each player's: say whose, `expect zone {name} SEAT …`"
    owner = -1
    if seat is not None:
        found = g.seat_index(str(seat), st.players)
        if found is None:
            return f"there is no player {seat}"
        owner = found
    key = z.key(owner)
    where = zone_play.zone_title(g, key)
    if fact == "zone_size":
        have = zones.size(st, key)
        want = int(args[2])
        if have != want:
            return f"expected {where} to hold {want} card{'s' if want != 1 else ''}, but it " \
                   f"holds {have}"
        return None
    got = [c for p in zones.piles(st, key) for c in reversed(p)]
    want = list(args[2])
    same = got == want if z.ordered else sorted(got, key=_order) == sorted(want, key=_order)
    if not same:
        return f"expected {where} to hold [{_show(want)}], but it holds [{_show(got)}]"
    return None


def _order(c: str | None) -> tuple[bool, str]:
    return (c is not None, c or "")


def _show(cards: list[str | None]) -> str:
    return ", ".join("?" if c is None else c for c in cards)
