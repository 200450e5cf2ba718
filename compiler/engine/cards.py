"""Cards compiled for play: what each printed card is, reads and does.

A card value is its id (copies are indistinguishable), and a card laid on the
board is a tile whose `board` entry names it, so every read here starts from
an id: a dict lookup, chosen when the expression is compiled. A card that
draws no faces of its own gets two, `front` and `down`, with neutral edges and
no segments, so it can be laid on any free cell of a board whose tiles are all
cards; face down it shows nothing: it reads the defaults and is of no kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from compiler.engine.evaluate import call_scoped
from compiler.engine.zones import UNKNOWN
from compiler.ir import cards as c
from compiler.ir import model as m
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env, ExprCompiler, Fn
    from compiler.engine.game import Game
    from compiler.kernel.tiles import Catalogue

FRONT, DOWN = "front", "down"
NEUTRAL = ""  # the label on every edge of a card's own faces: it matches only itself


@dataclass
class CardInfo:
    id: str
    title: str
    kind: str
    kinds: frozenset[str]           # its kind and those it counts as
    props: dict[str, Any]
    features: frozenset[str]
    name: str                       # the printed name: a `like` printing's original
    cited: str                      # how it is cited: `set.card`
    number: str
    synthetic: bool                 # no faces of its own: `front` and `down`
    text: str = ""
    printed_with: tuple[str, ...] = ()  # its features in the order printed (the first colours it)
    bodies: dict[str, c.AbilityBody] = field(default_factory=dict)
    compiled: dict[str, tuple[Any, list[str]]] = field(default_factory=dict)


class CardTable:
    """Every printed card of a ruleset, by id, and the kinds they are of."""

    def __init__(self, ruleset: m.Ruleset) -> None:
        decls = ruleset.all_decls()
        self.kinds: dict[str, c.CardKind] = {d.id: d for d in decls if isinstance(d, c.CardKind)}
        self.defaults: dict[str, Any] = {}
        for k in self.kinds.values():
            for p in k.properties:
                self.defaults.setdefault(p.name, c.PROPERTY_DEFAULTS.get(p.kind))
        self.abilities: dict[str, c.AbilityDecl] = {}
        for k in self.kinds.values():
            for a in k.abilities:
                self.abilities.setdefault(a.name, a)
        self.cards: dict[str, CardInfo] = {}
        self.by_citation: dict[str, CardInfo] = {}
        self.set_of: dict[str, str] = {}
        by_id = {x.id: x for x in ruleset.cards()}
        for s in ruleset.cardsets:
            for card in s.cards:
                name = card.id
                seen = {card.id}
                while (like := by_id.get(name)) is not None and like.like and like.like not in seen:
                    name = like.like
                    seen.add(name)
                info = CardInfo(
                    id=card.id, title=card.title, kind=card.kind, kinds=self.chain(card.kind),
                    props={**self.defaults, **card.props}, features=frozenset(card.features),
                    name=name, cited=c.citation_id(s.id, card.id), number=card.number,
                    synthetic=not card.faces, text=card.text,
                    printed_with=tuple(card.features), bodies={b.name: b for b in card.abilities})
                self.cards[card.id] = info
                self.by_citation[info.cited] = info
                self.set_of[card.id] = s.id
        self.defs = ruleset.cards()

    def chain(self, kind: str) -> frozenset[str]:
        return frozenset(c.counts_as_chain(self.kinds, kind))

    def property_phrase(self, card: str, name: str, with_value: bool = False) -> str | None:
        """How a card's kind says its property `name` ("costs {value} coins"): its own kind's
        words first, then those of the kinds it counts as; None where none says it (with
        `with_value`, none that says its value)."""
        info = self.cards.get(card)
        if info is None:
            return None
        return next((p.phrase for k in (info.kind, *sorted(info.kinds - {info.kind}))
                     if k in self.kinds for p in self.kinds[k].properties
                     if p.name == name and p.phrase
                     and (not with_value or "{value}" in p.phrase)), None)

    def of_kind(self, kind: str) -> tuple[str, ...]:
        return tuple(sorted(i for i, info in self.cards.items() if kind in info.kinds))

    # ------------------------------------------------------------ as tiles

    def tiles(self, sides: int) -> list[m.TileDef]:
        """Each card as a tile: its own faces, or `front` and `down`."""
        out = []
        for card in self.defs:
            faces = card.faces or [
                m.Face(name=f, edges=[NEUTRAL] * sides, segments=[]) for f in (FRONT, DOWN)]
            out.append(m.TileDef(id=card.id, faces=faces, loc=card.loc))
        return out

    def mark_features(self, catalogue: Catalogue) -> None:
        """A laid card shows its features (`t has F`), except face down."""
        for (card, face), info in list(catalogue.faces.items()):
            cinfo = self.cards.get(card)
            if cinfo is None or (cinfo.synthetic and face == DOWN):
                continue
            catalogue.faces[(card, face)] = replace(info, features=info.features | cinfo.features)

    def card_at(self, st: Any, cell: Any) -> CardInfo | None:
        """The card a tile shows, or None (no tile, a tile of no card, a card face down)."""
        if cell is None:
            return None
        placed = st.board.get(cell)
        if placed is None:
            return None
        info = self.cards.get(placed[0])
        if info is None or (info.synthetic and placed[1] == DOWN):
            return None
        return info


# ---------------------------------------------------------------- expressions


def card_of(game: Game, vtype: str | None) -> Any:
    """A function from a value of `vtype` (a card id or a laid tile) and the state to its card."""
    table = game.cards
    if vtype == "tile":
        return lambda env, v: table.card_at(env.state, v)
    return lambda env, v: table.cards.get(v) if v is not None else None


def compile_attr(cx: ExprCompiler, node: n.Attr, obj: Fn) -> Fn:
    """`x.cost`: a property; `x.card`: the card a tile shows; `x.name`: the printed name."""
    game = cx.game
    name = node.name
    vtype = node.obj.type
    if vtype == "tile" and name == "card":
        board_card = lambda env: (p[0] if (p := env.state.board.get(obj(env))) else None)  # noqa: E731
        return board_card
    find = card_of(game, vtype)
    if name == "name":
        return lambda env: (i.name if (i := find(env, obj(env))) is not None else None)
    default = game.cards.defaults.get(name)

    def prop(env: Env) -> Any:
        v = obj(env)
        if v == UNKNOWN:
            unseen_card(env, name)
        info = find(env, v)
        return default if info is None else info.props.get(name, default)
    return prop


def unseen_card(env: Env, what: str) -> None:
    """A card a view does not know was read: its `what` is a stand-in (engine/views.py)."""
    if env.state.view is not None:
        from compiler.engine.views import stand_in_read
        stand_in_read(env, -1, what)


def compile_is(cx: ExprCompiler, node: n.IsKind) -> Fn:
    """`x is K`: K a card kind (or one it counts as), or a printed card."""
    game = cx.game
    f = cx(node.value)
    find = card_of(game, node.value.type)
    kind = node.kind
    if kind in game.cards.kinds:
        def test(env: Env) -> bool:
            v = f(env)
            if v == UNKNOWN:
                unseen_card(env, "kind")
            info = find(env, v)
            return info is not None and kind in info.kinds
    else:
        def test(env: Env) -> bool:
            v = f(env)
            if v == UNKNOWN:
                unseen_card(env, "name")
            info = find(env, v)
            return info is not None and info.id == kind
    if node.negated:
        return lambda env: not test(env)
    return test


def compile_has(cx: ExprCompiler, node: n.Has) -> Fn:
    f = cx(node.value)
    cards = cx.game.cards.cards
    kind = node.kind

    def has(env: Env) -> bool:
        v = f(env)
        if v == UNKNOWN:
            unseen_card(env, "features")
        return (i := cards.get(v)) is not None and kind in i.features
    return has


def compile_name(cx: ExprCompiler, node: n.Name) -> Fn:
    if node.ref == "card":
        ident = node.id
        return lambda env: ident
    every = cx.game.cards.of_kind(node.id)
    return lambda env: every


def _body(game: Game, info: CardInfo, ability: str) -> tuple[Any, list[str]] | None:
    """The card's compiled body for `ability`, compiled the first time it runs."""
    found = info.compiled.get(ability)
    if found is None:
        body = info.bodies.get(ability)
        if body is None:
            return None
        run = game.stmt.block(body.body) if body.body is not None else game.expr(body.expr)
        found = info.compiled[ability] = (run, body.params)
    return found


def _dispatch(game: Game, args: list[Any], node: Any, ability: str) -> Any:
    find = card_of(game, node.args[0].type)
    decl = game.cards.abilities[ability]
    # The first parameter is the card's own: a tile passed for a `card` parameter is its card.
    as_card = decl.params[0][1] == "card" and node.args[0].type == "tile"

    def values(env: Env) -> tuple[CardInfo | None, list[Any]]:
        got = [a(env) for a in args]
        info = find(env, got[0])
        if as_card:
            got[0] = info.id if info is not None else None
        return info, got
    return values


def compile_apply(game: Game, s: n.Apply) -> Any:
    """`apply A(x, …)`: the body card x writes for ability A, or nothing when it writes none."""
    args = [game.expr(a) for a in s.args]
    values = _dispatch(game, args, s, s.effect)
    ability = s.effect
    caller = s.rule  # the rule that runs the card's ability (`at end of game { apply final(t) }`)

    def apply(env: Env) -> None:
        info, got = values(env)
        if info is None:
            return
        found = _body(game, info, ability)
        if found is None:
            return
        run, params = found
        if env.trace is None:
            call_scoped(env, run, params, got)
            return
        for cited in (caller, info.cited):
            if cited and cited not in env.trace:
                env.trace.append(cited)
        outer, origins = env.source, env.origins
        env.source = ability_words(game, env, ability, got, types) or outer
        env.origins = {p: (x, env.vars, origins) for p, x in zip(params, nodes)}
        try:
            call_scoped(env, run, params, got)
        finally:
            env.source, env.origins = outer, origins
    types = [a.type for a in s.args]
    nodes = list(s.args)
    return apply


def ability_words(game: Game, env: Env, ability: str, values: list[Any],
                  types: list[str | None]) -> str | None:
    """An ability being carried out, in its declared title with its arguments named: "the
    end-of-game effect of the Bakery at -1,0"; None when it has no title."""
    decl = game.cards.abilities.get(ability)
    if decl is None or not decl.title:
        return None
    text = decl.title
    st = env.state
    for (param, _), value, vtype in zip(decl.params, values, types):
        if vtype == "tile":
            said = game.laid_card_words(st, value, st.turn.actor)
        elif vtype == "card" or (isinstance(value, str) and value in game.cards.cards):
            title = game.card_title(value) if isinstance(value, str) else None
            said = f"the {title}" if title else None
        elif vtype == "player" and isinstance(value, int):
            said = game.seat_name(value)
        else:
            said = None if value is None else str(value)
        if said is None:
            return None
        text = text.replace("{" + param + "}", said)
    return text


def compile_call(cx: ExprCompiler, node: n.Call) -> Fn:
    """`A(x, …)` for a value ability: what card x writes, or 0 / false when it writes nothing."""
    game = cx.game
    args = [cx(a) for a in node.args]
    values = _dispatch(game, args, node, node.func)
    ability = node.func
    decl = game.cards.abilities[ability]
    default = c.RESULT_DEFAULTS.get(decl.returns or "", None)

    def call(env: Env) -> Any:
        info, got = values(env)
        if info is None:
            return default
        found = _body(game, info, ability)
        if found is None:
            return default
        run, params = found
        value = call_scoped(env, run, params, got)
        if env.trace is not None and value and info.cited not in env.trace:
            env.trace.append(info.cited)
        return value
    return call
