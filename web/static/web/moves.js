// The move log in words: what each seat did, as the caller may see it (GET /games/{id}/moves
// and the game's event stream redact the same way: another seat's blind draws and tickets
// are counts only).
import { get } from "./api.js";
import { colorName } from "./board.js";
import { seatName } from "./dom.js";
import { t, tn, tnp, tp } from "./i18n.js";

// Every move after `after`, page by page.
export async function movesAfter(gameId, after = 0) {
  const moves = [];
  for (;;) {
    const page = await get(`/games/${gameId}/moves?after=${after}&limit=500`);
    moves.push(...page.moves);
    if (!page.has_more) return moves;
    after = page.next_after;
  }
}

// "2 red + 1 locomotive".
export function cardsPaid(paid) {
  return Object.entries(paid || {})
    .map(([color, n]) => (color === "locomotive"
      ? tn("%(n)s locomotive", "%(n)s locomotives", n)
      : t("%(n)s %(color)s", { n, color: colorName(color) })))
    .join(" + ");
}

// What one event of a move says, said to "you" (me: true) or of another seat.
function clause(e, me, routeName, name, fresh) {
  const color = e.color ? colorName(e.color) : "";
  switch (e.type) {
    case "card_drawn":
      if (e.source === "face_up") {
        if (e.color === "locomotive") return me ? tp("you", "took a face-up locomotive") : t("took a face-up locomotive");
        return me ? tp("you", "took a face-up %(color)s", { color }) : t("took a face-up %(color)s", { color });
      }
      if (!e.color) return (me ? tp("you", "drew from the deck") : t("drew from the deck")) + fresh;
      if (/^[aeiou]/.test(e.color)) {
        return (me ? tp("you", "drew an %(color)s from the deck", { color }) : t("drew an %(color)s from the deck", { color })) + fresh;
      }
      return (me ? tp("you", "drew a %(color)s from the deck", { color }) : t("drew a %(color)s from the deck", { color })) + fresh;
    case "route_claimed": {
      const v = { route: routeName(e.route), cards: cardsPaid(e.cards), points: e.points };
      return me ? tp("you", "claimed %(route)s with %(cards)s (+%(points)s)", v) : t("claimed %(route)s with %(cards)s (+%(points)s)", v);
    }
    case "tunnel_revealed": {
      const v = { route: routeName(e.route), cards: e.revealed.length ? e.revealed.map(colorName).join(", ") : t("nothing") };
      if (!e.extra) {
        return me ? tp("you", "tried the tunnel %(route)s: turned %(cards)s, nothing more to pay", v)
          : t("tried the tunnel %(route)s: turned %(cards)s, nothing more to pay", v);
      }
      return me
        ? tnp("you", "tried the tunnel %(route)s: turned %(cards)s, %(n)s more card to pay", "tried the tunnel %(route)s: turned %(cards)s, %(n)s more cards to pay", e.extra, v)
        : tn("tried the tunnel %(route)s: turned %(cards)s, %(n)s more card to pay", "tried the tunnel %(route)s: turned %(cards)s, %(n)s more cards to pay", e.extra, v);
    }
    case "tunnel_declined": {
      const v = { route: routeName(e.route) };
      return me ? tp("you", "gave up the tunnel %(route)s", v) : t("gave up the tunnel %(route)s", v);
    }
    case "tickets_drawn":
      return me ? tnp("you", "drew %(n)s ticket", "drew %(n)s tickets", e.count) : tn("drew %(n)s ticket", "drew %(n)s tickets", e.count);
    case "tickets_kept": {
      let text;
      if (e.returned) {
        const v = { kept: e.kept };
        const n = e.kept + e.returned;
        text = me ? tnp("you", "kept %(kept)s of %(n)s ticket", "kept %(kept)s of %(n)s tickets", n, v)
          : tn("kept %(kept)s of %(n)s ticket", "kept %(kept)s of %(n)s tickets", n, v);
      } else {
        text = me ? tnp("you", "kept %(n)s ticket", "kept %(n)s tickets", e.kept) : tn("kept %(n)s ticket", "kept %(n)s tickets", e.kept);
      }
      return e.initial ? t("%(kept)s to start", { kept: text }) : text;
    }
    case "station_built": {
      const v = { city: name(e.city), cards: cardsPaid(e.cards) };
      return me ? tp("you", "built a station in %(city)s with %(cards)s", v) : t("built a station in %(city)s with %(cards)s", v);
    }
    case "forfeited":
      return me ? tp("you", "left the game") : t("left the game");
    case "turn_skipped":
      return me ? tp("you", "could not move and passed") : t("could not move and passed");
    case "last_round":
      return me ? tnp("you", "is down to %(n)s train: the last round begins", "is down to %(n)s trains: the last round begins", e.trains)
        : tn("is down to %(n)s train: the last round begins", "is down to %(n)s trains: the last round begins", e.trains);
    case "market_changed":
      return e.resets ? t("three locomotives: the market was replaced") : null;
    case "game_over":
      return t("the game is over");
    default:
      return null;
  }
}

// One move as words: {who, seat, text, route, city} (route and city: what it put on the map).
export function describeMove(move, seats, board, you = null) {
  const name = board ? board.place : (c) => c;
  const routeName = (id) => {
    const r = board && board.routes.get(id);
    return r ? r.cities.map(name).join(" – ") : id;
  };
  const me = move.seat !== null && move.seat !== undefined && move.seat === you;
  const who =
    move.seat === null || move.seat === undefined
      ? t("The table")
      : me
        ? t("You")
        : seatName(seats[move.seat]);
  const bits = [];
  let route = null;
  let city = null;
  // A reshuffle is told as part of what it served: the next card drawn from the deck, or
  // else the move's last words.
  let reshuffled = false;
  for (const e of move.events) {
    if (e.type === "deck_reshuffled") {
      reshuffled = true;
      continue;
    }
    const fromDeck = e.type === "card_drawn" && e.source !== "face_up";
    const fresh = fromDeck && reshuffled ? t(", newly shuffled from the discard pile") : "";
    if (fromDeck) reshuffled = false;
    if (e.type === "route_claimed" || e.type === "tunnel_revealed") route = e.route;
    if (e.type === "station_built") city = e.city;
    const text = clause(e, me, routeName, name, fresh);
    if (text) bits.push(text);
  }
  if (reshuffled) {
    const note = t("the discard pile was shuffled into a new deck");
    if (bits.length) bits[bits.length - 1] += ` (${note})`;
    else bits.push(note);
  }
  if (!bits.length && move.action) bits.push(move.action.type.replaceAll("_", " "));
  let text = bits.join("; ");
  if (move.by_ai && move.seat !== null && seats[move.seat] && seats[move.seat].kind !== "ai") text += ` ${t("(played by the AI)")}`;
  return { who, seat: move.seat, text, route, city, number: move.number };
}
