"""The garbage collector while one process plays game after game.

A full collection walks every object the process holds. A loaded and compiled ruleset
is over a hundred thousand of them (its model, the compiled closures, the grammar), all
alive for the whole run, and walked again at every full collection: in trian_deluxe,
one or two full collections every twenty random games took a tenth of the time.
`set_apart` keeps what is alive when the games begin out of the collector's sight
(`gc.freeze`) while they are played, and gives it back after, so that a process that
goes on (`bench --all`, a test session) can still free a ruleset it no longer uses.
What the games themselves make is collected as before: no game plays differently.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def set_apart() -> Iterator[None]:
    """Everything alive now is left out of collections until the block ends (not nested:
    the end of an inner block gives back the outer block's objects too)."""
    gc.collect()  # garbage already made is freed now, not kept for the whole block
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
