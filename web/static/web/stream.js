// The user's stream (GET /stream) for a screen: each notice of the kinds asked for calls
// `onNotice`; a failed stream is opened again after 4 s, 8 s, … up to a minute. The root
// says how the screen keeps up: data-live="stream" while it is open, "poll" otherwise.
import { openEvents } from "./api.js";

export function listenToUser(root, kinds, onNotice) {
  let alive = true;
  let stream = null;
  let retry = null;
  let failures = 0;
  async function listen() {
    try {
      const es = await openEvents("/stream");
      if (!alive) return es.close();
      stream = es;
      es.onopen = () => {
        failures = 0;
        root.dataset.live = "stream";
      };
      for (const kind of kinds) es.addEventListener(kind, (event) => onNotice(kind, event));
      es.onerror = () => {
        es.close();
        stream = null;
        root.dataset.live = "poll";
        failures += 1;
        retry = setTimeout(listen, Math.min(60000, 2000 * 2 ** failures));
      };
    } catch {
      failures += 1;
      if (alive) retry = setTimeout(listen, Math.min(60000, 2000 * 2 ** failures));
    }
  }
  root.dataset.live = "poll";
  listen();
  return () => {
    alive = false;
    clearTimeout(retry);
    if (stream) stream.close();
    delete root.dataset.live;
  };
}
