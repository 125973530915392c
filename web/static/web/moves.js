// The move log in words: what each seat did, as the caller may see it (GET /games/{id}/moves
// and the game's event stream redact the same way: another seat's blind draws and tickets
// are counts only).
import { get } from "./api.js";
import { seatName } from "./dom.js";

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

function cards(paid) {
  return Object.entries(paid || {})
    .map(([color, n]) => `${n} ${color === "locomotive" ? `locomotive${n > 1 ? "s" : ""}` : color}`)
    .join(" + ");
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// One move as words: {who, seat, text, route, city} (route and city: what it put on the map).
export function describeMove(move, seats, board, you = null) {
  const name = board ? board.place : (c) => c;
  const routeName = (id) => {
    const r = board && board.routes.get(id);
    return r ? r.cities.map(name).join(" – ") : id;
  };
  const who =
    move.seat === null || move.seat === undefined
      ? "The table"
      : move.seat === you
        ? "You"
        : seatName(seats[move.seat]);
  const bits = [];
  let route = null;
  let city = null;
  // A reshuffle is told as part of what it served: the next card drawn from the deck, or
  // else the move's last words.
  let reshuffled = false;
  for (const e of move.events) {
    if (e.type === "card_drawn") {
      if (e.source === "face_up") bits.push(e.color === "locomotive" ? "took a face-up locomotive" : `took a face-up ${e.color}`);
      else {
        const fresh = reshuffled && e.source !== "face_up" ? ", newly shuffled from the discard pile" : "";
        bits.push(e.color ? `drew ${/^[aeiou]/.test(e.color) ? "an" : "a"} ${e.color} from the deck${fresh}` : `drew from the deck${fresh}`);
        reshuffled = false;
      }
    } else if (e.type === "route_claimed") {
      route = e.route;
      bits.push(`claimed ${routeName(e.route)} with ${cards(e.cards)} (+${e.points})`);
    } else if (e.type === "tunnel_revealed") {
      route = e.route;
      const turned = e.revealed.length ? e.revealed.join(", ") : "nothing";
      bits.push(`tried the tunnel ${routeName(e.route)}: turned ${turned}, ${e.extra ? `${plural(e.extra, "more card")} to pay` : "nothing more to pay"}`);
    } else if (e.type === "tunnel_declined") bits.push(`gave up the tunnel ${routeName(e.route)}`);
    else if (e.type === "tickets_drawn") bits.push(`drew ${plural(e.count, "ticket")}`);
    else if (e.type === "tickets_kept") {
      const of = e.returned ? ` of ${e.kept + e.returned}` : "";
      bits.push(`kept ${e.kept}${of} ticket${e.kept + e.returned === 1 ? "" : "s"}${e.initial ? " to start" : ""}`);
    } else if (e.type === "station_built") {
      city = e.city;
      bits.push(`built a station in ${name(e.city)} with ${cards(e.cards)}`);
    } else if (e.type === "forfeited") bits.push("left the game");
    else if (e.type === "turn_skipped") bits.push("could not move and passed");
    else if (e.type === "last_round") bits.push(`is down to ${plural(e.trains, "train")}: the last round begins`);
    else if (e.type === "deck_reshuffled") reshuffled = true;
    else if (e.type === "market_changed" && e.resets) bits.push("three locomotives: the market was replaced");
    else if (e.type === "game_over") bits.push("the game is over");
  }
  if (reshuffled) {
    const note = "the discard pile was shuffled into a new deck";
    if (bits.length) bits[bits.length - 1] += ` (${note})`;
    else bits.push(note);
  }
  if (!bits.length && move.action) bits.push(move.action.type.replaceAll("_", " "));
  let text = bits.join("; ");
  if (move.by_ai && move.seat !== null && seats[move.seat] && seats[move.seat].kind !== "ai") text += " (played by the AI)";
  return { who, seat: move.seat, text, route, city, number: move.number };
}
