// The leaderboard: players by wins.
import { get } from "../api.js";
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { t } from "../i18n.js";

export function leaderboardPage(app) {
  const box = h("div", { "aria-busy": "true" }, t("common.loading"));
  app.append(h("h1", {}, t("lb.title")), box);
  get("/api/leaderboard?limit=100").then((rows) => {
    box.setAttribute("aria-busy", "false");
    if (!rows.length) { clear(box, h("p", {}, t("lb.empty"))); return; }
    clear(box, h("table", { class: "data", id: "leaderboard" },
      h("thead", {}, h("tr", {}, ["#", t("lb.name"), t("lb.games"), t("lb.wins"), t("lb.losses"), t("lb.ties")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((r, i) => h("tr", { "data-player": r.name },
        h("td", {}, i + 1), h("td", {}, h("a", { href: `/players/${encodeURIComponent(r.name)}`, "data-link": true }, r.name)),
        h("td", {}, r.games), h("td", {}, r.wins), h("td", {}, r.losses), h("td", {}, r.ties))))));
  }).catch((error) => clear(box, h("p", { class: "form-error" }, describe(error))));
  return null;
}
