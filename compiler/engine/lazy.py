"""A sequence whose items are made only when asked for.

Random play asks a position's moves for how many there are and for the one it draws; the
listing's runs of tile placements, its parts and its moves are therefore sequences that
make an item on request. What every such sequence does the same way — slices, negative
indexes, an index out of range — is here, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class LazySequence(Sequence[T]):
    """A subclass gives `__len__` and `_item(i)` for `0 <= i < len(self)`."""

    __slots__ = ()
    _missing = "no item of that index"  # the IndexError's words, said by each subclass

    def _item(self, i: int) -> T:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        size = len(self)
        if isinstance(i, slice):
            return [self._item(k) for k in range(*i.indices(size))]
        if i < 0:
            i += size
        if not 0 <= i < size:
            raise IndexError(self._missing)
        return self._item(i)
