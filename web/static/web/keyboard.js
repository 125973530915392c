// Playing by keyboard and with a screen reader: the focus kept where it was when a panel
// is drawn again, and the map's routes and cities named in the player's language.
import { routeLabel } from "./board.js";
import { seatName } from "./dom.js";
import { t } from "./i18n.js";

// Whether the last thing the person did was a key press (not a tap or a click): only
// then is the focus put back after a redraw, so that a tap never raises a phone's keyboard.
let byKeyboard = false;
document.addEventListener("keydown", () => { byKeyboard = true; }, true);
document.addEventListener("pointerdown", () => { byKeyboard = false; }, true);

// The data-* attributes that name a control whatever it shows (a market slot, not its card).
const STABLE = ["slot", "route", "ticket", "city", "seat", "color", "locomotives"];

// A selector that finds a control again once its panel is drawn anew: its id, else its
// section's id with its tag, its data-* attributes and its value.
function selectorOf(node) {
  if (node.id) return `#${CSS.escape(node.id)}`;
  const section = node.closest("[id]");
  const data = STABLE.filter((k) => node.dataset[k] !== undefined)
    .map((k) => `[data-${k}="${CSS.escape(node.dataset[k])}"]`).join("");
  const value = node.value !== undefined && node.value !== "" && node.tagName === "INPUT" ? `[value="${CSS.escape(node.value)}"]` : "";
  return `${section ? `#${CSS.escape(section.id)} ` : ""}${node.tagName.toLowerCase()}${data}${value}`;
}

// Keeps the focus of the controls under `root` across redraws: `restore()` after drawing
// puts it back on the same control (or, gone or disabled, on `fallback()`), when it was
// lost by the redraw. Text boxes are left alone (the chat keeps its own).
export function keepFocus(root, fallback) {
  let last = null;
  root.addEventListener("focusin", (e) => {
    const n = e.target;
    last = n.matches("button, input[type=checkbox], input[type=radio], [tabindex]") ? selectorOf(n) : null;
  });
  return function restore() {
    if (!last || !byKeyboard) return;
    const now = document.activeElement;
    if (now && now !== document.body && root.contains(now)) return;
    if (now && now !== document.body && !root.contains(now) && document.contains(now)) return;
    const again = root.querySelector(last);
    const target = again && !again.disabled && again.getClientRects().length ? again : fallback();
    if (target) target.focus({ preventScroll: false });
  };
}

// Every route and city of the map named for screen readers: "Berlin–Wien, 3 green,
// claimed by ada"; the routes one can claim are named by setSelectable ("Claim …").
export function nameTheMap(theBoard, view, owners, stations) {
  const seatOf = (s) => seatName(view.seats[s]);
  for (const node of theBoard.svg.querySelectorAll("g.route[data-route]")) {
    const route = theBoard.routes.get(node.dataset.route);
    if (!route) continue;
    const owner = owners[route.id];
    const label = routeLabel(route, theBoard.place);
    node.setAttribute("aria-label", owner === undefined ? label : t("%(route)s, claimed by %(player)s", { route: label, player: seatOf(owner) }));
  }
  const built = new Map(stations.map((s) => [s.city, s.seat]));
  for (const node of theBoard.svg.querySelectorAll("g.city[data-city]")) {
    const name = theBoard.place(node.dataset.city);
    const seat = built.get(node.dataset.city);
    node.setAttribute("aria-label", seat === undefined ? name : t("%(city)s, a station of %(player)s", { city: name, player: seatOf(seat) }));
  }
  // The map is a group of named things, not one picture whose parts are hidden.
  theBoard.svg.setAttribute("role", "group");
}
