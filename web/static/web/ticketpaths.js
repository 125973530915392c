// A ticket's path on the map, from the player's point of view, as pure functions of the
// board (the board endpoint's JSON) and who owns which route; and the path in words.
//
// A connected ticket's path is a chain of the player's own routes. An unconnected one's is
// the planned path: the cheapest way to join its ends, where an own route costs nothing, a
// free route its length in trains, and a route claimed by another player cannot be used,
// nor a free track of a double route whose twin the player holds, or whose twin anyone
// holds when the table is too small for both tracks. Among paths of equal cost, the one
// with fewer routes to claim wins, then the one with fewer routes.
import { t, tn } from "./i18n.js";

// {routeId: seat} from the view's seats (each with its `routes`).
export function ownersOf(seats) {
  const owners = {};
  for (const s of seats) for (const id of s.routes) owners[id] = s.seat;
  return owners;
}

// The routes the player in `seat` may use: id → {cost, owned}. `players` is the table's
// size, which decides whether both tracks of a double route can be claimed.
export function usableRoutes(board, owners, seat, players) {
  const doubles = players >= board.rules.double_routes_min_players;
  const twins = new Map();
  for (const r of board.routes) {
    if (r.double_group) twins.set(r.double_group, [...(twins.get(r.double_group) || []), r.id]);
  }
  const ownerOf = (id) => (owners[id] === undefined ? null : owners[id]);
  const usable = new Map();
  for (const r of board.routes) {
    const owner = ownerOf(r.id);
    if (owner === seat) {
      usable.set(r.id, { cost: 0, owned: true });
      continue;
    }
    if (owner !== null) continue;
    const held = (twins.get(r.double_group) || []).filter((id) => id !== r.id).map(ownerOf).filter((o) => o !== null);
    if (held.includes(seat) || (held.length && !doubles)) continue;
    usable.set(r.id, { cost: r.length, owned: false });
  }
  return usable;
}

// The sets of cities a ticket joins: one [from, to] pair per destination (a country
// standing for all its border points); joining any one pair connects the ticket.
export function ticketEnds(board, ticket) {
  const points = new Map((board.countries || []).map((c) => [c.name, c.border_points]));
  const nodes = (end) => points.get(end) || [end];
  if (ticket.destinations) return ticket.destinations.map((d) => [nodes(ticket.origin), nodes(d.to)]);
  return [[nodes(ticket.cities[0]), nodes(ticket.cities[1])]];
}

// Whether cost a is lower than cost b: trains to claim, then routes to claim, then routes.
function cheaper(a, b) {
  if (a.trains !== b.trains) return a.trains < b.trains;
  if (a.claims !== b.claims) return a.claims < b.claims;
  return a.hops < b.hops;
}

// The cheapest chain of usable routes from any city of `from` to any city of `to`
// (Dijkstra), as [{route, owned, from, to}] in order from the start; null when there is
// none.
export function cheapestPath(board, usable, from, to) {
  const links = new Map();
  for (const r of board.routes) {
    const use = usable.get(r.id);
    if (!use) continue;
    const [a, b] = r.cities;
    for (const [x, y] of [[a, b], [b, a]]) {
      if (!links.has(x)) links.set(x, []);
      links.get(x).push({ to: y, route: r.id, ...use });
    }
  }
  const best = new Map(from.map((c) => [c, { trains: 0, claims: 0, hops: 0, via: null, prev: null }]));
  const done = new Set();
  const targets = new Set(to);
  for (;;) {
    let city = null;
    for (const [c, cost] of best) if (!done.has(c) && (city === null || cheaper(cost, best.get(city)))) city = c;
    if (city === null) return null;
    if (targets.has(city)) {
      const segments = [];
      for (let c = city; best.get(c).via; c = best.get(c).prev) segments.unshift(best.get(c).via);
      return segments;
    }
    done.add(city);
    const here = best.get(city);
    for (const link of links.get(city) || []) {
      if (done.has(link.to)) continue;
      const next = {
        trains: here.trains + link.cost,
        claims: here.claims + (link.owned ? 0 : 1),
        hops: here.hops + 1,
        via: { route: link.route, owned: link.owned, from: city, to: link.to },
        prev: city,
      };
      const known = best.get(link.to);
      if (!known || cheaper(next, known)) best.set(link.to, next);
    }
  }
}

// What a path still asks for: {trains, routes} to claim.
export function toClaim(board, segments) {
  const lengths = new Map(board.routes.map((r) => [r.id, r.length]));
  const open = segments.filter((s) => !s.owned);
  return { trains: open.reduce((n, s) => n + lengths.get(s.route), 0), routes: open.length };
}

// A ticket's path for the player in `seat`: {status: "connected" | "planned" | "blocked",
// segments: [{route, owned, from, to}], trains, routes} (trains and routes still to
// claim).
export function ticketPath(board, ticket, { owners, seat, players }) {
  const usable = usableRoutes(board, owners, seat, players);
  let found = null;
  for (const [from, to] of ticketEnds(board, ticket)) {
    const segments = cheapestPath(board, usable, from, to);
    if (!segments) continue;
    const left = toClaim(board, segments);
    const cost = { trains: left.trains, claims: left.routes, hops: segments.length };
    if (!found || cheaper(cost, found.cost)) found = { cost, segments, ...left };
  }
  if (!found) return { status: "blocked", segments: [], trains: 0, routes: 0 };
  const { segments, trains, routes } = found;
  return { status: routes ? "planned" : "connected", segments, trains, routes };
}

// A finished game's ticket as the score sheet counts it (`completed`, and its `path` of
// route ids, which a station may have borrowed from another player).
export function scoredPath(sheetTicket, owners, seat) {
  if (!sheetTicket.completed) return { status: "failed", segments: [], trains: 0, routes: 0 };
  const segments = (sheetTicket.path || []).map((route) => ({ route, owned: owners[route] === seat, borrowed: owners[route] !== seat }));
  return { status: "connected", segments, trains: 0, routes: 0 };
}

// The short progress line of a ticket's row.
export function progressText(plan) {
  if (plan.status === "connected") return t("connected");
  if (plan.status === "failed") return t("not connected");
  if (plan.status === "blocked") return t("blocked");
  return t("%(trains)s, %(routes)s to go", {
    trains: tn("%(n)s train", "%(n)s trains", plan.trains),
    routes: tn("%(n)s route", "%(n)s routes", plan.routes),
  });
}

// The path in words, for screen readers: "Berlin – Wien: Berlin–München (yours),
// München–Wien (to claim); 4 trains, 1 route to go."
export function pathText(board, plan, ticketName, place = (c) => c) {
  const routes = new Map(board.routes.map((r) => [r.id, r]));
  const legs = plan.segments.map((s) => {
    const name = (s.from ? [s.from, s.to] : routes.get(s.route).cities).map(place).join("–");
    if (s.borrowed) return t("%(route)s (borrowed by a station)", { route: name });
    return s.owned ? t("%(route)s (yours)", { route: name }) : t("%(route)s (to claim)", { route: name });
  });
  if (plan.status === "blocked") return t("%(ticket)s: blocked, no path is left.", { ticket: ticketName });
  if (plan.status === "failed") return t("%(ticket)s: not connected.", { ticket: ticketName });
  if (plan.status === "connected") return t("%(ticket)s: connected by %(path)s.", { ticket: ticketName, path: legs.join(", ") });
  return t("%(ticket)s: planned path %(path)s; %(progress)s.", { ticket: ticketName, path: legs.join(", "), progress: progressText(plan) });
}
