// The rules: /rules lists both games; /rules/<game> is the game's guide in the page's
// language, written on the server from docs/rules/<game>.guide.md and the word catalogue.
import { get } from "../api.js";
import { clear, h } from "../dom.js";
import { describe } from "../errors.js";
import { lang, t } from "../i18n.js";
import { GAMES, gameName } from "../games.js";

export function rulesIndexPage(app) {
  app.append(h("h1", {}, t("rules.title")),
    h("ul", { class: "rules-list", id: "rules-list" }, GAMES.map((game) => h("li", { class: "card", "data-game": game },
      h("h2", {}, h("a", { href: `/rules/${game}`, "data-link": true }, gameName(game))),
      h("p", {}, t(`rules.blurb.${game}`)),
      h("p", {}, h("a", { href: `/tutorial/${game}`, "data-link": true, class: "tut-link" }, t("tut.link")))))));
  return null;
}

export function rulesPage(app, game) {
  const box = h("article", { class: "rules", id: "rules", "aria-busy": "true" }, t("common.loading"));
  app.append(h("p", { class: "row spread" }, h("a", { href: "/rules", "data-link": true }, `← ${t("rules.title")}`),
    h("a", { href: `/tutorial/${encodeURIComponent(game)}`, "data-link": true, class: "button small", id: "rules-tutorial" }, t("tut.link"))), box);
  get(`/api/rules/${encodeURIComponent(game)}?lang=${lang()}`)
    .then((page) => {
      // The server's HTML: rendered from the project's own documents with every text escaped.
      box.innerHTML = page.html;
      box.setAttribute("aria-busy", "false");
      box.dataset.game = game;
      document.title = `${page.title} · ${t("brand")}`;
    })
    .catch((error) => clear(box, h("p", { class: "form-error" }, describe(error))));
  return null;
}
