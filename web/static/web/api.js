// The API client: the token kept in localStorage, JSON in and out, RFC 9457 problems
// turned into ApiError carrying the problem's `detail` (and field rows) as its message.
// Every request asks for the client's language (Accept-Language), so problems come back in it.
import { language, t } from "./i18n.js";

const BASE = "/api/v1";
const TOKEN_KEY = "ttr.token";
const USER_KEY = "ttr.user";

export class ApiError extends Error {
  constructor(status, problem) {
    const rows = (problem.errors || []).map((e) => (e.field ? `${e.field}: ${e.detail}` : e.detail));
    const detail = problem.detail || problem.title || `HTTP ${status}`;
    super(rows.length ? `${detail} ${rows.join("; ")}` : detail);
    this.status = status;
    this.code = problem.code || "HTTP_" + status;
    this.problem = problem;
  }
}

export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get username() {
    return localStorage.getItem(USER_KEY);
  },
  save(auth) {
    localStorage.setItem(TOKEN_KEY, auth.token);
    localStorage.setItem(USER_KEY, auth.user.username);
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
  },
};

// Another tab logged in or out: localStorage changed under this one. The storage event
// fires in every other tab of the origin, never in the tab that made the change.
export function onSessionChange(fn) {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === TOKEN_KEY) fn();
  });
}

// Called when the server no longer accepts the token (expired or revoked).
let onUnauthorized = () => {};
export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

// crypto.randomUUID exists only in secure contexts; a phone on the LAN over http is not one.
export function newKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const RETRIES = [500, 2000]; // waits before each new try of a write the network lost
// Writes the network lost even after their retries, by what they asked: the person's
// next try of the same thing is the same intent, and goes with the same key.
const lost = new Map();

// Returns {status, data, etag}; a 304 has data null. Any other non-2xx throws ApiError.
// Every write carries an Idempotency-Key, made here and nowhere else: one per intent, sent
// again unchanged when the network loses the request, so the server applies it once.
export async function request(method, path, { body, headers = {} } = {}) {
  const h = { Accept: "application/json", "Accept-Language": language(), ...headers };
  if (session.token) h.Authorization = `Token ${session.token}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const write = WRITES.has(method);
  const intent = `${session.token || ""} ${method} ${path} ${JSON.stringify(body ?? null)}`;
  if (write) h["Idempotency-Key"] = lost.get(intent) || newKey();
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(BASE + path, {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
      lost.delete(intent);
      break;
    } catch (err) {
      if (write && attempt >= RETRIES.length) lost.set(intent, h["Idempotency-Key"]);
      if (!write || attempt >= RETRIES.length) {
        throw new ApiError(0, { detail: t("The server cannot be reached (%(reason)s).", { reason: err.message }) });
      }
      await new Promise((done) => setTimeout(done, RETRIES[attempt]));
    }
  }
  const etag = response.headers.get("ETag");
  if (response.status === 304) return { status: 304, data: null, etag };
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text.slice(0, 200) };
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data || {});
    error.retryAfter = response.headers.get("Retry-After"); // seconds, for a 429 or 503
    if (response.status === 401 && session.token) onUnauthorized(error);
    throw error;
  }
  return { status: response.status, data, etag };
}

export const get = async (path, headers) => (await request("GET", path, { headers })).data;
export const post = async (path, body = {}, headers) =>
  (await request("POST", path, { body, headers })).data;
export const put = async (path, body) => (await request("PUT", path, { body })).data;
export const patch = async (path, body) => (await request("PATCH", path, { body })).data;
export const del = async (path) => (await request("DELETE", path)).data;

// A file the API gives to its owner (an export): fetched with the token, when it is on
// this server, and handed to the browser to save under the name the server gives.
export async function download(url, fallbackName) {
  const target = new URL(url, location.href);
  const h = { "Accept-Language": language() };
  if (target.origin === location.origin && session.token) h.Authorization = `Token ${session.token}`;
  let response;
  try {
    response = await fetch(target.href, { headers: h, cache: "no-store" });
  } catch (err) {
    throw new ApiError(0, { detail: t("The server cannot be reached (%(reason)s).", { reason: err.message }) });
  }
  if (!response.ok) {
    let problem = {};
    try {
      problem = await response.json();
    } catch {
      // not a problem document
    }
    throw new ApiError(response.status, problem);
  }
  const disposition = response.headers.get("Content-Disposition") || "";
  const named = disposition.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = named ? decodeURIComponent(named[1]) : fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  return link.download;
}

// Every page of a page-numbered list.
export async function allPages(path) {
  const out = [];
  let page = 1;
  for (;;) {
    const sep = path.includes("?") ? "&" : "?";
    const data = await get(`${path}${sep}page=${page}`);
    out.push(...data.results);
    if (!data.next) return out;
    page += 1;
  }
}

// An event stream (Server-Sent Events): a game's from move `after` on, or the user's
// (`/stream`, from now on when `after` is null). A browser's EventSource cannot send
// Authorization, so a logged-in stream is opened with a short-lived stream ticket
// (POST /stream-tickets), never with the token in the URL.
export async function openEvents(path, after = null) {
  const query = new URLSearchParams();
  if (after !== null && after !== undefined) query.set("after", after);
  if (session.token) query.set("ticket", (await post("/stream-tickets")).ticket);
  return new EventSource(`${BASE}${path}?${query}`);
}

// Boards never change while the page is open.
const boards = new Map();
// A board read elsewhere (a read started before this module loaded).
export function knownBoard(id, promise) {
  if (!boards.has(id)) boards.set(id, promise);
}

export function board(id) {
  if (!boards.has(id)) boards.set(id, get(`/boards/${encodeURIComponent(id)}`));
  return boards.get(id);
}
