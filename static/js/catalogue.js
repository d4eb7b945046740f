// The word catalogue of a game (Korean and English), fetched once from the server, and the
// glossary tip every code shown in play carries.
import { get } from "./api.js";
import { h } from "./dom.js";
import { pick } from "./i18n.js";

const cache = new Map();

export function loadCatalogue(game) {
  if (!cache.has(game)) cache.set(game, get(`/api/catalogue/${game}`));
  return cache.get(game);
}

// A code inside running text: a run of capitals and digits with at least one capital, as the
// rulebooks write them (S, SM, HT:L2, 1H1E, B01, MVP).
// Korean particles follow a code directly ("SQ2에"), so only Latin letters and digits bound it.
const CODE_IN_TEXT = /(?<![A-Za-z0-9])([0-9]*[A-Z][A-Z0-9]*(?::[A-Z0-9]+)?)(?![A-Za-z0-9])/g;

/** ``text`` with every code in it marked as not to be translated (rule texts mention codes). */
export function withCodes(text) {
  const out = [];
  let at = 0;
  for (const match of String(text ?? "").matchAll(CODE_IN_TEXT)) {
    if (match.index > at) out.push(text.slice(at, match.index));
    out.push(h("span", { translate: "no" }, match[1]));
    at = match.index + match[1].length;
  }
  if (at < String(text ?? "").length) out.push(String(text).slice(at));
  return out;
}

/** A code as shown in play: the code, and on hover, focus or tap its words and rule text. */
export function term(code, words, text = "") {
  const label = [words, text].filter(Boolean).join(" — ");
  return h("span", { class: "term", tabindex: 0, "data-code": code },
    h("span", { class: "code", translate: "no" }, String(code)),
    label ? h("span", { class: "tip", role: "tooltip" }, withCodes(label)) : null);
}

/** Words of a Base on Board code, looked up in the given sections in order. */
export function bobEntry(cat, code, sections) {
  if (!cat || code == null) return null;
  const alias = cat.aliases?.[code];
  if (alias) {
    const [section, key] = alias.split(".");
    return cat[section]?.[key] ?? null;
  }
  for (const path of sections) {
    let node = cat;
    for (const part of path.split(".")) node = node?.[part];
    if (node && node[code]) return node[code];
  }
  return null;
}

export const BOB_SECTIONS = {
  pitch: ["dice.pitch"], bat: ["dice.bat"], hit: ["dice.hit"],
  card: ["offense_cards", "defense_cards", "tokens"],
  result: ["results", "dice.pitch", "dice.bat", "dice.hit", "offense_cards", "defense_cards", "tokens", "terms"],
  term: ["terms", "results"],
};

/** The words of a Base on Board code ("Strike", "스트라이크"); the code itself when unknown. */
export function bobWords(cat, code, kind) {
  const entry = bobEntry(cat, code, BOB_SECTIONS[kind] ?? BOB_SECTIONS.result);
  return entry ? pick(entry) : String(code);
}

export function bobText(cat, code, kind = "card") {
  const entry = bobEntry(cat, code, BOB_SECTIONS[kind] ?? BOB_SECTIONS.result);
  return entry?.text_en ? pick({ en: entry.text_en, ko: entry.text_ko }) : "";
}

/** A Base on Board code with its glossary tip; ``named`` also shows its words beside it. */
export function bobTerm(cat, code, kind = "result", { named = false } = {}) {
  const words = bobWords(cat, code, kind);
  const known = words !== String(code);
  const tip = term(code, known ? words : "", bobText(cat, code, kind));
  return named && known ? h("span", { class: "named" }, tip, " ", words) : tip;
}

export function ninthCard(cat, id) { return cat?.cards?.[id] ?? null; }
export function ninthCardName(cat, id) { const c = ninthCard(cat, id); return c ? pick(c.name) : String(id ?? ""); }
export function ninthTerm(cat, code) { const w = cat?.terms?.[code]; return w ? pick(w) : String(code); }
export function ninthResult(cat, code) { const w = cat?.results?.[code] ?? cat?.pa?.[code]; return w ? pick(w) : String(code); }
export function ninthPa(cat, code) { const w = cat?.pa?.[code] ?? cat?.results?.[code]; return w ? pick(w) : String(code); }

/** A Bottom of the 9th code (a pitch-die face, a result, a position) with its glossary tip. */
export function ninthCode(cat, code, table) {
  const words = cat?.[table]?.[code];
  return term(code, words ? pick(words) : "");
}
