// A step-by-step replay of a whole game from its move log (GET /games/{id}/moves): the
// public events of each move are applied in order to rebuild routes, stations, points,
// trains and the market after every move.
import { board as loadBoard, get } from "./api.js";
import { createBoard, PLAYER_COLORS } from "./board.js";
import { h, seatName, showError } from "./dom.js";
import { cardChip } from "./game.js";
import { t } from "./i18n.js";
import { describeMove, movesAfter } from "./moves.js";

function frames(moves, players, rules) {
  let cur = {
    owners: {},
    stations: [],
    points: Array(players).fill(0),
    trains: Array(players).fill(rules.trains_per_player),
    market: [],
    toMove: null,
  };
  const out = [cur];
  for (const move of moves) {
    cur = { ...cur, owners: { ...cur.owners }, stations: [...cur.stations], points: [...cur.points], trains: [...cur.trains], last: null };
    for (const e of move.events) {
      if (e.type === "route_claimed") {
        cur.owners[e.route] = e.seat;
        cur.points[e.seat] += e.points;
        cur.trains[e.seat] = e.trains_left;
        cur.last = e.route;
      } else if (e.type === "station_built") cur.stations.push({ city: e.city, seat: e.seat });
      else if (e.type === "market_changed") cur.market = e.market;
      else if (e.type === "turn_started") cur.toMove = e.seat;
    }
    out.push(cur);
  }
  return out;
}

export function showReplay(root, gameId) {
  let timer = null;
  let alive = true;
  const boardWrap = h("div.board-wrap#board");
  const panel = h("section.card.replay#replay", {}, h("p.muted", {}, t("Loading the move log…")));
  root.replaceChildren(h("div.game", {}, boardWrap, h("aside.side", {}, panel)));

  (async () => {
    try {
      const view = await get(`/games/${gameId}`);
      const boardData = await loadBoard(view.board);
      const moves = await movesAfter(gameId);
      if (!alive) return;
      const board = createBoard(boardWrap, boardData);
      const all = frames(moves, view.players, boardData.rules);
      let step = 0;
      const label = h("p#replay-move");
      const counter = h("span#replay-counter");
      const slider = h("input#replay-step", { type: "range", min: 0, max: moves.length, value: 0 });
      const scores = h("tbody");
      const market = h("div.chips#replay-market");
      const marketHead = h("h3", {}, t("Market"));
      // The whole game as a list: each move in words, the current one marked; a click
      // goes to it.
      const list = h("ol.move-log#replay-moves", {}, moves.map((m, i) => {
        const d = describeMove(m, view.seats, board, view.your_seat);
        return h("li", { dataset: { move: i + 1 }, onclick: () => { stop(); show(i + 1); } },
          m.seat === null || m.seat === undefined ? null : h("span.swatch", { style: `background:${PLAYER_COLORS[m.seat]}` }),
          h("strong", {}, d.who), ` ${d.text}`);
      }));
      // A step forward animates its claim; a jump (the slider, the list, back) does not.
      const show = (n) => {
        const next = Math.max(0, Math.min(moves.length, n));
        const animate = next === step + 1;
        step = next;
        const f = all[step];
        board.setClaims(f.owners, f.stations, { animate });
        board.setSelected(f.last);
        slider.value = step;
        counter.textContent = t("Move %(step)s of %(n)s", { step, n: moves.length });
        if (step === 0) label.textContent = t("The start: nothing claimed yet.");
        else {
          const d = describeMove(moves[step - 1], view.seats, board, view.your_seat);
          label.textContent = `${d.who} ${d.text}`;
        }
        scores.replaceChildren(...view.seats.map((s) =>
          h(`tr${f.toMove === s.index ? ".to-move" : ""}`, {},
            h("td", {}, h("span.swatch", { style: `background:${PLAYER_COLORS[s.index]}` }), seatName(s)),
            h("td", {}, f.points[s.index]),
            h("td", {}, f.trains[s.index]))));
        market.replaceChildren(...f.market.filter(Boolean).map((c) => cardChip(c, "")));
        // No market heading over no cards (before the first move).
        marketHead.hidden = market.hidden = !f.market.some(Boolean);
        for (const li of list.querySelectorAll("li.current")) li.classList.remove("current");
        const current = list.children[step - 1];
        if (current) {
          current.classList.add("current");
          list.scrollTop = current.offsetTop - list.clientHeight / 2;
        }
      };
      const stop = () => {
        clearInterval(timer);
        timer = null;
        playButton.textContent = `▶ ${t("Play")}`;
      };
      const playButton = h("button.primary#replay-play", {
        onclick: () => {
          if (timer) return stop();
          playButton.textContent = `❚❚ ${t("Pause")}`;
          timer = setInterval(() => (step >= moves.length ? stop() : show(step + 1)), 400);
        },
      }, `▶ ${t("Play")}`);
      slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
      panel.replaceChildren(
        h("h2", {}, t("Replay: %(board)s · game #%(id)s", { board: boardData.name, id: gameId })),
        h("div.row.controls", {},
          h("button#replay-first", { onclick: () => { stop(); show(0); }, title: t("Start"), "aria-label": t("Start") }, "|◀"),
          h("button#replay-prev", { onclick: () => { stop(); show(step - 1); }, title: t("Back"), "aria-label": t("Back") }, "◀"),
          playButton,
          h("button#replay-next", { onclick: () => { stop(); show(step + 1); }, title: t("Forward"), "aria-label": t("Forward") }, "▶"),
          h("button#replay-last", { onclick: () => { stop(); show(moves.length); }, title: t("End"), "aria-label": t("End") }, "▶|")),
        slider,
        counter,
        label,
        marketHead,
        market,
        h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Points")), h("th", {}, t("Trains")))), scores),
        h("p.muted", {}, t("Points here are route points; tickets, stations and bonuses count at the end.")),
        h("div.log", {}, h("h3", {}, t("Moves")), list),
        h("p", {}, h("a", { href: `#/game/${gameId}` }, `← ${t("Back to the game")}`)),
      );
      show(0);
    } catch (err) {
      showError(err);
    }
  })();
  return () => {
    alive = false;
    clearInterval(timer);
  };
}
