// Tap or click a diagram to see it full screen; pinch, wheel or +/- to zoom, drag to pan.
// Escape (or the close button) closes it and gives focus back to the diagram.
// No dependency and nothing fetched: the page's own SVG is copied into a <dialog>.
(() => {
  const SELECTOR = ".md-typeset .diagrams figure, .md-typeset .tile-face, .md-typeset .card-picture";
  let dialog, stage, view = { scale: 1, x: 0, y: 0 }, opener = null;
  const pointers = new Map();
  let pinch = null;

  function apply() {
    const svg = stage.firstElementChild;
    if (svg) svg.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  }

  function zoom(factor, cx, cy) {
    const rect = stage.getBoundingClientRect();
    const px = (cx ?? rect.left + rect.width / 2) - rect.left - rect.width / 2;
    const py = (cy ?? rect.top + rect.height / 2) - rect.top - rect.height / 2;
    const next = Math.min(8, Math.max(1, view.scale * factor));
    const f = next / view.scale;
    view = { scale: next, x: px - (px - view.x) * f, y: py - (py - view.y) * f };
    if (next === 1) view = { scale: 1, x: 0, y: 0 };
    apply();
  }

  function build() {
    dialog = document.createElement("dialog");
    dialog.className = "diagram-zoom";
    dialog.setAttribute("aria-label", "Diagram, enlarged");
    dialog.innerHTML = '<div class="diagram-zoom__bar">' +
      '<span class="diagram-zoom__caption"></span>' +
      '<button type="button" data-zoom="1.5" aria-label="Zoom in">+</button>' +
      '<button type="button" data-zoom="0.667" aria-label="Zoom out">−</button>' +
      '<button type="button" data-close aria-label="Close">✕</button></div>' +
      '<div class="diagram-zoom__stage"></div>';
    stage = dialog.querySelector(".diagram-zoom__stage");
    dialog.addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (b?.dataset.zoom) zoom(Number(b.dataset.zoom));
      else if (b && "close" in b.dataset) dialog.close();
    });
    dialog.addEventListener("keydown", (e) => {
      if (e.key === "+" || e.key === "=") zoom(1.5);
      else if (e.key === "-") zoom(1 / 1.5);
    });
    dialog.addEventListener("close", () => { stage.replaceChildren(); opener?.focus(); });
    stage.addEventListener("wheel", (e) => { e.preventDefault(); zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY); },
      { passive: false });
    stage.addEventListener("pointerdown", (e) => {
      stage.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a.x - b.x, a.y - b.y);
      }
    });
    stage.addEventListener("pointermove", (e) => {
      const last = pointers.get(e.pointerId);
      if (!last) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        zoom(d / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
        pinch = d;
      } else if (pointers.size === 1 && view.scale > 1) {
        view.x += e.clientX - last.x;
        view.y += e.clientY - last.y;
        apply();
      }
    });
    const up = (e) => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; };
    stage.addEventListener("pointerup", up);
    stage.addEventListener("pointercancel", up);
    document.body.append(dialog);
  }

  function open(figure) {
    if (!dialog || !dialog.isConnected) build();
    const svg = figure.querySelector("svg").cloneNode(true);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.querySelectorAll("[id]").forEach((n) => n.removeAttribute("id"));
    stage.replaceChildren(svg);
    dialog.querySelector(".diagram-zoom__caption").textContent =
      figure.querySelector("figcaption")?.textContent || figure.querySelector("svg > title")?.textContent || "";
    view = { scale: 1, x: 0, y: 0 };
    apply();
    opener = figure;
    dialog.showModal();
    dialog.querySelector("[data-close]").focus();
  }

  function prepare() {
    for (const figure of document.querySelectorAll(SELECTOR)) {
      if (figure.dataset.zoomable || !figure.querySelector("svg")) continue;
      figure.dataset.zoomable = "yes";
      figure.tabIndex = 0;
      figure.setAttribute("role", "button");
      const what = figure.querySelector("figcaption")?.textContent || figure.querySelector("svg > title")?.textContent || "diagram";
      figure.setAttribute("aria-label", `Enlarge: ${what}`);
      figure.addEventListener("click", () => open(figure));
      figure.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(figure); }
      });
    }
  }

  // Material's instant navigation swaps pages without a reload: prepare each one.
  if (window.document$) window.document$.subscribe(prepare);
  else document.addEventListener("DOMContentLoaded", prepare);
})();
