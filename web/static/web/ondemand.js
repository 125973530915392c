// The parts of a game's page that its first screen never shows, loaded when first needed:
// the result and score sheet (result.js, with rematch.js) once the game is over, and the
// recap (recap.js) when my turn comes. Each is called as its module's own function.
import { motionOn } from "./prefs.js";

// result.js's showResult: a promise of the score sheet.
export async function showResult(...args) {
  const { showResult: show } = await import("./result.js");
  return show(...args);
}

// recap.js's playRecap: returns stop() at once. Stopped before the module is there, the
// recap never shows and `onEnd` is told as if it had.
export function playRecap(wrap, theBoard, lines, onEnd = () => {}) {
  if (!motionOn() || !lines.length) return () => {};
  let stop = null;
  let stopped = false;
  import("./recap.js").then((module) => {
    if (!stopped) stop = module.playRecap(wrap, theBoard, lines, onEnd);
  }, () => {
    if (!stopped) {
      stopped = true;
      onEnd(false);
    }
  });
  return () => {
    if (stop) stop();
    else if (!stopped) {
      stopped = true;
      onEnd(false);
    }
  };
}
