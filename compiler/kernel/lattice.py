"""Lattices: how cells sit next to each other, edge by edge.

A cell has `sides` edge slots, numbered clockwise. A tile's own edges are also
numbered clockwise; a tile laid with rotation `r` puts its edge `k` on slot
`(k + r) % sides`. Everything above this module (tiles, areas, the engine)
speaks only of cells, slots and rotations, so a new lattice is one class here.

Cells are `(x, y)` tuples. `neighbour(cell, slot)` answers the cell across that
slot and the slot by which it looks back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

Cell = tuple[int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class Lattice:
    name: ClassVar[str]
    sides: ClassVar[int]
    # `across` answers, kept by cell: tiles are laid on the same few hundred cells game
    # after game, and laying one asks for every slot of its cell and of its neighbours.
    _across: dict[Cell, tuple[tuple[Cell, int], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    @property
    def rotations(self) -> int:
        return self.sides

    def neighbour(self, cell: Cell, slot: int) -> tuple[Cell, int]:
        raise NotImplementedError

    def across(self, cell: Cell) -> tuple[tuple[Cell, int], ...]:
        """`neighbour(cell, slot)` for every slot in order. Not to be changed."""
        found = self._across.get(cell)
        if found is None:
            found = self._across[cell] = tuple(self.neighbour(cell, s)
                                               for s in range(self.sides))
        return found

    def neighbours(self, cell: Cell) -> list[Cell]:
        return [other for other, _ in self.across(cell)]

    def around(self, cell: Cell) -> list[Cell]:
        """The cells sharing an edge or a corner with `cell` (12 for triangles, 8 for squares).

        Found from the cells' corners, so any lattice that draws its polygons
        gets it: every cell touching a corner lies within three edge steps.
        """
        def corners(c: Cell) -> set[tuple[float, float]]:
            return {(round(x, 6), round(y, 6)) for x, y in self.polygon(c, 1.0)}
        mine = corners(cell)
        seen, frontier = {cell}, [cell]
        for _ in range(3):
            frontier = [n for c in frontier for n in self.neighbours(c) if n not in seen]
            seen.update(frontier)
        return sorted(c for c in seen if c != cell and corners(c) & mine)

    def slot_of(self, edge: int, rotation: int) -> int:
        """The cell slot on which a tile's edge `edge` lands when laid with `rotation`."""
        return (edge + rotation) % self.sides

    def edge_at(self, slot: int, rotation: int) -> int:
        """The tile edge that lies on `slot` when the tile is laid with `rotation`."""
        return (slot - rotation) % self.sides

    def polygon(self, cell: Cell, size: float) -> list[Point]:
        """The cell's corners, clockwise on screen, starting where slot 0 begins."""
        raise NotImplementedError

    @staticmethod
    def format_cell(cell: Cell) -> str:
        return f"{cell[0]},{cell[1]}"

    @staticmethod
    def parse_cell(text: str) -> Cell:
        x, y = text.split(",")
        return (int(x), int(y))


@dataclass(frozen=True)
class TriangleLattice(Lattice):
    """Equilateral triangles in rows. Cell (x, y) points up when x + y is even.

    Slots of an up cell: 0 right, 1 bottom, 2 left. Of a down cell: 0 top,
    1 right, 2 left. Rows grow downward on screen.
    """

    name: ClassVar[str] = "triangle"
    sides: ClassVar[int] = 3

    @staticmethod
    def points_up(cell: Cell) -> bool:
        return (cell[0] + cell[1]) % 2 == 0

    def neighbour(self, cell: Cell, slot: int) -> tuple[Cell, int]:
        x, y = cell
        if (x + y) % 2 == 0:  # up
            if slot == 0:
                return (x + 1, y), 2
            if slot == 1:
                return (x, y + 1), 0
            return (x - 1, y), 1
        if slot == 0:
            return (x, y - 1), 1
        if slot == 1:
            return (x + 1, y), 2
        return (x - 1, y), 0

    def polygon(self, cell: Cell, size: float) -> list[Point]:
        x, y = cell
        h = size * math.sqrt(3) / 2
        if self.points_up(cell):
            return [((x + 1) * size / 2, y * h), ((x + 2) * size / 2, (y + 1) * h),
                    (x * size / 2, (y + 1) * h)]
        return [(x * size / 2, y * h), ((x + 2) * size / 2, y * h),
                ((x + 1) * size / 2, (y + 1) * h)]


@dataclass(frozen=True)
class SquareLattice(Lattice):
    """Squares. Slots: 0 top, 1 right, 2 bottom, 3 left. Rows grow downward."""

    name: ClassVar[str] = "square"
    sides: ClassVar[int] = 4
    _STEPS: ClassVar[tuple[Cell, ...]] = ((0, -1), (1, 0), (0, 1), (-1, 0))

    def neighbour(self, cell: Cell, slot: int) -> tuple[Cell, int]:
        dx, dy = self._STEPS[slot]
        return (cell[0] + dx, cell[1] + dy), (slot + 2) % 4

    def polygon(self, cell: Cell, size: float) -> list[Point]:
        x, y = cell
        return [(x * size, y * size), ((x + 1) * size, y * size),
                ((x + 1) * size, (y + 1) * size), (x * size, (y + 1) * size)]


LATTICES: dict[str, Lattice] = {
    TriangleLattice.name: TriangleLattice(),
    SquareLattice.name: SquareLattice(),
}
