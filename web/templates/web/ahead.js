// A page's first reads, started as soon as the page is parsed, before the rest of the
// client has loaded: signed in with no language chosen in this browser, my account (its
// language is the page's); on a game's page, the game's view, then its board and (my
// decision pending) my options. Inline in the page's head (web/index.html), so that it runs
// while the page is parsed; the entry point (app.js) and the game page (game.js) take what
// it started, and read again whatever failed here. Anything but a plain success is left to
// the page.
{
const found = location.hash.match(/^#\/game\/(\d+)$/);
const token = localStorage.getItem("ttr.token");
// The language chosen in this browser, else the one the page was served in.
const language = localStorage.getItem("ttr.language") || document.documentElement.lang || "en";

function read(path) {
  return fetch(`/api/v1${path}`, {
    headers: { Accept: "application/json", Authorization: `Token ${token}`, "Accept-Language": language },
    cache: "no-store",
  }).then(async (r) => (r.ok ? { status: r.status, data: await r.json(), etag: r.headers.get("ETag") } : null))
    .catch(() => null);
}

if (found && token) {
  const gameId = Number(found[1]);
  const view = read(`/games/${gameId}`);
  const mine = (v) => Boolean(v && v.status === "active" && v.your_seat !== null && v.state &&
    v.state.pending && v.state.pending.seats.includes(v.your_seat));
  const board = view.then((r) => (r ? read(`/boards/${encodeURIComponent(r.data.board)}`) : null));
  const options = view.then((r) => (r && mine(r.data) ? read(`/games/${gameId}/legal-actions`) : null));
  window.ttrAhead = { gameId, token, view, board, options };
}
// After the game's view, whose answer starts two more reads.
if (token && !localStorage.getItem("ttr.language")) {
  window.ttrAheadMe = { token, me: read("/auth/me") };
}
}
