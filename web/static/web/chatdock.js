// The chat's place on a game's page, there from its first screen: the Chat button and a
// stand-in for the panel (closed). The chat itself (chat.js) is loaded once that screen is
// drawn, or at once when the button is pressed; what the page told it meanwhile (the view,
// the stream's messages) is passed on then, in order.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// A speech bubble drawn in the button's colour.
function bubble() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "chat-icon");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M3 3h14a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H8l-4 3v-3H3a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z");
  svg.append(path);
  return svg;
}

// The same calls as chat.js's createChat: { button, panel, update, receive, nudge, setLive,
// close }.
export function createChat(gameId) {
  let chat = null;
  let loading = null;
  let closed = false;
  let pressed = false; // the button was pressed before the chat was there
  const told = []; // [name, args] of the calls made before it was there

  const badge = h("span.badge.chat-unread", { hidden: true });
  const button = h("button.chat-button#chat-button", {
    type: "button",
    "aria-expanded": "false",
    "aria-controls": "chat",
    onclick: () => {
      if (chat) chat.toggle();
      else {
        pressed = true;
        load();
      }
    },
  }, bubble(), h("span.label", {}, t("Chat")), badge);
  const standIn = h("aside.chat#chat", { hidden: true });

  function load() {
    if (loading || closed) return;
    loading = import("./chat.js").then((module) => {
      if (closed) return;
      chat = module.createChat(gameId, { button, badge });
      standIn.replaceWith(chat.panel);
      for (const [name, args] of told.splice(0)) chat[name](...args);
      if (pressed) chat.toggle();
    }, () => {
      loading = null; // read again at the next press or view
    });
  }

  // After the frame that shows the first view; in a tab out of sight (no frames), soon.
  function loadSoon() {
    requestAnimationFrame(() => setTimeout(load));
    setTimeout(load, 1000);
  }

  const pass = (name) => (...args) => {
    if (chat) chat[name](...args);
    else told.push([name, args]);
  };
  const update = pass("update");
  return {
    button,
    panel: standIn,
    update(view) {
      update(view);
      if (!loading) loadSoon();
    },
    receive: pass("receive"),
    nudge: pass("nudge"),
    setLive: pass("setLive"),
    close() {
      closed = true;
      if (chat) chat.close();
    },
  };
}
