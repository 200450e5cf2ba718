"""Boards per player, embedded in one plane.

When every player builds a board of their own, player `p`'s cell `(x, y)` is
stored at `(x + p * SPAN, y)`. The boards are thousands of empty cells apart,
so neighbours, hops, areas and the frontier never cross from one to another,
and everything that works on one board works on the plane unchanged. Only the
places a person sees a cell (notation, positions, pictures, messages)
translate: they show the local cell and, on another player's board, its seat.
SPAN is even, so a triangle's parity (which way it points) is kept.
"""

from __future__ import annotations

from compiler.kernel.lattice import Cell

SPAN = 4096
# The widest a board may be, either way from its origin: far from the next band.
REACH = 2000


def board_of(cell: Cell) -> int:
    """The seat whose board holds `cell`."""
    return (cell[0] + SPAN // 2) // SPAN


def local(cell: Cell) -> Cell:
    """`cell` as its own board counts it."""
    return (cell[0] - board_of(cell) * SPAN, cell[1])


def global_(board: int, cell: Cell) -> Cell:
    """Board `board`'s local `cell` on the plane."""
    return (cell[0] + board * SPAN, cell[1])


def too_wide(cell: Cell) -> bool:
    """Whether a local cell is further from its origin than any board may reach."""
    return abs(cell[0]) > REACH or abs(cell[1]) > REACH
