// Small DOM helpers shared by the screens.
import { language, t } from "./i18n.js";

// h("button.primary#go", {onclick}, "text", child, ...): an element with classes, an id,
// properties or attributes, and children.
export function h(tag, props = {}, ...children) {
  const [head, id] = tag.split("#");
  const [name, ...classes] = head.split(".");
  const node = document.createElement(name);
  if (classes.length) node.className = classes.join(" ");
  if (id) node.id = id;
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

const errorBox = () => document.getElementById("error");
let errorTimer = null;

// Shows the API's message (the problem's detail) or any other error over the page, never
// in its flow: nothing under it moves. It stays until closed, the next action, or 12 s.
export function showError(err) {
  const box = errorBox();
  const text = err && err.message ? err.message : String(err);
  box.replaceChildren(
    h("span.text", {}, text),
    h("button.close", { type: "button", title: t("Close"), "aria-label": t("Close"), onclick: clearError }, "×"),
  );
  if (err && err.code) box.dataset.code = err.code;
  else delete box.dataset.code;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(clearError, 12000);
}

export function clearError() {
  const box = errorBox();
  box.hidden = true;
  box.textContent = "";
  delete box.dataset.code;
}

let toastTimer = null;

// A short note of what just happened ("You drew a red card"), over the page, for 3 s.
export function toast(text) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  box.classList.remove("show");
  void box.offsetWidth; // restart the fade-in
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 3000);
}

// A translated text with nodes in the place of its placeholders, for a text such as
// "Sent to %(email)s." with { email: h("strong", {}, address) }. A placeholder without a
// node stays as it is.
export function parts(text, nodes) {
  return text.split(/(%\(\w+\)s)/).filter(Boolean).map((bit) => {
    const name = bit.match(/^%\((\w+)\)s$/);
    return name && Object.prototype.hasOwnProperty.call(nodes, name[1]) ? nodes[name[1]] : bit;
  });
}

// A name as nodes that wrap only between its words: after a ".", "_" or "-", before a
// "(", and inside a run of more than 12 letters only every 12th (a long username).
export function wrappable(text) {
  const out = [];
  for (const part of String(text).split(/(?<=[._-])|(?=\()/)) {
    const words = part.split(/(\s+)/);
    for (const w of words) {
      for (let i = 0; i < w.length; i += 12) {
        if (i) out.push(document.createElement("wbr"));
        out.push(w.slice(i, i + 12));
      }
    }
    out.push(document.createElement("wbr"));
  }
  out.pop();
  return h("span.wrap", {}, out);
}

// An AI's level in words.
export function levelName(level) {
  const names = { random: t("random"), easy: t("easy"), medium: t("medium"), hard: t("hard") };
  return names[level] || level;
}

// A game's status in words (the badge keeps the machine value as its class).
export function statusName(status) {
  const names = {
    lobby: t("lobby"),
    active: t("active"),
    finished: t("finished"),
    cancelled: t("cancelled"),
    "your turn": t("your turn"),
  };
  return names[status] || status;
}

export function seatName(seat) {
  if (!seat) return "?";
  if (seat.kind === "ai") return t("AI %(number)s (%(level)s)", { number: seat.index + 1, level: levelName(seat.ai_level) });
  if (seat.username) return seat.username;
  return seat.kind === "invited" ? t("(invited)") : t("(open seat)");
}

// "Berlin – Roma", or for a ticket with several destinations (Switzerland's country
// tickets) "Bern → France 5 / Deutschland 6 / Italia 8".
export function cityPair(ticket, name = (c) => c) {
  if (ticket.destinations && ticket.destinations.length) {
    return `${name(ticket.origin)} → ${ticket.destinations.map((d) => `${name(d.to)} ${d.points}`).join(" / ")}`;
  }
  return ticket.cities.map(name).join(" – ");
}

export function formatDuration(seconds) {
  if (seconds <= 0) return "0:00";
  const d = Math.floor(seconds / 86400);
  const hms = [Math.floor((seconds % 86400) / 3600), Math.floor((seconds % 3600) / 60), Math.floor(seconds % 60)];
  const pad = (n) => String(n).padStart(2, "0");
  if (d) return t("%(days)sd %(hours)sh", { days: d, hours: hms[0] });
  return hms[0] ? `${hms[0]}:${pad(hms[1])}:${pad(hms[2])}` : `${hms[1]}:${pad(hms[2])}`;
}

// Where a section's refusals are told: under its controls, read out when it appears.
export function problemNote(id) {
  return h("p.problem", { id, role: "alert", hidden: true });
}

// Runs `fn` for the controls in `scope` (a form, a row, or one button): they are disabled
// while it runs, and a refusal's `detail` is shown in `note`, by the control that caused it.
// Answers what `fn` answered, or undefined when it failed.
export async function busy(scope, note, fn) {
  const controls = scope.matches("button, input, select")
    ? [scope]
    : [...scope.querySelectorAll("button, input, select")];
  const before = controls.map((c) => c.disabled);
  for (const c of controls) c.disabled = true;
  scope.setAttribute("aria-busy", "true");
  if (note) {
    note.hidden = true;
    note.textContent = "";
    delete note.dataset.code;
  }
  try {
    return await fn();
  } catch (err) {
    if (!note) throw err;
    note.textContent = err && err.message ? err.message : String(err);
    if (err && err.code) note.dataset.code = err.code;
    note.hidden = false;
    return undefined;
  } finally {
    controls.forEach((c, i) => {
      c.disabled = before[i];
    });
    scope.removeAttribute("aria-busy");
  }
}

// A date and time in the reader's own words ("5 Dec 2026, 10:30").
export function when(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}
