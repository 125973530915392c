// Entry point: hash routes (#/, #/login, #/friends, #/account, #/game/12,
// #/game/12/replay) and the account bar. The game and the lobby, the screens a page opens
// on, are imported here; the account and friends pages and the replay are loaded when first
// shown.
import { ApiError, get, onSessionChange, patch, post, session, setUnauthorizedHandler } from "./api.js";
import { clearError, h, showError } from "./dom.js";
import { readGameAhead, showGame } from "./game.js";
import {
  LANGUAGES, browserLanguage, language, onLanguageChange, setLanguage, storedLanguage, supported, t,
} from "./i18n.js";
import { showLobby } from "./lobby.js";

const app = document.getElementById("app");
let leave = null; // the current screen's clean-up (stops polling and timers)

// The language picker: the choice is kept in this browser and, signed in, in the account
// (PATCH /auth/me); the page is drawn again in it at once.
// On a phone it shows as the language's code ("RU") over the list, to keep the bar one line.
function languagePicker(id) {
  const select = h("select.language", { id, "aria-label": t("Language"), title: t("Language") },
    LANGUAGES.map(([code, name]) =>
      h("option", { value: code, lang: code, selected: code === language() }, name)));
  select.addEventListener("change", () => chooseLanguage(select.value));
  return h("span.language-picker", {}, h("span.code", { "aria-hidden": "true" }, language().toUpperCase()), select);
}

async function chooseLanguage(code) {
  try {
    await setLanguage(code);
  } catch (err) {
    showError(err);
    return;
  }
  if (!session.token) return;
  try {
    await patch("/auth/me", { language: language() });
  } catch (err) {
    // The account keeps its former language (or the server does not store one yet): this
    // browser still shows the choice. Only a refusal other than a plain "no" is shown.
    if (!(err instanceof ApiError) || err.status >= 500 || err.status === 0) showError(err);
  }
}

function renderWho() {
  const who = document.getElementById("who");
  who.textContent = "";
  document.querySelector(".topbar .brand").textContent = t("Ticket to Ride");
  if (!session.token) return; // the login form has the picker
  const here = location.hash;
  const link = (id, href, text) =>
    h("a.nav", { id, href, "aria-current": here === href ? "page" : null }, text);
  who.append(
    h("span.user", {}, session.username),
    " ",
    h("nav.links", { "aria-label": t("Account") },
      link("nav-friends", "#/friends", t("Friends")),
      link("nav-account", "#/account", t("Account")),
      languagePicker("language"),
      h("button.link", { id: "logout", onclick: logout }, t("Log out")),
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
      await languageOfAccount(auth.user, kind === "register");
      location.hash = "#/";
    } catch (err) {
      showError(err);
    }
  }
  const form = h(
    "form.card.login",
    { onsubmit: (e) => { e.preventDefault(); submit("login"); } },
    h("div.row.login-language", {}, languagePicker("language")),
    h("h1", {}, t("Play Ticket to Ride")),
    h("label", {}, t("Username"), username),
    h("label", {}, t("Password"), password),
    h("div.row", {},
      h("button.primary", { type: "submit", id: "login" }, t("Log in")),
      h("button", { type: "button", id: "signup", onclick: () => form.reportValidity() && submit("register") }, t("Sign up")),
    ),
    h("p.muted", {}, t("Sign up makes a new account with this username and password."), " ",
      t("This page uses only the public API: see"), " ",
      h("a", { href: "/api/v1/docs" }, t("the API docs")), "."),
  );
  const notice = sessionStorage.getItem(NOTICE_KEY);
  sessionStorage.removeItem(NOTICE_KEY);
  app.replaceChildren(...(notice ? [h("p.card.notice#notice", { role: "status" }, notice)] : []), form);
}

// A screen whose module is loaded when first shown: show(module) once it is there, unless
// the page has moved on meanwhile. Returns the screen's clean-up.
function later(load, show) {
  let left = false;
  let stop = null;
  load().then((module) => {
    if (!left) stop = show(module);
  }).catch((err) => {
    if (!left) showError(err);
  });
  return () => {
    left = true;
    if (stop) stop();
  };
}

function route() {
  if (leave) leave();
  leave = null;
  document.title = t("Ticket to Ride");
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
  if (hash === "#/account") leave = later(() => import("./account.js"), (m) => m.showAccount(app, { signOut }));
  else if (hash === "#/friends") leave = later(() => import("./friends.js"), (m) => m.showFriends(app));
  else if (replay) leave = later(() => import("./replay.js"), (m) => m.showReplay(app, Number(replay[1])));
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

// Logged in: the account's language counts unless this browser already chose one; a new
// account takes this browser's language.
async function languageOfAccount(user, isNew) {
  if (storedLanguage()) {
    if (isNew && language() !== "en") {
      patch("/auth/me", { language: language() }).catch(() => {});
    }
    return;
  }
  const theirs = supported(user && user.language);
  if (theirs && theirs !== language()) {
    try {
      await setLanguage(theirs, { store: false });
    } catch {
      // stays in the language it has
    }
  }
}

// My account as the page's head read it (ahead.js), or null.
async function aheadMe() {
  const early = window.ttrAheadMe;
  window.ttrAheadMe = null;
  if (!early || early.token !== session.token) return null;
  const answer = await early.me;
  return answer ? answer.data : null;
}

// The first language: this browser's choice, else the account's, else the browser's own
// languages, else English. The catalogue is read before anything is drawn.
async function startLanguage() {
  let code = storedLanguage();
  if (!code && session.token) {
    try {
      code = supported((await aheadMe() || await get("/auth/me")).language);
    } catch {
      code = null;
    }
  }
  try {
    await setLanguage(code || browserLanguage(), { store: false });
  } catch {
    // The catalogue cannot be read: the page is shown in English.
  }
}

// A game's page reads its game while the language is read.
const opening = location.hash.match(/^#\/game\/(\d+)$/);
if (opening && session.token) readGameAhead(Number(opening[1]));
await startLanguage();
onLanguageChange(() => {
  const focused = document.activeElement && document.activeElement.id;
  route();
  if (focused) document.getElementById(focused)?.focus();
});
route();
