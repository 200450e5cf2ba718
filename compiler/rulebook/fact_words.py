"""The "Checked:" line of a worked example for laid cards and `expect value`.

A reader of the rulebook sees what was checked in words: "Hut `hut1` lies
face down at `red/1,0`", "the number of red’s tiles is 3".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compiler.engine.game import Game
from compiler.engine.zone_play import declared_title
from compiler.ir import model as m
from compiler.ir.english import English, Vocabulary, negate


def checked(game: Game, f: m.PositionFact, seat_name: Callable[[str], str]) -> str:
    """`expect card …`, `expect no card …`, `expect value …`, `expect zone …`, `expect game
    …`, `expect round …` or `expect waiting …` in words."""
    a = f.args
    if f.fact in ("zone", "zone_size"):
        where = _zone(game, str(a[0]), a[1], seat_name)
        if f.fact == "zone_size":
            return f"{where} holds {a[2]} card{'' if a[2] == 1 else 's'}"
        cards = ", ".join("a hidden card" if c is None else f"`{c}`" for c in a[2])
        return f"{where} holds {cards or 'no card'}"
    if f.fact == "game":
        return _game_attribute(game, str(a[0]), a[1], seat_name)
    if f.fact == "round":
        word = game.turn_rules.round.title if game.turn_rules.round else "round"
        return f"it is {word} {a[0]}, turn {a[1]}"
    if f.fact == "waiting":
        return ("still to take the step, in this order: " + ", ".join(seat_name(str(x)) for x in a)
                if a else "nobody is still to take the step")
    if f.fact == "no_card":
        return f"no card lies at `{a[0]}`"
    if f.fact == "card":
        card, at, down, values = a
        info = game.cards.cards.get(card)
        said = f"{info.title} `{card}`" if info is not None else f"`{card}`"
        said += f" lies {'face down ' if down else ''}at `{at}`"
        if values:
            said += " with " + ", ".join(f"{name} {_shown(v, seat_name)}" for name, v in values)
        return said
    expr, want = a
    return f"{English(Vocabulary.of(game.ruleset))(expr)} is {_shown(want, seat_name)}"


def _shown(value: Any, seat_name: Callable[[str], str]) -> str:
    if value is None:
        return "none"
    return seat_name(str(value)) if isinstance(value, str) else str(value)


def _zone(game: Game, name: str, seat: Any, seat_name: Callable[[str], str]) -> str:
    """"the draw deck", "Red’s hand": a zone by its title."""
    title = declared_title(game, name).replace("_", " ")
    if seat is not None:
        return f"{seat_name(str(seat))}’s {title.removeprefix('the ')}"
    return title if title.startswith("the ") else f"the {title}"


def _game_attribute(game: Game, name: str, value: Any, seat_name: Callable[[str], str]) -> str:
    """"the game is in its last year", in the attribute's own words where it has them."""
    decl = next((d.attribute for d in game.decls if isinstance(d, m.GameAttribute)
                 and d.attribute.name == name), None)
    shown = value.lower() if isinstance(value, str) and value.lower() in ("true", "false") \
        else value
    if decl is not None and decl.phrase:
        if "{value}" in decl.phrase:
            said = seat_name(str(value)) if decl.type == "player" else shown
            return f"the game {game.fill(decl.phrase, said)}"
        if decl.type == "bool":
            phrase = f"the game {decl.phrase}"
            return phrase if str(shown).lower() == "true" else negate(phrase)
    return f"the game’s {name.replace('_', ' ')} is {shown}"
