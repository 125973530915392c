// One game: the board, the players, the market, my hand and tickets, the move log, and
// every decision played by clicking. The game's event stream says when something happened
// (each move as it is made); while it is not open, the view is polled with If-None-Match.
// Legal actions are asked for whenever a decision of mine is pending, and every button is
// made from them.
import { board as loadBoard, get, knownBoard, openEvents, post, request, session } from "./api.js";
import { colorName, createBoard, CARD_COLORS, CARD_SYMBOLS, PLAYER_COLORS, routeLabel } from "./board.js";
import { createChat } from "./chatdock.js";
import { cityPair, clearError, formatDuration, h, seatName, showError, statusName, toast, wrappable } from "./dom.js";
import { t, tn } from "./i18n.js";
import { describeMove, movesAfter } from "./moves.js";
import { ownersOf, pathText, progressText, scoredPath, ticketPath } from "./ticketpaths.js";
import { beep, prefs, settingsRow } from "./prefs.js";
import { renderStrip } from "./strip.js";
import { claimableRoutes, claimSheet } from "./claims.js";
import { keepFocus, nameTheMap } from "./keyboard.js";
import { playRecap, showResult } from "./ondemand.js";

const CARD_ORDER = ["purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive"];
// Someone else is to move: look soon after a change (an AI often answers within a fraction
// of a second), then back off to once a second while nothing happens.
const POLL_FIRST_MS = 150;
const POLL_WAITING_MS = 1000;
const POLL_MY_TURN_MS = 4000; // only a deadline or an opponent's extra time changes things

// Refusals that mean the page showed an old state (another tab or window moved, or a
// deadline was settled), not that the move itself was wrong.
const STALE_CODES = new Set(["NOT_YOUR_TURN", "WRONG_PHASE", "GAME_OVER", "GAME_NOT_ACTIVE", "FORFEITED", "CONCURRENT_UPDATE"]);

function outOfDate(err) {
  const message = err.status === 412
    ? t("The game moved on before your move arrived: it was played in another tab or window, or a deadline passed. The board is up to date now; look again and make your move.")
    : t("The game moved on before your move arrived (%(reason)s): it was played in another tab or window, or a deadline passed. The board is up to date now; look again and make your move.", { reason: err.message });
  return { message, code: err.code };
}

// The card gained between two views of my hand ("red"), or null.
function handGain(before, after) {
  const a = before && before.state && before.state.you;
  const b = after && after.state && after.state.you;
  if (!a || !b) return null;
  const gained = Object.keys(b.hand).filter((c) => b.hand[c] > (a.hand[c] || 0));
  return gained.length === 1 ? gained[0] : null;
}


// A card, or `count` cards, of a colour: its symbol and the count, named for screen
// readers and on hover.
export function cardChip(color, count) {
  return h(
    "span.chip",
    {
      dataset: { card: color },
      style: `--card:${CARD_COLORS[color]}`,
      title: colorName(color),
      "aria-label": count === undefined || count === "" ? colorName(color) : t("%(n)s %(color)s", { n: count, color: colorName(color) }),
    },
    h("span.sym", { "aria-hidden": "true" }, CARD_SYMBOLS[color] || ""),
    count === undefined || count === "" ? "" : `${count}`,
  );
}

// "2 red + 1 locomotive" for a payment of `total` cards.
function payment(color, locomotives, total) {
  const parts = [];
  const colored = total - locomotives;
  if (colored > 0) parts.push(t("%(n)s %(color)s", { n: colored, color: colorName(color) }));
  if (locomotives > 0) parts.push(tn("%(n)s locomotive", "%(n)s locomotives", locomotives));
  return parts.join(" + ") || t("nothing");
}

// Whether a seat's decision is pending in a view of the game.
function decidesIn(v) {
  const st = v && v.state;
  return Boolean(v && v.status === "active" && v.your_seat !== null && st && st.pending &&
    st.pending.seats.includes(v.your_seat));
}

// The first reads of a game page (its view, then its board and my options at once),
// started before the client's modules load (ahead.js) or, failing that, by the entry point
// while the language is read. A failed read is simply made again by the page.
let ahead = null;
export function readGameAhead(gameId) {
  const early = window.ttrAhead;
  window.ttrAhead = null;
  if (early && early.gameId === gameId && early.token === session.token) {
    ahead = {
      gameId,
      view: early.view,
      options: early.options.then((r) => (r ? r.data : null)),
    };
    early.view.then((r) => {
      if (r) knownBoard(r.data.board, early.board.then((b) => b ? b.data : loadBoard(r.data.board)));
    });
    return;
  }
  const view = request("GET", `/games/${gameId}`);
  const options = view.then((r) => {
    loadBoard(r.data.board).catch(() => {});
    return decidesIn(r.data) ? get(`/games/${gameId}/legal-actions`) : null;
  });
  view.catch(() => {});
  options.catch(() => {});
  ahead = { gameId, view, options };
}

function takeAhead(gameId) {
  const found = ahead && ahead.gameId === gameId ? ahead : null;
  ahead = null;
  return found;
}

// The restore epoch a game's ETag ends with ("g12-v7-s0-e3f9a01c2"), or null.
function epochOf(tag) {
  const found = /-e([0-9a-f]+)"?$/.exec(tag);
  return found ? found[1] : null;
}

export function showGame(root, gameId) {
  let alive = true;
  let view = null;
  let etag = null;
  let legal = null;
  let theBoard = null;
  let boardId = null;
  let boardData = null;
  let pollTimer = null;
  let quietPolls = 0; // polls in a row that found nothing new
  let busy = false;
  let resultShown = false;
  let finalSheet = null; // the score sheet of a finished game, once read
  let moves = []; // the move log as I may see it
  let lastMove = 0; // the number of its last move
  let movesLoading = null;
  let stream = null; // the EventSource while one is open or opening
  let streamOpen = false;
  let streamFailures = 0;
  let streamRetry = null;
  let refreshTimer = null;
  let wasMine = false;
  let firstReads = takeAhead(gameId); // the reads the entry point started, used once
  let waited = false; // this page has seen me wait for the others
  const recap = { due: null, stop: () => {} }; // when my turn came, and how to end the recap
  // claims: null, or the list of claimable routes shown: { city } (a tapped city's, or
  // every route's when city is null).
  const ui = { route: null, stationMode: false, city: null, claims: null, litTicket: null };
  // The person's ticks in a ticket offer, kept across re-renders and new versions while
  // the same offer is open: only the boxes they unticked.
  const keepChoice = { offer: null, unticked: new Set() };

  const boardWrap = h("div.board-wrap#board");
  const prefsRow = settingsRow();
  const status = h("section.card.status#status");
  const prompt = h("section.card.prompt#prompt");
  const market = h("section.card.market#market");
  const hand = h("section.card.hand#hand");
  const tickets = h("section.card.tickets#tickets");
  const pathNote = h("p.visually-hidden#ticket-path-text", { role: "status", "aria-live": "polite" });
  const log = h("section.card.log#log", {}, h("h3", {}, t("Moves")), h("ol.move-log"));
  const players = h("section.card.players#players");
  const result = h("section.card.result#result", { hidden: true });
  const strip = h("div.strip#strip", { role: "list", "aria-label": t("Players") });
  const gameNode = h("div.game", { dataset: { game: gameId } },
    // The players strip above the map, both pinned while the panels scroll.
    h("div.stage", {}, strip, boardWrap),
    // The market before the hand: a card taken may add a row to the hand, never moving
    // the deck under the pointer.
    h("aside.side", {}, status, prompt, result, market, hand, tickets, players, log),
  );
  // The chat: its panel beside the others (a bottom sheet on a phone), its button in the
  // status card (floating on a phone).
  const chat = createChat(gameId);
  gameNode.append(chat.panel);
  root.replaceChildren(gameNode);
  // A control drawn again keeps the keyboard's focus; one gone hands it to the prompt.
  const restoreFocus = keepFocus(gameNode, () => (myDecision() ? prompt : null));
  prompt.tabIndex = -1;

  const mySeat = () => (view ? view.your_seat : null);
  const state = () => (view ? view.state : null);
  const myDecision = () => decidesIn(view);
  const actionsOf = (type) => (legal ? legal.actions.filter((a) => a.type === type) : []);

  function resetUi() {
    ui.route = null;
    ui.stationMode = false;
    ui.city = null;
    ui.claims = null;
  }

  // A move is decided on the options the API listed, so it states their version: the
  // view the page holds may be older (another seat moved between the two reads).
  function decidedOn() {
    return legal ? Math.max(legal.version, view.version) : view.version;
  }

  async function play(action) {
    if (busy) return;
    recap.stop();
    busy = true;
    clearError();
    const before = view;
    const movedFrom = lastMove;
    render(); // every button disabled until the answer
    try {
      const r = await request("POST", `/games/${gameId}/actions`, {
        body: { version: decidedOn(), action },
      });
      resetUi();
      legal = null;
      busy = false;
      await accept(r.data, r.etag);
      let note = whatIDid(action, before, view);
      const freeTunnel = await turnedForNothing(action, movedFrom);
      if (freeTunnel) note = freeTunnel;
      if (note) toast(note);
      schedulePoll();
    } catch (err) {
      busy = false;
      const stale = err.status === 412 || (err.status === 409 && STALE_CODES.has(err.code));
      showError(stale ? outOfDate(err) : err);
      if (stale) {
        legal = null;
        etag = null;
        await refresh();
      }
    } finally {
      busy = false;
      render();
    }
  }

  // A tunnel claimed with nothing more to pay: the cards that were turned, read from the
  // move log ("Tunnel Bern – Luzern: turned red, blue, green; nothing more to pay").
  async function turnedForNothing(action, after) {
    if (action.type !== "claim_route") return null;
    const r = theBoard.routes.get(action.route);
    const pending = view.state && view.state.pending;
    if (!r || !r.tunnel || (pending && pending.kind === "tunnel_payment" && pending.seats.includes(mySeat()))) return null;
    try {
      const list = await movesAfter(gameId, after);
      const e = list.flatMap((m) => m.events).find((x) => x.type === "tunnel_revealed" && x.route === action.route);
      if (!e) return null;
      const turned = e.revealed.length ? e.revealed.map(colorName).join(", ") : t("no cards (the deck was empty)");
      return t("Tunnel %(route)s: turned %(cards)s; nothing more to pay. You claimed it.", { route: r.cities.map(theBoard.place).join(" – "), cards: turned });
    } catch {
      return null;
    }
  }

  // What a move of mine did, in a few words, so that a click never goes unanswered.
  function whatIDid(action, before, after) {
    const gained = handGain(before, after);
    if (action.type === "draw_blind") {
      if (!gained) return t("You drew from the deck.");
      if (gained === "locomotive") return t("You drew a locomotive card from the deck.");
      return /^[aeiou]/.test(gained) ? t("You drew an %(color)s card from the deck.", { color: colorName(gained) })
        : t("You drew a %(color)s card from the deck.", { color: colorName(gained) });
    }
    if (action.type === "draw_face_up") {
      if (!gained) return null;
      if (gained === "locomotive") return t("You took a locomotive card from the market.");
      return /^[aeiou]/.test(gained) ? t("You took an %(color)s card from the market.", { color: colorName(gained) })
        : t("You took a %(color)s card from the market.", { color: colorName(gained) });
    }
    if (action.type === "claim_route") {
      const r = theBoard.routes.get(action.route);
      const name = r ? r.cities.map(theBoard.place).join(" – ") : action.route;
      const pending = after.state && after.state.pending;
      if (pending && pending.kind === "tunnel_payment" && pending.seats.includes(mySeat())) {
        return t("Tunnel %(route)s: see the cards turned.", { route: name });
      }
      return t("You claimed %(route)s.", { route: name });
    }
    if (action.type === "pay_tunnel") return t("You paid the tunnel's extra cards and claimed it.");
    if (action.type === "decline_tunnel") return t("You gave up the tunnel; your cards are back in your hand.");
    if (action.type === "keep_tickets") return tn("You kept %(n)s ticket.", "You kept %(n)s tickets.", action.tickets.length);
    if (action.type === "build_station") return t("You built a station in %(city)s.", { city: theBoard.place(action.city) });
    if (action.type === "draw_tickets") return t("You drew tickets: choose which to keep.");
    return null;
  }

  async function lobbyAction(path) {
    clearError();
    try {
      await accept(await post(`/games/${gameId}/${path}`), null);
    } catch (err) {
      showError(err);
    }
  }

  // A new view is shown whole: the board and the options it needs are read first, and
  // only then does it replace the one on screen, so that no panel (the status line, which
  // the move log also refreshes) runs ahead of the others.
  async function accept(data, newEtag) {
    // The options are asked for while the board is read (the first view needs both).
    const mine = decidesIn(data);
    const early = firstReads;
    firstReads = null;
    const asking = mine && (!legal || legal.version !== data.version)
      ? (early ? early.options.catch(() => null) : Promise.resolve(null))
        .then((o) => (o && o.version === data.version ? o : get(`/games/${gameId}/legal-actions`)))
        .catch((err) => ({ failed: err }))
      : null;
    if (data.board !== boardId) {
      const loaded = await loadBoard(data.board);
      if (data.board !== boardId) {
        boardId = data.board;
        boardData = loaded;
        theBoard = createBoard(boardWrap, boardData, { onRoute: clickRoute, onCity: clickCity });
      }
    }
    let options = mine ? legal : null;
    if (asking) {
      options = await asking;
      if (options && options.failed) {
        showError(options.failed);
        options = null;
      }
    }
    // A restored database answers with a new epoch (the ETag's last part): the game went
    // back to an earlier version, so its view and its log replace the ones shown.
    const restored = etag && newEtag && epochOf(etag) !== epochOf(newEtag);
    if (restored) {
      moves = [];
      lastMove = 0;
    } else if (view && data.version < view.version) return; // a newer view was shown meanwhile
    const changed = !view || view.version !== data.version;
    view = data;
    chat.update(view);
    etag = newEtag;
    legal = options;
    if ((changed && !streamOpen) || restored) loadMoves();
    // The options are newer than the view: read the view again soon.
    if (legal && legal.version > view.version) schedulePoll();
    render();
  }

  async function refresh() {
    try {
      let r = null;
      if (firstReads) r = await firstReads.view.catch(() => null);
      if (!r) {
        firstReads = null;
        r = await request("GET", `/games/${gameId}`, { headers: etag ? { "If-None-Match": etag } : {} });
      }
      if (!alive) return;
      if (r.status === 200) {
        quietPolls = 0;
        await accept(r.data, r.etag);
      } else {
        quietPolls += 1;
      }
    } catch (err) {
      if (alive) showError(err);
    }
  }

  function schedulePoll() {
    clearTimeout(pollTimer);
    quietPolls = 0;
    if (streamOpen) return; // the stream says when to look
    pollTimer = setTimeout(poll, POLL_FIRST_MS);
  }

  // One look at the view soon, for a burst of events at once.
  function refreshSoon() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      if (alive && !busy) refresh();
      else if (alive) refreshSoon();
    }, 60);
  }

  async function poll() {
    if (!alive || streamOpen) return;
    if (!busy) await refresh();
    if (!alive || streamOpen) return;
    if (!alive) return;
    const done = view && ["finished", "cancelled"].includes(view.status);
    if (done) return;
    const wait = myDecision() ? POLL_MY_TURN_MS : Math.min(POLL_WAITING_MS, POLL_FIRST_MS * 2 ** quietPolls);
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, wait);
  }

  // ------------------------------------------------------------------ the move log
  function addMoves(list) {
    const fresh = list.filter((m) => m.number > lastMove);
    if (!fresh.length) return;
    moves = moves.concat(fresh);
    lastMove = fresh[fresh.length - 1].number;
    renderLog(fresh.length);
    if (view) {
      renderStatus();
      renderPlayers();
      showStrip();
    }
    renderBoard();
    startRecap();
  }

  // The recap of the others' moves, once my turn has come and their moves are read (the
  // stream may bring them just after the view). A move of mine ends it.
  function startRecap() {
    if (!recap.due || !theBoard || !myDecision()) return;
    if (Date.now() - recap.due > 3000) {
      recap.due = null;
      return;
    }
    const { lines } = othersSinceMyMove();
    if (!lines.length) return;
    recap.due = null;
    recap.stop();
    recap.stop = playRecap(boardWrap, theBoard, lines.slice(-8), (hadFocus) => {
      recap.stop = () => {};
      renderBoard();
      if (hadFocus) prompt.focus();
    });
  }

  // Polling: the moves made since the last one read, once per new version.
  function loadMoves() {
    if (movesLoading) return;
    movesLoading = movesAfter(gameId, lastMove)
      .then((list) => alive && addMoves(list))
      .catch(() => {}) // the log catches up at the next version
      .finally(() => { movesLoading = null; });
  }

  // ------------------------------------------------------------------ the event stream
  function startStream() {
    if (!alive || stream || typeof EventSource === "undefined") return;
    if (view && ["finished", "cancelled"].includes(view.status)) return;
    const opening = openEvents(`/games/${gameId}/events`, lastMove);
    stream = opening;
    opening.then((es) => {
      if (!alive || stream !== opening) { es.close(); return; }
      stream = es;
      es.onopen = () => {
        streamOpen = true;
        streamFailures = 0;
        clearTimeout(pollTimer);
        gameNode.dataset.live = "stream";
        chat.setLive(true);
      };
      es.addEventListener("move", (e) => {
        const move = JSON.parse(e.data);
        addMoves([move]);
        chat.nudge();
        if (!view || move.version > view.version) refreshSoon();
      });
      es.addEventListener("game", (e) => {
        const data = JSON.parse(e.data);
        if (!view || data.version !== view.version) refreshSoon();
        chat.nudge();
      });
      es.addEventListener("chat", (e) => chat.receive(JSON.parse(e.data)));
      es.addEventListener("end", () => {
        stopStream();
        refreshSoon();
      });
      // EventSource would reconnect by itself, but with a ticket that may have expired:
      // poll meanwhile, and open a new stream with a new ticket from the last move read.
      es.onerror = () => streamFailed();
    }).catch(() => { if (stream === opening) streamFailed(); });
  }

  function stopStream() {
    if (stream && stream.close) stream.close();
    stream = null;
    streamOpen = false;
    gameNode.dataset.live = "poll";
    chat.setLive(false);
  }

  function streamFailed() {
    stopStream();
    streamFailures += 1;
    schedulePoll();
    clearTimeout(streamRetry);
    streamRetry = setTimeout(startStream, Math.min(60000, 1000 * 2 ** streamFailures));
  }

  // Why a route cannot be claimed now, in words, from the view and the board's rules.
  function whyNotClaim(routeId) {
    const r = theBoard.routes.get(routeId);
    const name = r.cities.map(theBoard.place).join("–");
    const st = state();
    const me = mySeat();
    const kind = legal ? legal.pending.kind : null;
    if (kind && kind !== "turn_action") {
      return kind === "second_card"
        ? t("You cannot claim %(route)s now: take your second card first.", { route: name })
        : t("You cannot claim %(route)s now: finish the choice above first.", { route: name });
    }
    const owners = new Map();
    for (const s of st.seats) for (const id of s.routes) owners.set(id, s.seat);
    if (owners.has(routeId)) {
      const owner = owners.get(routeId);
      return owner === me ? t("%(route)s is already yours.", { route: name })
        : t("%(route)s is already claimed by %(player)s.", { route: name, player: seatName(view.seats[owner]) });
    }
    for (const twin of theBoard.routes.values()) {
      if (!r.double_group || twin.id === routeId || twin.double_group !== r.double_group || !owners.has(twin.id)) continue;
      const holder = owners.get(twin.id);
      if (holder === me) return t("You cannot claim %(route)s: you hold the other track of this double route, and one player may not hold both.", { route: name });
      if (view.seats.length < boardData.rules.double_routes_min_players) {
        return tn("You cannot claim %(route)s: with %(n)s player only one track of a double route is used, and %(player)s holds the other.",
          "You cannot claim %(route)s: with %(n)s players only one track of a double route is used, and %(player)s holds the other.",
          view.seats.length, { route: name, player: seatName(view.seats[holder]) });
      }
    }
    const trains = st.seats[me].trains;
    if (trains < r.length) {
      return tn("You cannot claim %(route)s: it needs %(n)s trains and you have %(left)s left.",
        "You cannot claim %(route)s: it needs %(n)s trains and you have %(left)s left.", r.length, { route: name, left: trains });
    }
    const hand = st.you.hand;
    const locos = hand.locomotive || 0;
    const inHand = (color) => payment(color, Math.min(locos, Math.max(0, r.length)), (hand[color] || 0) + locos);
    if (r.ferry_locomotives && locos < r.ferry_locomotives) {
      return tn("You cannot claim %(route)s: the ferry needs %(n)s locomotive among its %(length)s cards, and you have %(have)s.",
        "You cannot claim %(route)s: the ferry needs %(n)s locomotives among its %(length)s cards, and you have %(have)s.",
        r.ferry_locomotives, { route: name, length: r.length, have: locos });
    }
    if (r.color === "gray") {
      const colors = CARD_ORDER.filter((c) => c !== "locomotive");
      const best = colors.reduce((a, c) => ((hand[c] || 0) > (hand[a] || 0) ? c : a), colors[0]);
      const most = (hand[best] || 0) > 0 ? inHand(best) : tn("%(n)s locomotive", "%(n)s locomotives", locos);
      return tn("You cannot claim %(route)s: it needs %(n)s cards of one colour (locomotives count as any), and you have at most %(cards)s.",
        "You cannot claim %(route)s: it needs %(n)s cards of one colour (locomotives count as any), and you have at most %(cards)s.",
        r.length, { route: name, cards: most });
    }
    const v = { route: name, color: colorName(r.color) };
    if (!((hand[r.color] || 0) + locos)) {
      return tn("You cannot claim %(route)s: it needs %(n)s %(color)s (locomotives count as any colour), and you have no %(color)s and no locomotive.",
        "You cannot claim %(route)s: it needs %(n)s %(color)s (locomotives count as any colour), and you have no %(color)s and no locomotive.", r.length, v);
    }
    return tn("You cannot claim %(route)s: it needs %(n)s %(color)s (locomotives count as any colour), and you have %(cards)s.",
      "You cannot claim %(route)s: it needs %(n)s %(color)s (locomotives count as any colour), and you have %(cards)s.", r.length, { ...v, cards: inHand(r.color) });
  }

  function clickRoute(routeId) {
    if (!myDecision() || busy) return;
    if (!actionsOf("claim_route").some((a) => a.route === routeId)) {
      showError({ message: whyNotClaim(routeId) });
      return;
    }
    clearError();
    ui.route = routeId;
    ui.stationMode = false;
    ui.city = null;
    render();
  }

  // The routes at a city one can claim now, in a sheet; or every route's (city null).
  function showClaims(city) {
    if (!myDecision() || busy || !legal || legal.pending.kind !== "turn_action") return;
    clearError();
    ui.route = null;
    ui.stationMode = false;
    ui.city = null;
    ui.claims = { city, opened: true };
    render();
  }

  function clickCity(city) {
    if (!ui.stationMode) {
      showClaims(city);
      return;
    }
    if (busy) return;
    if (!actionsOf("build_station").some((a) => a.city === city)) {
      showError({ message: t("You cannot build a station in %(city)s.", { city: theBoard.place(city) }) });
      return;
    }
    clearError();
    ui.city = city;
    render();
  }

  // ------------------------------------------------------------------ rendering
  function render() {
    if (!view) return;
    const mine = Boolean(myDecision());
    if (mine && !wasMine) beep();
    // My turn after a wait seen on this page: the others' moves are replayed on the map.
    if (mine && !wasMine && waited) recap.due = Date.now();
    if (!mine && view.status === "active" && mySeat() !== null) waited = true;
    wasMine = mine;
    document.title = pageTitle();
    gameNode.classList.toggle("busy", busy);
    gameNode.dataset.version = view.version;
    gameNode.classList.toggle("finished", view.status === "finished");
    gameNode.setAttribute("aria-busy", String(busy));
    renderStatus();
    renderPrompt();
    renderMarket();
    renderHand();
    renderTickets();
    showStrip();
    renderBoard();
    renderBelow();
    restoreFocus();
    startRecap();
    if (view.status === "finished" && !resultShown) {
      resultShown = true;
      // Once the sheet is read, the players table and the tickets say what it says.
      showResult(result, gameId, view, theBoard).then((sheet) => {
        if (!alive || !sheet) return;
        finalSheet = sheet;
        renderPlayers();
        showStrip();
        renderTickets();
      });
    }
  }

  // The players table and the move log, under the prompt, the market and the hand: the
  // first view draws them after the frame that shows the map and the turn (nothing above
  // them moves when they fill in); every later view draws them with the rest.
  let below = "first"; // then "due" until they are drawn, then "now"
  function renderBelow() {
    if (below === "due") return;
    if (below === "now") {
      renderPlayers();
      renderLog();
      return;
    }
    below = "due";
    const draw = () => {
      if (below !== "due") return;
      below = "now";
      if (alive) renderBelow();
    };
    requestAnimationFrame(() => setTimeout(draw));
    setTimeout(draw, 500); // a tab out of sight draws no frames
  }

  // Each seat's last line of the move log (a turn's two cards as one), and what it put on
  // the map: the players table says what the log says.
  function lastMoves() {
    const last = new Map();
    if (!view || !theBoard) return last;
    let from = moves.length;
    const seen = new Set();
    while (from > 0 && seen.size < view.seats.length) {
      from -= 1;
      const seat = moves[from].seat;
      if (seat !== null && seat !== undefined) seen.add(seat);
    }
    // One move earlier, so that a turn's first card joins its second.
    for (const d of logLines(moves.slice(Math.max(0, from - 1)))) {
      if (d.seat !== null && d.seat !== undefined) last.set(d.seat, d);
    }
    return last;
  }

  // Moves as lines, a turn's two cards on one: "drew from the deck and took a face-up red".
  function logLines(list) {
    const lines = [];
    for (const m of list) {
      const d = describeMove(m, view.seats, theBoard, mySeat());
      const card = m.action && ["draw_blind", "draw_face_up"].includes(m.action.type);
      const ends = m.events.some((e) => e.type === "turn_started" || e.type === "game_over");
      const prev = lines[lines.length - 1];
      if (card && prev && prev.open && prev.seat === m.seat) {
        prev.text = t("%(first)s and %(second)s", { first: prev.text, second: d.text });
        prev.last = m.number;
        prev.count += 1;
        prev.open = false;
      } else {
        lines.push({ ...d, last: m.number, count: 1, open: card && !ends });
      }
    }
    return lines;
  }

  function logItem(d) {
    return h(`li${d.seat === mySeat() ? ".mine" : ""}`, { dataset: { move: d.last, moves: d.count, seat: d.seat ?? "" } },
      d.seat === null || d.seat === undefined ? null : h("span.swatch", { style: `background:${PLAYER_COLORS[d.seat]}` }),
      h("strong", {}, d.who), ` ${d.text}`);
  }

  // The others' moves since my last move, as lines; `from` is 0 when I have not moved yet.
  function othersSinceMyMove() {
    // My moves of this turn (a first card) are left out, so that the list stays as it was
    // when the turn began and nothing under it moves between two cards.
    let end = moves.length;
    while (end > 0 && moves[end - 1].seat === mySeat()) end -= 1;
    let from = end;
    while (from > 0 && moves[from - 1].seat !== mySeat()) from -= 1;
    const lines = logLines(moves.slice(from, end)).filter((d) => d.seat !== null && d.seat !== undefined);
    return { from, lines };
  }

  // What the others did since my last move, at the top of the page when it is my turn.
  function sinceMyMove() {
    if (!theBoard || mySeat() === null || !myDecision()) return null;
    const { from, lines } = othersSinceMyMove();
    if (!lines.length) return null;
    return h("div.since#since", {}, h("p.muted", {}, from ? t("Since your last move:") : t("So far:")),
      h("ol.move-log", {}, lines.slice(-8).map(logItem)));
  }

  function renderLog() {
    if (!view || !theBoard) return;
    const list = log.querySelector("ol");
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    list.replaceChildren(...logLines(moves).map(logItem));
    log.querySelector("h3").textContent = t("Moves (%(n)s)", { n: moves.length });
    if (stick) list.scrollTop = list.scrollHeight;
  }

  function renderBoard() {
    if (!theBoard || !state()) return;
    const owners = {};
    const stations = [];
    for (const s of state().seats) {
      for (const r of s.routes) owners[r] = s.seat;
      for (const c of s.stations) stations.push({ city: c, seat: s.seat });
    }
    theBoard.setClaims(owners, stations);
    nameTheMap(theBoard, view, owners, stations);
    const mine = myDecision();
    const claimable = new Set(mine && !ui.stationMode ? actionsOf("claim_route").map((a) => a.route) : []);
    const buildable = new Set(mine && ui.stationMode ? actionsOf("build_station").map((a) => a.city) : []);
    theBoard.setSelectable(claimable, buildable);
    theBoard.setSelected(ui.route);
    const recent = [...lastMoves().values()].filter((d) => d.seat !== mySeat());
    theBoard.setRecent(
      recent.filter((d) => d.route && owners[d.route] === d.seat).map((d) => d.route),
      recent.filter((d) => d.city).map((d) => `${d.city}:${d.seat}`),
    );
  }

  function pageTitle() {
    const name = boardData ? boardData.name : view.board;
    const base = `${name} #${view.id}`;
    if (myDecision()) return `▶ ${t("Your turn")} · ${base}`;
    if (view.status === "finished") return `${t("Game over")} · ${base}`;
    return base;
  }

  function whoseTurn() {
    const st = state();
    if (!st || !st.pending) return null;
    return st.pending.seats.map((i) => (i === mySeat() ? t("you") : seatName(view.seats[i]))).join(", ");
  }

  function renderStatus() {
    const st = state();
    const lines = [h("h2", {}, t("%(board)s · game #%(id)s", { board: boardData ? boardData.name : view.board, id: view.id }), h("span.badge", {}, statusName(view.status)))];
    if (view.status === "lobby") {
      lines.push(h("p", {}, t("Waiting for players:"), " ", view.seats.map(seatName).join(", ")));
    } else if (st) {
      const turn = whoseTurn();
      if (turn) lines.push(myDecision()
        ? h("p.turn-banner#whose-turn", {}, t("Your turn"))
        : h("p#whose-turn", {}, t("Waiting for %(players)s", { players: turn })));
      if (st.last_round && view.status === "active") {
        lines.push(h("p.warn", {}, tn("Last round: %(n)s turn left", "Last round: %(n)s turns left", st.last_round.turns_left)));
      }
      if (view.deadline) lines.push(h("p", {}, t("Deadline:"), " ", h("span#countdown", { dataset: { deadline: view.deadline } }, "")));
    }
    lines.push(sinceMyMove());
    if (view.status === "finished") lines.push(h("p", {}, h("a#replay-link", { href: `#/game/${gameId}/replay` }, t("Watch the replay"))));
    lines.push(h("div.row.links", {}, h("a", { href: "#/" }, `← ${t("Lobby")}`), prefsRow, chat.button));
    status.replaceChildren(...lines.filter(Boolean));
    tick();
  }

  function tick() {
    const node = status.querySelector("#countdown");
    if (!node) return;
    const left = (Date.parse(node.dataset.deadline) - Date.now()) / 1000;
    node.textContent = left > 0 ? formatDuration(left) : t("passed; the move is being settled");
    node.classList.toggle("warn", left < 60);
  }

  function lobbyPrompt() {
    const me = view.your_seat;
    const buttons = [];
    const canJoin = me === null && view.seats.some((s) => s.kind === "open");
    if (canJoin) buttons.push(h("button.primary", { onclick: () => lobbyAction("join") }, t("Join")));
    if (me !== null) buttons.push(h("button", { onclick: () => lobbyAction("leave") }, t("Leave")));
    if (view.created_by === (view.seats[me] || {}).username) {
      buttons.push(h("button", { onclick: () => lobbyAction("start") }, t("Start now")));
      buttons.push(h("button", { onclick: () => lobbyAction("cancel") }, t("Cancel game")));
    }
    return [h("h3", {}, t("Lobby")), h("p", {}, t("The game starts when every seat is taken.")), h("div.row", {}, buttons)];
  }

  function keepPrompt(kind) {
    const offered = state().you.offered_tickets;
    const rules = boardData.rules;
    const min = kind === "choose_initial_tickets" ? rules.initial_keep_min : rules.draw_keep_min;
    const offerKey = `${kind}:${offered.map((tk) => tk.id).sort().join(",")}`;
    if (keepChoice.offer !== offerKey) {
      keepChoice.offer = offerKey;
      keepChoice.unticked = new Set();
    }
    const boxes = offered.map((tk) => {
      const box = h("input", {
        type: "checkbox",
        checked: !keepChoice.unticked.has(tk.id),
        value: tk.id,
        disabled: busy,
        onchange: (e) => {
          if (e.target.checked) keepChoice.unticked.delete(tk.id);
          else keepChoice.unticked.add(tk.id);
        },
      });
      const cities = theBoard.ticketCities(tk);
      return h(`label.ticket-offer${tk.long ? ".long" : ""}`,
        { dataset: { ticket: tk.id }, onmouseenter: () => theBoard.highlightCities(cities), onmouseleave: () => theBoard.highlightCities([]) },
        box, ` ${cityPair(tk, theBoard.place)} `, h("span.points", {}, tk.destinations ? t("up to %(points)s", { points: tk.points }) : tk.points), tk.long ? h("span.tag", {}, t("long")) : null);
    });
    const keep = () => {
      const chosen = offered.map((tk) => tk.id).filter((id) => !keepChoice.unticked.has(id));
      play({ type: "keep_tickets", tickets: chosen.sort() });
    };
    return [
      h("h3", {}, kind === "choose_initial_tickets" ? t("Choose your first tickets") : t("Keep tickets")),
      h("p", {}, t("Keep at least %(n)s.", { n: min })),
      h("div.offers", {}, boxes),
      h("button.primary#keep-tickets", { onclick: keep, disabled: busy }, busy ? t("Sending…") : t("Keep selected")),
    ];
  }

  function claimOptions() {
    const route = theBoard.routes.get(ui.route);
    const options = actionsOf("claim_route").filter((a) => a.route === ui.route);
    return [
      h("h3", {}, t("Claim %(route)s", { route: route.cities.map(theBoard.place).join(" – ") })),
      h("p.muted", {}, routeLabel(route, theBoard.place) + (route.tunnel
        ? `. ${tn("%(n)s card is turned: matching ones cost extra.", "%(n)s cards are turned: matching ones cost extra.", boardData.rules.tunnel_cards)}`
        : "")),
      h("div.options", {}, options.map((a) =>
        h("button.pay-option", { onclick: () => play(a), disabled: busy, dataset: { color: a.color || "locomotive", locomotives: a.locomotives } },
          payment(a.color, a.locomotives, route.length)))),
      h("button.link", { onclick: () => { resetUi(); render(); } }, t("Cancel")),
    ];
  }

  function claimsSheet() {
    const groups = claimableRoutes(legal.actions, theBoard, ui.claims.city);
    return claimSheet({
      city: ui.claims.city,
      groups,
      board: theBoard,
      busy,
      payment: (a, route) => payment(a.color, a.locomotives, route.length),
      onPick: (a) => play(a),
      onClose: () => {
        resetUi();
        render();
        document.getElementById("claimable-routes")?.focus();
      },
    });
  }

  function stationOptions() {
    const built = boardData.rules.stations_per_player - state().seats[mySeat()].stations_left;
    const cost = boardData.rules.station_costs[built];
    if (!ui.city) {
      return [h("h3", {}, t("Build a station")), h("p", {}, tn("Pick a highlighted city (costs %(n)s card).", "Pick a highlighted city (costs %(n)s cards).", cost)),
        h("button.link", { onclick: () => { resetUi(); render(); } }, t("Cancel"))];
    }
    const options = actionsOf("build_station").filter((a) => a.city === ui.city);
    return [
      h("h3", {}, t("Station in %(city)s", { city: theBoard.place(ui.city) })),
      h("div.options", {}, options.map((a) => h("button.pay-option", { onclick: () => play(a), disabled: busy }, payment(a.color, a.locomotives, cost)))),
      h("button.link", { onclick: () => { resetUi(); render(); } }, t("Cancel")),
    ];
  }

  // Why the tunnel's extra cards cannot be paid: what it asks for, and what is in hand.
  function tunnelShort(tk) {
    const hand = state().you.hand;
    const locos = hand.locomotive || 0;
    const asked = tk.color === "locomotive"
      ? tn("%(n)s more locomotive", "%(n)s more locomotives", tk.extra)
      : tn("%(n)s more %(color)s or locomotive", "%(n)s more %(color)s or locomotives", tk.extra, { color: colorName(tk.color) });
    const count = tk.color === "locomotive" ? locos : (hand[tk.color] || 0) + locos;
    if (!count) {
      return tk.color === "locomotive"
        ? t("You cannot pay: it asks for %(asked)s, and you have no locomotive left in hand.", { asked })
        : t("You cannot pay: it asks for %(asked)s, and you have no %(color)s and no locomotive left in hand.", { asked, color: colorName(tk.color) });
    }
    const held = tk.color === "locomotive" ? tn("%(n)s locomotive", "%(n)s locomotives", locos) : payment(tk.color, locos, count);
    return t("You cannot pay: it asks for %(asked)s, and you have %(held)s left in hand.", { asked, held });
  }

  function tunnelPrompt() {
    const tk = state().pending.tunnel || {};
    const route = theBoard.routes.get(tk.route);
    return [
      h("h3", {}, t("Tunnel %(route)s", { route: route ? route.cities.map(theBoard.place).join(" – ") : "" })),
      h("p", {}, t("Turned cards:"), " ", (tk.revealed || []).map((c) => cardChip(c, ""))),
      h("p", {}, tn("It costs %(n)s more card.", "It costs %(n)s more cards.", tk.extra)),
      actionsOf("pay_tunnel").length ? null : h("p.warn#tunnel-short", {}, tunnelShort(tk)),
      h("div.options", {},
        actionsOf("pay_tunnel").map((a) => h("button.pay-option.pay-tunnel", { onclick: () => play(a), disabled: busy }, t("Pay %(cards)s", { cards: payment(tk.color, a.locomotives, tk.extra) }))),
        actionsOf("decline_tunnel").map((a) => h("button#decline-tunnel", { onclick: () => play(a), disabled: busy }, t("Decline")))),
    ];
  }

  function renderPrompt() {
    let body = [];
    if (view.status === "lobby") body = lobbyPrompt();
    else if (view.status === "cancelled") body = [h("p", {}, t("This game was cancelled."))];
    else if (view.status === "finished") body = [h("h3", {}, t("Game over"))];
    else if (!myDecision()) body = [h("p.muted", {}, mySeat() === null ? t("You are watching this game.") : t("Not your move: the board updates by itself."))];
    else if (!legal) body = [h("p.muted", {}, t("Loading your options…"))];
    else {
      const kind = legal.pending.kind;
      if (kind === "choose_initial_tickets" || kind === "keep_tickets") body = keepPrompt(kind);
      else if (kind === "tunnel_payment") body = tunnelPrompt();
      else if (kind === "second_card") {
        // The same shape as the turn's first prompt, its buttons kept but disabled, so that
        // the market and the deck stay where the first card was taken.
        body = [
          h("h3", {}, t("Take a second card")),
          h("p.what", {}, boardData.rules.face_up_locomotive_ends_draw
            ? t("From the market (not a locomotive) or the deck. Tickets and stations wait for your next turn.")
            : t("From the market or the deck. Tickets and stations wait for your next turn.")),
          h("div.row", {}, h("button", { disabled: true }, t("Routes I can claim")), h("button", { disabled: true }, t("Draw tickets")),
            boardData.rules.stations_per_player > 0 ? h("button", { disabled: true }, t("Build a station")) : null),
        ];
      }
      else if (ui.route) body = claimOptions();
      else if (ui.claims) body = claimsSheet();
      else if (ui.stationMode) body = stationOptions();
      else {
        const buttons = [];
        buttons.push(h("button#claimable-routes", { onclick: () => showClaims(null), disabled: busy || !actionsOf("claim_route").length }, t("Routes I can claim")));
        if (actionsOf("draw_tickets").length) buttons.push(h("button#draw-tickets", { onclick: () => play({ type: "draw_tickets" }), disabled: busy }, t("Draw tickets")));
        if (actionsOf("build_station").length) buttons.push(h("button#build-station", { onclick: () => { ui.stationMode = true; render(); }, disabled: busy }, t("Build a station")));
        body = [
          h("h3", {}, t("Your turn")),
          h("p.what", {}, t("Draw two cards (market or deck), claim a highlighted route, draw tickets, or build a station.")),
          h("div.row", {}, buttons),
        ];
      }
    }
    prompt.replaceChildren(...body);
    prompt.classList.toggle("sheet", Boolean(ui.claims) && Boolean(myDecision()));
    if (ui.claims && ui.claims.opened) {
      // Just opened: the keyboard and screen readers are taken to it.
      ui.claims.opened = false;
      prompt.querySelector("#claim-sheet-title")?.focus({ preventScroll: true });
    }
    prompt.hidden = view.status === "finished"; // the result says it all
    prompt.classList.toggle("active", Boolean(myDecision()));
    // What the prompt offers, for scripts and tests driving the page.
    if (myDecision() && legal) {
      prompt.dataset.kind = legal.pending.kind;
      prompt.dataset.version = legal.version;
    } else {
      delete prompt.dataset.kind;
      delete prompt.dataset.version;
    }
  }

  function renderMarket() {
    const st = state();
    market.hidden = !st || view.status === "finished";
    if (market.hidden) {
      market.replaceChildren();
      return;
    }
    const slots = new Set(actionsOf("draw_face_up").map((a) => a.slot));
    const blind = actionsOf("draw_blind").length > 0;
    market.replaceChildren(
      h("h3", {}, t("Market")),
      h("div.market-cards", {}, st.market.map((c, i) =>
        h("button.card-face", {
          disabled: busy || !slots.has(i),
          dataset: { slot: i, card: c || "empty" },
          style: `--card:${CARD_COLORS[c] || "transparent"}`,
          title: c ? colorName(c) : t("empty"),
          "aria-label": c ? t("Take the face-up %(color)s", { color: colorName(c) }) : t("Empty slot"),
          onclick: () => play({ type: "draw_face_up", slot: i }),
        }, c ? [h("span.sym", { "aria-hidden": "true" }, CARD_SYMBOLS[c]), h("span.name", {}, c === "locomotive" ? t("loco") : colorName(c))] : ""))),
      h("div.row", {},
        h("button#draw-blind", { disabled: busy || !blind, onclick: () => play({ type: "draw_blind" }) }, t("Deck (%(n)s)", { n: st.deck_size })),
        h("span.muted", {}, t("Discard: %(n)s", { n: st.discard_size })),
        h("span.muted", {}, t("Tickets: %(n)s", { n: st.ticket_deck_size }))),
    );
  }

  function renderHand() {
    const you = state() && state().you;
    hand.hidden = !you || view.status === "finished";
    if (hand.hidden) return;
    hand.replaceChildren(
      h("h3", {}, t("My hand")),
      h("div.chips", {}, CARD_ORDER.filter((c) => you.hand[c] > 0).map((c) => cardChip(c, you.hand[c]))),
    );
  }

  function renderTickets() {
    const you = state() && state().you;
    tickets.hidden = !you;
    if (!you) return;
    const pinned = () => you.tickets.find((tk) => tk.id === ui.pinnedTicket) || null;
    // After the game a ticket is done or failed as the score sheet counts it (a station's
    // borrowed route may complete it).
    const sheet = finalSheet && finalSheet.players.find((p) => p.seat === mySeat());
    // Each ticket's path (ticketpaths.js); the lit one is drawn, and put in words.
    const owners = ownersOf(state().seats);
    const onSheet = new Map(sheet ? sheet.tickets.map((tk) => [tk.id, tk]) : []);
    const plans = new Map(you.tickets.map((tk) => [tk.id, onSheet.has(tk.id) ? scoredPath(onSheet.get(tk.id), owners, mySeat())
      : ticketPath(boardData, tk, { owners, seat: mySeat(), players: view.seats.length })]));
    const light = (tk) => {
      ui.litTicket = tk ? tk.id : null;
      theBoard.highlightCities(tk ? theBoard.ticketCities(tk) : []);
      theBoard.highlightPath(tk ? plans.get(tk.id).segments : []);
      const words = tk ? pathText(boardData, plans.get(tk.id), cityPair(tk, theBoard.place), theBoard.place) : "";
      if (pathNote.textContent !== words) pathNote.textContent = words;
    };
    const scored = new Map(sheet ? sheet.tickets.map((tk) => [tk.id, tk.completed]) : []);
    const doneOf = (tk) => (scored.has(tk.id) ? scored.get(tk.id) : tk.connected);
    const mark = (tk) => (doneOf(tk) ? "✓" : scored.has(tk.id) ? "✗" : "○");
    const done = you.tickets.filter(doneOf).length;
    tickets.replaceChildren(
      h("h3", {}, t("My tickets"), you.tickets.length
        ? h("span.badge", {}, tn("%(done)s of %(n)s connected", "%(done)s of %(n)s connected", you.tickets.length, { done }))
        : null),
      you.tickets.length
        ? h("ul.ticket-list", {}, you.tickets.map((tk) =>
            h(`li.ticket${doneOf(tk) ? ".done" : scored.has(tk.id) ? ".failed" : ""}${tk.long ? ".long" : ""}${tk.id === ui.pinnedTicket ? ".pinned" : ""}`, {
              dataset: { ticket: tk.id, path: plans.get(tk.id).status },
              tabindex: 0,
              title: doneOf(tk) ? t("Connected. Tap to keep it lit on the map.")
                : scored.has(tk.id) ? t("Failed. Tap to keep it lit on the map.") : t("Not connected yet. Tap to keep it lit on the map."),
              onmouseenter: () => light(tk),
              onmouseleave: () => light(pinned()),
              onfocus: () => light(tk),
              onblur: () => light(pinned()),
              onclick: () => {
                ui.pinnedTicket = ui.pinnedTicket === tk.id ? null : tk.id;
                renderTickets();
                light(pinned());
              },
            }, h("span.mark", {}, mark(tk)), ` ${cityPair(tk, theBoard.place)} `, tk.long ? h("span.tag", {}, t("long")) : null, h("span.points", {}, tk.points),
            h("span.progress", {}, progressText(plans.get(tk.id))))))
        : h("p.muted", {}, t("None yet.")),
      you.tickets.length ? h("p.legend.path-key", {}, h("span.key.path-owned"), " ", t("your route"), " ", h("span.key.path-to-claim"), " ", t("to claim")) : null,
      pathNote,
    );
    // The lit ticket stays lit, its path as the game is now.
    const lit = you.tickets.find((tk) => tk.id === ui.litTicket);
    if (lit) light(lit);
  }


  function showStrip() {
    const totals = finalSheet ? new Map(finalSheet.players.map((p) => [p.seat, p.total])) : null;
    renderStrip(strip, { view, mySeat: mySeat(), last: lastMoves(), totals });
  }

  function renderPlayers() {
    const st = state();
    const pending = st && st.pending ? st.pending.seats : [];
    const last = lastMoves();
    const stations = boardData && boardData.rules.stations_per_player > 0;
    // Route points while the game runs; the score sheet's totals once it is over.
    const totals = finalSheet ? new Map(finalSheet.players.map((p) => [p.seat, p.total])) : null;
    const cell = (value, cls = "td.num") => h(cls, {}, value === undefined || value === null ? "" : value);
    const rows = view.seats.map((seat) => {
      const pub = st ? st.seats[seat.index] : null;
      const did = last.get(seat.index);
      return h(`tr${pending.includes(seat.index) ? ".to-move" : ""}${pub && pub.forfeited ? ".forfeited" : ""}`, { dataset: { seat: seat.index } },
        h("td.name", {}, h("span.swatch", { style: `background:${PLAYER_COLORS[seat.index]}` }), wrappable(seat.index === mySeat() ? t("%(player)s (you)", { player: seatName(seat) }) : seatName(seat)),
          did && seat.index !== mySeat() ? h("div.last-move", { title: did.text }, t("Last: %(move)s", { move: did.text })) : null),
        cell(totals ? totals.get(seat.index) : pub && pub.route_points),
        cell(pub && pub.trains),
        stations ? cell(pub && pub.stations_left) : null,
        cell(pub && pub.hand_size),
        cell(pub && pub.tickets));
    });
    const heads = [t("Player"), finalSheet ? t("Total") : t("Score"), t("Trains"), stations ? t("Stations") : null, t("Cards"), t("Tickets")].filter(Boolean);
    players.replaceChildren(
      h("h3", {}, t("Players")),
      scoreTrack(st),
      h("table", {},
        h("thead", {}, h("tr", {}, heads.map((tk, i) => h(i ? "th.num" : "th", {}, tk)))),
        h("tbody", {}, rows)),
    );
  }

  // Route points as claimed, as bars along one track (the longest bar is the leader).
  function scoreTrack(st) {
    if (!st) return null;
    const top = Math.max(50, ...st.seats.map((s) => s.route_points));
    return h("div.score-track#score-track", { role: "img", "aria-label": st.seats.map((s) => `${seatName(view.seats[s.seat])} ${s.route_points}`).join(", ") },
      st.seats.map((s) => h("div.lane", { dataset: { seat: s.seat } },
        h("span.bar", { style: `width:${(100 * s.route_points) / top}%;background:${PLAYER_COLORS[s.seat]}` }),
        h("span.value", {}, s.route_points))));
  }


  const clock = setInterval(tick, 1000);
  gameNode.dataset.live = "poll";
  // The event stream is opened once the first view is shown: its ticket (a write) and its
  // opening would otherwise be served among the reads the first screen waits for.
  poll().finally(startStream);
  return () => {
    alive = false;
    recap.stop();
    chat.close();
    stopStream();
    clearTimeout(pollTimer);
    clearTimeout(streamRetry);
    clearTimeout(refreshTimer);
    clearInterval(clock);
  };
}
