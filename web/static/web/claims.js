// Claiming from a list rather than from the map's thin lines: the routes at a tapped city,
// or every route, that can be claimed now, each with the payments the API lists for it.
// A payment's button plays the same claim_route action as a route clicked on the map.
import { routeLabel } from "./board.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

// The claim_route actions grouped by route, the routes at `city` only when one is given:
// [{route, options}], the longest first, then by name.
export function claimableRoutes(actions, board, city = null) {
  const byRoute = new Map();
  for (const a of actions) {
    if (a.type !== "claim_route") continue;
    const route = board.routes.get(a.route);
    if (!route || (city && !route.cities.includes(city))) continue;
    if (!byRoute.has(a.route)) byRoute.set(a.route, { route, options: [] });
    byRoute.get(a.route).options.push(a);
  }
  const label = (g) => g.route.cities.map(board.place).join(" – ");
  return [...byRoute.values()].sort((x, y) => y.route.length - x.route.length || label(x).localeCompare(label(y)));
}

// The sheet's contents: a heading, one group a route (its name, then a button a payment),
// and Close. `payment(action, route)` words a payment; `onPick(action)` claims with it.
export function claimSheet({ city, groups, board, payment, busy, onPick, onClose }) {
  const title = city ? t("Routes at %(city)s you can claim", { city: board.place(city) }) : t("Routes you can claim");
  const count = groups.length
    ? tn("%(n)s route can be claimed now.", "%(n)s routes can be claimed now.", groups.length)
    : city ? t("No route at %(city)s can be claimed now.", { city: board.place(city) }) : t("No route can be claimed now.");
  return [
    h("div.sheet-head", {},
      h("h3#claim-sheet-title", { tabindex: -1 }, title),
      h("button.link.sheet-close#close-claims", { onclick: onClose, "aria-label": t("Close the list of routes") }, t("Close"))),
    h("p.muted", {}, count),
    h("ul.claim-groups", {}, groups.map(({ route, options }) => {
      const name = route.cities.map(board.place).join(" – ");
      return h("li.claim-group", { dataset: { route: route.id } },
        h("div.claim-route", {}, routeLabel(route, board.place)),
        h("div.claim-payments", { role: "group", "aria-label": t("Claim %(route)s", { route: name }) },
          options.map((a) => {
            const paid = payment(a, route);
            return h("button.pay-option", {
              onclick: () => onPick(a),
              disabled: busy,
              dataset: { route: route.id, color: a.color || "locomotive", locomotives: a.locomotives },
              "aria-label": t("Claim %(route)s with %(cards)s", { route: name, cards: paid }),
            }, paid);
          })));
    })),
  ];
}
