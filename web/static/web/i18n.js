// The client's words in English, Greek, Vietnamese or Russian.
//
//   t("Log in")                                   a text
//   t("Route %(route)s is taken.", { route: id }) a text with named placeholders
//   tn("%(n)s card", "%(n)s cards", n)            a text whose words follow a count (n is
//                                                 a value of its own: %(n)s)
//   tp("you", "drew from the deck")               a text in a context, where another
//   tnp("you", "drew %(n)s ticket", "drew %(n)s tickets", n)  language needs other words
//                                                 (a verb said to "you", not to "ada")
//
// English is the msgids themselves; another language's catalogue comes from the server
// (GET /web/i18n/<code>.json: Django's JSONCatalog of web/locale/<code>/djangojs.po), read
// once before the first render and whenever the language changes. Every msgid is a plain
// string literal in the call, so that makemessages finds it (web/management/commands/).

const KEY = "ttr.language";

// Each language by its code and its own name for itself (ttr_service/config/languages.py).
export const LANGUAGES = [
  ["en", "English"],
  ["el", "Ελληνικά"],
  ["vi", "Tiếng Việt"],
  ["ru", "Русский"],
];
const CODES = new Set(LANGUAGES.map(([code]) => code));

// Which plural form a count takes, as each catalogue's Plural-Forms header says; written out
// here so that no header expression is ever evaluated.
const PLURAL = {
  en: (n) => (n === 1 ? 0 : 1),
  el: (n) => (n === 1 ? 0 : 1),
  vi: () => 0,
  ru: (n) =>
    n % 10 === 1 && n % 100 !== 11 ? 0
      : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1
        : 2,
};

let current = "en";
let catalog = {};
const listeners = new Set();

function fill(text, values) {
  if (!values) return text;
  return text.replace(/%\((\w+)\)[sd]/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

function single(key, msgid, values) {
  const found = catalog[key];
  const text = typeof found === "string" ? found : Array.isArray(found) ? found[0] : null;
  return fill(text || msgid, values);
}

function plural_(key, singular, plural, n, values) {
  const forms = catalog[key];
  let text = null;
  if (Array.isArray(forms)) text = forms[(PLURAL[current] || PLURAL.en)(Math.abs(Number(n)))];
  if (!text) text = Number(n) === 1 ? singular : plural;
  return fill(text, { n, ...values });
}

// The text in the current language, its placeholders filled from values.
export function t(msgid, values) {
  return single(msgid, msgid, values);
}

// The form of a text that the count n takes; n fills %(n)s unless values say otherwise.
export function tn(singular, plural, n, values) {
  return plural_(singular, singular, plural, n, values);
}

// t() and tn() for a msgid said in a context (the catalogue's key "context\x04msgid").
export function tp(context, msgid, values) {
  return single(`${context}\x04${msgid}`, msgid, values);
}

export function tnp(context, singular, plural, n, values) {
  return plural_(`${context}\x04${singular}`, singular, plural, n, values);
}

// The current language's code: "en", "el", "vi" or "ru".
export function language() {
  return current;
}

// The language a code names, or null: "ru-RU" and "RU" are "ru".
export function supported(code) {
  if (!code) return null;
  const base = String(code).toLowerCase().split(/[-_]/)[0];
  return CODES.has(base) ? base : null;
}

// The choice stored in this browser, if any.
export function storedLanguage() {
  return supported(localStorage.getItem(KEY));
}

// The first of the browser's languages that the client speaks, else English.
export function browserLanguage() {
  for (const code of navigator.languages || [navigator.language]) {
    const found = supported(code);
    if (found) return found;
  }
  return "en";
}

async function fetchCatalog(code) {
  if (code === "en") return {};
  const response = await fetch(`/web/i18n/${code}.json`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`The ${code} catalogue could not be read (HTTP ${response.status}).`);
  return (await response.json()).catalog || {};
}

// Switches to a language: reads its catalogue, sets <html lang>, and tells every listener
// (the screens re-render). store: also keep the choice in this browser. An unknown code is
// English. When the catalogue cannot be read the language stays as it was, and it throws.
export async function setLanguage(code, { store = true } = {}) {
  const next = supported(code) || "en";
  const words = await fetchCatalog(next);
  const changed = next !== current;
  current = next;
  catalog = words;
  document.documentElement.lang = next;
  if (store) localStorage.setItem(KEY, next);
  if (changed) for (const fn of listeners) fn(next);
  return next;
}

// fn(code) after every change of language; returns the function that stops it.
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
