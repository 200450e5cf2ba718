"""The library of builtins: one home per builtin, found by name in `LIBRARY`.

Every builtin of the language (a name such as `me`, a function such as
`count`) is one class holding its signature and type rule, its evaluation,
its English reading, its formula and its reference summary and example; the
checker, the engine, the English renderer, the rulebook's formulas and the
symbol table all dispatch through `LIBRARY` (see `base.py` for why).

Modules, in the order they register: `core.py` (count,
sum, top, min, max, only, first, upto, kinds, held, die), `players.py` (me,
players, pool, closer, supply, allies, captain, clockwise), `board.py` (placed,
tiles, sites, pieces, areas, frontier, rotations, neighbours, around, faces,
fits, placeable, reach and its kin, hops, nearest), `stock.py`
(drawable, stock: the stacks, a zone) and `attributes.py` (the kernel
attributes of pieces, sites and areas, in `ATTRIBUTES`); last `audits.py`
(faulty: what an audit finds).
"""

from __future__ import annotations

# Imported for what they register, in this order.
from compiler.library import core, players, board, stock, attributes, turns, cards, audits  # noqa: F401, I001
from compiler.library.base import (ATTRIBUTES, LIBRARY, Builtin, KernelAttribute, attributes_of,
                                   register, register_attribute)


def functions() -> list[Builtin]:
    """The builtins written as calls, in registration order."""
    return [b for b in LIBRARY.values() if not b.value]


def values() -> list[Builtin]:
    """The builtin names every rule can use (not those bound only by an event)."""
    return [b for b in LIBRARY.values() if b.value and b.only_in is None]


def events() -> list[Builtin]:
    """The builtin names bound only by an event (`closer`, when an area closes)."""
    return [b for b in LIBRARY.values() if b.value and b.only_in is not None]


__all__ = ["ATTRIBUTES", "LIBRARY", "Builtin", "KernelAttribute", "attributes_of", "events",
           "functions", "register", "register_attribute", "values"]
