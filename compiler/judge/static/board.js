// The board: the server's SVG, zoomed and panned by wheel, pinch, drag or buttons; a tap
// (a press that did not move) reports what was under it: a piece, a site, a cell.

const TAP_SLOP = 8;

export class Board {
  /** `onTap({piece, site, cell, board, element})` is called for a tap on a click target. */
  constructor(frame, inner, onTap) {
    this.frame = frame;
    this.inner = inner;
    this.onTap = onTap;
    this.scale = 1; this.x = 0; this.y = 0;
    this.pointers = new Map();
    this.fitted = false;
    frame.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    frame.addEventListener("pointerdown", (e) => this.down(e));
    frame.addEventListener("pointermove", (e) => this.move(e));
    frame.addEventListener("pointerup", (e) => this.up(e));
    frame.addEventListener("pointercancel", (e) => this.pointers.delete(e.pointerId));
    frame.addEventListener("keydown", (e) => {
      if (e.key === "+" || e.key === "=") this.zoom(1.25);
      else if (e.key === "-") this.zoom(0.8);
      else if (e.key === "0") this.fit();
    });
  }

  /** Show a new picture; keep the view unless this is the first, or `refit` asks. */
  show(svgText, refit = false) {
    this.inner.innerHTML = svgText;
    const svg = this.inner.querySelector("svg");
    if (svg) {
      const vb = svg.viewBox && svg.viewBox.baseVal;
      const w = parseFloat(svg.getAttribute("width")) || (vb && vb.width) || 600;
      const h = parseFloat(svg.getAttribute("height")) || (vb && vb.height) || 400;
      svg.setAttribute("width", w); svg.setAttribute("height", h);
      this.size = { w, h };
    }
    if (refit || !this.fitted || !this.moved) this.fit();
  }

  fit() {
    if (!this.size) return;
    const fw = this.frame.clientWidth, fh = this.frame.clientHeight;
    this.scale = Math.min(3, Math.min(fw / this.size.w, fh / this.size.h) * 0.96);
    this.x = (fw - this.size.w * this.scale) / 2;
    this.y = (fh - this.size.h * this.scale) / 2;
    this.fitted = true;
    this.moved = false;  // until the judge zooms or pans, every new picture is fitted
    this.apply();
  }

  /** Fit the view to the elements matching `selector` (one player's board, say): a board
   *  among several is too small to read when all of them share a phone's width. */
  fitTo(selector) {
    const els = [...this.inner.querySelectorAll(selector)];
    if (!els.length) return this.fit();
    const base = this.inner.getBoundingClientRect();
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const e of els) {
      const r = e.getBoundingClientRect();
      x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top); x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
    }
    // the content's own units: the picture as drawn at scale 1
    x0 = (x0 - base.left) / this.scale; x1 = (x1 - base.left) / this.scale;
    y0 = (y0 - base.top) / this.scale; y1 = (y1 - base.top) / this.scale;
    const fw = this.frame.clientWidth, fh = this.frame.clientHeight;
    this.scale = Math.min(4, Math.min(fw / (x1 - x0), fh / (y1 - y0)) * 0.92);
    this.x = fw / 2 - ((x0 + x1) / 2) * this.scale;
    this.y = fh / 2 - ((y0 + y1) / 2) * this.scale;
    this.fitted = true;
    this.moved = true;  // a chosen view: kept while the table is edited
    this.apply();
  }

  /** Zoom by `factor` about a point of the frame (its centre by default). */
  zoom(factor, cx = this.frame.clientWidth / 2, cy = this.frame.clientHeight / 2) {
    const scale = Math.min(12, Math.max(0.1, this.scale * factor));
    const k = scale / this.scale;
    this.x = cx - (cx - this.x) * k;
    this.y = cy - (cy - this.y) * k;
    this.scale = scale;
    this.moved = true;
    this.apply();
  }

  apply() {
    this.inner.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
  }

  wheel(e) {
    e.preventDefault();
    const r = this.frame.getBoundingClientRect();
    this.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
  }

  down(e) {
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY, target: e.target });
    if (this.pointers.size === 2) this.pinch = this.spread();
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2 };
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    p.x = e.clientX; p.y = e.clientY;
    if (Math.hypot(p.x - p.x0, p.y - p.y0) > TAP_SLOP) {
      p.dragged = true;
      if (!this.frame.hasPointerCapture(e.pointerId)) this.frame.setPointerCapture(e.pointerId);
    }
    if (this.pointers.size === 2) {
      const now = this.spread(), r = this.frame.getBoundingClientRect();
      if (this.pinch && this.pinch.d > 0) this.zoom(now.d / this.pinch.d, now.cx - r.left, now.cy - r.top);
      this.x += now.cx - this.pinch.cx; this.y += now.cy - this.pinch.cy;
      this.pinch = now;
      for (const q of this.pointers.values()) q.dragged = true;
      this.apply();
    } else if (p.dragged) {
      this.x += dx; this.y += dy;
      this.moved = true;
      this.apply();
    }
  }

  up(e) {
    const p = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (!p || p.dragged) return;
    const target = p.target instanceof Element ? p.target : null;
    if (!target) return;
    const piece = target.closest("[data-piece]"), site = target.closest("[data-site]");
    const cell = target.closest("[data-cell]"), board = target.closest("[data-board]");
    if (!piece && !site && !cell) return;
    this.onTap({
      piece: piece ? Number(piece.dataset.piece) : null,
      site: site ? site.dataset.site : null,
      cell: cell ? cell.dataset.cell : (site ? site.dataset.site.split(":")[0] : null),
      open: !!(cell && cell.classList.contains("open")),
      // a board per player: its cells are named "seat/x,y"
      board: (board && board.dataset.board) || (cell && cell.dataset.board)
        || (cell && cell.dataset.cell.includes("/") ? cell.dataset.cell.split("/")[0] : null),
      element: piece || site || cell,
    });
  }

  /** Mark elements (by selector) with a class, removing it from all others first. */
  mark(cls, selectors) {
    for (const el of this.inner.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
    for (const sel of selectors) for (const el of this.inner.querySelectorAll(sel)) el.classList.add(cls);
  }
}
