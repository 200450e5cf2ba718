"""Tile faces compiled for play: sites, edge labels, and where a face may be laid.

A face's *sites* are the places a piece can be named by: each segment (named
by its area kind, `lake`, then `lake2`... if the face has several) and each
feature (named by its kind, likewise). A feature belongs to the segment it is
drawn in, so a piece on a feature is in that segment's area.

Placement is edge matching: for every occupied neighbour, the label on our
edge must match the label on theirs. `Frontier` keeps, for every empty cell
next to the board, the labels it must match, so enumerating legal placements
compares a face against a handful of distinct patterns instead of every cell.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from compiler.ir import model as m
from compiler.kernel.lattice import Cell, Lattice


@dataclass(frozen=True)
class SegmentInfo:
    index: int
    kind: str
    edges: tuple[int, ...]
    features: tuple[str, ...]
    site: str
    # how many of each feature kind: the count an area of this one segment starts with
    # (shared by every such area, so never changed in place: see areas.py)
    counts: dict[str, int] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class SiteInfo:
    name: str
    kind: str          # area kind for a segment site, feature kind for a feature site
    segment: int       # index of the segment the site lies in
    is_feature: bool


@dataclass(frozen=True)
class FaceInfo:
    card: str
    name: str
    labels: tuple[str, ...]
    segments: tuple[SegmentInfo, ...]
    sites: dict[str, SiteInfo]
    # (edge, area kind) -> index of the segment of that kind reaching that edge
    edge_segment: dict[tuple[int, str], int]
    features: frozenset[str]
    # labels on each slot for each rotation: rotated[r][slot] = label
    rotated: tuple[tuple[str, ...], ...] = field(default=())
    # near[i]: the sites a piece in segment i stands on or beside (see `sites_near`)
    near: tuple[tuple[str, ...], ...] = field(default=())
    # the catalogue's number for this face's ring of edges (`labels`): faces alike share it
    ring: int = 0
    # for each rotation: (segment, kind, slot) for each edge of each segment, in order,
    # and (slot, kind) -> the segment of that kind reaching that slot (`edge_segment` laid)
    reaching: tuple[tuple[tuple[int, str, int], ...], ...] = field(default=())
    slot_segment: tuple[dict[tuple[int, str], int], ...] = field(default=())
    # (index, kind, site, number of edges, feature counts) of each segment: what an area
    # of that one segment starts with when the face is laid
    starts: tuple[tuple[int, str, str, int, dict[str, int]], ...] = field(default=())

    def joined(self, seg: int, barriers: frozenset[str]) -> list[int]:
        """`seg` and the segments of its kind that only a barrier in `barriers` divides from it.

        A face draws a barrier (a cloud, a wall) as a feature of one of the
        segments it separates, so two segments of one kind are one to a
        piece that passes the barrier when either of them carries it.
        """
        own = self.segments[seg]
        mine = bool(barriers.intersection(own.features))
        return [seg] + [s.index for s in self.segments
                        if s.index != seg and s.kind == own.kind
                        and (mine or barriers.intersection(s.features))]


def sites_near(segments: tuple[SegmentInfo, ...],
               sites: dict[str, SiteInfo]) -> tuple[tuple[str, ...], ...]:
    """For each segment, the sites a piece that got into it may stand on.

    Those drawn in the segment (the segment itself and its features), and
    those of segments of other kinds that meet it at an edge: a town on a
    road is reached from the field the road runs through.
    A segment of the same kind never meets it at an edge (each edge belongs
    to one segment of a kind), so the far side of a barrier is not near.
    """
    out = []
    for seg in segments:
        meets = {o.index for o in segments
                 if o.index == seg.index or (o.kind != seg.kind and set(o.edges) & set(seg.edges))}
        out.append(tuple(name for name, site in sites.items() if site.segment in meets))
    return tuple(out)


class Catalogue:
    """Every face of every tile in play, compiled."""

    def __init__(self, tiles: Iterable[m.TileDef], lattice: Lattice) -> None:
        self.lattice = lattice
        self.faces: dict[tuple[str, str], FaceInfo] = {}
        self.card_faces: dict[str, tuple[str, ...]] = {}
        self._rings: dict[tuple[str, ...], int] = {}
        for t in tiles:
            self.card_faces[t.id] = tuple(f.name for f in t.faces)
            for f in t.faces:
                self.faces[(t.id, f.name)] = self._compile(t.id, f)

    def _compile(self, card: str, face: m.Face) -> FaceInfo:
        segments: list[SegmentInfo] = []
        sites: dict[str, SiteInfo] = {}
        seen: dict[str, int] = {}

        def name(kind: str) -> str:
            seen[kind] = seen.get(kind, 0) + 1
            return kind if seen[kind] == 1 else f"{kind}{seen[kind]}"

        edge_segment: dict[tuple[int, str], int] = {}
        for i, seg in enumerate(face.segments):
            site = name(seg.kind)
            counts: dict[str, int] = {}
            for f in seg.features:
                counts[f] = counts.get(f, 0) + 1
            segments.append(SegmentInfo(i, seg.kind, tuple(seg.edges), tuple(seg.features), site,
                                        counts))
            sites[site] = SiteInfo(site, seg.kind, i, False)
            for e in seg.edges:
                edge_segment[(e, seg.kind)] = i
        for i, seg in enumerate(face.segments):
            for feat in seg.features:
                fname = name(feat)
                sites[fname] = SiteInfo(fname, feat, i, True)
        n = self.lattice.sides
        labels = tuple(face.edges)
        rotated = tuple(tuple(labels[self.lattice.edge_at(slot, r)] for slot in range(n))
                        for r in range(self.lattice.rotations))
        ring = self._rings.setdefault(labels, len(self._rings))
        slot_of = self.lattice.slot_of
        rotations = range(self.lattice.rotations)
        reaching = tuple(tuple((s.index, s.kind, slot_of(e, r)) for s in segments for e in s.edges)
                         for r in rotations)
        slot_segment = tuple({(slot_of(e, r), k): i for (e, k), i in edge_segment.items()}
                             for r in rotations)
        return FaceInfo(card, face.name, labels, tuple(segments), sites, edge_segment,
                        frozenset(f for s in face.segments for f in s.features), rotated,
                        sites_near(tuple(segments), sites), ring, reaching, slot_segment,
                        tuple((s.index, s.kind, s.site, len(s.edges), s.counts) for s in segments))

    def face(self, card: str, face: str) -> FaceInfo:
        return self.faces[(card, face)]


Placed = tuple[str, str, int]  # card, face, rotation


class Matcher:
    """Which edge labels may touch."""

    def __init__(self, same: bool, pairs: Iterable[tuple[str, str]] = ()) -> None:
        self.same = same
        self.pairs = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}

    def __call__(self, a: str, b: str) -> bool:
        if self.same and a == b:
            return True
        return (a, b) in self.pairs


_READING = operator.itemgetter(1, 0)  # a cell's place in reading order: row, then column


class Frontier:
    """Empty cells next to the board, each with the labels its edges must match.

    `need[cell][slot]` is the label showing on the neighbour across `slot`, or
    None where that neighbour is empty. Kept up to date as tiles are laid.
    """

    __slots__ = ("need", "_cells", "_groups")

    def __init__(self, need: dict[Cell, tuple[str | None, ...]] | None = None,
                 cells: list[Cell] | None = None) -> None:
        self.need: dict[Cell, tuple[str | None, ...]] = need if need is not None else {}
        # The cells in reading order and grouped by pattern, worked out once until the
        # next tile is laid (`lay` is the only change made to a frontier in use). The
        # order is shared with copies, and a tile laid moves the few cells it changed.
        self._cells: list[Cell] | None = cells
        self._groups: dict[tuple[str | None, ...], list[Cell]] | None = None

    def copy(self) -> Frontier:
        return Frontier(self.need.copy(), self._cells)  # its table whole (see AreaMap.copy)

    def lay(self, lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue,
            cell: Cell) -> None:
        """Update after a tile was laid at `cell` (already on `board`)."""
        order, self._cells, self._groups = self._cells, None, None
        need = self.need
        was = need.pop(cell, None)
        card, face, rot = board[cell]
        labels = catalogue.faces[(card, face)].rotated[rot]
        added = []
        for slot, (other, back) in enumerate(lattice.across(cell)):
            if other in board:
                continue
            current = need.get(other)
            if current is None:
                current = (None,) * lattice.sides
                added.append(other)
            need[other] = _shown(current, back, labels[slot])
        if order is not None:
            order = order.copy()  # (shared with the frontier this one was copied from)
            if was is not None:
                del order[bisect_left(order, _READING(cell), key=_READING)]
            for other in added:
                insort(order, other, key=_READING)
            self._cells = order

    @classmethod
    def rebuild(cls, lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue) -> Frontier:
        f = cls()
        for cell, (card, face, rot) in board.items():
            labels = catalogue.faces[(card, face)].rotated[rot]
            for slot in range(lattice.sides):
                other, back = lattice.neighbour(cell, slot)
                if other in board:
                    continue
                current = f.need.get(other) or (None,) * lattice.sides
                f.need[other] = _shown(current, back, labels[slot])
        return f

    def cells(self) -> list[Cell]:
        return list(self._in_order())

    def _in_order(self) -> list[Cell]:
        """The cells in reading order, kept (not to be changed: `cells` copies them)."""
        if self._cells is None:
            self._cells = sorted(self.need, key=_READING)
        return self._cells

    def groups(self) -> dict[tuple[str | None, ...], list[Cell]]:
        """The cells (in reading order) by the labels they must match. Not to be changed."""
        if self._groups is None:
            groups: dict[tuple[str | None, ...], list[Cell]] = {}
            need = self.need
            for cell in self._in_order():
                groups.setdefault(need[cell], []).append(cell)
            self._groups = groups
        return self._groups


# Every pattern a frontier cell has had, each kept as one tuple: the same pattern is then
# the same object wherever it comes back (turn after turn, game after game), and the
# dictionaries keyed by patterns (the groups, the rotations that fit each) find it by
# identity rather than comparing it label by label at every lookup.
_PATTERNS: dict[tuple[str | None, ...], tuple[str | None, ...]] = {}


# (pattern, slot, label) -> the pattern once that label shows on that slot, as `_pattern`
# keeps it: laying a tile changes the patterns of its empty neighbours so, again and again.
_SHOWN: dict[tuple[tuple[str | None, ...], int, str], tuple[str | None, ...]] = {}


def _pattern(need: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """The one tuple kept for this pattern (see `_PATTERNS`)."""
    return _PATTERNS.setdefault(need, need)


def _shown(need: tuple[str | None, ...], slot: int, label: str) -> tuple[str | None, ...]:
    """The pattern `need` once `label` shows on `slot` (kept: see `_SHOWN`)."""
    key = (need, slot, label)
    then = _SHOWN.get(key)
    if then is None:
        then = _SHOWN[key] = _pattern(need[:slot] + (label,) + need[slot + 1:])
    return then


def fits_labels(rotated: tuple[str, ...], need: tuple[str | None, ...], match: Matcher) -> bool:
    """Whether every edge meets what its neighbour shows (`match`, asked without a call
    per edge: listing placements asks this thousands of times a game)."""
    same, pairs = match.same, match.pairs
    for have, want in zip(rotated, need):
        if want is not None and not (same and have == want) and (have, want) not in pairs:
            return False
    return True


def placements(catalogue: Catalogue, frontier: Frontier, cards: Iterable[str],
               match: Matcher, known: dict[Any, dict[Any, tuple[int, ...]]] | None = None
               ) -> Iterator[tuple[str, str, Cell, int]]:
    """Every (card, face, cell, rotation) that fits, in a stable order (that of
    `placement_groups`: each group's rotations, each with every cell of the group)."""
    for card, face, fit, cells in placement_groups(catalogue, frontier, cards, match, known):
        for r in fit:
            for cell in cells:
                yield card, face, cell, r


def placement_groups(catalogue: Catalogue, frontier: Frontier, cards: Iterable[str],
                     match: Matcher, known: dict[Any, dict[Any, tuple[int, ...]]] | None = None
                     ) -> list[tuple[str, str, tuple[int, ...], list[Cell]]]:
    """The placements that fit, as (card, face, rotations, cells): each of the rotations
    fits at each of the cells. Whoever lists them all makes them without a generator
    step for each one (and the groups come as a list: every caller takes them all, and
    a generator's step for each of a listing's dozens of groups cost more than the list).

    Cells are grouped by the pattern they must match, so each face is compared
    with each distinct pattern once. `known`, if given, keeps the rotations of a face
    that fit a pattern from one call to the next, by face (shared by faces alike), then
    by pattern (for this catalogue and matcher only: the same patterns come back turn
    after turn).
    A group's cells are not to be changed.
    """
    groups = frontier.groups().items()
    found = []
    for card in cards:
        for face in catalogue.card_faces[card]:
            fits = _fits_kept(known, catalogue, card, face)
            for need, cells in groups:
                fit = fits.get(need)
                if fit is None:
                    fit = _fitting(catalogue, card, face, need, match, fits)
                if fit:
                    found.append((card, face, fit, cells))
    return found


def _fits_kept(known: dict[Any, dict[Any, tuple[int, ...]]] | None, catalogue: Catalogue,
               card: str, face: str) -> dict[Any, tuple[int, ...]]:
    """The rotations of a face found to fit each pattern so far (see `placement_groups`).

    Found by (card, face), and shared by every face of the same ring of edges
    (`FaceInfo.ring`, kept under the ring's number): what fits depends on nothing else,
    and a catalogue has many faces alike (one ruleset's 144 faces show 11 rings), so what
    one face learnt serves the others, and the first games of a process find most of it
    already known."""
    if known is None:
        return {}
    fits = known.get((card, face))
    if fits is None:
        ring = catalogue.faces[(card, face)].ring
        fits = known[(card, face)] = known.setdefault(ring, {})
    return fits


def _fitting(catalogue: Catalogue, card: str, face: str, need: tuple[str | None, ...],
             match: Matcher, fits: dict[Any, tuple[int, ...]]) -> tuple[int, ...]:
    """The rotations of a face that fit a pattern, worked out and kept in `fits`."""
    rotated = catalogue.faces[(card, face)].rotated
    fit = fits[need] = tuple(r for r in range(catalogue.lattice.rotations)
                             if fits_labels(rotated[r], need, match))
    return fit


def fits_somewhere(catalogue: Catalogue, frontier: Frontier, card: str, match: Matcher,
                   known: dict[Any, dict[Any, tuple[int, ...]]] | None = None) -> bool:
    """Whether some face of `card` fits some cell of the frontier in some rotation: the
    first of `placement_groups`, without a generator of groups made for it."""
    patterns = frontier.groups()
    for face in catalogue.card_faces[card]:
        fits = _fits_kept(known, catalogue, card, face)
        for need in patterns:
            fit = fits.get(need)
            if fit is None:
                fit = _fitting(catalogue, card, face, need, match, fits)
            if fit:
                return True
    return False


def mismatches(catalogue: Catalogue, board: dict[Cell, Placed], card: str, face: str,
               cell: Cell, rotation: int, match: Matcher,
               fmt: Callable[[Cell], str] | None = None) -> list[str]:
    """Why a placement does not fit, edge by edge, in words (cells written by `fmt`)."""
    lattice = catalogue.lattice
    fmt = fmt or lattice.format_cell
    info = catalogue.faces[(card, face)]
    out = []
    for slot in range(lattice.sides):
        other, back = lattice.neighbour(cell, slot)
        if other not in board:
            continue
        ocard, oface, orot = board[other]
        theirs = catalogue.faces[(ocard, oface)].rotated[orot][back]
        mine = info.rotated[rotation][slot]
        if not match(mine, theirs):
            out.append(f"its {mine} edge would meet the {theirs} edge of {ocard} at "
                       f"{fmt(other)}")
    return out


def walk_segments(lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue,
                  start: Cell, segments: Iterable[int], kind: str, steps: int,
                  allowed: set[Cell] | frozenset[Cell],
                  halting: set[Cell] | frozenset[Cell] = frozenset(),
                  across: frozenset[str] = frozenset(),
                  halting_at: frozenset[tuple[Cell, int]] = frozenset(),
                  ) -> dict[tuple[Cell, int], int]:
    """The segments of `kind` reachable from `start` in at most `steps` moves, by tile.

    A move crosses an edge that a `kind` segment reaches, into the segment of
    the same kind on the other side; it may only enter tiles in `allowed`,
    and a tile in `halting`, or a (tile, segment) in `halting_at`, may be
    entered but not left (something there stops the piece). So whatever
    divides that kind of area (another area, a barrier feature that splits a
    segment) also stops movement, except a barrier named in `across`, which
    the piece passes: segments of a face that such a barrier alone divides
    count as one. Returns each (tile, segment) reached with the fewest moves
    that reach it; segments of the start tile are not included, so a tile
    that a barrier splits shows only the side the piece actually got to.
    """
    def joined(cell: Cell, seg: int) -> list[int]:
        if not across:
            return [seg]
        card, face, _ = board[cell]
        return catalogue.faces[(card, face)].joined(seg, across)

    seen: dict[tuple[Cell, int], int] = {
        (start, j): 0 for s in segments for j in joined(start, s)}
    frontier = list(seen)
    for depth in range(1, steps + 1):
        nxt: list[tuple[Cell, int]] = []
        for cell, seg in frontier:
            card, face, rot = board[cell]
            info = catalogue.faces[(card, face)]
            for edge in info.segments[seg].edges:
                other, back = lattice.neighbour(cell, lattice.slot_of(edge, rot))
                if other not in board or other not in allowed:
                    continue
                ocard, oface, orot = board[other]
                theirs = catalogue.faces[(ocard, oface)].edge_segment.get(
                    (lattice.edge_at(back, orot), kind))
                if theirs is None or (other, theirs) in seen:
                    continue
                group = [j for j in joined(other, theirs) if (other, j) not in seen]
                stops = other in halting or any((other, j) in halting_at for j in group)
                for j in group:
                    seen[(other, j)] = depth
                    if not stops:
                        nxt.append((other, j))
        frontier = nxt
    return {key: d for key, d in seen.items() if key[0] != start}


def walk(lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue, start: Cell,
         segments: Iterable[int], kind: str, steps: int, allowed: set[Cell] | frozenset[Cell],
         halting: set[Cell] | frozenset[Cell] = frozenset(),
         across: frozenset[str] = frozenset(),
         halting_at: frozenset[tuple[Cell, int]] = frozenset()) -> dict[Cell, int]:
    """Tiles reachable from `start` in at most `steps` moves through segments of `kind`.

    `walk_segments`, told by tile: each tile any of whose segments is
    reached, with the fewest moves that reach it; the start tile is not
    included.
    """
    reached: dict[Cell, int] = {}
    for (cell, _), depth in walk_segments(lattice, board, catalogue, start, segments, kind,
                                          steps, allowed, halting, across, halting_at).items():
        if depth < reached.get(cell, steps + 1):
            reached[cell] = depth
    return reached


@dataclass(frozen=True)
class Unreached:
    """Why a walk did not get somewhere, for a ruling to say.

    `why` is one of: "elsewhere" (the place is not in an area of the kind
    walked), "cut_off" (no way through that kind of area leads there),
    "too_far" (`distance` moves are needed), "closed" (the place's own tile
    may not be entered), "barred" (every short enough way enters one of
    `cells`, which may not be entered) or "stopped" (every such way stops
    first on one of `cells`).
    """

    why: str
    distance: int | None = None
    cells: tuple[Cell, ...] = ()


def unreached(lattice: Lattice, board: dict[Cell, Placed], catalogue: Catalogue, start: Cell,
              segments: Iterable[int], kind: str, steps: int,
              allowed: set[Cell] | frozenset[Cell], target: Cell, target_segments: Iterable[int],
              halting: set[Cell] | frozenset[Cell] = frozenset(),
              across: frozenset[str] = frozenset(),
              halting_at: frozenset[tuple[Cell, int]] = frozenset()) -> Unreached | None:
    """Why `walk_segments` does not reach `target` (in one of `target_segments`), or None.

    Moves through one kind of area go both ways, so the tiles that lie on a
    short enough way are those whose distance from the start and from the
    target add up to at most `steps`; among them are the tiles to blame.
    """
    segments, wanted = list(segments), list(target_segments)
    if not wanted:
        return Unreached("elsewhere")
    goal = {(target, s) for s in wanted}
    reached = walk_segments(lattice, board, catalogue, start, segments, kind, steps, allowed,
                            halting, across, halting_at)
    if goal & set(reached):
        return None
    everywhere = frozenset(board)
    free = walk_segments(lattice, board, catalogue, start, segments, kind, len(board), everywhere,
                         across=across)
    found = [free[g] for g in goal if g in free]
    if not found:
        return Unreached("cut_off")
    if min(found) > steps:
        return Unreached("too_far", distance=min(found))
    if target not in allowed:
        return Unreached("closed", cells=(target,))
    back = walk_segments(lattice, board, catalogue, target, wanted, kind, steps, everywhere,
                         across=across)

    def shortest(table: dict[tuple[Cell, int], int], cell: Cell) -> int | None:
        ds = [d for (c, _), d in table.items() if c == cell]
        return min(ds) if ds else None

    between = []
    for cell in {c for c, _ in free}:
        a, b = shortest(free, cell), shortest(back, cell)
        if cell not in (start, target) and a is not None and b is not None and a + b <= steps:
            between.append(cell)
    barred = tuple(sorted((c for c in between if c not in allowed), key=lambda c: (c[1], c[0])))
    opened = walk_segments(lattice, board, catalogue, start, segments, kind, steps, allowed,
                           across=across)
    if not goal & set(opened):
        return Unreached("barred", cells=barred)
    stops = {c for c, _ in halting_at} | set(halting)
    return Unreached("stopped", cells=tuple(sorted((c for c in between if c in stops),
                                                   key=lambda c: (c[1], c[0]))))


def hop(lattice: Lattice, board: dict[Cell, Placed], start: Cell, steps: int | None,
        allowed: set[Cell] | frozenset[Cell] | None = None) -> dict[Cell, int]:
    """Tiles reachable from `start` across edges between laid tiles, whatever they show.

    Each tile maps to the fewest edge steps that reach it (at most `steps`,
    or any number when `steps` is None), entering only tiles in `allowed`
    (any laid tile when None). This is distance on the table, for what
    flies over a board's printing or measures how far apart two tiles lie;
    the start tile is not included.
    """
    seen = {start: 0}
    frontier = [start]
    depth = 0
    while frontier and (steps is None or depth < steps):
        depth += 1
        nxt = []
        for cell in frontier:
            for other in lattice.neighbours(cell):
                if other in seen or other not in board:
                    continue
                if allowed is not None and other not in allowed:
                    continue
                seen[other] = depth
                nxt.append(other)
        frontier = nxt
    seen.pop(start)
    return seen


def distance(lattice: Lattice, board: dict[Cell, Placed], a: Cell, b: Cell) -> int | None:
    """Edge steps from `a` to `b` through laid tiles, whatever they show; None: no way.

    Either end may be an empty cell (where a tile could go): only the cells
    stepped through between them must hold tiles.
    """
    if a == b:
        return 0
    seen = {a}
    frontier = [a]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for cell in frontier:
            for other in lattice.neighbours(cell):
                if other == b:
                    return depth
                if other in seen or other not in board:
                    continue
                seen.add(other)
                nxt.append(other)
        frontier = nxt
    return None


def cut_vertex(lattice: Lattice, board: dict[Cell, Placed], cell: Cell) -> bool:
    """Whether taking the tile at `cell` away would leave the tiles it touched in two
    groups or more (one search from one of them, around `cell`)."""
    touching = [c for c in lattice.neighbours(cell) if c in board]
    if len(touching) < 2:
        return False
    seen = {cell, touching[0]}
    todo = [touching[0]]
    left = set(touching[1:])
    while todo and left:
        c = todo.pop()
        for other in lattice.neighbours(c):
            if other in board and other not in seen:
                seen.add(other)
                left.discard(other)
                todo.append(other)
    return bool(left)
