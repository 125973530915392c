// The score sheet of a finished game, and its breakdown drawn on the map: completed tickets
// along their paths, failed ones as dashed links, the longest path, stations' borrowed routes.
import { get } from "./api.js";
import { PLAYER_COLORS } from "./board.js";
import { cityPair, h, seatName, showError, wrappable } from "./dom.js";
import { t, tn } from "./i18n.js";
import { rematchControl } from "./rematch.js";

export function drawBreakdown(board, sheet) {
  board.clearOverlay();
  for (const tk of sheet.tickets) {
    if (tk.completed && tk.path) board.overlayRoutes(tk.path, "ticket-done");
    else board.overlayLink(tk.cities[0], tk.cities[1], "ticket-failed");
  }
  if (sheet.longest_path) board.overlayRoutes(sheet.longest_path.routes, "longest");
  const borrowed = sheet.stations.map((s) => s.borrowed_route).filter(Boolean);
  board.overlayRoutes(borrowed, "borrowed");
  board.highlightCities(sheet.tickets.flatMap((tk) => tk.cities));
}

// "You win with 112 points", "ada wins …", or who shares first place.
export function winnerLine(sheetData, seats, you) {
  const first = sheetData.players.filter((p) => p.place === 1);
  const total = first[0].total;
  if (first.length > 1) {
    const others = first.filter((p) => p.seat !== you).map((p) => seatName(seats[p.seat])).join(", ");
    if (first.some((p) => p.seat === you)) {
      return tn("You and %(others)s share first place with %(n)s point", "You and %(others)s share first place with %(n)s points", total, { others });
    }
    return tn("%(players)s share first place with %(n)s point", "%(players)s share first place with %(n)s points", total, { players: others });
  }
  if (first[0].seat === you) return tn("You win with %(n)s point!", "You win with %(n)s points!", total);
  return tn("%(player)s wins with %(n)s point", "%(player)s wins with %(n)s points", total, { player: seatName(seats[first[0].seat]) });
}

function breakdown(sheet, name, board) {
  const routeName = (id) => {
    const r = board && board.routes.get(id);
    return r ? r.cities.map(name).join(" – ") : id;
  };
  return h("div.breakdown", { dataset: { seat: sheet.seat } },
    h("ul.ticket-list", {}, sheet.tickets.map((tk) =>
      h(`li.ticket.${tk.completed ? "done" : "failed"}`, { dataset: { ticket: tk.id } },
        `${tk.completed ? "✓" : "✗"} ${cityPair(tk, name)} `, h("span.points", {}, tk.score > 0 ? `+${tk.score}` : tk.score)))),
    h("p", {}, tn("Longest path: %(n)s train", "Longest path: %(n)s trains", sheet.longest_path ? sheet.longest_path.length : 0) +
      (sheet.longest_path_bonus ? ` (+${sheet.longest_path_bonus})` : "")),
    sheet.stations.length
      ? h("p", {}, t("Stations:"), " ", sheet.stations.map((s) => s.borrowed_route
        ? t("%(city)s (borrows %(route)s)", { city: name(s.city), route: routeName(s.borrowed_route) })
        : t("%(city)s (unused)", { city: name(s.city) })).join(", "))
      : null,
    h("p.legend", {}, h("span.key.ticket-done"), " ", t("ticket done"), " ", h("span.key.ticket-failed"), " ", t("ticket failed"), " ",
      h("span.key.longest"), " ", t("longest path"), " ", h("span.key.borrowed"), " ", t("borrowed")),
  );
}

export async function showResult(container, gameId, view, board) {
  let sheetData;
  try {
    sheetData = await get(`/games/${gameId}/result`);
  } catch (err) {
    showError(err);
    return null;
  }
  const bySeat = new Map(sheetData.players.map((p) => [p.seat, p]));
  const detail = h("div");
  const pick = (seat) => {
    const sheet = bySeat.get(seat);
    detail.replaceChildren(h("h4", {}, t("%(player)s: the breakdown", { player: seatName(view.seats[seat]) })), breakdown(sheet, board ? board.place : (c) => c, board));
    for (const row of container.querySelectorAll("tr[data-seat]")) row.classList.toggle("picked", Number(row.dataset.seat) === seat);
    if (board) drawBreakdown(board, sheet);
  };
  const stations = !board || board.rules.stations_per_player > 0;
  const rows = sheetData.ranking.map(({ seat }) => {
    const p = bySeat.get(seat);
    return h("tr", { dataset: { seat }, onclick: () => pick(seat), title: t("Show on the map") },
      h("td.num", {}, p.place),
      h("td.name", {}, h("span.swatch", { style: `background:${PLAYER_COLORS[seat]}` }), wrappable(seatName(view.seats[seat])), p.forfeited ? ` ${t("(forfeited)")}` : ""),
      h("td.num", {}, p.route_points),
      h("td.num", {}, p.ticket_points),
      stations ? h("td.num", {}, p.station_points) : null,
      h("td.num", {}, p.longest_path_bonus + p.globetrotter_bonus),
      h("td.num.total", {}, p.total));
  });
  const heads = ["#", t("Player"), t("Routes"), t("Tickets"), stations ? t("Stations") : null, t("Bonus"), t("Total")].filter(Boolean);
  container.replaceChildren(
    h("h2.winner#winner", {}, winnerLine(sheetData, view.seats, view.your_seat)),
    h("h3", {}, t("Score sheet")),
    h("table.result-table", {},
      h("thead", {}, h("tr", {}, heads.map((tk, i) => h(i === 1 ? "th" : "th.num", {}, tk)))),
      h("tbody", {}, rows)),
    h("p.muted", {}, t("Pick a player to see their tickets, longest path and stations on the map.")),
    detail,
    view.your_seat !== null && view.status === "finished" ? rematchControl(gameId) : null,
  );
  container.hidden = false;
  pick(view.your_seat !== null ? view.your_seat : sheetData.ranking[0].seat);
  return sheetData;
}
