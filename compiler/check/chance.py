"""Checks of an example that starts at the set-up (`given { start … }`).

Such an example is the game as its set-up leaves it: the seats and, for a tile
game, how the stacks lie may be said, nothing else (a tile, a turn, a zone's
cards belong to a position of its own). Plain from the text, so reported at the
line where it is written rather than when the example runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.ir import model as m

if TYPE_CHECKING:
    from compiler.check import Checker

BESIDE_START = ("players", "stacks")  # what an example starting at the set-up may say


def check_start(ck: Checker, e: m.Example) -> None:
    starts = [f for f in e.given if f.fact == "start"]
    if not starts:
        return
    for extra in starts[1:]:
        ck.report(extra.loc, "structure", "`start` is said twice in this `given`",
                  hint="say it once, with its `seed` or `setup`", focus="start")
    for f in e.given:
        if f.fact not in BESIDE_START and f.fact != "start":
            ck.report(f.loc, "structure", f"an example that starts at the set-up says only "
                      f"who plays (`players`) and how the stacks lie (`stacks`), not `{f.fact}`",
                      hint="what the set-up leaves is checked with `expect`; to begin "
                           "elsewhere, leave out `start` and describe the position")
    setup = starts[0].args[1]
    if isinstance(setup, str) and not setup.split():
        ck.report(starts[0].loc, "structure", "`setup` lists no outcome",
                  hint="list what chance decided at the set-up, in order, or leave it out",
                  focus="setup")
