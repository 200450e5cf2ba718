"""SVG pictures of tile faces and board positions, drawn from the ruleset's looks.

Nothing here knows what a game's tiles show. A ruleset says how each thing
looks (`look lake: fill "#3b6fa0"`, `look tower: square "#fff"`, `look red:
color "#d33"`), and the picture follows the face's own description:

* a cell is cut into one wedge per edge (centre, corner, next corner), and
  each wedge is filled with the look of the filled segment reaching that edge;
  two separate segments of the same kind side by side get a divider, drawn
  with the look of the feature that separates them (a `band` look) if any;
* segments with a `line` look are drawn as strokes from the edges they reach
  to the segment's anchor (its first feature, or the point between its edges);
* features and pieces are small icons (`circle`, `square`, `hexagon`...);
  a piece is filled with its owner's seat colour and outlined with its look.

Output is deterministic: the same state draws the same bytes. A picture has no
`id` inside (an arrowhead is a polygon, not a marker), so any number of pictures,
the same one twice included, can share a page.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from typing import Any

from compiler.engine.game import Game
from compiler.engine.state import State
from compiler.ir.english import counted
from compiler.kernel.boards import board_of, global_, local
from compiler.kernel.lattice import Cell, Point
from compiler.kernel.tiles import FaceInfo

Site = tuple[Cell, str]

FILL_SHAPES = {"fill"}
ICON_SHAPES = ("circle", "ring", "square", "diamond", "hexagon", "star", "gear", "triangle",
               "cross")
DEFAULT_FILL = "#2b2f3a"
OUTLINE = "#10131c"
TONES = {"ok": "#27ae60", "bad": "#e5383b", "focus": "#2f9bff"}
HIGHLIGHT = "#ffd166"


# ------------------------------------------------------------------ geometry

def _centroid(poly: Sequence[Point]) -> Point:
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def _mix(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _fmt(v: float) -> str:
    text = f"{v:.1f}"
    return "0" if text in ("0.0", "-0.0") else text.removesuffix(".0")


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)


def _inradius(poly: Sequence[Point]) -> float:
    c = _centroid(poly)
    return min(_dist(c, _mix(poly[i], poly[(i + 1) % len(poly)], 0.5)) for i in range(len(poly)))


# ------------------------------------------------------------------ icons

def icon(shape: str, at: Point, r: float, fill: str, stroke: str, *, width: float = 1.2,
         extra: str = "") -> str:
    """One icon: a shape centred on `at` with radius `r`."""
    x, y = at
    paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{_fmt(width)}"{extra}'
    if shape == "ring":
        return (f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r * 0.8)}" fill="none" '
                f'stroke="{fill}" stroke-width="{_fmt(r * 0.45)}"{extra}/>')
    if shape == "square":
        s = r * 0.85
        return (f'<rect x="{_fmt(x - s)}" y="{_fmt(y - s)}" width="{_fmt(2 * s)}" '
                f'height="{_fmt(2 * s)}" rx="{_fmt(r * 0.15)}" {paint}/>')
    if shape in ("diamond", "hexagon", "triangle"):
        n, turn = {"diamond": (4, 0.0), "hexagon": (6, math.pi / 6), "triangle": (3, 0.0)}[shape]
        pts = [(x + r * math.sin(turn + 2 * math.pi * k / n),
                y - r * math.cos(turn + 2 * math.pi * k / n)) for k in range(n)]
        return f'<polygon points="{_pts(pts)}" {paint}/>'
    if shape in ("star", "gear"):
        n, inner = (5, 0.45) if shape == "star" else (8, 0.72)
        pts = []
        for k in range(2 * n):
            rr = r if k % 2 == 0 else r * inner
            a = math.pi * k / n
            pts.append((x + rr * math.sin(a), y - rr * math.cos(a)))
        hole = (f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r * 0.3)}" fill="{stroke}"/>'
                if shape == "gear" else "")
        return f'<polygon points="{_pts(pts)}" {paint}/>{hole}'
    if shape == "cross":
        s = r * 0.8
        return (f'<path d="M{_fmt(x - s)},{_fmt(y - s)}L{_fmt(x + s)},{_fmt(y + s)}'
                f'M{_fmt(x + s)},{_fmt(y - s)}L{_fmt(x - s)},{_fmt(y + s)}" '
                f'stroke="{fill}" stroke-width="{_fmt(r * 0.4)}" stroke-linecap="round"{extra}/>')
    return f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}" {paint}/>'


# ------------------------------------------------------------------ drawing one face

def segment_look(game: Game, kind: str) -> tuple[str, str] | None:
    """An area kind's own look, else the look of the edge label it crosses."""
    own = game.looks.get(kind)
    if own is not None:
        return own
    entry = game.kinds.get(kind)
    for label in (getattr(entry[1], "crosses", []) if entry else []):
        if game.looks.get(label) is not None:
            return game.looks.get(label)
    return None


class FaceDrawing:
    """Where things are on one face laid in one cell, and how to draw it."""

    def __init__(self, game: Game, face: FaceInfo, poly: Sequence[Point], rotation: int) -> None:
        self.game = game
        self.face = face
        self.poly = list(poly)
        self.rotation = rotation
        self.sides = len(self.poly)
        self.centre = _centroid(self.poly)
        self.inradius = _inradius(self.poly)
        self.icon_r = self.inradius * 0.22
        self.sites = self._place_sites()

    # -- looks

    def look(self, name: str) -> tuple[str, str] | None:
        return self.game.looks.get(name)

    def segment_look(self, kind: str) -> tuple[str, str] | None:
        return segment_look(self.game, kind)

    def is_fill(self, kind: str) -> bool:
        lk = self.segment_look(kind)
        return lk is None or lk[0] in FILL_SHAPES

    # -- positions

    def slot_of(self, edge: int) -> int:
        return (edge + self.rotation) % self.sides

    def edge_mid(self, edge: int) -> Point:
        s = self.slot_of(edge)
        return _mix(self.poly[s], self.poly[(s + 1) % self.sides], 0.5)

    def anchor(self, segment: int) -> Point:
        seg = self.face.segments[segment]
        if not seg.edges or len(seg.edges) == self.sides:
            return self.centre
        mids = [self.edge_mid(e) for e in seg.edges]
        toward = _centroid(mids)
        return _mix(self.centre, toward, 0.55 if len(seg.edges) == 1 else 0.35)

    def _place_sites(self) -> dict[str, Point]:
        """Features first (they are printed), then segment sites; no two overlap."""
        placed: dict[str, Point] = {}
        gap = self.icon_r * 2.3
        order = sorted(self.face.sites.values(), key=lambda s: (not s.is_feature, s.segment))
        for site in order:
            want = self.anchor(site.segment)
            seg = self.face.segments[site.segment]
            tries = [want]
            for t in (0.35, 0.6):
                tries += [_mix(want, self.edge_mid(e), t) for e in seg.edges]
                tries += [_mix(want, self.poly[k], t * 0.8) for k in range(self.sides)]
            spot = next((p for p in tries if all(_dist(p, q) >= gap for q in placed.values())),
                        tries[-1])
            placed[site.name] = spot
        return placed

    # -- layers

    def ground(self) -> list[str]:
        """The wedges, then dividers between separate segments of one kind."""
        out: list[str] = []
        owner: list[int | None] = []
        for slot in range(self.sides):
            edge = (slot - self.rotation) % self.sides
            seg = next((s for s in self.face.segments
                        if edge in s.edges and self.is_fill(s.kind)), None)
            owner.append(seg.index if seg else None)
            lk = self.segment_look(seg.kind) if seg else None
            colour = lk[1] if lk else DEFAULT_FILL
            wedge = [self.centre, self.poly[slot], self.poly[(slot + 1) % self.sides]]
            out.append(f'<polygon points="{_pts(wedge)}" fill="{colour}" stroke="{colour}" '
                       'stroke-width="0.6" stroke-linejoin="round"/>')
        for slot in range(self.sides):
            a, b = owner[slot], owner[(slot + 1) % self.sides]
            if a is None or b is None or a == b:
                continue
            sa, sb = self.face.segments[a], self.face.segments[b]
            corner = self.poly[(slot + 1) % self.sides]
            if sa.kind == sb.kind:
                band = next((self.look(f) for f in sa.features + sb.features
                             if (self.look(f) or ("", ""))[0] == "band"), None)
                colour = band[1] if band else OUTLINE
                width = self.inradius * (0.16 if band else 0.05)
                out.append(f'<line x1="{_fmt(self.centre[0])}" y1="{_fmt(self.centre[1])}" '
                           f'x2="{_fmt(corner[0])}" y2="{_fmt(corner[1])}" stroke="{colour}" '
                           f'stroke-width="{_fmt(width)}" stroke-linecap="round" '
                           f'stroke-dasharray="{"" if not band else _fmt(width * 0.9)}"/>'
                           .replace(' stroke-dasharray=""', ""))
        return out

    def strokes(self) -> list[str]:
        """Segments drawn as lines, e.g. paths, from each edge to the anchor."""
        out: list[str] = []
        for seg in self.face.segments:
            lk = self.segment_look(seg.kind)
            if lk is None or lk[0] != "line":
                continue
            hub = next((self.sites[f.name] for f in self.face.sites.values()
                        if f.is_feature and f.segment == seg.index), self.anchor(seg.index))
            width = self.inradius * 0.12
            for e in seg.edges:
                m = self.edge_mid(e)
                out.append(f'<line x1="{_fmt(m[0])}" y1="{_fmt(m[1])}" x2="{_fmt(hub[0])}" '
                           f'y2="{_fmt(hub[1])}" stroke="{lk[1]}" stroke-width="{_fmt(width)}" '
                           'stroke-linecap="round" opacity="0.9"/>')
        return out

    def features(self) -> list[str]:
        out: list[str] = []
        for site in self.face.sites.values():
            if not site.is_feature:
                continue
            lk = self.look(site.kind)
            if lk is None or lk[0] == "band":
                continue
            shape = lk[0] if lk[0] in ICON_SHAPES else "circle"
            title = self.game.title(site.kind)
            out.append(f'<g class="feature"><title>{html.escape(title)}</title>'
                       f'{icon(shape, self.sites[site.name], self.icon_r, lk[1], OUTLINE)}</g>')
        return out

    def outline(self, stroke: str = OUTLINE, width: float = 1.0, dash: str = "") -> str:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<polygon points="{_pts(self.poly)}" fill="none" stroke="{stroke}" '
                f'stroke-width="{_fmt(width)}" stroke-linejoin="round"{extra}/>')

    def layers(self) -> list[str]:
        return self.ground() + self.strokes() + self.features() + [self.outline()]


# ------------------------------------------------------------------ whole pictures

def _finish(body: list[str], box: tuple[float, float, float, float], width: float,
            title: str, css_class: str) -> str:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    height = width * h / w if w else width
    inner = "".join(body)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" role="img" '
            f'viewBox="{_fmt(x0)} {_fmt(y0)} {_fmt(w)} {_fmt(h)}" width="{_fmt(width)}" '
            f'height="{_fmt(height)}"><title>{html.escape(title)}</title>{inner}</svg>')


def face_svg(game: Game, card: str, face: str, *, size: float = 120, label: bool = False) -> str:
    """One face, unrotated, as the catalogue shows it; `label` numbers its edges."""
    info = game.catalogue.face(card, face)
    cell: Cell = (0, 0)
    poly = game.lattice.polygon(cell, size)
    d = FaceDrawing(game, info, poly, 0)
    body = [f'<g class="tile">'] + d.layers() + ["</g>"]
    if label:
        for e in range(game.lattice.sides):
            p = _mix(d.edge_mid(e), d.centre, 0.18)
            body.append(f'<text x="{_fmt(p[0])}" y="{_fmt(p[1])}" font-size="{_fmt(size * 0.1)}" '
                        f'text-anchor="middle" dominant-baseline="middle" fill="#fff" '
                        f'font-family="sans-serif">{e}</text>')
    m = size * 0.04
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return _finish(body, (min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m), size + 2 * m,
                   f"Tile {card}, face {face}", "tile-svg")


def _label(p: Point, text: str, size: float, fill: str = "#fff", weight: str = "normal") -> str:
    return (f'<text x="{_fmt(p[0])}" y="{_fmt(p[1])}" font-size="{_fmt(size)}" '
            f'text-anchor="middle" dominant-baseline="middle" fill="{fill}" '
            f'font-weight="{weight}" font-family="sans-serif">{html.escape(text)}</text>')


def grid_svg(game: Game, cells: Sequence[Cell], *, size: float = 110,
             max_width: float = 640) -> str:
    """Empty cells with their coordinates and their slots numbered: the lattice's coordinate
    system as a picture (the formats page). Slot s is the side from corner s to corner s+1
    of `Lattice.polygon`, so the numbers are the lattice's own, not redrawn by hand."""
    lattice = game.lattice
    body: list[str] = []
    points: list[Point] = []
    for cell in cells:
        poly = lattice.polygon(cell, size)
        points += poly
        centre = _centroid(poly)
        body.append(f'<polygon points="{_pts(poly)}" fill="{DEFAULT_FILL}" stroke="#8a93a6" '
                    'stroke-width="1.2"/>')
        body.append(_label(centre, lattice.format_cell(cell), size * 0.13, weight="bold"))
        for slot in range(lattice.sides):
            mid = _mix(poly[slot], poly[(slot + 1) % lattice.sides], 0.5)
            body.append(_label(_mix(mid, centre, 0.28), str(slot), size * 0.1, fill=HIGHLIGHT))
    m = size * 0.05
    box = (min(p[0] for p in points) - m, min(p[1] for p in points) - m,
           max(p[0] for p in points) + m, max(p[1] for p in points) + m)
    return _finish(body, box, min(max_width, box[2] - box[0]),
                   "Cells with their coordinates x,y and their sides (slots) numbered", "grid-svg")


def rotations_svg(game: Game, card: str, face: str, *, size: float = 110) -> str:
    """One face laid in the first cell at every rotation, each edge numbered where it lands."""
    lattice = game.lattice
    info = game.catalogue.face(card, face)
    poly = lattice.polygon(game.first_cell, size)
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    step = (max(xs) - min(xs)) * 1.15
    body: list[str] = []
    for r in range(lattice.rotations):
        d = FaceDrawing(game, info, poly, r)
        body.append(f'<g transform="translate({_fmt(r * step)},0)"><g class="tile">')
        body += d.layers()
        for e in range(lattice.sides):
            body.append(_label(_mix(d.edge_mid(e), d.centre, 0.2), str(e), size * 0.11))
        body.append("</g>")
        body.append(_label(((min(xs) + max(xs)) / 2, max(ys) + size * 0.12), f"r{r}",
                           size * 0.12, fill="#8a93a6", weight="bold"))
        body.append("</g>")
    m = size * 0.05
    box = (min(xs) - m, min(ys) - m, max(xs) + (lattice.rotations - 1) * step + m,
           max(ys) + size * 0.22)
    return _finish(body, box, box[2] - box[0],
                   f"Tile {card}, face {face}, laid with each rotation; its edges numbered",
                   "rotations-svg")


def board_svg(game: Game, state: State, *, size: float = 70, max_width: float = 640,
              labels: bool = True, highlight: Iterable[Cell] = (),
              marks: Iterable[tuple[Site, str]] = (),
              ghost: tuple[str, str, Cell, int] | None = None,
              arrows: Iterable[tuple[Site, Site]] = (),
              empty_cells: Iterable[Cell] = (), interactive: bool = False) -> str:
    """The tiles and pieces of a position, with the marks a worked example needs.

    `interactive` (the judge's page) adds click targets: `data-cell` on laid tiles
    and on the empty cells (class "open"), a transparent `data-site` circle on
    every site of a laid tile, `data-piece` (its index) on pieces, and
    `data-board` on each player's board label; the rulebook's pictures leave it off.

    `highlight` rings cells (a tile just laid); `marks` ring sites in a tone
    ("ok", "bad" or "focus"); `ghost` shows a tile someone tried to lay;
    `arrows` join two sites (a move from one to the other); `empty_cells`
    are outlined with a dashed line.
    """
    lattice = game.lattice
    marks = list(marks)
    arrows = list(arrows)
    marked = [site[0] for site, _ in marks if site is not None]
    marked += [site[0] for pair in arrows for site in pair if site is not None]
    ghost_cell = ghost[2] if ghost is not None and all(v is not None for v in ghost) else None
    extra = [*empty_cells, *marked]
    if game.per_player:  # the origin of a board nobody has built on yet shows where it starts
        extra += [global_(p, game.first_cell) for p in range(state.players)
                  if not any(board_of(c) == p for c in state.board)]
    layout = _Layout(game, state, size, [*state.board, *extra] +
                     ([ghost_cell] if ghost_cell is not None else []))
    poly = layout.polygon
    drawings: dict[Cell, FaceDrawing] = {}
    for cell, (card, face, rot) in sorted(state.board.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        info = game.catalogue.face(card, face)
        drawings[cell] = FaceDrawing(game, info, poly(cell), rot)
    ghost_drawing = None
    if ghost is not None and ghost_cell is not None:
        gcard, gface, gcell, grot = ghost
        if (gcard, gface) in game.catalogue.faces:
            ghost_drawing = FaceDrawing(game, game.catalogue.face(gcard, gface),
                                        poly(gcell), int(grot) % lattice.sides)
    empties = list(dict.fromkeys(c for c in extra if c not in drawings))

    def site_point(site: Site) -> Point:
        cell, name = site
        d = drawings.get(cell)
        if d is not None and name in d.sites:
            return d.sites[name]
        return _centroid(poly(cell))

    body: list[str] = []
    for cell, d in drawings.items():
        card, face, rot = state.board[cell]
        title = f"{layout.cell_text(cell)}: tile {card}, face {face}, turned {rot}"
        here = f' data-cell="{html.escape(game.format_cell(cell))}"' if interactive else ""
        body.append(f'<g class="tile"{here}><title>{html.escape(title)}</title>')
        as_card = _card_layers(game, state, cell, d, size)
        body += as_card or d.layers()
        if labels:
            p = _mix(d.centre, d.poly[0], 0.62)
            ink = "#555" if as_card and face != "down" else "#fff"
            body.append(f'<text x="{_fmt(p[0])}" y="{_fmt(p[1])}" font-size="{_fmt(size * 0.11)}" '
                        f'text-anchor="middle" dominant-baseline="middle" fill="{ink}" '
                        f'fill-opacity="0.7" font-family="sans-serif">'
                        f"{layout.cell_text(cell)}</text>")
        body.append("</g>")
    for cell in empties:
        if interactive:
            body.append(f'<polygon class="open" data-cell="{html.escape(game.format_cell(cell))}" '
                        f'points="{_pts(poly(cell))}" fill="transparent" stroke="#888" '
                        'stroke-width="1" stroke-dasharray="4 3"/>')
            continue
        body.append(f'<polygon class="empty" points="{_pts(poly(cell))}" fill="none" stroke="#888" '
                    'stroke-width="1" stroke-dasharray="4 3"/>')
    if ghost_drawing is not None:
        gcard, gface, gcell, grot = ghost  # type: ignore[misc]
        title = f"tried: tile {gcard}, face {gface} at {layout.cell_text(gcell)}, turned {grot}"
        body.append(f'<g class="tile ghost" opacity="0.6"><title>{html.escape(title)}</title>')
        body += ghost_drawing.ground() + ghost_drawing.strokes() + ghost_drawing.features()
        body.append(ghost_drawing.outline(TONES["bad"], 2.5, "6 4"))
        body.append("</g>")
    for cell in highlight:
        if cell is None:
            continue
        body.append(f'<polygon class="highlight" points="{_pts(poly(cell))}" fill="none" '
                    f'stroke="{HIGHLIGHT}" stroke-width="3" stroke-linejoin="round"/>')
    if interactive:
        for cell, d in drawings.items():
            for name, p in d.sites.items():
                body.append(f'<circle class="site" data-site="{html.escape(game.format_cell(cell))}'
                            f':{html.escape(str(name))}" cx="{_fmt(p[0])}" cy="{_fmt(p[1])}" '
                            f'r="{_fmt(size * 0.12)}" fill="transparent"/>')
    def piece_point(site: Site, depth: int, r: float) -> Point:
        """Beside the site's feature, toward the tile's middle, so the feature stays in
        sight; a stack climbs up and right; never outside the tile."""
        cell, name = site
        d = drawings.get(cell)
        p = site_point(site)
        if d is None:
            return (p[0] + depth * r * 0.9, p[1] - depth * r * 0.9)
        feature = name in d.face.sites and d.face.sites[name].is_feature
        if feature:
            to_mid = _dist(p, d.centre)
            unit = ((d.centre[0] - p[0]) / to_mid, (d.centre[1] - p[1]) / to_mid) \
                if to_mid > r else (0.7071, -0.7071)
            p = (p[0] + unit[0] * (d.icon_r + r) * 1.05, p[1] + unit[1] * (d.icon_r + r) * 1.05)
        p = (p[0] + depth * r * 0.9, p[1] - depth * r * 0.9)
        room = d.inradius - r * 1.3
        out = _dist(p, d.centre)
        return p if out <= room else _mix(d.centre, p, room / out)

    body += _pieces(game, state, piece_point, size, layout.cell_text, interactive)
    body += layout.labels(interactive)
    for site, tone in marks:
        if site is None:
            continue
        p = site_point(site)
        body.append(f'<circle class="mark {tone}" cx="{_fmt(p[0])}" cy="{_fmt(p[1])}" '
                    f'r="{_fmt(size * 0.16)}" fill="none" stroke="{TONES.get(tone, TONES["focus"])}" '
                    'stroke-width="2.5"/>')
    for a, b in arrows:
        if a is None or b is None:
            continue
        p, q = site_point(a), site_point(b)
        gap = size * 0.17
        length = _dist(p, q)
        if length <= 2 * gap:
            continue
        body.append(_arrow(_mix(p, q, gap / length), _mix(q, p, gap / length), size * 0.09))

    cells = list(drawings) + empties
    if ghost_drawing is not None and ghost is not None:
        cells.append(ghost[2])
    if not cells:
        cells = [game.first_cell]
    points = [p for c in cells for p in poly(c)]
    m = size * 0.12
    box = (min(p[0] for p in points) - m, min(p[1] for p in points) - m - layout.label_room,
           max(p[0] for p in points) + m, max(p[1] for p in points) + m)
    width = min(max_width, box[2] - box[0])
    title = f"Board with {counted(len(drawings), 'tile')}" if not game.per_player else \
        "Boards of " + ", ".join(game.seat_name(p) for p in range(state.players)) + \
        f", with {counted(len(drawings), 'tile')} in all"
    return _finish(body, box, width, title, "board-svg")


def _arrow(start: Point, end: Point, head: float) -> str:
    """A line with its head drawn as a polygon, not an SVG marker: a marker needs an id,
    and ids repeat when one page shows the same picture twice."""
    back = _mix(end, start, head / _dist(start, end))
    dx, dy = end[0] - back[0], end[1] - back[1]
    wings = [(back[0] - dy * 0.6, back[1] + dx * 0.6), (back[0] + dy * 0.6, back[1] - dx * 0.6)]
    return (f'<g class="arrow"><line x1="{_fmt(start[0])}" y1="{_fmt(start[1])}" '
            f'x2="{_fmt(back[0])}" y2="{_fmt(back[1])}" stroke="{TONES["focus"]}" '
            f'stroke-width="2.5"/><polygon points="{_pts([end, *wings])}" '
            f'fill="{TONES["focus"]}"/></g>')


def _card_layers(game: Game, state: State, cell: Cell, d: FaceDrawing, size: float
                 ) -> list[str] | None:
    """A printed card with no faces of its own, as it lies: its name and what it holds
    face up, a dark back face down (it shows nothing). None for a tile with faces."""
    card, face, _ = state.board[cell]
    info = game.cards.cards.get(card)
    if info is None or not info.synthetic:
        return None
    c = d.centre
    if face == "down":
        return [f'<polygon class="card down" points="{_pts(d.poly)}" fill="#5b524a" '
                f'stroke="{OUTLINE}" stroke-width="1"/>',
                _label(c, "face down", size * 0.12, "#e8e0d4")]
    out = [f'<polygon class="card" points="{_pts(d.poly)}" fill="#f3ecdf" stroke="{OUTLINE}" '
           'stroke-width="1"/>', _label(c, info.title, size * 0.16, "#2b2b2b", "bold")]
    held = [f"{amount} {game.title(res, plural=amount != 1)}"
            for res, amount in sorted(state.tile_res.get(cell, {}).items()) if amount]
    if held:
        out.append(_label((c[0], c[1] + size * 0.2), ", ".join(held), size * 0.12, "#6b4e16"))
    return out


class _Layout:
    """Where each cell is drawn: as it is, or, with a board per player, on its own board.

    Boards per player share one plane thousands of cells apart (kernel/boards.py);
    a picture shows each player's board in its own coordinates, side by side in
    seat order, its top-left corner aligned with the others and its seat's name
    above it in the seat's colour.
    """

    def __init__(self, game: Game, state: State, size: float, cells: Iterable[Cell]) -> None:
        self.game, self.size = game, size
        self.offsets: dict[int, Point] = {}
        self.spans: dict[int, tuple[float, float, float]] = {}  # left, right, top, drawn
        self.label_room = 0.0
        if not game.per_player:
            return
        lattice = game.lattice
        by_board: dict[int, list[Cell]] = {p: [] for p in range(state.players)}
        for c in cells:
            by_board.setdefault(board_of(c), []).append(local(c))
        x = 0.0
        for p in sorted(by_board):
            local_cells = by_board[p] or [game.first_cell]
            pts = [q for c in local_cells for q in lattice.polygon(c, size)]
            left, right = min(q[0] for q in pts), max(q[0] for q in pts)
            top = min(q[1] for q in pts)
            self.offsets[p] = (x - left, -top)
            self.spans[p] = (x, x + right - left, 0.0)
            x += right - left + size * 0.6
        self.label_room = size * 0.45

    def polygon(self, cell: Cell) -> list[Point]:
        if not self.offsets:
            return self.game.lattice.polygon(cell, self.size)
        dx, dy = self.offsets[board_of(cell)]
        return [(px + dx, py + dy) for px, py in self.game.lattice.polygon(local(cell), self.size)]

    def cell_text(self, cell: Cell) -> str:
        """The cell as a reader of this board writes it: in the board's own coordinates."""
        return self.game.lattice.format_cell(local(cell) if self.offsets else cell)

    def labels(self, interactive: bool = False) -> list[str]:
        out = []
        for p, (left, right, top) in self.spans.items():
            colour = self.game.looks.get(self.game.seat_id(p), ("color", "#555555"))[1]
            at = ((left + right) / 2, top - self.label_room / 2)
            board = f' data-board="{html.escape(self.game.seat_id(p))}"' if interactive else ""
            out.append(f'<g class="board-label"{board}>'
                       + _label(at, self.game.seat_name(p), self.size * 0.22, colour, "bold")
                       + "</g>")
        return out


def _pieces(game: Game, state: State, piece_point: Any, size: float,
            cell_text: Any = None, interactive: bool = False) -> list[str]:
    """Pieces, a stack drawn bottom first; `piece_point(site, depth, r)` says where."""
    out: list[str] = []
    r = size * 0.085
    index = 0  # a piece's place in the position file's `pieces`, listed in this same order
    for site, stack in sorted(state.stacks_at.items(),
                              key=lambda kv: (kv[0][0][1], kv[0][0][0], kv[0][1])):
        for depth, pid in enumerate(stack):
            piece = state.pieces.get(pid)
            if piece is None:
                continue
            lk = game.looks.get(piece.kind, ("circle", "#ffffff"))
            seat = game.seat_id(piece.owner)
            colour = game.looks.get(seat, ("color", "#999999"))[1]
            at = piece_point(site, depth, r)
            shape = lk[0] if lk[0] in ICON_SHAPES else "circle"
            title = (f"{game.seat_name(piece.owner)}'s {game.title(piece.kind)} at "
                     f"{(cell_text or game.lattice.format_cell)(site[0])}:{site[1]}")
            target = f' data-piece="{index}"' if interactive else ""
            index += 1
            out.append(f'<g class="piece"{target}><title>{html.escape(title)}</title>'
                       f'{icon(shape, at, r, colour, lk[1], width=1.6)}</g>')
    return out


# ------------------------------------------------------------------ the key

def swatch(body: str, size: int = 24) -> str:
    """A small picture for a key: `body` drawn in a 24×24 box."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="{size}" '
            f'height="{size}" aria-hidden="true">{body}</svg>')


def piece_swatch(game: Game, kind: str, colour: str = "#999999") -> str:
    """A piece kind as the pictures draw it (one home: the judge's legend uses it too)."""
    shape, stroke = game.looks.get(kind, ("circle", "#ffffff"))
    return swatch(icon(shape if shape in ICON_SHAPES else "circle", (12, 12), 9, colour,
                       stroke, width=1.6))


MARK_WORDS = {
    "ok": "green ring: a place where this is allowed",
    "bad": "red ring: a place where this is not allowed",
    "focus": "blue ring: the place this example is about",
}


def board_key(game: Game, states: Iterable[State], *, marks: Iterable[tuple[Site, str]] = (),
              arrows: Iterable[Any] = (), highlight: Iterable[Cell] = (),
              ghost: Any = None, empty_cells: Iterable[Cell] = ()) -> list[tuple[str, str]]:
    """What the marks in these pictures mean, as (small picture, words): only the
    terrain, features, pieces, seats and marks the pictures actually show."""
    terrain: dict[str, str] = {}
    features: dict[str, str] = {}
    pieces: dict[str, None] = {}
    seats: dict[int, None] = {}
    for state in states:
        for card, face, _ in state.board.values():
            if (card, face) not in game.catalogue.faces:
                continue
            info = game.catalogue.face(card, face)
            for seg in info.segments:
                lk = segment_look(game, seg.kind)
                if lk is not None and lk[0] in FILL_SHAPES | {"line"}:
                    terrain.setdefault(seg.kind, lk[0] + " " + lk[1])
            for site in info.sites.values():
                lk = game.looks.get(site.kind)
                if site.is_feature and lk is not None and lk[0] != "band":
                    features.setdefault(site.kind, lk[0] + " " + lk[1])
        for piece in state.pieces.values():
            if any(piece.id in stack for stack in state.stacks_at.values()):
                pieces[piece.kind] = None
                seats[piece.owner] = None
    out: list[tuple[str, str]] = []
    for kind, look in terrain.items():
        shape, colour = look.split(" ", 1)
        body = (f'<rect x="2" y="5" width="20" height="14" rx="2" fill="{colour}" '
                f'stroke="{OUTLINE}"/>' if shape == "fill" else
                f'<line x1="2" y1="12" x2="22" y2="12" stroke="{colour}" stroke-width="4" '
                'stroke-linecap="round"/>')
        out.append((swatch(body), game.title(kind)))
    for kind, look in features.items():
        shape, colour = look.split(" ", 1)
        out.append((swatch(icon(shape if shape in ICON_SHAPES else "circle", (12, 12), 8,
                                colour, OUTLINE)), game.title(kind)))
    for kind in pieces:
        out.append((piece_swatch(game, kind), f"{game.title(kind)} (a piece)"))
    for seat in sorted(seats):
        colour = game.looks.get(game.seat_id(seat), ("color", "#999999"))[1]
        out.append((swatch(f'<circle cx="12" cy="12" r="9" fill="{colour}" stroke="{OUTLINE}"/>'),
                    f"{game.seat_name(seat)}'s pieces"))
    tones = list(dict.fromkeys(tone for site, tone in marks if site is not None))
    for tone in tones:
        out.append((swatch(f'<circle cx="12" cy="12" r="8" fill="none" '
                           f'stroke="{TONES.get(tone, TONES["focus"])}" stroke-width="2.5"/>'),
                    MARK_WORDS.get(tone, MARK_WORDS["focus"])))
    if any(a is not None and b is not None for a, b in arrows):
        out.append((swatch(_arrow((2, 12), (22, 12), 7)), "arrow: a piece moves from here to there"))
    if any(c is not None for c in highlight):
        out.append((swatch(f'<rect x="3" y="3" width="18" height="18" fill="none" '
                           f'stroke="{HIGHLIGHT}" stroke-width="3"/>'),
                    "yellow outline: the tile just laid"))
    if ghost is not None and all(v is not None for v in ghost):
        out.append((swatch(f'<rect x="3" y="3" width="18" height="18" fill="none" '
                           f'stroke="{TONES["bad"]}" stroke-width="2.5" stroke-dasharray="4 3"/>'),
                    "faded, red dashed outline: the tile someone tried to lay"))
    if list(empty_cells):
        out.append((swatch('<rect x="3" y="3" width="18" height="18" fill="none" stroke="#888" '
                           'stroke-dasharray="4 3"/>'), "dashed outline: an empty place"))
    return out


def key_html(items: Sequence[tuple[str, str]]) -> str:
    """The key as a list under the pictures it explains."""
    if not items:
        return ""
    rows = "".join(f'<li>{pic}<span>{html.escape(words)}</span></li>' for pic, words in items)
    return f'<ul class="diagram-key" aria-label="Key to the pictures">{rows}</ul>'
