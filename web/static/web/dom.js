// Small DOM helpers shared by the screens.

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

// Shows the API's message (the problem's detail) or any other error, until the next action.
export function showError(err) {
  const box = errorBox();
  box.textContent = err && err.message ? err.message : String(err);
  if (err && err.code) box.dataset.code = err.code;
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

export function seatName(seat) {
  if (!seat) return "?";
  if (seat.kind === "ai") return `AI ${seat.index + 1} (${seat.ai_level})`;
  if (seat.username) return seat.username;
  return seat.kind === "invited" ? "(invited)" : "(open seat)";
}

export function cityPair(ticket) {
  return `${ticket.cities[0]} – ${ticket.cities[1]}`;
}

export function formatDuration(seconds) {
  if (seconds <= 0) return "0:00";
  const d = Math.floor(seconds / 86400);
  const hms = [Math.floor((seconds % 86400) / 3600), Math.floor((seconds % 3600) / 60), Math.floor(seconds % 60)];
  const pad = (n) => String(n).padStart(2, "0");
  if (d) return `${d}d ${hms[0]}h`;
  return hms[0] ? `${hms[0]}:${pad(hms[1])}:${pad(hms[2])}` : `${hms[1]}:${pad(hms[2])}`;
}
