// The page router: every address is the same HTML shell; this draws the page it names.
import { onSession, post, session, setSession } from "./api.js";
import { h, clear } from "./dom.js";
import { lang, onLang, setLang, t } from "./i18n.js";
import { showError } from "./errors.js";
import { signinPage } from "./pages/signin.js";
import { lobbyPage } from "./pages/lobby.js";
import { roomPage } from "./pages/room.js";
import { leaderboardPage } from "./pages/leaderboard.js";
import { playerPage } from "./pages/player.js";
import { gamePage } from "./pages/game.js";

const ROUTES = [
  [/^\/$/, lobbyPage], [/^\/lobby$/, lobbyPage], [/^\/signin$/, signinPage],
  [/^\/leaderboard$/, leaderboardPage], [/^\/rooms\/([^/]+)$/, roomPage],
  [/^\/players\/([^/]+)$/, playerPage], [/^\/games\/([^/]+)$/, gamePage],
];

let teardown = null;

export function navigate(path) {
  history.pushState({}, "", path);
  render();
}

function render() {
  teardown?.stop?.();
  teardown = null;
  const app = document.getElementById("app");
  clear(app);
  for (const [pattern, page] of ROUTES) {
    const match = location.pathname.match(pattern);
    if (match) {
      teardown = page(app, ...match.slice(1).map(decodeURIComponent));
      return;
    }
  }
  app.append(h("p", {}, t("err.not_found")));
}

function header() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const button = document.getElementById("lang");
  button.textContent = t("lang.switch");
  button.setAttribute("aria-label", t("lang.label"));
  const who = document.getElementById("who");
  const me = session();
  if (me) {
    clear(who,
      h("a", { href: `/players/${encodeURIComponent(me.account.name)}`, "data-link": true, id: "me" }, me.account.name),
      " ",
      h("button", { type: "button", class: "link-button", onclick: signOut }, t("nav.signout")));
  } else {
    clear(who, h("a", { href: "/signin", "data-link": true }, t("nav.signin")));
  }
  document.title = t("brand");
}

async function signOut() {
  try { await post("/api/auth/logout"); } catch (error) { if (error.code !== "bad_token") showError(error); }
  setSession(null);
  navigate("/");
}

document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || link.target) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", render);
document.getElementById("lang").addEventListener("click", () => setLang(lang() === "ko" ? "en" : "ko"));
onLang(() => { header(); if (teardown?.relabel) teardown.relabel(); else render(); });
onSession(header);
document.documentElement.lang = lang();
header();
render();
