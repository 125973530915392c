// The map as SVG, drawn from the board endpoint's city coordinates and routes.
// Static layers (routes, cities) are built once; claims, stations, highlights and
// overlays are changed in place as the game moves.

import { drawBackdrop } from "./backdrop.js";
import { t, tn } from "./i18n.js";
import { createLegend } from "./legend.js";
import { panZoom } from "./panzoom.js";

const SVG = "http://www.w3.org/2000/svg";

export const CARD_COLORS = {
  purple: "#9957b5",
  blue: "#246fe1",
  orange: "#d77b00",
  white: "#f6f6f6",
  green: "#04ad53",
  yellow: "#ffd100",
  black: "#2b2b2b",
  red: "#de3736",
  gray: "#a3a3a3",
  locomotive: "#c9a0dc",
};

// A symbol per card colour, shown with its name, so that no card is told by its colour
// alone.
export const CARD_SYMBOLS = {
  purple: "◆",
  blue: "●",
  orange: "▲",
  white: "○",
  green: "♣",
  yellow: "★",
  black: "■",
  red: "♥",
  locomotive: "L",
};

// A card colour's name ("red"), as a person reads it.
export function colorName(color) {
  const names = {
    purple: t("purple"),
    blue: t("blue"),
    orange: t("orange"),
    white: t("white"),
    green: t("green"),
    yellow: t("yellow"),
    black: t("black"),
    red: t("red"),
    gray: t("gray"),
    locomotive: t("locomotive"),
  };
  return names[color] || color;
}

// Player colours, chosen apart from the eight card colours (and gray): pink, cyan, brown,
// lime and maroon. On the map a player's routes are also drawn as train cars, with
// windows, where an unclaimed route is a row of flat slots. Every two colours that can
// meet on the map are kept apart, also as the colour-blind see them
// (tests/web/test_colours.py).
export const PLAYER_COLORS = ["#fe55b5", "#19c3d3", "#8c5413", "#9ebf06", "#7d1f41"];

const CITY_R = 7;
const CAR_W = 7;
const GAP = 2;
const DOUBLE_SPACING = 9;

function el(name, attrs = {}, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Names as a player reads them. On Switzerland a neighbouring country's border points are
// cities with ids (DE1, AT2) and a `country`: they read as the country's name.
export function placeNamer(board) {
  const countries = new Map((board.countries || []).map((c) => [c.id, c.name]));
  const names = new Map(board.cities.filter((c) => c.country).map((c) => [c.name, countries.get(c.country) || c.name]));
  return (name) => names.get(name) || name;
}

// The cities a ticket joins, a country standing for all its border points.
export function ticketCities(board, ticket) {
  const points = new Map((board.countries || []).map((c) => [c.name, c.border_points]));
  const ends = ticket.destinations ? [ticket.origin, ...ticket.destinations.map((d) => d.to)] : ticket.cities;
  return ends.flatMap((end) => points.get(end) || [end]);
}

export function routeLabel(route, name = (c) => c) {
  const [a, b] = route.cities.map(name);
  const bits = [`${a}–${b}`, t("%(length)s %(color)s", { length: route.length, color: colorName(route.color) })];
  if (route.tunnel) bits.push(t("tunnel"));
  if (route.ferry_locomotives) {
    bits.push(tn("ferry (%(n)s locomotive)", "ferry (%(n)s locomotives)", route.ferry_locomotives));
  }
  return bits.join(", ");
}

// The segment a route is drawn on: between its cities, shifted sideways for a double route.
function geometry(route, cities, offsets) {
  const a = cities.get(route.cities[0]);
  const b = cities.get(route.cities[1]);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const d = Math.hypot(dx, dy) || 1;
  const ux = dx / d;
  const uy = dy / d;
  const off = offsets.get(route.id) || 0;
  const nx = -uy * off;
  const ny = ux * off;
  return {
    x1: a.x + nx + ux * CITY_R,
    y1: a.y + ny + uy * CITY_R,
    x2: b.x + nx - ux * CITY_R,
    y2: b.y + ny - uy * CITY_R,
    ux,
    uy,
    length: d - 2 * CITY_R,
    angle: (Math.atan2(dy, dx) * 180) / Math.PI,
  };
}

export function createBoard(container, board, { onRoute, onCity } = {}) {
  container.textContent = "";
  const cities = new Map(board.cities.map((c) => [c.name, c]));
  const place = placeNamer(board);
  const routes = new Map(board.routes.map((r) => [r.id, r]));
  const groups = new Map();
  for (const r of board.routes) {
    if (!r.double_group) continue;
    if (!groups.has(r.double_group)) groups.set(r.double_group, []);
    groups.get(r.double_group).push(r.id);
  }
  const offsets = new Map();
  for (const ids of groups.values()) {
    ids.forEach((id, i) => offsets.set(id, (i - (ids.length - 1) / 2) * DOUBLE_SPACING));
  }

  const xs = board.cities.map((c) => c.x);
  const ys = board.cities.map((c) => c.y);
  const pad = 30;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const full = { x: minX, y: minY, w: Math.max(...xs) - minX + pad + 40, h: Math.max(...ys) - minY + pad };
  const svg = el("svg", {
    class: "board",
    viewBox: `${full.x} ${full.y} ${full.w} ${full.h}`,
    role: "img",
    "aria-label": t("%(board)s map", { board: board.name }),
  });
  const frame = document.createElement("div");
  frame.className = "board-scroll";
  frame.appendChild(svg);
  container.appendChild(frame);
  // Pinch, Ctrl+wheel or the button zoom the map; once zoomed, a drag pans it.
  const zoom = document.createElement("button");
  zoom.className = "zoom";
  zoom.type = "button";
  zoom.textContent = t("Zoom");
  zoom.setAttribute("aria-pressed", "false");
  const view = panZoom(svg, full, (on) => {
    container.classList.toggle("zoomed", on);
    zoom.setAttribute("aria-pressed", String(on));
    zoom.textContent = on ? t("Whole map") : t("Zoom");
  });
  zoom.addEventListener("click", () => (view.zoomed ? view.reset() : view.zoomIn()));
  // The map's controls sit in a bar under it, never over a city.
  const tools = document.createElement("div");
  tools.className = "board-tools";
  tools.append(createLegend(board), zoom);
  container.appendChild(tools);
  // The sea reaches past the map's edges, however the view is panned.
  el("rect", { x: full.x - full.w, y: full.y - full.h, width: 3 * full.w, height: 3 * full.h, class: "sea" }, svg);
  // The land, lakes and borders, read after the board is drawn, under everything else.
  drawBackdrop(el("g", { class: "backdrop", "aria-hidden": "true" }, svg), board.id);
  // The breakdown's overlays lie under the routes, as a halo around their cars: the cars
  // keep their owners' colours.
  const overlayLayer = el("g", { class: "overlays" }, svg);
  // A ticket's path, lit from the ticket list: a halo under the routes too, over the
  // breakdown's.
  const pathLayer = el("g", { class: "ticket-path", "aria-hidden": "true" }, svg);
  const routeLayer = el("g", { class: "routes" }, svg);
  const cityLayer = el("g", { class: "cities" }, svg);
  const stationLayer = el("g", { class: "stations" }, svg);

  const routeNodes = new Map();
  for (const r of board.routes) {
    const g = geometry(r, cities, offsets);
    const node = el("g", { class: "route", "data-route": r.id, "data-color": r.color, "data-length": r.length }, routeLayer);
    el("title", {}, node).textContent = routeLabel(r, place);
    // The glow of an opponent's last claim: under the cars, so their colour stays true.
    el("line", { class: "glow", x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2 }, node);
    // Each car one rectangle placed and turned along the route; its windows are drawn when
    // the route is first claimed (windows()).
    const car = (g.length - GAP * (r.length - 1)) / r.length;
    for (let i = 0; i < r.length; i++) {
      const along = i * (car + GAP) + car / 2;
      const cx = g.x1 + g.ux * along;
      const cy = g.y1 + g.uy * along;
      const at = `translate(${cx.toFixed(1)} ${cy.toFixed(1)}) rotate(${g.angle.toFixed(1)})`;
      el("rect", {
        class: r.tunnel ? "car tunnel" : "car",
        transform: at,
        x: (-car / 2).toFixed(1),
        y: -CAR_W / 2,
        width: car.toFixed(1),
        height: CAR_W,
        rx: 1,
        fill: CARD_COLORS[r.color] || "#999",
      }, node);
      if (i < r.ferry_locomotives) el("circle", { class: "ferry-mark", transform: at, r: 2.1, cx: 0, cy: 0 }, node);
    }
    // A wide invisible line makes a thin route easy to hit with a finger.
    el("line", { class: "hit", x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2 }, node);
    if (onRoute) {
      node.addEventListener("click", () => onRoute(r.id));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onRoute(r.id);
        }
      });
    }
    routeNodes.set(r.id, node);
  }

  // Labels: a city's name above its right; a border point's (its country's name, often
  // beside another of the same country) goes where it overlaps no label already placed,
  // or is left to the point's title.
  const placed = [];
  const clash = (r) => placed.some((p) => r.x < p.x + p.w && p.x < r.x + r.w && r.y < p.y + p.h && p.y < r.y + r.h);
  const labelAt = (c, text) => {
    const w = text.length * 7.2 + 2;
    const spots = [
      { x: c.x + 7, y: c.y - 7, anchor: "start", left: c.x + 7 },
      ...(c.country ? [
        { x: c.x + 7, y: c.y + 17, anchor: "start", left: c.x + 7 },
        { x: c.x - 7, y: c.y - 7, anchor: "end", left: c.x - 7 - w },
        { x: c.x - 7, y: c.y + 17, anchor: "end", left: c.x - 7 - w },
      ] : []),
    ];
    for (const spot of spots) {
      const rect = { x: spot.left, y: spot.y - 12, w, h: 15 };
      if (!c.country || !clash(rect)) {
        placed.push(rect);
        return spot;
      }
    }
    return null;
  };
  const ordered = [...board.cities.filter((c) => !c.country), ...board.cities.filter((c) => c.country)];
  const labels = new Map(ordered.map((c) => [c.name, labelAt(c, place(c.name))]));

  const cityNodes = new Map();
  for (const c of board.cities) {
    const node = el("g", { class: c.country ? "city border-point" : "city", "data-city": c.name }, cityLayer);
    if (c.country) el("title", {}, node).textContent = place(c.name);
    el("circle", { cx: c.x, cy: c.y, r: CITY_R - 1.5 }, node);
    const spot = labels.get(c.name);
    if (spot) el("text", { x: spot.x, y: spot.y, "text-anchor": spot.anchor }, node).textContent = place(c.name);
    if (onCity) {
      node.addEventListener("click", () => onCity(c.name));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onCity(c.name);
        }
      });
    }
    cityNodes.set(c.name, node);
  }

  let seenClaims = false;

  // A claimed car's windows, over each car of the route (shown only while it is claimed).
  function windows(node) {
    if (node.querySelector("rect.window")) return;
    for (const car of node.querySelectorAll("rect.car")) {
      const w = Number(car.getAttribute("width"));
      const at = car.getAttribute("transform");
      const panes = [-1, 1].map((side) =>
        el("rect", { class: "window", transform: at, x: (side * w / 4 - 1.2).toFixed(1), y: -1.3, width: 2.4, height: 2.6, rx: 0.4 }));
      car.after(...panes);
    }
  }

  function routeGeometry(id) {
    return geometry(routes.get(id), cities, offsets);
  }

  return {
    svg,
    routes,
    cities,
    place,
    rules: board.rules,
    name: board.name,
    ticketCities: (ticket) => ticketCities(board, ticket),
    // owners: {routeId: seat}; stations: [{city, seat}]
    // animate: false for a jump (the replay's slider), where no claim is seen arriving.
    setClaims(owners, stations, { animate = true } = {}) {
      for (const [id, node] of routeNodes) {
        const seat = owners[id];
        const claimed = seat !== undefined && seat !== null;
        if (!animate) node.classList.remove("just-claimed");
        // A claim seen arriving (not one there when the page opened) is animated once.
        if (claimed && !node.classList.contains("claimed") && seenClaims && animate) {
          node.classList.add("just-claimed");
          setTimeout(() => node.classList.remove("just-claimed"), 1600);
        }
        node.classList.toggle("claimed", claimed);
        if (claimed) windows(node);
        const fill = claimed ? PLAYER_COLORS[seat % PLAYER_COLORS.length] : CARD_COLORS[routes.get(id).color];
        for (const rect of node.querySelectorAll("rect.car")) rect.setAttribute("fill", fill);
        if (claimed) node.setAttribute("data-owner", seat);
        else node.removeAttribute("data-owner");
      }
      seenClaims = true;
      stationLayer.textContent = "";
      const perCity = new Map();
      for (const { city, seat } of stations) {
        const c = cities.get(city);
        if (!c) continue;
        const k = perCity.get(city) || 0;
        perCity.set(city, k + 1);
        const x = c.x - 18 + k * 13;
        const y = c.y + 7;
        el("path", {
          class: "station",
          "data-station": `${city}:${seat}`,
          d: `M${x} ${y + 12} v-7 l6 -6 l6 6 v7 z`,
          fill: PLAYER_COLORS[seat % PLAYER_COLORS.length],
        }, stationLayer);
      }
    },
    // Each opponent's last move on the map: the route claimed, or the station built.
    setRecent(routeIds, stationKeys) {
      const routesNow = new Set(routeIds);
      for (const [id, node] of routeNodes) node.classList.toggle("recent", routesNow.has(id));
      const stationsNow = new Set(stationKeys);
      for (const node of stationLayer.querySelectorAll("[data-station]")) {
        node.classList.toggle("recent", stationsNow.has(node.getAttribute("data-station")));
      }
    },
    // What may be picked now: lit, and reachable with Tab (Enter or Space picks it).
    setSelectable(routeIds, cityNames) {
      const reachable = (node, on, label) => {
        node.classList.toggle("selectable", on);
        if (on) {
          node.setAttribute("tabindex", "0");
          node.setAttribute("role", "button");
          node.setAttribute("aria-label", label);
        } else {
          node.removeAttribute("tabindex");
          node.removeAttribute("role");
        }
      };
      for (const [id, node] of routeNodes) reachable(node, routeIds.has(id), t("Claim %(route)s", { route: routeLabel(routes.get(id), place) }));
      for (const [name, node] of cityNodes) reachable(node, cityNames.has(name), t("Build a station in %(city)s", { city: place(name) }));
      svg.classList.toggle("picking", routeIds.size > 0 || cityNames.size > 0);
    },
    setSelected(routeId) {
      for (const [id, node] of routeNodes) node.classList.toggle("selected", id === routeId);
    },
    highlightCities(names, cls = "hl") {
      for (const [name, node] of cityNodes) node.classList.toggle(cls, names.includes(name));
    },
    // Lines drawn over routes: paths of tickets, the longest path, borrowed routes.
    overlayRoutes(ids, cls, seat) {
      for (const id of ids) {
        if (!routes.has(id)) continue;
        const g = routeGeometry(id);
        el("line", { class: `overlay ${cls}`, "data-overlay": id, x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2 }, overlayLayer);
      }
      if (seat !== undefined) overlayLayer.setAttribute("data-seat", seat);
    },
    // A straight dashed line between two cities: a ticket that was not completed.
    overlayLink(a, b, cls) {
      const ca = cities.get(a);
      const cb = cities.get(b);
      if (!ca || !cb) return;
      el("line", { class: `overlay ${cls}`, x1: ca.x, y1: ca.y, x2: cb.x, y2: cb.y }, overlayLayer);
    },
    clearOverlay() {
      overlayLayer.textContent = "";
    },
    // A ticket's path ([{route, owned, borrowed}]): a halo around each route's cars, solid
    // for the player's own routes, dashed for those still to claim, dotted for a route a
    // station borrows. The cars keep their colours.
    highlightPath(segments) {
      pathLayer.textContent = "";
      const on = new Set(segments.map((s) => s.route));
      for (const [id, node] of routeNodes) node.classList.toggle("on-path", on.has(id));
      for (const { route, owned, borrowed } of segments) {
        if (!routes.has(route)) continue;
        const g = routeGeometry(route);
        const kind = borrowed ? "borrowed" : owned ? "owned" : "to-claim";
        const leg = el("g", { class: `path-leg ${kind}`, "data-path-route": route }, pathLayer);
        // A dark outer line, and a light band between it and the cars.
        for (const part of ["edge", "band"]) el("line", { class: part, x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2 }, leg);
      }
    },
  };
}
