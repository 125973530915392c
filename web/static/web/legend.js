// The map's key, under the map (never over a city): tunnels, ferries and the locomotives
// they need, stations and double routes, each only on a board that has them. Open on a
// wide screen; on a phone a tap opens it.

import { t, tn } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function swatch(draw) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "key-swatch");
  svg.setAttribute("viewBox", "0 0 34 18");
  svg.setAttribute("aria-hidden", "true");
  const add = (name, attrs) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.appendChild(node);
  };
  draw(add);
  return svg;
}

const car = (add, x, y, cls = "car") => add("rect", { class: cls, x, y, width: 14, height: 6, rx: 1 });

const ITEMS = {
  tunnel: () => [
    swatch((add) => {
      car(add, 2, 6, "car tunnel");
      car(add, 18, 6, "car tunnel");
    }),
    t("Tunnel: dashed edges; extra cards may be asked for"),
  ],
  ferry: () => [
    swatch((add) => {
      car(add, 2, 6);
      car(add, 18, 6);
      add("circle", { class: "ferry-mark", cx: 9, cy: 9, r: 2.3 });
    }),
    t("Ferry: a locomotive for each white disc"),
  ],
  station: () => [
    swatch((add) => add("path", { class: "station", d: "M11 16 v-7 l6 -6 l6 6 v7 z" })),
    t("Station: a house in its owner's colour"),
  ],
  double: (board) => [
    swatch((add) => {
      car(add, 2, 2);
      car(add, 18, 2);
      car(add, 2, 10, "car other");
      car(add, 18, 10, "car other");
    }),
    board.rules && board.rules.double_routes_min_players > 2
      ? tn(
        "Double route: both tracks with %(n)s or more player",
        "Double route: both tracks with %(n)s or more players",
        board.rules.double_routes_min_players,
      )
      : t("Double route: two tracks side by side"),
  ],
};

// What the board has, in the key's order.
export function legendItems(board) {
  const has = [];
  if (board.routes.some((r) => r.tunnel)) has.push("tunnel");
  if (board.routes.some((r) => r.ferry_locomotives > 0)) has.push("ferry");
  if (board.rules && board.rules.stations_per_player > 0) has.push("station");
  if (board.routes.some((r) => r.double_group)) has.push("double");
  return has;
}

export function createLegend(board) {
  const box = document.createElement("details");
  box.className = "map-key";
  box.open = !window.matchMedia("(max-width: 820px)").matches;
  const summary = document.createElement("summary");
  summary.textContent = t("Map key");
  box.appendChild(summary);
  const list = document.createElement("ul");
  for (const key of legendItems(board)) {
    const [picture, text] = ITEMS[key](board);
    const li = document.createElement("li");
    li.setAttribute("data-key", key);
    const span = document.createElement("span");
    span.textContent = text;
    li.append(picture, span);
    list.appendChild(li);
  }
  box.appendChild(list);
  return box;
}
