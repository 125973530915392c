// The players strip: every player's score (★), trains (▬), cards (▯) and tickets (⚑) and
// their last move, one cell each, above the map and pinned with it (sticky), so that it
// stays in view while the panels scroll. Each cell has a fixed size and every line of it one line: a move
// changes numbers and words, never where anything is.
import { PLAYER_COLORS } from "./board.js";
import { h, seatName } from "./dom.js";
import { t, tn } from "./i18n.js";

// One player's figures in words, for screen readers and on hover.
function said(name, pub, total, did) {
  const parts = [
    name,
    tn("%(n)s point", "%(n)s points", total ?? 0),
    tn("%(n)s train", "%(n)s trains", pub.trains),
    tn("%(n)s card", "%(n)s cards", pub.hand_size),
    tn("%(n)s ticket", "%(n)s tickets", pub.tickets),
  ];
  const text = parts.join(", ");
  return did ? `${text}. ${t("Last: %(move)s", { move: did })}` : text;
}

// The strip's cells for a view: `last` maps a seat to its last move in words, `totals`
// (the score sheet's, once the game is over) to its final score.
export function renderStrip(node, { view, mySeat, last, totals }) {
  const st = view.state;
  node.hidden = !st;
  if (!st) {
    node.replaceChildren();
    return;
  }
  const pending = st.pending ? st.pending.seats : [];
  node.style.setProperty("--seats", String(view.seats.length));
  node.replaceChildren(...view.seats.map((seat) => {
    const pub = st.seats[seat.index];
    const name = seat.index === mySeat ? t("%(player)s (you)", { player: seatName(seat) }) : seatName(seat);
    const total = totals ? totals.get(seat.index) : pub.route_points;
    const did = last.get(seat.index);
    const words = said(name, pub, total, did && did.text);
    const cls = `${pending.includes(seat.index) ? ".to-move" : ""}${pub.forfeited ? ".forfeited" : ""}${seat.index === mySeat ? ".me" : ""}`;
    return h(`div.strip-seat${cls}`, { dataset: { seat: seat.index }, role: "listitem", "aria-label": words, title: words },
      h("div.strip-name", { "aria-hidden": "true" },
        h("span.swatch", { style: `background:${PLAYER_COLORS[seat.index]}` }), name),
      h("div.strip-figures", { "aria-hidden": "true" },
        h("span.fig.score", {}, h("span.sym", {}, "★"), `${total ?? 0}`),
        h("span.fig.trains", {}, h("span.sym", {}, "▬"), `${pub.trains}`),
        h("span.fig.cards", {}, h("span.sym", {}, "▯"), `${pub.hand_size}`),
        h("span.fig.tickets", {}, h("span.sym", {}, "⚑"), `${pub.tickets}`)),
      h("div.strip-last", { "aria-hidden": "true" }, did && seat.index !== mySeat ? did.text : "\u00a0"));
  }));
}
