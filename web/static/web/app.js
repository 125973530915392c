// Entry point: hash routes (#/, #/login, #/friends, #/account, #/game/12,
// #/game/12/replay) and the account bar.
import { showAccount } from "./account.js";
import { ApiError, onSessionChange, post, session, setUnauthorizedHandler } from "./api.js";
import { clearError, h, showError } from "./dom.js";
import { showFriends } from "./friends.js";
import { showGame } from "./game.js";
import { showLobby } from "./lobby.js";
import { showReplay } from "./replay.js";

const app = document.getElementById("app");
let leave = null; // the current screen's clean-up (stops polling and timers)

function renderWho() {
  const who = document.getElementById("who");
  who.textContent = "";
  if (!session.token) return;
  const here = location.hash;
  const link = (id, href, text) =>
    h("a.nav", { id, href, "aria-current": here === href ? "page" : null }, text);
  who.append(
    h("span.user", {}, session.username),
    " ",
    h("nav.links", { "aria-label": "Account" },
      link("nav-friends", "#/friends", "Friends"),
      link("nav-account", "#/account", "Account"),
      h("button.link", { id: "logout", onclick: logout }, "Log out"),
    ),
  );
}

// Signed out here without logging out (the account is being deleted): the login form
// says why, once.
const NOTICE_KEY = "ttr.notice";
function signOut(message) {
  session.clear();
  sessionStorage.setItem(NOTICE_KEY, message);
  history.replaceState(null, "", "#/login");
  route();
}

async function logout() {
  try {
    await post("/auth/logout");
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) showError(err);
  }
  session.clear();
  location.hash = "#/login";
  route();
}

function showLogin() {
  const username = h("input", { name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 32 });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  async function submit(kind) {
    clearError();
    try {
      const body = { username: username.value.trim(), password: password.value, token_name: "web client" };
      const auth = await post(kind === "register" ? "/auth/register" : "/auth/login", body);
      session.save(auth);
      location.hash = "#/";
    } catch (err) {
      showError(err);
    }
  }
  const form = h(
    "form.card.login",
    { onsubmit: (e) => { e.preventDefault(); submit("login"); } },
    h("h1", {}, "Play Ticket to Ride"),
    h("label", {}, "Username", username),
    h("label", {}, "Password", password),
    h("div.row", {},
      h("button.primary", { type: "submit", id: "login" }, "Log in"),
      h("button", { type: "button", id: "signup", onclick: () => form.reportValidity() && submit("register") }, "Sign up"),
    ),
    h("p.muted", {}, "Sign up makes a new account with this username and password. ",
      "This page uses only the public API: see ", h("a", { href: "/api/v1/docs" }, "the API docs"), "."),
  );
  const notice = sessionStorage.getItem(NOTICE_KEY);
  sessionStorage.removeItem(NOTICE_KEY);
  app.replaceChildren(...(notice ? [h("p.card.notice#notice", { role: "status" }, notice)] : []), form);
}

function route() {
  if (leave) leave();
  leave = null;
  document.title = "Ticket to Ride";
  clearError();
  renderWho();
  const hash = location.hash || "#/";
  if (!session.token) {
    if (hash !== "#/login") history.replaceState(null, "", "#/login");
    showLogin();
    return;
  }
  const replay = hash.match(/^#\/game\/(\d+)\/replay$/);
  const game = hash.match(/^#\/game\/(\d+)$/);
  if (hash === "#/account") leave = showAccount(app, { signOut });
  else if (hash === "#/friends") leave = showFriends(app);
  else if (replay) leave = showReplay(app, Number(replay[1]));
  else if (game) leave = showGame(app, Number(game[1]));
  else leave = showLobby(app);
}

setUnauthorizedHandler(() => {
  session.clear();
  location.hash = "#/login";
});
// Logged out (or in as someone else) in another tab: this tab follows at once rather than
// carrying on without a token as a spectator.
onSessionChange(() => {
  if (!session.token) history.replaceState(null, "", "#/login");
  route();
});
window.addEventListener("hashchange", route);
route();
