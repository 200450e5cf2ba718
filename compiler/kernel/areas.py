"""Areas: segments joined across matching edges, with incremental closure.

Every segment of every laid tile is a node. Segments of the same area kind
that reach the two sides of a shared edge are joined (union-find). Each area
root keeps its count of *open* edges (edges of its segments facing an empty
cell); an area is closed when that count is zero. Laying a tile adds its
segments with all their edges open, joins them with their neighbours, and
subtracts two for every edge that became shared. That is near-constant work
per tile; `recompute` does the same from scratch, for tests.

Per-root values are replaced, never mutated, so `copy()` can be shallow.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from compiler.kernel.lattice import Cell, Lattice
from compiler.kernel.tiles import Catalogue, Placed

Node = int


class NodeInfo(NamedTuple):
    """A segment of a laid tile: where it is and what. (A named tuple: a tile laid makes
    one for each of its segments, and a tuple is made at half a frozen dataclass's cost.)"""

    cell: Cell
    segment: int
    kind: str
    site: str


# A NodeInfo made from a tuple of its fields, without the named tuple's Python-level
# `__new__` (a tile laid makes one per segment).
_node_info = partial(tuple.__new__, NodeInfo)


class AreaMap:
    __slots__ = ("nodes", "parent", "open", "cells", "members", "features", "based",
                 "first", "_ordered")

    def __init__(self) -> None:
        self.nodes: list[NodeInfo] = []
        self.parent: list[Node] = []
        self.open: dict[Node, int] = {}
        self.cells: dict[Node, frozenset[Cell]] = {}
        self.members: dict[Node, tuple[Node, ...]] = {}
        self.features: dict[Node, dict[str, int]] = {}
        # Each laid cell's first node: its segment `s` is node `based[cell] + s` (the
        # segments of a tile are numbered one after another when it is laid).
        self.based: dict[Cell, Node] = {}
        # Each root's anchor (see `anchor`) as ((row, column, segment), node): the smaller of
        # the two anchors when areas join, so naming or ordering an area never scans it.
        self.first: dict[Node, tuple[tuple[int, int, int], Node]] = {}
        # Every root in order (see `ordered`), kept until a tile is laid, and those roots by
        # kind, kept from tile to tile once asked for (see `ordered_of_kind`): (rank, roots
        # or None until asked for again after a tile, roots by kind).
        self._ordered: tuple[Any, tuple[Node, ...] | None,
                             dict[str, tuple[Node, ...]]] | None = None

    def copy(self) -> AreaMap:
        """A copy to lay a tile on. `dict.copy` rather than `dict(…)`: the per-root dicts
        lose a key at every join, and `dict(…)` copies such a dict key by key where
        `copy` copies its table whole (while at most a third of it is holes)."""
        c = AreaMap.__new__(AreaMap)
        c.nodes = self.nodes.copy()
        c.parent = self.parent.copy()
        c.open = self.open.copy()
        c.cells = self.cells.copy()
        c.members = self.members.copy()
        c.features = self.features.copy()
        c.based = self.based.copy()
        c.first = self.first.copy()
        c._ordered = self._ordered  # the same areas: the same order
        return c

    # ------------------------------------------------------------- queries

    def find(self, node: Node) -> Node:
        parent = self.parent
        root = parent[node]
        if root == node:  # a root already (most areas asked about are)
            return node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:  # path compression
            parent[node], node = root, parent[node]
        return root

    def area_of(self, cell: Cell, segment: int) -> Node:
        node = self.based[cell] + segment
        root = self.parent[node]
        if root == node or self.parent[root] == root:  # most segments: a root, or next to one
            return root
        return self.find(node)

    def roots(self) -> list[Node]:
        return [n for n in range(len(self.parent)) if self.parent[n] == n]

    def ordered(self, rank: Mapping[str, int]) -> tuple[Node, ...]:
        """Every area's root, by the rank of its kind (unranked kinds last), then in reading
        order of its first segment. Rules ask for all the areas again and again between two
        tiles laid, so the order is worked out once per `rank` until the next tile."""
        kept = self._ordered
        if kept is not None and kept[0] is rank:
            if kept[1] is not None:
                return kept[1]
            by_kind = kept[2]
        else:
            by_kind = {}
        nodes, first = self.nodes, self.first
        roots = tuple(sorted(first, key=lambda r: (rank.get(nodes[r].kind, 99), first[r][0])))
        self._ordered = (rank, roots, by_kind)
        return roots

    def ordered_of_kind(self, rank: Mapping[str, int], kind: str) -> tuple[Node, ...]:
        """The roots of `ordered` of one kind, in that order; kept with them (the copies
        that share them have the same areas; a tile laid moves the few it touched)."""
        kept = self._ordered
        if kept is not None and kept[0] is rank:
            found = kept[2].get(kind)
            if found is not None:
                return found
        roots = self.ordered(rank)
        by_kind = self._ordered[2]  # type: ignore[index]
        nodes = self.nodes
        found = by_kind[kind] = tuple(r for r in roots if nodes[r].kind == kind)
        return found

    def kind(self, root: Node) -> str:
        return self.nodes[root].kind

    def closed(self, root: Node) -> bool:
        left = self.open.get(root)  # only roots count open edges: usually asked of a root
        if left is None:
            left = self.open[self.find(root)]
        return left == 0

    def anchor(self, root: Node) -> NodeInfo:
        """The area's first segment in reading order (row, column, segment): its name."""
        return self.nodes[self.first[self.find(root)][1]]

    def sort_key(self, root: Node) -> tuple[int, int, int]:
        return self.first[self.find(root)][0]

    # ------------------------------------------------------------ changes

    def lay(self, lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue,
            cell: Cell) -> tuple[list[Node], list[tuple[Node, Node]]]:
        """Add the tile now at `cell`; return (areas it closed, merges made).

        A merge `(absorbed, into)` says an old root disappeared into another, so
        whatever the caller keeps per area can follow.
        """
        card, face, rot = board[cell]
        faces = catalogue.faces
        info = faces[(card, face)]
        kept, self._ordered = self._ordered, None
        nodes, parent, open_, based = self.nodes, self.parent, self.open, self.based
        cells, members, features, first = self.cells, self.members, self.features, self.first
        born = len(nodes)
        alone = frozenset((cell,))
        x, y = cell
        for index, kind, site, edges, counts in info.starts:
            node = born + index
            nodes.append(_node_info((cell, index, kind, site)))
            parent.append(node)
            open_[node] = edges
            cells[node] = alone
            members[node] = (node,)
            features[node] = counts
            first[node] = ((y, x, index), node)
        based[cell] = born
        touched: list[Node] = list(range(born, len(nodes)))
        merges: list[tuple[Node, Node]] = []
        around = lattice.across(cell)
        find = self.find
        for index, kind, slot in info.reaching[rot]:
            other, back = around[slot]
            placed = board.get(other)
            if placed is None:
                continue
            oseg = faces[(placed[0], placed[1])].slot_segment[placed[2]].get((back, kind))
            if oseg is None:
                continue
            root = self._union(find(born + index), find(based[other] + oseg), merges)
            open_[root] -= 2
            touched.append(root)
        roots = {find(n) for n in touched}
        closed = [r for r in roots if open_[r] == 0]
        if kept is not None:
            self._ordered = self._reordered(kept, range(born, len(nodes)), merges)
        return closed, merges

    def _reordered(self, kept: tuple[Any, tuple[Node, ...] | None, dict[str, tuple[Node, ...]]],
                   born: range, merges: list[tuple[Node, Node]]
                   ) -> tuple[Any, tuple[Node, ...] | None, dict[str, tuple[Node, ...]]]:
        """The orders of `ordered_of_kind` after a tile was laid, from those before it: the
        areas it absorbed leave, those it grew (whose first segment may now come earlier)
        and its new ones go in at their place. A tile touches a few areas, so this is a few
        list moves rather than sorting every area again at the next tile (the order is the
        same: no two areas share a first segment). Every area in order (`ordered`) is
        sorted again when next asked for: the rules that ask for the areas of a kind turn
        after turn seldom ask for all of them."""
        rank, _, by_kind = kept
        nodes, first = self.nodes, self.first
        # A merge joins two areas of one kind, one of them the tile's own: only the kinds
        # of the tile's segments can change order.
        kinds = {nodes[r].kind for r in born}
        moved: set[Node]
        coming: Sequence[Node]
        if merges:
            moved = {b for b, _ in merges} | {a for _, a in merges}
            coming = sorted({r for r in (*born, *moved) if r in first})
        else:
            moved, coming = set(), born  # every new segment is a root
        anchor = first.__getitem__  # (anchor, root): areas never share an anchor
        out: dict[str, tuple[Node, ...]] = {}
        for kind, order in by_kind.items():
            if kind not in kinds:
                out[kind] = order
                continue
            now = [r for r in order if r not in moved] if moved else list(order)
            for r in coming:
                if nodes[r].kind == kind:
                    insort(now, r, key=anchor)
            out[kind] = tuple(now)
        return rank, None, out

    def _union(self, a: Node, b: Node, merges: list[tuple[Node, Node]]) -> Node:
        if a == b:
            return a
        members = self.members
        ma, mb = members[a], members[b]
        if len(ma) < len(mb):
            a, b, ma, mb = b, a, mb, ma
        self.parent[b] = a
        open_, cells, features, first = self.open, self.cells, self.features, self.first
        open_[a] += open_.pop(b)
        cells[a] = cells[a] | cells.pop(b)
        members[a] = ma + mb
        del members[b]
        fb = features.pop(b)
        if fb:  # else a's counts stand as they are (shared: never changed in place)
            merged = dict(features[a])
            for k, v in fb.items():
                merged[k] = merged.get(k, 0) + v
            features[a] = merged
        fb_first = first.pop(b)
        if fb_first < first[a]:
            first[a] = fb_first
        merges.append((b, a))
        return a


def recompute(lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue
              ) -> dict[tuple[Cell, int], tuple[frozenset[tuple[Cell, int]], int]]:
    """Areas from scratch by flood fill: segment -> (its area's segments, open edges).

    The reference for testing `AreaMap`: slow, obvious, independent.
    """
    result: dict[tuple[Cell, int], tuple[frozenset[tuple[Cell, int]], int]] = {}
    for cell, (card, face, rot) in board.items():
        info = catalogue.faces[(card, face)]
        for seg in info.segments:
            start = (cell, seg.index)
            if start in result:
                continue
            seen = {start}
            todo = [start]
            open_edges = 0
            while todo:
                c, s = todo.pop()
                ccard, cface, crot = board[c]
                cinfo = catalogue.faces[(ccard, cface)]
                cseg = cinfo.segments[s]
                for edge in cseg.edges:
                    slot = lattice.slot_of(edge, crot)
                    other, back = lattice.neighbour(c, slot)
                    if other not in board:
                        open_edges += 1
                        continue
                    ocard, oface, orot = board[other]
                    oseg = catalogue.faces[(ocard, oface)].edge_segment.get(
                        (lattice.edge_at(back, orot), cseg.kind))
                    if oseg is None:
                        open_edges += 1
                        continue
                    if (other, oseg) not in seen:
                        seen.add((other, oseg))
                        todo.append((other, oseg))
            area = frozenset(seen)
            for member in area:
                result[member] = (area, open_edges)
    return result
