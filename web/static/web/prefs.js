// The player's display choices, kept in localStorage: short animations (on unless the
// system asks for reduced motion) and a sound when a decision becomes theirs (off).
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "ttr.prefs";

function defaults() {
  const reduced = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  return { motion: !reduced, sound: false };
}

function load() {
  try {
    return { ...defaults(), ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return defaults();
  }
}

export const prefs = load();

function apply() {
  document.documentElement.dataset.motion = prefs.motion ? "on" : "off";
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
  return h("div.row.prefs", {}, box("motion", t("Animations")), box("sound", t("Sound on my turn")));
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

apply();
