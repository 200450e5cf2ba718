"""The garbage collector while one process plays game after game.

A full collection walks every object the process holds. A loaded and compiled ruleset
is over a hundred thousand of them (its model, the compiled closures, the grammar), all
alive for the whole run, and walked again at every full collection: in a tile-laying
game of the repository, one or two full collections every twenty random games took a
tenth of the time. `set_apart` keeps what is alive when the games begin out of the collector's sight
(`gc.freeze`) while they are played, and gives it back after, so that a process that
goes on (`bench --all`, a test session) can still free a ruleset it no longer uses.
What the games themselves make is collected as before, in bigger batches (`YOUNG`):
no game plays differently.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Allocations between two collections of the youngest objects while games are played
# (Python's default is 700): a move makes thousands of objects that die within it, and a
# collection every 700 mostly walks the move's own objects still alive. 30 random games
# of a tile-laying ruleset (records kept), CPU: ~48.8 -> ~52.2 games/s (medians of 3).
YOUNG = 10_000


@contextmanager
def set_apart() -> Iterator[None]:
    """Everything alive now is left out of collections until the block ends, and the
    youngest objects are collected every `YOUNG` allocations meanwhile.

    Where objects were already set apart when the block begins (an outer block, or a
    process that settles what it holds, as the test session does), they stay apart after
    it, with what the block set apart: the collector cannot give back only a part.
    """
    outer = gc.get_freeze_count() > 0
    gc.collect()  # garbage already made is freed now, not kept for the whole block
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not outer:
            gc.unfreeze()
