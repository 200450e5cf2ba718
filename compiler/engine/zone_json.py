"""Zones in position files: reading `zones` into `State.zones` (with every check a
table would make: the zone exists, the seat plays, every card is one of the
game's, no card is in two places more often than the game has copies of it)
and writing them back.

Shape (design §2.10): a shared zone is a list of piles, a player's zone a map
from seat to its cards; every pile is listed top first; `null` is a card
nobody at the table knows. Cards not said to be anywhere are in the zone the
cards start in (`cards start in box`), face down, if the rules name one.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from compiler.diagnostics import did_you_mean
from compiler.engine import zone_play, zones
from compiler.engine.state import STACKS, State

if TYPE_CHECKING:
    from compiler.engine.game import Game

Cards = list[str | None]
ZoneValue = list[Cards] | dict[str, Cards | list[Cards]]


def copies(game: Game) -> dict[str, int]:
    """How many copies of each card the game has: a printed card's `copies`, one of
    each tile."""
    have = dict.fromkeys(game.catalogue.card_faces, 1)
    for card in game.ruleset.cards():
        if card.id in have:
            have[card.id] = card.copies
    return have


def zone_game(game: Game) -> bool:
    """A game with declared zones and no legacy stacks: unplaced cards are in its zones."""
    return game.stacks_zone is None and bool(zone_play.table(game))


def read(game: Game, st: State, given: dict[str, Any] | None, revealed: list[str],
         bad: Any) -> None:
    """Fill the declared zones from a position's `zones` (None: all empty but the start
    zone) and settle which cards are unknown; report problems through `bad(path, msg)`."""
    table = zone_play.table(game)
    seen: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for c, _, _ in st.board.values():
        seen[c] += 1
        where.setdefault(c, []).append("on the board")
    for key, piles in st.zones.items():
        for pile in piles:
            for c in pile:
                if c is not None:
                    seen[c] += 1
                    where.setdefault(c, []).append(
                        "in the stacks" if key == STACKS else "set aside")
    hidden = 0
    for name, value in (given or {}).items():
        z = table.get(name)
        path = f"zones.{name}"
        if z is None:
            bad(path, f"there is no zone {name!r}"
                + (f"; {h}" if (h := did_you_mean(name, table)) else ""))
            continue
        content: list[tuple[Any, list[Cards], str]] = []
        if z.per_player:
            if not isinstance(value, dict):
                bad(path, f"{name} is each player's: give it by seat, e.g. "
                          f'{{"{game.seat_id(0)}": [...]}}')
                continue
            for seat, cards in value.items():
                i = game.seat_index(seat, st.players)
                if i is None:
                    bad(f"{path}.{seat}", f"there is no player {seat!r} at this table")
                    continue
                piles = cards if cards and all(isinstance(p, list) for p in cards) else [cards]
                content.append(((z.index, i), piles, f"{path}.{seat}"))
        else:
            if not isinstance(value, list) or not all(isinstance(p, list) for p in value):
                bad(path, f"{name} is shared: give it as a list of piles, e.g. [[...]]")
                continue
            content.append(((z.index, -1), value, path))
        for key, piles, at in content:
            if len(piles) > z.piles:
                bad(at, f"{name} has {z.piles} pile{'s' if z.piles != 1 else ''}, not "
                        f"{len(piles)}")
                continue
            for i, pile in enumerate(piles):
                for j, c in enumerate(pile):
                    if c is None:
                        hidden += 1
                    elif c not in game.catalogue.card_faces:
                        h = did_you_mean(c, game.catalogue.card_faces)
                        bad(f"{at}[{i}][{j}]" if z.per_player is False else f"{at}[{j}]",
                            f"there is no card {c!r}" + (f"; {h}" if h else ""))
                    else:
                        seen[c] += 1
                        where.setdefault(c, []).append(_place(game, key))
            full = [list(reversed(p)) for p in piles] + [[]] * (z.piles - len(piles))
            if not z.ordered:
                full = [sorted(p, key=lambda c: (c is not None, c or "")) for p in full]
            zones.set_piles(st, key, full)
    have = copies(game)
    for c, k in sorted(seen.items()):
        if k > have.get(c, 0):
            bad("zones", f"{c} is {_places(where[c])}, but the game has "
                         f"{have.get(c, 0)} cop{'y' if have.get(c, 0) == 1 else 'ies'} of it")
    if not zone_game(game):
        if given:  # the legacy stacks took the unknown tiles: the zones' unknowns come on top
            st.unknown = {c: v for c, v in st.unknown.items() if not seen.get(c)}
        return
    remaining = {c: have[c] - seen.get(c, 0) for c in sorted(have) if have[c] > seen.get(c, 0)}
    left = sum(remaining.values())
    home = zone_play.start_zone(game)
    if home is not None and home.id not in (given or {}):
        zones.set_piles(st, home.key(), [[None] * (left - hidden)] if left > hidden else [[]])
        hidden = left
    if hidden > left:
        bad("zones", f"{hidden} unknown cards, but only {left} cards are unaccounted for")
    elif hidden < left:
        bad("zones", f"{left - hidden} card{'s are' if left - hidden != 1 else ' is'} in no "
                     f"zone ({', '.join(list(remaining)[:5])}{', …' if len(remaining) > 5 else ''})"
                     f": put {'them' if left - hidden != 1 else 'it'} in a zone")
    st.unknown = remaining if hidden else {}
    for i, entry in enumerate(revealed):
        name, _, seat = entry.partition(" ")
        z = table.get(name)
        owner = game.seat_index(seat, st.players) if seat else -1
        if z is None or (seat and owner is None) or (z.per_player and not seat):
            bad(f"revealed[{i}]", f"{entry!r} is not a zone of this table (write `deck`, or "
                                  f"`hand {game.seat_id(0)}` for a player's)")
            continue
        st.revealed = st.revealed | {z.key(owner if owner is not None else -1)}


def _place(game: Game, key: tuple[int, int]) -> str:
    return f"in {zone_play.zone_title(game, key)}"


def write(game: Game, st: State) -> tuple[dict[str, ZoneValue] | None, list[str]]:
    """The declared zones as a position file writes them (None if the game has none)."""
    table = zone_play.table(game)
    if not table:
        return None, []
    out: dict[str, ZoneValue] = {}
    for z in table.values():
        if z.per_player:
            by_seat: dict[str, Cards | list[Cards]] = {}
            for key in z.keys(st.players):
                piles = [list(p if not z.ordered else reversed(p)) for p in zones.piles(st, key)]
                by_seat[game.seat_id(key[1])] = piles[0] if z.piles == 1 else piles
            out[z.id] = by_seat
        else:
            out[z.id] = [list(p if not z.ordered else reversed(p)) for p in zones.piles(st, z.key())]
    revealed = sorted(f"{game.zones[i].id}" + (f" {game.seat_id(p)}" if p >= 0 else "")
                      for i, p in st.revealed)
    return out, revealed


def write_bounds(game: Game, st: State) -> dict[str, list[str] | dict[str, list[str]]] | None:
    """A view's `could_hold`: for each zone whose cards it cannot see, the cards they could be
    (engine/places.py), a shared zone's as a list, a player's by seat; None outside views
    (the judge's table names every card) and where nothing is ruled out."""
    if st.view is None or not st.could_hold:
        return None
    out: dict[str, Any] = {}
    every = frozenset(game.catalogue.card_faces)
    for (i, p), cards in sorted(st.could_hold.items()):
        if cards >= every:
            continue
        name = game.zones[i].id
        if p >= 0:
            out.setdefault(name, {})[game.seat_id(p)] = sorted(cards)
        else:
            out[name] = sorted(cards)
    return out


def read_bounds(game: Game, st: State, given: dict[str, Any] | None, bad: Any) -> None:
    """`could_hold` back into the state; each zone and card checked.

    A position file carries no history, so what the table knows of a hidden zone it does
    not bound is nothing: any card unaccounted for could be there (never the zone's own
    cards, which would tell them to every view)."""
    from compiler.engine import places
    table = zone_play.table(game)
    bounds: dict[tuple[int, int], frozenset[str]] = {}
    if places.tracked(game):
        every = frozenset(game.catalogue.card_faces)
        bounds = {key: every for key, piles in st.zones.items()
                  if any(piles) and game.zones[key[0]].visible != "everyone"}
    for name, value in (given or {}).items():
        z = table.get(name)
        path = f"could_hold.{name}"
        if z is None:
            bad(path, f"there is no zone {name!r}")
            continue
        if z.per_player != isinstance(value, dict):
            bad(path, f"{name} is {'each player' if z.per_player else 'shared'}'s: give its "
                      f"cards {'by seat' if z.per_player else 'as one list'}")
            continue
        entries = value.items() if isinstance(value, dict) else [("", value)]
        for seat, cards in entries:
            owner = game.seat_index(seat, st.players) if seat else -1
            if owner is None:
                bad(f"{path}.{seat}", f"there is no player {seat!r} at this table")
                continue
            wrong = [c for c in cards if c not in game.catalogue.card_faces]
            if wrong:
                bad(f"{path}", f"there is no card {wrong[0]!r}")
                continue
            bounds[z.key(owner)] = frozenset(cards)
    st.could_hold = bounds


def _places(places: list[str]) -> str:
    """"on the board 3 times and in the stacks": where the copies of a card are."""
    counts = Counter(places)
    return " and ".join(p if k == 1 else f"{p} twice" if k == 2 else f"{p} {k} times"
                        for p, k in counts.items())
