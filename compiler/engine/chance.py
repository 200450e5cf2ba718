"""Shuffles as chance outcomes: what a shuffle gave, written so a record can say it.

A shuffle is chance like a die roll: its outcome is an input, never something
the engine decides on its own when a judge asks about a move. The outcome is
the zone's cards in their new order, top card first, written as one token:
`deck:c3,c1,c2` for a shared zone, `hand.red:c2,c1` for a player's. With
several piles the order is dealt round into them, as the stacks are at the
start (`zones.split`). A card nobody at the table knows is `?`.

A shuffle of a zone whose cards can lie only one way (none, one card, copies
of one card) decides nothing and takes no outcome.

Also here: how the table's outcomes after a move are written and read back
(`! deck:…`, a table decision), one pair of functions for records and for a
sequence of moves alike; and the position of a worked example that begins at
the set-up (`given { start … }`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from compiler.engine import zones
from compiler.engine.state import ZoneKey
from compiler.ir import nodes as n

if TYPE_CHECKING:
    from compiler.engine.evaluate import Env
    from compiler.engine.game import Game
    from compiler.engine.position import Position, Rules
    from compiler.ir.model import PositionFact

UNKNOWN = "?"  # a card nobody here knows, in a shuffle's outcome
SHOWN = 4      # cards named in an error's example of an outcome


def shuffles(decls: Iterable[Any]) -> bool:
    """Whether the rules shuffle a zone anywhere (so records carry shuffles' outcomes)."""
    return any(isinstance(x, n.Shuffle) for x in _everything(list(decls)))


def rolls(node: Any, defines: dict[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    """Whether evaluating the expression `node` may call on chance (a die, directly or in a
    definition it calls, `defines`: name -> expression; a card's value ability, whose body
    is the card's, is taken to): such a value is worked out afresh at every use, never
    kept in a memo, so that each roll is a roll of its own."""
    for x in _everything(node):
        if isinstance(x, n.Call):
            if x.ability or (x.func == "die" and not x.defined):
                return True
            if x.defined and x.func not in seen and x.func in defines and \
                    rolls(defines[x.func], defines, seen | {x.func}):
                return True
    return False


def _everything(root: Any) -> Iterator[Any]:
    """`root` and everything inside it: the items of lists and tuples, the fields of IR
    models, and so on down."""
    stack: list[Any] = [root]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, BaseModel):
            stack.extend(getattr(x, f) for f in type(x).model_fields)


def label(game: Game, key: ZoneKey) -> str:
    """How an outcome names the zone: `deck`, or `hand.red` for one player's."""
    name = game.zones[key[0]].id
    return f"{name}.{game.seat_id(key[1])}" if key[1] >= 0 else name


def token(game: Game, key: ZoneKey, order: list[str | None]) -> str:
    """The outcome of shuffling the zone at `key` into `order` (top first)."""
    return f"{label(game, key)}:{','.join(UNKNOWN if c is None else c for c in order)}"


def shuffle(env: Env, key: ZoneKey, what: str, rule: str | None = None) -> None:
    """Shuffle the zone at `key`: the outcome supplied next, else one the sampler draws,
    else a `ChanceError` (citing `rule`) saying what to supply. The outcome goes to
    `env.drawn`."""
    from compiler.engine.evaluate import ChanceError  # evaluate imports this module
    st, game = env.state, env.game
    content = st.zones.get(key, ())
    deck = [c for p in content for c in reversed(p)]  # top first
    if len(set(deck)) <= 1:
        return  # the cards can lie one way only: nothing for chance to decide
    if env.chance:
        order = read(game, key, env.chance.pop(0), deck, what, rule)
    elif env.sampler is not None:
        order = list(deck)
        env.sampler.shuffle(order)
    else:
        named = sorted(c or UNKNOWN for c in deck)
        example = ",".join(named[:SHOWN]) + (",…" if len(named) > SHOWN else "")
        raise ChanceError(f"{what}: say what the shuffle gave after `!`, as `{label(game, key)}:` "
                          f"then its {len(deck)} cards top first, separated by commas "
                          f"(`{label(game, key)}:{example}`)", rule)
    st.zones[key] = zones.split(order, len(content))
    env.drawn.append(token(game, key, order))


def read(game: Game, key: ZoneKey, got: str, deck: list[str | None], what: str,
         rule: str | None = None) -> list[str | None]:
    """The order a supplied outcome gives, if it is one this shuffle can give: the zone
    it names is the one shuffled, and it lists exactly the zone's cards."""
    from compiler.engine.evaluate import ChanceError
    want = label(game, key)
    name, colon, listed = got.partition(":")
    if not colon:
        raise ChanceError(f"{what}: `{_clip(got)}` is not the outcome of a shuffle; write "
                          f"`{want}:` then the cards top first, separated by commas", rule)
    if name != want:
        raise ChanceError(f"{what}: the outcome names `{_clip(name)}`, but the zone shuffled "
                          f"here is `{want}`", rule)
    order: list[str | None] = [None if c == UNKNOWN else c for c in listed.split(",")] \
        if listed else []
    have, given = Counter(deck), Counter(order)
    if have != given:
        missing = sorted((have - given).elements(), key=_sort)
        extra = sorted((given - have).elements(), key=_sort)
        said = []
        if extra:
            said.append(f"{_cards(extra)} {'is' if len(extra) == 1 else 'are'} not in it")
        if missing:
            said.append(f"{_cards(missing)} {'is' if len(missing) == 1 else 'are'} missing")
        raise ChanceError(f"{what}: the shuffle must give the {len(deck)} cards of `{want}`, "
                          f"each as often as it holds them, but {' and '.join(said)}", rule)
    return order


def _cards(cards: list[str | None]) -> str:
    shown = [UNKNOWN if c is None else c for c in cards]
    text = ", ".join(_clip(c, 30) for c in shown[:6])
    return text + (f" and {len(shown) - 6} more" if len(shown) > 6 else "")


def _sort(card: str | None) -> str:
    return card or ""


def _clip(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


# ------------------------------------------------------------ table decisions

TABLE = "!"  # a decision that is only `! outcome …` is the table's, after the move before it


def table_outcomes(decision: str) -> list[str] | None:
    """The outcomes of a table decision (`! deck:c3,c1`), or None if `decision` is a move."""
    text = decision.strip()
    return text[len(TABLE):].split() if text.startswith(TABLE) else None


def with_table(move: str, outcomes: list[str]) -> str:
    """A move with the table's outcomes after its own, as the engine takes them: the
    table decision `! c d` after `sell x ! a b` reads as `sell x ! a b c d`."""
    return f"{move} {' '.join(outcomes)}" if TABLE in move else \
        f"{move} {TABLE} {' '.join(outcomes)}"


def table_entries(move: str, outcomes: tuple[str, ...], table: int) -> list[str]:
    """The inverse of `with_table`, for a writer: a move whose last `table` outcomes were
    the table's, as the move with its own outcomes, then the table decision. `move` is
    the move's text without any outcome."""
    own, theirs = outcomes[:len(outcomes) - table], outcomes[len(outcomes) - table:]
    entries = [f"{move} {TABLE} {' '.join(own)}" if own else move]
    if theirs:
        entries.append(f"{TABLE} {' '.join(theirs)}")
    return entries


# ------------------------------------------------------------ worked examples


def started(rules: Rules, facts: list[PositionFact]) -> Position:
    """The position an example that begins at the set-up describes (`given { start … }`):
    its seats (`players`), the stacks if it says how they lie, and the set-up's chance,
    given in order (`setup "…"`) or drawn from a seed (`seed N`). `ValueError` says why
    the game cannot be set up so."""
    seats: list[str] | None = None
    stacks: list[list[str]] | None = None
    seed: int | None = None
    setup: list[str] | None = None
    for f in facts:
        if f.fact == "players":
            seats = [str(x) for x in f.args]
        elif f.fact == "stacks":
            if any(t is None for s in f.args for t in s):  # type: ignore[union-attr]
                raise ValueError("at the set-up every tile of the stacks is known: write "
                                 "each, or leave `stacks` out to shuffle them")
            stacks = [[str(t) for t in s] for s in f.args]  # type: ignore[union-attr]
        elif f.fact == "start":
            seed = f.args[0] if isinstance(f.args[0], int) else None
            setup = str(f.args[1]).split() if f.args[1] is not None else None
    players = len(seats) if seats else rules.ruleset.players_min
    return rules.start(players, seed=seed, stacks=stacks, seats=seats, setup=setup)


__all__ = ["TABLE", "UNKNOWN", "label", "read", "shuffle", "shuffles", "started",
           "table_entries", "table_outcomes", "token", "with_table"]
