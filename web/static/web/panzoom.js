// Pinch or Ctrl+wheel to zoom the map, drag to pan it once zoomed, by changing the SVG's
// viewBox: the map stays sharp at any zoom and the page never scrolls sideways. A drag
// that moved does not count as a click on a route or a city.

const MAX_ZOOM = 6;
const DRAG_PX = 6; // a touch that moves less than this is a tap

export function panZoom(svg, full, onZoom = () => {}) {
  let box = { ...full };
  const pointers = new Map();
  let gesture = null;
  let moved = false;

  // Where the map's box lands on screen (the SVG keeps its aspect ratio, centred).
  function screen(b) {
    const r = svg.getBoundingClientRect();
    const s = Math.min(r.width / b.w, r.height / b.h) || 1;
    return { s, ox: r.left + (r.width - b.w * s) / 2, oy: r.top + (r.height - b.h * s) / 2 };
  }

  function set(next) {
    const w = Math.min(full.w, Math.max(full.w / MAX_ZOOM, next.w));
    const h = (w * full.h) / full.w;
    const cx = next.x + next.w / 2;
    const cy = next.y + next.h / 2;
    const x = Math.min(Math.max(cx - w / 2, full.x), full.x + full.w - w);
    const y = Math.min(Math.max(cy - h / 2, full.y), full.y + full.h - h);
    box = { x, y, w, h };
    svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
    const zoomed = w < full.w - 0.5;
    svg.classList.toggle("zoomed", zoomed);
    onZoom(zoomed);
  }

  // The box that puts map point `p` under screen point `at` at width `w`.
  function boxAt(p, at, w) {
    const h = (w * full.h) / full.w;
    const { s, ox, oy } = screen({ x: 0, y: 0, w, h });
    return { x: p.x - (at.x - ox) / s, y: p.y - (at.y - oy) / s, w, h };
  }

  function toMap(at, b = box) {
    const { s, ox, oy } = screen(b);
    return { x: b.x + (at.x - ox) / s, y: b.y + (at.y - oy) / s };
  }

  function zoomAt(factor, at) {
    set(boxAt(toMap(at), at, box.w / factor));
  }

  function baseline() {
    gesture = { box: { ...box }, points: [...pointers.values()].map((p) => ({ ...p })) };
  }

  svg.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) moved = false;
    baseline();
  });
  svg.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !gesture) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const now = [...pointers.values()];
    const then = gesture.points;
    if (now.length >= 2 && then.length >= 2) {
      const spread = Math.hypot(now[0].x - now[1].x, now[0].y - now[1].y);
      const spread0 = Math.hypot(then[0].x - then[1].x, then[0].y - then[1].y) || 1;
      const mid = { x: (now[0].x + now[1].x) / 2, y: (now[0].y + now[1].y) / 2 };
      const mid0 = { x: (then[0].x + then[1].x) / 2, y: (then[0].y + then[1].y) / 2 };
      moved = true;
      set(boxAt(toMap(mid0, gesture.box), mid, gesture.box.w / (spread / spread0)));
    } else if (now.length === 1) {
      const dx = now[0].x - then[0].x;
      const dy = now[0].y - then[0].y;
      if (!moved && Math.hypot(dx, dy) < DRAG_PX) return;
      if (box.w >= full.w - 0.5) return; // the whole map: a drag scrolls the page
      moved = true;
      const { s } = screen(gesture.box);
      set({ ...gesture.box, x: gesture.box.x - dx / s, y: gesture.box.y - dy / s });
    }
  });
  const lift = (e) => {
    if (!pointers.delete(e.pointerId)) return;
    if (pointers.size) baseline();
    else gesture = null;
  };
  svg.addEventListener("pointerup", lift);
  svg.addEventListener("pointercancel", lift);
  svg.addEventListener("pointerleave", lift);
  svg.addEventListener("click", (e) => {
    if (moved) {
      e.stopPropagation();
      e.preventDefault();
      moved = false;
    }
  }, true);
  svg.addEventListener("wheel", (e) => {
    if (!e.ctrlKey && !e.metaKey) return; // a plain wheel scrolls the page
    e.preventDefault();
    zoomAt(Math.exp(-e.deltaY / 300), { x: e.clientX, y: e.clientY });
  }, { passive: false });

  return {
    reset: () => set(full),
    zoomIn(factor = 2.5) {
      const r = svg.getBoundingClientRect();
      zoomAt(factor, { x: r.left + r.width / 2, y: r.top + r.height / 2 });
    },
    get zoomed() {
      return box.w < full.w - 0.5;
    },
  };
}
