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
needs a card the view hides, it offers every card that could be there: a card
unaccounted for in the view that the table knows the zone could hold
(engine/places.py), so a card left in the box, or an objective left in its own
deck, is never offered for an opponent's hand.

Cards laid on a board are public, face-down ones included: everyone saw where
they went. The set-up's shuffles are not part of a position, so a view has
nothing to hide there; a view record hides them (`view_record`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from compiler.engine.places import could
from compiler.engine.state import State, ZoneKey
from compiler.engine.zones import UNKNOWN

if TYPE_CHECKING:
    from compiler.engine.game import Game
    from compiler.engine.notation import Move
    from compiler.engine.position import Position
    from compiler.engine.records import History
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
    # What the seat may know of each zone it cannot see: the cards the table knows it could
    # hold (engine/places.py), not every card it cannot see.
    bounds: dict[ZoneKey, frozenset[str]] = {}
    pinned: dict[ZoneKey, Counter[str]] = {}
    for key, piles in st.zones.items():
        zone = game.zones[key[0]]
        seen = sight(zone, key, seat, st.revealed)
        if seen == ALL:
            continue
        new = []
        here: Counter[str] = Counter()
        for pile in piles:
            keep = 1 if seen == TOP and pile else 0
            cut = len(pile) - keep
            here.update(c for c in pile[:cut] if c is not None)
            new.append((None,) * cut + pile[cut:])
        out.zones[key] = tuple(new)
        hidden.update(here)
        if any(len(p) > (1 if seen == TOP else 0) for p in piles):
            if key in st.could_hold:
                bounds[key] = could(st, key)
            else:  # everyone could name the cards hidden here: they are pinned here
                pinned[key] = here
                blank = any(c is None for p in piles for c in p)
                bounds[key] = frozenset(here) | (frozenset(st.unknown) if blank else frozenset())
    if hidden:
        unknown = Counter(st.unknown)
        unknown.update(hidden)
        out.unknown = {c: unknown[c] for c in sorted(unknown)}
    out.could_hold = _pinned_out(bounds, pinned, out.unknown)
    _secrets(game, out, seat)
    return out


def _pinned_out(bounds: dict[ZoneKey, frozenset[str]], pinned: dict[ZoneKey, Counter[str]],
                unknown: dict[str, int]) -> dict[ZoneKey, frozenset[str]]:
    """The bounds, less what the table knows to be elsewhere: the hidden cards of a zone
    everyone could name (`pinned`) are there, and a card all of whose unseen copies are
    pinned in other zones cannot be in this one."""
    if not pinned:
        return bounds
    total: Counter[str] = Counter()
    for held in pinned.values():
        total.update(held)
    out = {}
    for key, bound in bounds.items():
        here = pinned.get(key, Counter())
        out[key] = frozenset(c for c in bound
                             if total[c] - here[c] < unknown.get(c, 0) or here[c])
    return out


def _secrets(game: Game, st: State, seat: int) -> None:
    """The others' secret choices not shown yet (engine/simultaneous.py) read as their
    attribute's default in a view; they stay marked hidden, so the view says they are
    there without saying what they are, and `unseen_attrs` keeps which they are, so that
    showing one in the view says it was unknown there rather than the default."""
    from compiler.engine.simultaneous import unseen_attributes
    unseen = unseen_attributes(st, seat)
    if not unseen:
        return
    st.player_attrs = [dict(a) for a in st.player_attrs]
    for p, name in unseen:
        st.player_attrs[p][name] = game.player_default(name)
    st.unseen_attrs = unseen


def stand_in_read(env: Any, seat: int, name: str) -> None:
    """A move carried out in a view read another player's secret the view cannot know (or,
    `seat` -1, what a card the view does not know is): it reads as a default, a stand-in,
    so what follows may not be what happens.
    Noted on the state (`State.guessed`) and, the first time, where the move's consequences
    stop being known (`Env.guessed_at`). Listing and checking moves never reach here: no
    player's choices may turn on what they cannot see (compiler/check/simultaneous.py)."""
    if env.trace is None:
        return
    st = env.state
    if (seat, name) not in st.guessed:
        st.guessed = st.guessed | {(seat, name)}
    if env.guessed_at is None:
        env.guessed_at = len(env.log)


def unknown_from(game: Game, st: State) -> tuple[list[str], str]:
    """What a view's ruling turned on and cannot know (`blue.offer`), and the line that
    stands for everything from there on."""
    names = [f"{game.seat_id(p) if p >= 0 else UNKNOWN}.{a}" for p, a in sorted(st.guessed)]
    said = ", ".join(f"{game.seat_name(p)}’s {a}" if p >= 0 else f"a hidden card’s {a}"
                     for p, a in sorted(st.guessed))
    viewer = game.seat_name(st.view) if st.view is not None else "this view"
    return names, (f"what follows turns on {said}, which {viewer} cannot see: it is not "
                   f"stated here")


def seat_of(game: Game, players: int, seat: int | str) -> int:
    """A seat given by index or id, or ValueError naming the table's seats."""
    if isinstance(seat, int):
        if 0 <= seat < players:
            return seat
    else:
        found = game.seat_index(seat, players)
        if found is not None:
            return found
    from compiler.diagnostics import did_you_mean
    seats = [game.seat_id(i) for i in range(players)]
    hint = did_you_mean(str(seat), seats)
    raise ValueError(f"no seat {str(seat)[:40]!r} at this table (seats: {', '.join(seats)})"
                     + (f"; {hint}" if hint else ""))


# ------------------------------------------------------------------ view records


def visible_cards(st: State) -> set[str]:
    """Every card a view shows somewhere: laid on a board, or named in a zone."""
    seen = {card for card, _, _ in st.board.values()}
    for piles in st.zones.values():
        for pile in piles:
            seen.update(c for c in pile if c is not None)
    return seen


def hidden_token(game: Game, token: str, seat: int) -> bool:
    """Whether a chance outcome is hidden from `seat`: a shuffle's outcome (`deck:c3,c1,…`,
    `hand.red:…`) of a zone that seat cannot see all of. Other outcomes (a roll, a tile
    drawn and shown) are seen by all."""
    name, colon, _ = token.partition(":")
    if not colon:
        return False
    zone_id, _, owner = name.partition(".")
    for z in game.zones:
        if z.id == zone_id:
            who = game.seat_index(owner, len(game.seats)) if owner else None
            key = z.key(who if who is not None else -1)
            return sight(z, key, seat, frozenset()) != ALL
    return False


def decision_seen(before: Position, move: Move, after: Position | None, seat: int,
                  shown: set[str] | None = None) -> Move:
    """A decision as `seat` writes it down: another player's choice of a card `seat` sees
    neither before the move, nor in `shown` (what it saw later in the turn), nor at `after`
    (the end of the turn) is `?`, and so is the rest
    of a choice made at once whose secret is still hidden then; a hidden chance outcome is
    `?`."""
    from dataclasses import replace
    game = before.game
    actor = move.seat if move.seat is not None else before.state.turn.actor
    if actor != seat and move.args:
        seen = visible_cards(view_state(game, before.state, seat)) | (shown or set())
        if after is not None:
            seen |= visible_cards(view_state(game, after.state, seat))
        cards = game.catalogue.card_faces
        # A choice made at once whose secret is still hidden: nothing of it but the cards
        # one sees is shown (the commit rule).
        secret = after is not None and any(k[0] == actor for k in after.state.hidden_attrs)

        def written(v: Any) -> Any:
            if isinstance(v, str) and v in cards:
                return UNKNOWN if v not in seen else v
            if isinstance(v, tuple) and v and all(isinstance(x, str) and x in cards for x in v):
                return tuple(written(x) for x in v)
            return UNKNOWN if secret else v
        move = replace(move, args=tuple((k, written(v)) for k, v in move.args))
    if move.chance:
        move = replace(move, chance=tuple(UNKNOWN if hidden_token(game, t, seat) else t
                                          for t in move.chance))
    return move


def _entries(pos: Position, move: Move, table: int) -> list[str]:
    """A decision as a record writes it: the move, then the table's own outcomes after it
    as a decision of their own (engine/chance.py)."""
    from dataclasses import replace

    from compiler.engine.chance import table_entries
    if not table:
        return [pos.notation(move)]
    return table_entries(pos.notation(replace(move, chance=())), move.chance, table)


def view_record(history: History, final: Position | None, seat: int) -> str:
    """The record of a game as `seat` saw it (`[View "red"]`): the others' choices of cards
    that seat never saw, and the chance outcomes it could not see, are `?`; the seed and the
    order of the stacks are left out. It is a player's notes, not a game that replays.

    It is the full record with each decision rewritten, so that both say the same turns
    and leave out the same passes."""
    from compiler.engine.records import write_record
    full = write_record(history, final)
    game = history.start.game
    moves = history.moves
    queue: list[tuple[str, str]] = []
    # What a player writes down of a turn, they write once it is over: a choice shown at
    # the end of the turn (picks turned face up together) is no longer hidden then.
    ends: list[Position | None] = []
    end: Position | None = final
    for k in range(len(moves) - 1, -1, -1):
        if k + 1 < len(moves) and moves[k + 1][0] != moves[k][0]:
            end = moves[k + 1][1]  # the first position of the next turn
        ends.append(end)
    ends.reverse()
    # The cards the seat saw from each decision to the end of its turn (a pick turned face
    # up once all have picked, then put away, was seen all the same).
    later: list[set[str]] = [set() for _ in moves]
    for k in range(len(moves) - 1, -1, -1):
        if k + 1 < len(moves):
            later[k] = visible_cards(view_state(game, moves[k + 1][1].state, seat))
            if moves[k + 1][0] == moves[k][0]:
                later[k] |= later[k + 1]
    for i, (_, pos, move) in enumerate(moves):
        after = ends[i]
        table = history.table.get(i, 0)
        seen = decision_seen(pos, move, after, seat, later[i])
        queue += zip(_entries(pos, move, table), _entries(pos, seen, table), strict=True)
    header, _, body = full.partition("\n\n")
    tags = []
    for line in header.splitlines():
        name = line[1:].split(" ", 1)[0]
        if name in ("Seed", "Stacks"):
            continue  # they would tell the order of every hidden card
        if name in ("Chance", "Setup"):
            value = line.split('"', 1)[1].rsplit('"', 1)[0]
            line = f'[{name} "{_hide(game, value, seat)}"]'
        tags.append(line)
        if name == "Players":
            tags.append(f'[View "{game.seat_id(seat)}"]')
    lines = []
    at = 0
    for line in body.splitlines():
        number, dot, rest = line.partition(". ")
        if not dot or not number.strip().isdigit():
            lines.append(line)
            continue
        out = []
        for decision in rest.split("; "):
            found = next((k for k in range(at, len(queue)) if queue[k][0] == decision), None)
            if found is None:  # not a decision of this game's history: hide what it may tell
                out.append(_hide(game, decision, seat))
                continue
            out.append(queue[found][1])
            at = found + 1
        lines.append(f"{number}. " + "; ".join(out))
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + ("\n" if lines else "")


def _hide(game: Game, text: str, seat: int) -> str:
    return " ".join(UNKNOWN if hidden_token(game, t, seat) else t for t in text.split())
