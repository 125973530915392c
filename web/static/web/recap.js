// The recap: when my turn comes, what the others did since my last move, played once on
// the map, one move at a time (the route claimed or the station built lit, its words over
// the map). Skippable; never shown with animations off or reduced motion (prefs.js).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { motionOn } from "./prefs.js";

const STEP_MS = 900;

// Plays `lines` ({who, text, route, city, seat}) on the map in `wrap`; returns stop(),
// which ends it at once (also called when it ends by itself). `onEnd` is told either way.
export function playRecap(wrap, theBoard, lines, onEnd = () => {}) {
  if (!motionOn() || !lines.length) return () => {};
  let step = -1;
  let timer = null;
  let lit = [];
  const caption = h("p.recap-text", { "aria-live": "polite" });
  const count = h("span.recap-count");
  const stopButton = h("button.recap-skip#recap-skip", { type: "button", onclick: () => stop() }, t("Skip"));
  const node = h("div.recap#recap", { role: "status" }, h("div.recap-head", {}, count, stopButton), caption);
  wrap.append(node);

  function unlight() {
    for (const n of lit) n.classList.remove("recap-now");
    lit = [];
    theBoard.highlightCities([], "recap");
  }

  function show() {
    step += 1;
    unlight();
    if (step >= lines.length) {
      stop();
      return;
    }
    const d = lines[step];
    count.textContent = t("Since your last move: %(i)s of %(n)s", { i: step + 1, n: lines.length });
    caption.textContent = `${d.who} ${d.text}`;
    node.dataset.step = String(step);
    if (d.route) {
      const g = theBoard.svg.querySelector(`g.route[data-route="${CSS.escape(d.route)}"]`);
      if (g) lit.push(g);
      const r = theBoard.routes.get(d.route);
      if (r) theBoard.highlightCities(r.cities, "recap");
    } else if (d.city) {
      theBoard.highlightCities([d.city], "recap");
    }
    for (const n of lit) n.classList.add("recap-now");
    timer = setTimeout(show, STEP_MS);
  }

  let stopped = false;
  function stop() {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    unlight();
    const hadFocus = node.contains(document.activeElement);
    node.remove();
    onEnd(hadFocus);
  }

  show();
  return stop;
}
