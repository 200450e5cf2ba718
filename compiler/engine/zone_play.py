"""Zones in play: the closures for zone expressions (`deck`, `hand of p`, `cards in Z`)
and for the statements that move cards between zones (`move c from Z to W`,
`deal`, `shuffle`, `rotate`, `reveal`).

A zone expression evaluates to its key in `State.zones`; the operations
themselves are those of `compiler/engine/zones.py`, so every zone behaves
alike. Each statement notes what it did, citing its rule, in words a player
would say at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from compiler.engine import places, zones
from compiler.engine.state import ZoneKey
from compiler.engine.zones import Zone
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler
    from compiler.engine.game import Game

Fn = Callable[["Env"], Any]
Run = Callable[["Env"], None]


def _error(message: str) -> Exception:
    from compiler.engine.evaluate import RuleError  # evaluate imports this module
    return RuleError(message)


def table(game: Game) -> dict[str, Zone]:
    """The game's declared zones by name (built once per game)."""
    found = getattr(game, "_zones_by_id", None)
    if found is None:
        found = {z.id: z for z in game.zones[2:]}
        game._zones_by_id = found  # type: ignore[attr-defined]
    return found


def start_zone(game: Game) -> Zone | None:
    """The zone every card starts in (`cards start in Z`), if the rules name one."""
    name = next((d.zone for d in game.decls if getattr(d, "decl", None) == "cards_start"), None)
    return table(game).get(name) if name else None


# ------------------------------------------------------------------ expressions


def zone_key(cx: ExprCompiler, node: Any) -> Fn:
    """A zone expression's key: `deck` -> (i, -1); `hand of p` -> (i, seat of p)."""
    owner_node = None
    if isinstance(node, n.Collection):
        owner_node, node = node.owner, node.source
    z = table(cx.game)[node.id]
    if not z.per_player:
        key = z.key()
        return lambda env: key
    if owner_node is None:
        raise _error(f"whose {z.id}?")
    owner = cx(owner_node)
    index = z.index

    def key_of(env: Env) -> ZoneKey:
        p = owner(env)
        if p is None:
            raise _error(f"`{z.id}` of nobody")
        return (index, p)
    return key_of


def cards_in(cx: ExprCompiler, node: n.Collection) -> Fn:
    """`cards in Z`: the zone's cards, top first, copies repeated."""
    key = zone_key(cx, node.within)
    within = node.within.source if isinstance(node.within, n.Collection) else node.within
    ordered = table(cx.game)[within.id].ordered
    return lambda env: tuple(zones.cards_top_first(env.state, key(env), ordered))


def is_zone(node: Any) -> bool:
    return node is not None and node.type == "zone"


def reads_zone(node: Any) -> bool:
    """Whether a `choose` domain lists a zone's cards (its copies are then one move each)."""
    if isinstance(node, n.Filtered):
        return reads_zone(node.collection)
    return (isinstance(node, n.Collection) and is_zone(node.within)) or _every_card(node)


def _every_card(node: Any) -> bool:
    """`cards`: every card kept in a zone."""
    return isinstance(node, n.Name) and node.ref == "builtin" and node.id == "cards"


def choice_domain(cx: ExprCompiler, node: Any) -> Fn:
    """A `choose` among a zone's cards (filtered or not): each card once, and where the zone
    holds cards nobody here knows, every card they could be (a player who cannot see a
    card may still name one; the move is then judged as if it were there)."""
    return distinct(_possible(cx, node))


def _possible(cx: ExprCompiler, node: Any) -> Fn:
    if isinstance(node, n.Filtered):
        return cx.filtering(_possible(cx, node.collection), node)
    if _every_card(node):
        every = [z for z in cx.game.zones[2:] if not z.per_player] + \
            [z for z in cx.game.zones[2:] if z.per_player]

        def possible(env: Env) -> tuple[Any, ...]:
            st = env.state
            return tuple(c for z in every for key in z.keys(st.players)
                         for c in zones.possible_top_first(st, key, z.ordered))
        return possible
    key = zone_key(cx, node.within)
    within = node.within.source if isinstance(node.within, n.Collection) else node.within
    ordered = table(cx.game)[within.id].ordered
    return lambda env: tuple(zones.possible_top_first(env.state, key(env), ordered))


def distinct(domain: Fn) -> Fn:
    """Each card once, in first-seen order: copies of a card are the same choice."""
    return lambda env: tuple(dict.fromkeys(domain(env)))


# ------------------------------------------------------------------- statements


def declared_title(game: Game, zone: str) -> str:
    """A zone's title as declared ("draw deck"), else its name."""
    decl = next((d for d in game.decls if getattr(d, "decl", None) == "zone"
                 and getattr(d, "id", None) == zone), None)
    return decl.title if decl is not None else zone


def zone_title(game: Game, key: ZoneKey) -> str:
    """"the draw deck", "red's hand"."""
    title = declared_title(game, game.zones[key[0]].id)
    if key[1] >= 0:
        return f"{game.seat_name(key[1])}'s {title}"
    return title if title.startswith("the ") else f"the {title}"


def card_words(game: Game, card: str) -> str:
    """A printed card by its name ("the Command Post"); a tile by its id; a card a view
    does not know, "a hidden card"."""
    if card == zones.UNKNOWN:
        return "a hidden card"
    title = game.card_title(card)
    return card if title is None else f"the {title}"


def _emptied(st: Any, key: ZoneKey) -> None:
    """A revealed zone turns face down again once it is empty."""
    if key in st.revealed and not zones.size(st, key):
        st.revealed = st.revealed - {key}


def move_cards(game: Game, cx: ExprCompiler, s: n.Move, note: Callable[..., None]) -> Run:
    what = cx(s.piece)
    many = (s.piece.type or "").startswith("set:")
    if s.source is None:
        raise _error("a card moved needs the zone it is taken from")
    source, target = zone_key(cx, s.source), zone_key(cx, s.to)
    rule = s.rule

    def move(env: Env) -> None:
        st = env.state
        value = what(env)
        cards = list(value) if many else [value]
        src, dst = source(env), target(env)
        ordered = game.zones[dst[0]].ordered
        # A set moved by its condition is sorted out in the open; one card, perhaps chosen
        # in secret, is not (engine/places.py).
        places.moving(game, st, src, dst, [c for c in cards if c is not None], openly=many)
        for card in cards:
            if card is None:
                raise _error("there is no card to move")
            if not zones.take(st, src, card):
                raise _error(f"{card} is not in {zone_title(game, src)}")
            zones.put(st, dst, card, ordered=ordered)
        _emptied(st, src)
        places.settle(st, src)
        if cards:
            shown = ", ".join(card_words(game, c) for c in cards) if len(cards) <= 6 \
                else f"{len(cards)} cards"
            note(env, "moved", rule, f"{shown} {'goes' if len(cards) == 1 else 'go'} from "
                 f"{zone_title(game, src)} to {zone_title(game, dst)}", cards=cards,
                 origin=zone_title(game, src))
    return move


def deal(game: Game, cx: ExprCompiler, s: n.Deal, note: Callable[..., None]) -> Run:
    count, source, target = cx(s.count), zone_key(cx, s.source), zone_key(cx, s.target)
    rule = s.rule

    def deal_(env: Env) -> None:
        st = env.state
        src, dst = source(env), target(env)
        k = count(env)
        whole = k >= zones.size(st, src)  # a whole zone dealt: its cards are no secret
        places.moving(game, st, src, dst, zones.cards(st, src) if whole else (), openly=whole)
        dealt = zones.deal(st, src, dst, max(k, 0), ordered=game.zones[dst[0]].ordered)
        _emptied(st, src)
        places.settle(st, src)
        note(env, "dealt", rule, f"{dealt} card{'s' if dealt != 1 else ''} dealt from "
             f"{zone_title(game, src)} to {zone_title(game, dst)}", count=dealt)
    return deal_


def shuffle(game: Game, cx: ExprCompiler, s: n.Shuffle, note: Callable[..., None]) -> Run:
    """`shuffle Z`: a chance event whose outcome is the zone's new order, given with the
    move (or the set-up, or the table's decision after a move), sampled in random play,
    and never decided by the engine on its own (`Env.shuffle`)."""
    zone = zone_key(cx, s.zone)
    rule = s.rule

    def shuffle_(env: Env) -> None:
        key = zone(env)
        said = f"{zone_title(game, key)} is shuffled"
        env.shuffle(key, said, rule)
        note(env, "shuffled", rule, said)
    return shuffle_


def rotate(game: Game, cx: ExprCompiler, s: n.Rotate, note: Callable[..., None]) -> Run:
    z = table(game)[s.zone]
    by = cx(s.by)
    rule = s.rule

    def rotate_(env: Env) -> None:
        st = env.state
        k = by(env)
        zones.rotate(st, z.index, k)
        places.rotated(st, z.index, k)
        if st.revealed:
            n_ = st.players
            st.revealed = frozenset((i, (p + k) % n_) if i == z.index and p >= 0 else (i, p)
                                    for i, p in st.revealed)
        note(env, "passed", rule, f"every player passes their {_decl_title(game, z)} "
             f"{abs(k)} seat{'s' if abs(k) != 1 else ''} "
             f"{'clockwise' if k >= 0 else 'anticlockwise'}", by=k)
    return rotate_


def reveal(game: Game, cx: ExprCompiler, s: n.Reveal, note: Callable[..., None]) -> Run:
    z = table(game)[s.zone]
    owner = cx(s.owner) if s.owner is not None else None
    rule = s.rule

    def reveal_(env: Env) -> None:
        st = env.state
        if owner is not None:
            keys = [z.key(owner(env))]
        else:
            keys = z.keys(st.players)
        shown = frozenset(k for k in keys if zones.size(st, k)) - st.revealed
        if not shown:
            return  # nothing there to turn face up
        st.revealed = st.revealed | shown
        whose = zone_title(game, keys[0]) if owner is not None or not z.per_player else \
            f"every {_decl_title(game, z)}"
        note(env, "revealed", rule, f"{whose} is turned face up")
    return reveal_


def _decl_title(game: Game, z: Zone) -> str:
    decl = next((d for d in game.decls if getattr(d, "decl", None) == "zone"
                 and getattr(d, "id", None) == z.id), None)
    return decl.title if decl is not None else z.id


def lay(game: Game, cx: ExprCompiler, s: n.Lay, card: Fn, cell: Fn,
        lay_tile: Callable[..., None]) -> Run:
    """`lay c [from Z] [face f] at x [rotation r]`: a card from a zone (or the stacks) onto
    the board, its first face up and unturned unless the rule says otherwise."""
    from compiler.engine.state import STACKS
    face = cx(s.face) if s.face is not None else None
    rot = cx(s.rotation) if s.rotation is not None else None
    source = zone_key(cx, s.source) if s.source is not None else None
    rule = s.rule

    def lay_(env: Env) -> None:
        st = env.state
        c, x = card(env), cell(env)
        if c is None:
            raise _error("there is no card to lay")
        if c == zones.UNKNOWN:
            raise _error("a card nobody here knows cannot be laid: which card is it?")
        f = face(env) if face is not None else game.catalogue.card_faces[c][0]
        r = rot(env) if rot is not None else 0
        if not game.fits(st, c, f, x, r):
            raise _error(f"{c} {f} does not fit at {game.lattice.format_cell(x)} r{r}")
        if source is None:
            if not zones.take_top(st, STACKS, c):
                raise _error(f"{c} is not on top of a stack")
        else:
            src = source(env)
            # Laid face up or face down, everyone saw which card left the zone.
            places.moving(game, st, src, None, [c], openly=True)
            if not zones.take(st, src, c):
                raise _error(f"{c} is not in {zone_title(game, src)}")
            _emptied(st, src)
            places.settle(st, src)
        lay_tile(env, game, c, f, x, r, rule)
    return lay_
