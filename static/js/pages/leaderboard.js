// The leaderboard of one rating pool (game, and tier for Base on Board): established players by
// rating, provisional players ("?", most recently active first) and the pool's recent games.
// The pool is kept in the address (?game=&tier=), so a board can be linked to and reloaded.
import { get } from "../api.js";
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { lang, sideName, t } from "../i18n.js";
import { GAMES, TIERS, gameName, tierName } from "../games.js";

function chosenPool() {
  const params = new URLSearchParams(location.search);
  const game = GAMES.includes(params.get("game")) ? params.get("game") : "base-on-board";
  const tier = TIERS.includes(params.get("tier")) ? params.get("tier") : "pro";
  return { game, tier };
}

function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  const seconds = (date.getTime() - Date.now()) / 1000;
  const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) ?? ["minute", 60];
  const text = new Intl.RelativeTimeFormat(lang(), { numeric: "auto", style: "short" }).format(Math.round(seconds / size), unit);
  return h("time", { datetime: iso, title: date.toLocaleString(lang()) }, text);
}

function playerLink(name) {
  return h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": true, translate: "no" }, name);
}

function record(row) {
  const text = `${row.wins}–${row.losses}${row.ties ? `–${row.ties}` : ""}`;
  return h("span", { title: t("lb.record_title", row) }, text);
}

function playersTable(id, titleId, rows, provisional) {
  const heads = ["#", t("lb.name"), t("lb.rating"), t("lb.games"), t("lb.record"), t("lb.last_played")];
  return h("div", { class: "box" }, h("table", { class: "data board", id, "aria-labelledby": titleId },
    h("thead", {}, h("tr", {}, heads.map((c, i) => h("th", { scope: "col", class: i === 1 ? "name" : null }, c)))),
    h("tbody", {}, rows.map((r) => h("tr", { "data-player": r.name },
      h("td", {}, r.rank),
      h("th", { scope: "row", class: "name" }, playerLink(r.name)),
      h("td", { class: "rating", "data-rating": r.rating },
        provisional ? h("span", { title: t("lb.provisional_title", { mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1) }) }, `${r.rating}?`)
          : h("span", { title: `μ ${r.mu.toFixed(2)} · σ ${r.sigma.toFixed(2)}` }, String(r.rating))),
      h("td", {}, r.games), h("td", {}, record(r)), h("td", {}, when(r.last_played)))))));
}

function names(list) {
  if (!list.length) return "—";
  return list.flatMap((name, i) => (i ? [", ", playerLink(name)] : [playerLink(name)]));
}

function recentTable(games) {
  return h("div", { class: "box" }, h("table", { class: "data board recent-games", id: "lb-recent", "aria-labelledby": "lb-recent-title" },
    h("thead", {}, h("tr", {}, [sideName("away"), t("lb.score"), sideName("home"), t("lb.finished")].map((c, i) =>
      h("th", { scope: "col", class: ["name", "score", "name", null][i] }, c)))),
    h("tbody", {}, games.map((g) => {
      const label = t("lb.game_label", { away: g.away.join(", ") || "—", home: g.home.join(", ") || "—", score: `${g.score.away}–${g.score.home}` });
      return h("tr", { "data-game": g.game_id },
        h("td", { class: g.winner === "away" ? "name won" : "name" }, names(g.away)),
        h("td", { class: "score" }, h("a", { href: `/games/${g.game_id}`, "data-link": true, "aria-label": label, title: t("lb.open_record") },
          `${g.score.away} – ${g.score.home}`)),
        h("td", { class: g.winner === "home" ? "name won" : "name" }, names(g.home)),
        h("td", {}, when(g.finished_at)));
    }))));
}

export function leaderboardPage(app) {
  const pool = chosenPool();
  const game = h("select", { id: "lb-game", name: "game" },
    GAMES.map((v) => h("option", { value: v, selected: v === pool.game }, gameName(v))));
  const tier = h("select", { id: "lb-tier", name: "tier" },
    TIERS.map((v) => h("option", { value: v, selected: v === pool.tier }, tierName(v))));
  const tierField = h("div", { class: "field" }, h("label", { for: "lb-tier" }, t("lobby.tier")), tier);
  const box = h("div", { id: "lb-body", "aria-live": "polite", "aria-busy": "true" }, t("common.loading"));
  let asked = 0;

  async function load() {
    const bob = game.value === "base-on-board";
    tierField.hidden = !bob;
    tier.disabled = !bob;
    const query = new URLSearchParams({ game: game.value, ...(bob ? { tier: tier.value } : {}) });
    const address = `/leaderboard?${query}`;
    if (location.pathname + location.search !== address) history.replaceState({}, "", address);
    const mine = ++asked;
    box.setAttribute("aria-busy", "true");
    try {
      const board = await get(`/api/leaderboard?${query}&limit=100`);
      if (mine !== asked) return;
      const rules = board.rules;
      clear(box,
        h("section", { class: "card", "aria-labelledby": "lb-established-title" },
          h("h2", { id: "lb-established-title" }, t("lb.established")),
          h("p", { class: "hint" }, t("lb.established_rule", rules)),
          board.established.length ? playersTable("lb-established", "lb-established-title", board.established, false)
            : h("p", { id: "lb-established-empty" }, t("lb.no_established"))),
        h("section", { class: "card", "aria-labelledby": "lb-provisional-title" },
          h("h2", { id: "lb-provisional-title" }, t("lb.provisional")),
          h("p", { class: "hint" }, t("lb.provisional_rule", rules)),
          board.provisional.length ? playersTable("lb-provisional", "lb-provisional-title", board.provisional, true)
            : h("p", { id: "lb-provisional-empty" }, t("lb.no_provisional"))),
        h("section", { class: "card", "aria-labelledby": "lb-recent-title" },
          h("h2", { id: "lb-recent-title" }, t("lb.recent")),
          board.recent_games.length ? recentTable(board.recent_games) : h("p", {}, t("lb.empty"))));
      box.dataset.pool = board.pool;
    } catch (error) {
      if (mine === asked) clear(box, h("p", { class: "form-error" }, describe(error)));
    } finally {
      if (mine === asked) box.setAttribute("aria-busy", "false");
    }
  }

  game.addEventListener("change", load);
  tier.addEventListener("change", load);
  app.append(h("h1", {}, t("lb.title")),
    h("form", { class: "card board-filters", id: "lb-filters", onsubmit: (e) => e.preventDefault() },
      h("div", { class: "field" }, h("label", { for: "lb-game" }, t("lobby.game")), game),
      tierField),
    box);
  load();
  return null;
}
