// The word catalogue of a game (Korean and English), fetched once from the server.
import { get } from "./api.js";
import { pick } from "./i18n.js";

const cache = new Map();

export function loadCatalogue(game) {
  if (!cache.has(game)) cache.set(game, get(`/api/catalogue/${game}`));
  return cache.get(game);
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
};

/** "S · Strike" in English, "S · 스트라이크" in Korean: the rulebook's code and its words. */
export function bobWords(cat, code, kind) {
  const entry = bobEntry(cat, code, BOB_SECTIONS[kind] ?? BOB_SECTIONS.result);
  return entry ? pick(entry) : String(code);
}

export function bobText(cat, code, kind = "card") {
  const entry = bobEntry(cat, code, BOB_SECTIONS[kind]);
  return entry ? pick({ en: entry.text_en, ko: entry.text_ko }) : "";
}

export function ninthCard(cat, id) { return cat?.cards?.[id] ?? null; }
export function ninthCardName(cat, id) { const c = ninthCard(cat, id); return c ? pick(c.name) : String(id ?? ""); }
export function ninthTerm(cat, code) { const w = cat?.terms?.[code]; return w ? pick(w) : String(code); }
export function ninthResult(cat, code) { const w = cat?.results?.[code] ?? cat?.pa?.[code]; return w ? pick(w) : String(code); }
export function ninthPa(cat, code) { const w = cat?.pa?.[code] ?? cat?.results?.[code]; return w ? pick(w) : String(code); }
