// The game's chat: a side panel on a wide screen, a bottom sheet on a phone, opened by a
// Chat button that counts the messages arrived while it was closed (the last read id is
// kept per game in localStorage). Seated people talk in the players' room, everyone else
// in the spectators' room; after the game both rooms may be read, as the API allows.
// Messages come from GET /games/{id}/chat, newest first in cursor pages, and live from the
// game's event stream (`chat` events) when it carries them; until a `chat` event has been
// seen on an open stream, the first page is read again every few seconds and whenever the
// game's stream says anything.
import { del, get, post, put, session } from "./api.js";
import { PLAYER_COLORS } from "./board.js";
import { busy, h, problemNote, toast } from "./dom.js";
import { language, t, tn } from "./i18n.js";

export const MAX_LENGTH = 500;
const POLL_OPEN_MS = 3000;
const POLL_CLOSED_MS = 6000;
// While the stream carries the chat: a read now and then all the same, which also tells the
// service the player is at the table (its chat notices go to players away from it).
const POLL_STREAMED_MS = 60000;
const READ_KEY = (gameId) => `ttr.chat.read.${gameId}`;
const REASONS = ["spam", "abuse", "cheating", "other"];

function reasonLabel(reason) {
  if (reason === "spam") return t("Spam");
  if (reason === "abuse") return t("Abuse");
  if (reason === "cheating") return t("Cheating");
  return t("Something else");
}

function roomLabel(room) {
  return room === "players" ? t("Players") : t("Spectators");
}

// The quick messages in the reader's language, read once per language.
const quickLists = new Map();
function quickMessages() {
  const lang = language();
  if (!quickLists.has(lang)) {
    const list = get("/chat/quick-messages").then((data) => (Array.isArray(data) ? data : data.results || []));
    list.catch(() => quickLists.delete(lang));
    quickLists.set(lang, list);
  }
  return quickLists.get(lang);
}

function timeOf(iso) {
  const at = new Date(iso);
  const today = new Date().toDateString() === at.toDateString();
  const options = today ? { timeStyle: "short" } : { dateStyle: "short", timeStyle: "short" };
  try {
    return at.toLocaleString(language(), options);
  } catch {
    return at.toLocaleString(undefined, options);
  }
}

// A 429's wait in seconds (Retry-After), or null.
function waitOf(err) {
  if (!err || err.status !== 429) return null;
  const n = Number(err.retryAfter);
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : null;
}

// The chat of a game, on the button and its badge the page drew (chatdock.js).
export function createChat(gameId, { button, badge }) {
  let alive = true;
  let open = false;
  let view = null;
  let room = null; // the room shown
  let live = false; // the game's stream is open
  let streamed = false; // a `chat` event came through it
  let pollTimer = null;
  let waitTimer = null;
  const rooms = new Map(); // room → {messages: Map id → message, older: cursor URL|null, loaded}
  const nodes = new Map(); // message id → its <li>, kept so an open menu survives a refresh
  let mutes = [];
  let quickTexts = new Map(); // quick message code → its text in this page's language

  const me = () => session.username;
  const myRoom = () => (view && view.your_seat !== null && view.your_seat !== undefined ? "players" : "spectators");
  const over = () => Boolean(view && ["finished", "cancelled"].includes(view.status));
  const readable = () => (over() ? ["players", "spectators"] : [myRoom()]);
  const writable = () => room === myRoom();
  const lastRead = () => Number(localStorage.getItem(READ_KEY(gameId)) || 0);

  function data(name) {
    if (!rooms.has(name)) rooms.set(name, { messages: new Map(), older: null, loaded: false });
    return rooms.get(name);
  }

  // ------------------------------------------------------------------ the panel
  const title = h("h2#chat-title", {}, t("Chat"));
  const tabs = h("div.chat-rooms", { role: "group", "aria-label": t("Rooms") });
  const mutedToggle = h("button.link.chat-muted-toggle", {
    type: "button",
    "aria-expanded": "false",
    "aria-controls": "chat-muted",
    onclick: () => toggleMuted(),
  });
  const closeButton = h("button.chat-close", {
    type: "button",
    "aria-label": t("Close the chat"),
    title: t("Close the chat"),
    onclick: () => hide(true),
  }, "×");
  const mutedList = h("ul.plain.chat-muted-list");
  const mutedNote = problemNote("chat-muted-problem");
  const mutedBox = h("section.chat-muted#chat-muted", { hidden: true, "aria-label": t("Muted players") },
    h("h3", {}, t("Muted players")), mutedList, mutedNote);
  const olderButton = h("button.link.chat-older", { type: "button", hidden: true, onclick: () => loadOlder() }, t("Older messages"));
  const list = h("ol.chat-messages", { role: "log", "aria-live": "polite", "aria-label": t("Messages") });
  const empty = h("p.muted.chat-empty", {}, t("No messages yet."));
  const scroller = h("div.chat-scroll", {}, olderButton, list, empty);
  const listNote = problemNote("chat-list-problem");
  const quick = h("div.chat-quick", { role: "group", "aria-label": t("Quick messages") });
  const text = h("textarea#chat-text", {
    name: "text",
    rows: 2,
    maxlength: MAX_LENGTH,
    placeholder: t("Write a message"),
    "aria-describedby": "chat-count",
    oninput: () => countChars(),
    onkeydown: (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      }
    },
  });
  const counter = h("span.chat-count", { "aria-hidden": "true" }, "");
  const counterSaid = h("span.visually-hidden#chat-count", {}, "");
  const send = h("button.primary.chat-send", { type: "submit" }, t("Send"));
  const formNote = problemNote("chat-problem");
  const waitNote = h("p.muted.chat-wait", { role: "status", hidden: true });
  const form = h("form.chat-form", { onsubmit: (e) => { e.preventDefault(); sendText(); } },
    h("label.visually-hidden", { for: "chat-text" }, t("Message")),
    text,
    h("div.chat-send-row", {}, counter, counterSaid, send),
  );
  const readOnly = h("p.muted.chat-read-only", { hidden: true }, t("You may read this room, not write in it."));
  const panel = h("aside.chat#chat", { hidden: true, "aria-labelledby": "chat-title", tabindex: -1,
    onkeydown: (e) => { if (e.key === "Escape") hide(true); } },
    h("header.chat-head", {}, title, tabs, mutedToggle, closeButton),
    mutedBox,
    scroller,
    listNote,
    h("div.chat-write", {}, quick, form, formNote, waitNote, readOnly),
  );

  function countChars() {
    const n = text.value.length;
    counter.textContent = `${n} / ${MAX_LENGTH}`;
    counterSaid.textContent = t("Characters: %(n)s of %(max)s", { n, max: MAX_LENGTH });
    counter.classList.toggle("warn", n >= MAX_LENGTH - 20);
  }

  // ------------------------------------------------------------------ open and close
  function show() {
    open = true;
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    document.documentElement.classList.add("chat-open");
    panel.closest(".game")?.classList.add("chat-open");
    renderHead();
    renderQuick();
    loadMutes();
    refresh().then(() => scrollToEnd(true));
    markRead();
    schedule();
    panel.focus({ preventScroll: true });
  }

  function hide(returnFocus = false) {
    open = false;
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    document.documentElement.classList.remove("chat-open");
    panel.closest(".game")?.classList.remove("chat-open");
    renderBadge();
    schedule();
    if (returnFocus) button.focus();
  }

  // ------------------------------------------------------------------ reading
  function pageUrl(name, cursor) {
    if (cursor) {
      const u = new URL(cursor, location.href);
      return u.pathname.replace(/^\/api\/v1/, "") + u.search;
    }
    return `/games/${gameId}/chat?room=${name}`;
  }

  // The newest page of a room: new messages join, and those no longer listed in its span
  // (muted, blocked or hidden since) leave.
  async function readNewest(name) {
    const page = await get(pageUrl(name));
    const d = data(name);
    const results = page.results || [];
    const ids = new Set(results.map((m) => m.id));
    const floor = page.next && results.length ? Math.min(...ids) : 0;
    for (const id of [...d.messages.keys()]) if (id >= floor && !ids.has(id)) d.messages.delete(id);
    for (const m of results) d.messages.set(m.id, m);
    if (!d.loaded) d.older = page.next || null;
    d.loaded = true;
  }

  let reading = null;
  let readAgain = false; // asked for while a read was on its way (another room, a new post)
  async function refresh() {
    if (!alive || !view) return;
    if (reading) {
      readAgain = true;
      return reading;
    }
    const names = new Set([myRoom()]);
    if (open && room) names.add(room);
    reading = (async () => {
      try {
        for (const name of names) await readNewest(name);
        listNote.hidden = true;
      } catch (err) {
        if (open && alive) {
          listNote.textContent = err.message;
          listNote.dataset.code = err.code || "";
          listNote.hidden = false;
        }
      } finally {
        reading = null;
      }
      if (alive) render();
      if (readAgain && alive) {
        readAgain = false;
        await refresh();
      }
    })();
    return reading;
  }

  async function loadOlder() {
    const d = data(room);
    if (!d.older) return;
    const height = scroller.scrollHeight;
    await busy(olderButton, listNote, async () => {
      const page = await get(pageUrl(room, d.older));
      for (const m of page.results || []) d.messages.set(m.id, m);
      d.older = page.next || null;
    });
    render();
    scroller.scrollTop += scroller.scrollHeight - height; // keep the messages read in place
  }

  // ------------------------------------------------------------------ writing
  async function postBody(body) {
    const sent = await post(`/games/${gameId}/chat`, { room, ...body });
    if (sent && sent.id) data(room).messages.set(sent.id, sent);
    render();
    scrollToEnd(true);
    markRead();
    refresh();
    return sent;
  }

  async function sendText() {
    const value = text.value.trim();
    if (!value) {
      text.focus();
      return;
    }
    const sent = await busy(form, formNote, () => postBody({ text: value }).then(() => true).catch(refused));
    if (sent) {
      text.value = "";
      countChars();
    }
    text.focus();
  }

  async function sendQuick(code, node) {
    await busy(node, formNote, () => postBody({ quick: code }).catch(refused));
  }

  // A refusal: thrown on for busy() to show its detail; a rate limit also counts down.
  function refused(err) {
    const wait = waitOf(err);
    if (wait) countDown(wait);
    throw err;
  }

  function countDown(seconds) {
    clearInterval(waitTimer);
    let left = seconds;
    const tickDown = () => {
      if (left <= 0 || !alive) {
        clearInterval(waitTimer);
        waitNote.hidden = true;
        if (formNote.dataset.code === "THROTTLED") formNote.hidden = true; // its wait is over
        send.disabled = false;
        for (const b of quick.querySelectorAll("button")) b.disabled = false;
        return;
      }
      waitNote.textContent = tn("Wait %(n)s second before the next message.", "Wait %(n)s seconds before the next message.", left);
      waitNote.hidden = false;
      send.disabled = true;
      for (const b of quick.querySelectorAll("button")) b.disabled = true;
      left -= 1;
    };
    // busy() gives the controls back after this returns: take them again on the next turn.
    setTimeout(tickDown, 0);
    waitTimer = setInterval(tickDown, 1000);
  }

  // ------------------------------------------------------------------ moderation
  function messageMenu(m, li) {
    const more = h("button.chat-more", {
      type: "button",
      "aria-expanded": "false",
      "aria-label": t("Options for the message from %(name)s", { name: m.sender }),
      title: t("Options"),
    }, "⋯");
    const note = problemNote(`chat-msg-problem-${m.id}`);
    const reason = h("select", { name: "reason" }, REASONS.map((r) => h("option", { value: r }, reasonLabel(r))));
    const report = h("form.chat-report.row", { hidden: true, onsubmit: (e) => { e.preventDefault(); sendReport(); } },
      h("label", {}, t("Reason"), " ", reason),
      h("button.primary", { type: "submit" }, t("Send report")),
      h("button", { type: "button", onclick: () => closeMenu() }, t("Cancel")));
    const menu = h("div.chat-menu.row", { hidden: true },
      h("button.chat-report-open", { type: "button", onclick: () => { menu.hidden = true; report.hidden = false; reason.focus(); } }, t("Report…")),
      h("button.chat-mute", { type: "button", onclick: () => mute(m.sender, menu, note) },
        t("Mute %(name)s", { name: m.sender })));
    function closeMenu() {
      menu.hidden = true;
      report.hidden = true;
      note.hidden = true;
      more.setAttribute("aria-expanded", "false");
    }
    more.addEventListener("click", () => {
      const opening = menu.hidden && report.hidden;
      closeMenu();
      if (opening) {
        menu.hidden = false;
        more.setAttribute("aria-expanded", "true");
        menu.querySelector("button").focus();
      }
    });
    li.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !(menu.hidden && report.hidden)) {
        e.stopPropagation();
        closeMenu();
        more.focus();
      }
    });
    async function sendReport() {
      const done = await busy(report, note, () => post(`/chat/messages/${m.id}/report`, { reason: reason.value }).then(() => true));
      if (done) {
        closeMenu();
        li.classList.add("reported");
        toast(t("Reported. A moderator will look at it."));
        more.focus();
      }
    }
    return { more, panes: [menu, report, note] };
  }

  async function mute(username, scope, note) {
    const done = await busy(scope, note, () => put(`/chat/mutes/${encodeURIComponent(username)}`).then(() => true));
    if (!done) return;
    for (const d of rooms.values()) {
      for (const [id, m] of d.messages) if (m.sender === username) d.messages.delete(id);
    }
    toast(t("%(name)s is muted: you no longer see their messages.", { name: username }));
    render();
    panel.focus({ preventScroll: true });
    await loadMutes();
  }

  async function unmute(username, row) {
    const done = await busy(row, mutedNote, () => del(`/chat/mutes/${encodeURIComponent(username)}`).then(() => true));
    if (!done) return;
    await loadMutes();
    await refresh();
    mutedToggle.focus();
  }

  async function loadMutes() {
    try {
      const answer = await get("/chat/mutes");
      const rows = Array.isArray(answer) ? answer : answer.results || [];
      mutes = rows.map((r) => (typeof r === "string" ? r : r.username));
      mutedNote.hidden = true;
    } catch (err) {
      mutedNote.textContent = err.message;
      mutedNote.hidden = false;
    }
    renderMuted();
  }

  function toggleMuted() {
    mutedBox.hidden = !mutedBox.hidden;
    mutedToggle.setAttribute("aria-expanded", String(!mutedBox.hidden));
  }

  function renderMuted() {
    mutedToggle.textContent = t("Muted (%(n)s)", { n: mutes.length });
    mutedList.replaceChildren(...(mutes.length
      ? mutes.map((name) => {
          const row = h("li.row", { dataset: { username: name } }, h("span", {}, name));
          row.append(h("button.chat-unmute", { type: "button", onclick: () => unmute(name, row),
            "aria-label": t("Unmute %(name)s", { name }) }, t("Unmute")));
          return row;
        })
      : [h("li.muted", {}, t("Nobody is muted."))]));
  }

  // ------------------------------------------------------------------ rendering
  function seatColor(m) {
    return m.seat === null || m.seat === undefined ? "transparent" : PLAYER_COLORS[m.seat % PLAYER_COLORS.length];
  }

  function messageNode(m) {
    const mine = m.sender === me();
    const li = h(`li.chat-msg${mine ? ".mine" : ""}`, { dataset: { id: m.id, sender: m.sender, room: m.room } });
    const meta = h("div.chat-meta", {},
      h("span.swatch", { style: `background:${seatColor(m)}`, "aria-hidden": "true" }),
      h("span.chat-sender", {}, mine ? t("You") : m.sender), " ",
      h("time", { datetime: m.at }, timeOf(m.at)));
    const hidden = m.hidden || m.body === null || m.body === undefined;
    const said = m.quick && quickTexts.has(m.quick) ? quickTexts.get(m.quick) : m.body;
    const body = h(`p.chat-body${m.quick ? ".quick" : ""}`, {}, hidden ? t("(hidden by a moderator)") : said);
    li.append(meta, body);
    if (!mine) {
      const { more, panes } = messageMenu(m, li);
      meta.append(more);
      li.append(...panes);
    }
    return li;
  }

  function scrollToEnd(force = false) {
    const nearEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 60;
    if (force || nearEnd) scroller.scrollTop = scroller.scrollHeight;
  }

  let headShown = ""; // the rooms and the room the header shows: rebuilt only when they change
  function renderHead() {
    const names = readable();
    if (!names.includes(room)) {
      room = myRoom();
      nodes.clear();
      list.replaceChildren();
      render();
    }
    const shown = `${names.join(",")}:${room}`;
    if (shown === headShown) return;
    headShown = shown;
    tabs.replaceChildren(...(names.length > 1
      ? names.map((name) => h("button.chat-room", {
          type: "button",
          "aria-pressed": String(name === room),
          dataset: { room: name },
          onclick: () => {
            if (room === name) return;
            room = name;
            nodes.clear();
            list.replaceChildren();
            renderHead();
            render();
            refresh();
            tabs.querySelector(`[data-room="${name}"]`)?.focus(); // the button was made anew
          },
        }, roomLabel(name)))
      : [h("span.muted.chat-room-name", { dataset: { room } }, roomLabel(room))]));
    panel.dataset.room = room;
    const canWrite = writable();
    quick.hidden = !canWrite;
    form.hidden = !canWrite;
    readOnly.hidden = canWrite;
  }

  // The quick messages as buttons, and their texts in the language of this page: a quick
  // message is shown in it whatever language the list or the stream wrote its body in (a
  // browser's EventSource sends the browser's languages, not the one chosen here).
  async function renderQuick() {
    if (quick.childElementCount) return;
    try {
      const items = await quickMessages();
      if (quick.childElementCount || !alive) return;
      quickTexts = new Map(items.map((q) => [q.code, q.text]));
      for (const [id, node] of nodes) {
        const m = data(node.dataset.room).messages.get(id);
        const body = node.querySelector(".chat-body.quick");
        if (m && body && quickTexts.has(m.quick)) body.textContent = quickTexts.get(m.quick);
      }
      quick.replaceChildren(...items.map((q) => {
        const node = h("button.chat-quick-message", { type: "button", dataset: { quick: q.code } }, q.text);
        node.addEventListener("click", () => sendQuick(q.code, node));
        return node;
      }));
    } catch {
      // the quick messages are a shortcut; the text box still works
    }
  }

  function render() {
    if (!room) return;
    renderBadge();
    const d = data(room);
    // Read only while open: on a closed panel it would only make the page lay itself out.
    const wasNearEnd = open && scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 60;
    const ordered = [...d.messages.values()].sort((a, b) => a.id - b.id);
    const keep = new Set(ordered.map((m) => m.id));
    for (const [id, node] of nodes) {
      if (!keep.has(id)) {
        node.remove();
        nodes.delete(id);
      }
    }
    let before = null;
    for (let i = ordered.length - 1; i >= 0; i--) {
      const m = ordered[i];
      let node = nodes.get(m.id);
      if (!node) {
        node = messageNode(m);
        nodes.set(m.id, node);
      }
      if (node.nextSibling !== before || node.parentNode !== list) list.insertBefore(node, before);
      before = node;
    }
    empty.hidden = ordered.length > 0 || !d.loaded;
    olderButton.hidden = !d.older;
    if (open) {
      markRead();
      if (wasNearEnd) scroller.scrollTop = scroller.scrollHeight;
    }
  }

  // ------------------------------------------------------------------ unread
  function unread() {
    const d = data(myRoom());
    const read = lastRead();
    let n = 0;
    for (const m of d.messages.values()) if (m.id > read && m.sender !== me()) n += 1;
    return n;
  }

  function markRead() {
    // Read means seen: an open panel in a tab in the background reads nothing yet.
    if (!open || room !== myRoom() || document.hidden) return;
    const ids = [...data(room).messages.keys()];
    const top = Math.max(0, ...ids);
    if (top > lastRead()) localStorage.setItem(READ_KEY(gameId), String(top));
    renderBadge();
  }

  function renderBadge() {
    const n = open ? 0 : unread();
    badge.hidden = n === 0;
    // Every message read so far is unread and older ones wait: at least that many.
    const d = data(myRoom());
    const more = n > 0 && d.older && n === d.messages.size;
    badge.textContent = n > 0 ? `${n}${more ? "+" : ""}` : "";
    button.dataset.unread = String(n);
    button.setAttribute("aria-label", n > 0 ? tn("Chat, %(n)s unread message", "Chat, %(n)s unread messages", n, { n }) : t("Chat"));
  }

  // ------------------------------------------------------------------ keeping up
  function schedule() {
    clearTimeout(pollTimer);
    if (!alive) return;
    const streaming = live && streamed;
    pollTimer = setTimeout(async () => {
      if (!document.hidden) await refresh();
      schedule();
    }, streaming ? POLL_STREAMED_MS : open ? POLL_OPEN_MS : POLL_CLOSED_MS);
  }

  let nudgeTimer = null;
  // The game's stream said something: the chat may have moved too (until it carries chat).
  function nudge() {
    if (streamed) return;
    clearTimeout(nudgeTimer);
    nudgeTimer = setTimeout(refresh, 100);
  }

  // A `chat` event: one message, as the API would list it to this reader.
  function receive(m) {
    // The stream carries the messages posted since it opened: one more read of the room
    // catches those posted between the last read and the opening.
    const first = !streamed;
    streamed = true;
    panel.dataset.live = "stream";
    if (first) {
      refresh();
      schedule();
    }
    if (!m || !m.id || !m.room) return;
    if (mutes.includes(m.sender)) return;
    data(m.room).messages.set(m.id, m);
    render();
  }

  const onVisible = () => {
    if (!document.hidden && open) render();
  };
  document.addEventListener("visibilitychange", onVisible);

  function update(newView) {
    const first = !view;
    view = newView;
    renderHead(); // the room follows the seat (a lobby left) and the game's end
    if (first) {
      countChars();
      renderMuted();
      renderQuick();
      refresh();
      schedule();
    }
  }

  return {
    button,
    panel,
    toggle: () => (open ? hide() : show()),
    update,
    receive,
    nudge,
    setLive(value) {
      live = value;
      if (!value && streamed) {
        streamed = false;
        delete panel.dataset.live;
        schedule(); // back to reading at the quick pace
      }
    },
    close() {
      alive = false;
      clearTimeout(pollTimer);
      clearTimeout(nudgeTimer);
      clearInterval(waitTimer);
      document.removeEventListener("visibilitychange", onVisible);
      document.documentElement.classList.remove("chat-open");
    },
  };
}
