"""The library of builtins: one home per builtin, found by name in `LIBRARY`.

Every builtin of the language (a name such as `me`, a function such as
`count`) is one class holding its signature and type rule, its evaluation,
its English reading, its formula and its reference summary and example; the
checker, the engine, the English renderer, the rulebook's formulas and the
symbol table all dispatch through `LIBRARY` (see `base.py` for why).

Moved so far (slice S1a of issue 10): `core.py` (count, sum, top, min, max,
only, first, upto, kinds, held, die) and `players.py` (me, players, pool,
closer, supply, allies, captain, clockwise); and (slice S2) `stock.py`
(drawable, stock). Not yet moved, and still in their
old homes until slice S1b: the board builtins (the values placed, tiles,
sites, pieces, areas, frontier, rotations; the functions
neighbours, around, faces, fits, placeable, reach, reach_across, reach_sites,
reach_sites_across, hops, nearest) and the kernel attributes of pieces, sites
and areas. Their names are listed in `compiler/check/symbols.py`
(`BOARD_VALUES`, `BOARD_FUNCTIONS`), their type rules are `TypeChecker.f_<name>`,
their closures `ExprCompiler.f_<name>` / `b_<name>`, their English the
`BUILTINS` table and the `e_call` chain of `compiler/ir/english.py`.
"""

from __future__ import annotations

from compiler.library import core, players, stock  # noqa: F401  (registers them, in this order)
from compiler.library.base import LIBRARY, Builtin, register


def functions() -> list[Builtin]:
    """The builtins written as calls, in registration order."""
    return [b for b in LIBRARY.values() if not b.value]


def values() -> list[Builtin]:
    """The builtin names every rule can use (not those bound only by an event)."""
    return [b for b in LIBRARY.values() if b.value and b.only_in is None]


def events() -> list[Builtin]:
    """The builtin names bound only by an event (`closer`, when an area closes)."""
    return [b for b in LIBRARY.values() if b.value and b.only_in is not None]


__all__ = ["LIBRARY", "Builtin", "events", "functions", "register", "values"]
