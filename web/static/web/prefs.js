// The player's display choices, kept in localStorage: short animations (on unless the
// system asks for reduced motion) and a sound when a decision becomes theirs (off).
// The system's reduced motion wins over the choice, as long as it is asked for: no
// animation then, whatever the box said (motionOn() is what the page follows).
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "ttr.prefs";

const REDUCED = window.matchMedia ? matchMedia("(prefers-reduced-motion: reduce)") : null;
const reduced = () => Boolean(REDUCED && REDUCED.matches);

function defaults() {
  return { motion: !reduced(), sound: false };
}

function load() {
  try {
    return { ...defaults(), ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return defaults();
  }
}

export const prefs = load();

// Whether anything may move: the player's choice, unless the system asks for less motion.
export function motionOn() {
  return prefs.motion && !reduced();
}

function apply() {
  document.documentElement.dataset.motion = motionOn() ? "on" : "off";
  document.documentElement.dataset.reducedMotion = String(reduced());
  for (const box of document.querySelectorAll("#pref-motion")) {
    box.checked = motionOn();
    box.disabled = reduced();
    box.title = reduced() ? t("Off: your device asks for reduced motion.") : "";
  }
}

function set(name, value) {
  prefs[name] = value;
  localStorage.setItem(KEY, JSON.stringify(prefs));
  apply();
}

// The two switches, as a row of the status card.
export function settingsRow() {
  const box = (name, label) =>
    h("label.pref", {},
      h("input", { type: "checkbox", id: `pref-${name}`, checked: prefs[name], onchange: (e) => set(name, e.target.checked) }),
      ` ${label}`);
  const row = h("div.row.prefs", {}, box("motion", t("Animations")), box("sound", t("Sound on my turn")));
  const motion = row.querySelector("#pref-motion");
  motion.checked = motionOn();
  motion.disabled = reduced();
  motion.title = reduced() ? t("Off: your device asks for reduced motion.") : "";
  return row;
}

let audio = null;

// A short two-note chime, made on the spot (no sound file to fetch).
export function beep() {
  if (!prefs.sound || !window.AudioContext) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.13);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.14);
    }
  } catch {
    // no sound is better than an error
  }
}

// The device's setting may change while the page is open (a phone's battery saver).
if (REDUCED && REDUCED.addEventListener) REDUCED.addEventListener("change", apply);
apply();
