// The lobby: my games (my turn first, as the API orders them), invitations, open games to
// join, and a form to create a game with AI seats and a time limit. The quick match
// (quickmatch.js) is loaded with the lobby's first reads.
import { allPages, get, post, session } from "./api.js";
import { h, levelName, seatName, showError, statusName } from "./dom.js";
import { t, tn } from "./i18n.js";
import { listenToUser } from "./stream.js";

const LEVELS = ["random", "easy", "medium", "hard"];
// What the user's stream (GET /stream) tells of: each reloads the lists at once.
const NOTICES = ["invitation", "game_started", "your_turn", "deadline_approaching", "timed_out", "seat_taken_over", "game_over", "match_found"];
const LIMITS = () => [
  [t("No time limit"), ""],
  [t("2 minutes a move"), "120"],
  [t("10 minutes a move"), "600"],
  [t("1 hour a move"), "3600"],
  [t("1 day a move"), "86400"],
  [t("3 days a move"), "259200"],
];


// Finished games' score sheets never change: read once per page.
const results = new Map();

function finalScores(game, node) {
  if (!results.has(game.id)) results.set(game.id, get(`/games/${game.id}/result`).catch(() => null));
  results.get(game.id).then((sheet) => {
    if (!sheet) return;
    const bySeat = new Map(sheet.players.map((p) => [p.seat, p]));
    node.replaceChildren(...sheet.ranking.map(({ seat }, i) => {
      const p = bySeat.get(seat);
      const who = seat === game.your_seat ? t("you") : seatName(game.seats[seat]);
      return h(`span.score${p.place === 1 ? ".first" : ""}`, {}, `${i ? " · " : ""}${p.place}. ${who} ${p.total}`);
    }));
  });
}

function gameRow(game, actions, boardNames = new Map()) {
  const others = game.seats.map(seatName).join(", ");
  const status = game.status === "active" && game.your_turn ? "your turn" : game.status;
  const scores = game.status === "finished" ? h("span.scores") : null;
  if (scores) finalScores(game, scores);
  return h(
    "li.game",
    { dataset: { game: game.id, status: game.status, board: game.board } },
    h("a", { href: `#/game/${game.id}` }, `${boardNames.get(game.board) || game.board} #${game.id}`),
    h(`span.badge.${status.replace(" ", "-")}`, {}, statusName(status)),
    h("span.seats", {}, others),
    scores,
    actions,
  );
}

function seatEditor(index) {
  const seat = { number: index + 1 };
  const type = h("select", { name: `seat-${index}-type`, "aria-label": t("Seat %(number)s", seat) },
    h("option", { value: "ai" }, t("AI")),
    h("option", { value: "open" }, t("Open seat")),
    h("option", { value: "invite" }, t("Invite")),
  );
  const level = h("select", { name: `seat-${index}-level`, "aria-label": t("Seat %(number)s: AI level", seat) }, LEVELS.map((l) => h("option", { value: l, selected: l === "easy" }, levelName(l))));
  const username = h("input", { name: `seat-${index}-username`, placeholder: t("username"), "aria-label": t("Seat %(number)s: username", seat), hidden: true });
  type.addEventListener("change", () => {
    level.hidden = type.value !== "ai";
    username.hidden = type.value !== "invite";
  });
  const row = h("div.seat-row", {}, h("span", {}, t("Seat %(number)s", seat)), type, level, username);
  row.spec = () => {
    if (type.value === "ai") return { type: "ai", level: level.value };
    if (type.value === "invite") return { type: "invite", username: username.value.trim() };
    return { type: "open" };
  };
  return row;
}

function createForm(boards) {
  const board = h("select", { name: "board", "aria-label": t("Board") }, boards.map((b) => h("option", { value: b.id }, b.name)));
  const players = h("select", { name: "players", "aria-label": t("Players") });
  // Only the player counts the chosen board is played with (Switzerland: 2 to 3).
  const counts = () => {
    const b = boards.find((x) => x.id === board.value) || { min_players: 2, max_players: 5 };
    const wanted = Number(players.value) || 4;
    const options = [];
    for (let n = b.min_players; n <= b.max_players; n++) options.push(n);
    const pick = Math.min(Math.max(wanted, b.min_players), b.max_players);
    players.replaceChildren(...options.map((n) => h("option", { value: n, selected: n === pick }, tn("%(n)s player", "%(n)s players", n))));
  };
  counts();
  const limit = h("select", { name: "turn_time_limit", "aria-label": t("Time limit") }, LIMITS().map(([label, v]) => h("option", { value: v, selected: v === "86400" }, label)));
  const seats = h("div.seats-editor");
  const fill = () => {
    const n = Number(players.value);
    while (seats.children.length < n - 1) seats.append(seatEditor(seats.children.length + 1));
    while (seats.children.length > n - 1) seats.lastChild.remove();
  };
  players.addEventListener("change", fill);
  board.addEventListener("change", () => {
    counts();
    fill();
  });
  fill();
  async function submit(e) {
    e.preventDefault();
    const body = {
      board: board.value,
      seats: [{ type: "creator" }, ...Array.from(seats.children, (row) => row.spec())],
      turn_time_limit: limit.value ? Number(limit.value) : null,
    };
    try {
      const game = await post("/games", body);
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      showError(err);
    }
  }
  return h("form.card.create", { onsubmit: submit },
    h("h2", {}, t("New game")),
    h("div.row", {}, board, players, limit),
    h("div.muted", {}, t("Seat 1: you")),
    seats,
    h("button.primary", { type: "submit", id: "create-game" }, t("Create game")),
  );
}

export function showLobby(root) {
  let alive = true;
  const mine = h("ul.games#my-games", {}, h("li.muted", {}, t("Loading…")));
  const invites = h("ul.games#invitations");
  const open = h("ul.games#open-games");
  const formSlot = h("div");
  const quickSlot = h("div");
  let quick = null;
  // quickmatch.js, read with the lists (again at the next reading if it failed).
  let quickModule = null;
  const quickLoaded = () => (quickModule ||= import("./quickmatch.js").catch((err) => {
    quickModule = null;
    throw err;
  }));
  root.replaceChildren(
    h("div.lobby", {},
      quickSlot,
      h("section.card", {}, h("h2", {}, t("My games")), mine),
      h("section.card", {}, h("h2", {}, t("Invitations")), invites),
      h("section.card", {}, h("h2", {}, t("Open games")), open),
      formSlot,
    ),
  );

  async function act(path) {
    try {
      const game = await post(path);
      location.hash = `#/game/${game.id}`;
    } catch (err) {
      showError(err);
    }
  }

  async function decline(id) {
    try {
      await post(`/games/${id}/invitation/decline`);
      await load();
    } catch (err) {
      showError(err);
    }
  }

  async function load() {
    try {
      const [myGames, openGames, boards, { quickMatch }] = await Promise.all([
        allPages("/games?scope=mine"),
        allPages("/games?scope=open"),
        get("/boards"),
        quickLoaded(),
      ]);
      if (!alive) return;
      const me = session.username.toLowerCase();
      const names = new Map((boards.results || boards).map((b) => [b.id, b.name]));
      const invited = (g) =>
        g.status === "lobby" && g.your_seat === null &&
        g.seats.some((s) => s.kind === "invited" && (s.username || "").toLowerCase() === me);
      const seated = myGames.filter((g) => !invited(g));
      mine.replaceChildren(...(seated.length ? seated.map((g) => gameRow(g, null, names)) : [h("li.muted", {}, t("No games yet."))]));
      const inv = myGames.filter(invited);
      invites.replaceChildren(...(inv.length
        ? inv.map((g) => gameRow(g, h("span.actions", {},
            h("button.primary", { onclick: () => act(`/games/${g.id}/invitation/accept`) }, t("Accept")),
            h("button", { onclick: () => decline(g.id) }, t("Decline"))), names))
        : [h("li.muted", {}, t("No invitations."))]));
      const joinable = openGames.filter((g) => g.your_seat === null && !invited(g));
      open.replaceChildren(...(joinable.length
        ? joinable.map((g) => gameRow(g, h("button.primary", { onclick: () => act(`/games/${g.id}/join`) }, t("Join")), names))
        : [h("li.muted", {}, t("No open games."))]));
      if (!formSlot.firstChild) formSlot.append(createForm(boards.results || boards));
      if (!quick) {
        quick = quickMatch(boards.results || boards);
        quickSlot.append(quick.node);
      }
    } catch (err) {
      showError(err);
    }
  }
  // The user's stream brings invitations and turns at once; the open games, which no
  // notice tells of, are still read every 10 s.
  const stopListening = listenToUser(root, NOTICES, (kind, event) => {
    if (quick) quick.onNotice(kind, event);
    load();
  });
  load();
  const timer = setInterval(load, 10000);
  return () => {
    alive = false;
    clearInterval(timer);
    stopListening();
    if (quick) quick.stop();
  };
}
