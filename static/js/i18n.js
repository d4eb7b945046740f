// Every interface word, from one catalogue per language (static/i18n/en.json, ko.json); game
// words come from /api/catalogue/{game}. tests/web/test_words.py checks that both catalogues
// have the same keys and placeholders and that every key the code asks for exists.
import en from "../i18n/en.json" with { type: "json" };
import ko from "../i18n/ko.json" with { type: "json" };
import { particle } from "./korean.js";

const STRINGS = { en, ko };
const listeners = new Set();

function initial() {
  const saved = localStorage.getItem("lang");
  if (saved === "ko" || saved === "en") return saved;
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => l.toLowerCase());
  return wanted.some((l) => l.startsWith("ko")) ? "ko" : "en";
}

let current = initial();

export function lang() { return current; }

export function setLang(value) {
  current = value === "ko" ? "ko" : "en";
  localStorage.setItem("lang", current);
  document.documentElement.lang = current;
  for (const fn of listeners) fn(current);
}

export function onLang(fn) { listeners.add(fn); return () => listeners.delete(fn); }

export function has(key) { return key in STRINGS.en; }

/** The interface string ``key`` in the current language, with ``{name}`` filled from vars.
 * ``{name|을}`` adds the Korean particle that fits the value's last sound (을 or 를, 이 or
 * 가, 은 or 는, 과 or 와, 으로 or 로). */
export function t(key, vars = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)(?:\|([^}]+))?\}/g, (whole, name, josa) => {
    if (!(name in vars)) return whole;
    const value = String(vars[name]);
    return josa ? value + particle(value, josa) : value;
  });
}

/** ``t`` for text with nodes in it: a value that is a DOM node (a player's or team's name,
 * marked not to be translated) is put in as it is; returns a list for ``h``. */
export function tn(key, vars = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  const out = [];
  let at = 0;
  for (const match of text.matchAll(/\{(\w+)(?:\|([^}]+))?\}/g)) {
    const [whole, name, josa] = match;
    if (!(name in vars)) continue;
    out.push(text.slice(at, match.index));
    const value = vars[name];
    const said = value instanceof Node ? value.textContent : String(value);
    out.push(value instanceof Node ? value : said);
    if (josa) out.push(particle(said, josa));
    at = match.index + whole.length;
  }
  out.push(text.slice(at));
  return out.filter((part) => part !== "");
}

/** Picks the current language from a {ko, en} object. */
export function pick(words) {
  if (words == null) return "";
  if (typeof words === "string") return words;
  return words[current] ?? words.en ?? "";
}

export function sideName(side) { return t(`side.${side}`); }
