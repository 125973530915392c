// Quick match: a seek (POST /seeks) for a board, a player count, a pace and rated or not,
// shown while it waits ("Looking for players… 0:12", with Cancel) and followed to its game
// when the workers pair it. The seek's state comes from the user's stream (`match_found`)
// at once, and from GET /seeks/{id} every few seconds in case the stream is down.
import { get, post, del } from "./api.js";
import { busy, formatDuration, h, problemNote } from "./dom.js";
import { t, tn } from "./i18n.js";

// The paces quick match offers (the schema's enum of `turn_time_limit`).
const PACES = () => [
  [t("1 minute a move"), 60],
  [t("3 minutes a move"), 180],
  [t("5 minutes a move"), 300],
  [t("1 day a move"), 86400],
];
const WINDOWS = () => [
  [t("Any rating"), ""],
  [t("±%(points)s rating", { points: 100 }), "100"],
  [t("±%(points)s rating", { points: 200 }), "200"],
  [t("±%(points)s rating", { points: 400 }), "400"],
];
const AI_FILL = () => [
  [t("No AI seats"), ""],
  [t("AI fills after 30 s"), "30"],
  [t("AI fills after 1 min"), "60"],
  [t("AI fills after 3 min"), "180"],
];
const POLL_MS = 3000;

const options = (pairs, selected) =>
  pairs.map(([label, value]) => h("option", { value, selected: String(value) === String(selected) }, label));

export function quickMatch(boards) {
  const note = problemNote("quick-match-problem");
  const board = h("select", { name: "qm-board", "aria-label": t("Board") }, boards.map((b) => h("option", { value: b.id, selected: b.id === "europe" }, b.name)));
  const players = h("select", { name: "qm-players", "aria-label": t("Players") });
  const counts = () => {
    const b = boards.find((x) => x.id === board.value) || { min_players: 2, max_players: 5 };
    const range = t("%(min)s–%(max)s players", { min: b.min_players, max: b.max_players });
    const choices = [[range, `${b.min_players}-${b.max_players}`]];
    for (let n = b.min_players; n <= b.max_players; n++) choices.push([tn("%(n)s player", "%(n)s players", n), `${n}-${n}`]);
    const keep = players.value;
    players.replaceChildren(...options(choices, choices.some(([, v]) => v === keep) ? keep : choices[0][1]));
  };
  counts();
  board.addEventListener("change", counts);
  const pace = h("select", { name: "qm-pace", "aria-label": t("Pace") }, options(PACES(), 86400));
  const rated = h("input", { type: "checkbox", name: "qm-rated", checked: true });
  const window_ = h("select", { name: "qm-window", "aria-label": t("Rating window") }, options(WINDOWS(), ""));
  const aiFill = h("select", { name: "qm-ai", "aria-label": t("AI seats") }, options(AI_FILL(), ""));
  const start = h("button.primary#quick-match", { type: "submit" }, t("Play now"));
  const form = h("form.quick-form", { onsubmit: submit },
    h("div.row", {}, board, players, pace),
    h("div.row", {}, h("label", {}, rated, " ", t("Rated")), window_, aiFill),
    start,
  );
  const status = h("p#seek-status", { role: "status" });
  const cancel = h("button#seek-cancel", { type: "button", onclick: cancelSeek }, t("Cancel"));
  const waiting = h("div.seek-waiting", { hidden: true }, status, cancel);
  const node = h("section.card.quick-match", {}, h("h2", {}, t("Quick match")), form, waiting, note);

  let seek = null;
  let poll = null;
  let clock = null;

  function show(next) {
    seek = next;
    node.dataset.seekStatus = seek ? seek.status : "none";
    clearInterval(clock);
    clearTimeout(poll);
    if (seek && seek.status === "matched" && seek.game) {
      location.hash = `#/game/${seek.game}`;
      return;
    }
    const open = seek && seek.status === "waiting";
    form.hidden = open;
    waiting.hidden = !open;
    if (open) {
      const since = Date.parse(seek.created_at);
      const tick = () => {
        const waited = formatDuration(Math.max(0, Math.floor((Date.now() - since) / 1000)));
        status.textContent = t("Looking for players… %(time)s", { time: waited });
      };
      tick();
      clock = setInterval(tick, 1000);
      poll = setTimeout(refresh, POLL_MS);
    } else if (seek && (seek.status === "expired" || seek.status === "cancelled")) {
      note.textContent = seek.status === "expired" ? t("Nobody was found in time; the search has ended.") : "";
      note.hidden = seek.status !== "expired";
    }
  }

  async function refresh() {
    if (!seek || !node.isConnected) return;
    try {
      show(await get(`/seeks/${seek.id}`));
    } catch {
      poll = setTimeout(refresh, POLL_MS);
    }
  }

  async function submit(event) {
    event.preventDefault();
    const [low, high] = players.value.split("-").map(Number);
    const body = {
      board: board.value,
      players_min: low,
      players_max: high,
      turn_time_limit: Number(pace.value),
      rated: rated.checked,
      rating_window: window_.value ? Number(window_.value) : null,
      ai_fill_after: aiFill.value ? Number(aiFill.value) : null,
    };
    const made = await busy(form, note, () => post("/seeks", body));
    if (made) show(made);
  }

  async function cancelSeek() {
    if (!seek) return;
    const ended = await busy(cancel, note, () => del(`/seeks/${seek.id}`));
    if (ended) show(ended);
    else refresh();
  }

  // A seek left waiting (another tab, a reload) is picked up again.
  get("/seeks")
    .then((page) => {
      const open = (page.results || []).find((s) => s.status === "waiting");
      if (open && !seek) show(open);
    })
    .catch(() => {});

  return {
    node,
    // The user's stream told of a found game: read the seek now rather than at the next poll.
    onNotice(kind, event) {
      if (kind !== "match_found") return;
      const data = JSON.parse(event.data || "{}").data || {};
      if (seek && data.seek_id === seek.id && data.game_id) show({ ...seek, status: "matched", game: data.game_id });
      else refresh();
    },
    stop() {
      clearInterval(clock);
      clearTimeout(poll);
      seek = null;
    },
  };
}
