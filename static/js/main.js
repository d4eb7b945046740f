// The page router: every address is the same HTML shell; this draws the page it names.
import { onSession, session } from "./api.js";
import { h, s, clear } from "./dom.js";
import { lang, onLang, setLang, t } from "./i18n.js";
import { navigate, onNavigate } from "./nav.js";
import { sounds } from "./sound.js";
import { watchScrollBoxes } from "./scroll.js";
import { signinPage } from "./pages/signin.js";
import { lobbyPage } from "./pages/lobby.js";
import { roomPage } from "./pages/room.js";
import { leaderboardPage } from "./pages/leaderboard.js";
import { playerPage } from "./pages/player.js";
import { gamePage } from "./pages/game.js";
import { clubPage, clubsPage } from "./pages/clubs.js";
import { leaguePage, leaguesPage } from "./pages/leagues.js";
import { rulesIndexPage, rulesPage } from "./pages/rules.js";
import { tutorialIndexPage, tutorialPage } from "./pages/tutorial.js";

const ROUTES = [
  [/^\/$/, lobbyPage], [/^\/lobby$/, lobbyPage], [/^\/signin$/, signinPage],
  [/^\/leaderboard$/, leaderboardPage], [/^\/rooms\/([^/]+)$/, roomPage],
  [/^\/players\/([^/]+)$/, playerPage], [/^\/games\/([^/]+)$/, gamePage],
  [/^\/clubs$/, clubsPage], [/^\/clubs\/([^/]+)$/, clubPage],
  [/^\/leagues$/, leaguesPage], [/^\/leagues\/([^/]+)$/, leaguePage],
  [/^\/rules$/, rulesIndexPage], [/^\/rules\/([^/]+)$/, rulesPage],
  [/^\/tutorial$/, tutorialIndexPage], [/^\/tutorial\/([^/]+)$/, tutorialPage],
];

let teardown = null;

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

function soundSwitch() {
  const button = document.getElementById("sound");
  const off = sounds.isMuted();
  button.setAttribute("aria-pressed", off ? "true" : "false");
  button.setAttribute("aria-label", t(off ? "sound.off" : "sound.on"));
  button.title = t(off ? "sound.off" : "sound.on");
  clear(button, s("svg", { viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" },
    s("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
    off ? s("path", { d: "M16 9l6 6M22 9l-6 6", stroke: "currentColor", "stroke-width": 2, fill: "none" })
      : s("path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", stroke: "currentColor", "stroke-width": 2, fill: "none" })));
}

function header() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const button = document.getElementById("lang");
  button.textContent = t("lang.switch");
  button.setAttribute("aria-label", t("lang.label"));
  button.setAttribute("lang", lang() === "ko" ? "en" : "ko");
  button.setAttribute("translate", "no");
  document.querySelector("nav.nav").setAttribute("aria-label", t("nav.label"));
  const who = document.getElementById("who");
  const me = session();
  if (me) {
    clear(who, h("a", { href: `/players/${encodeURIComponent(me.account.name)}`, "data-link": true, id: "me", translate: "no" }, me.account.name));
  } else {
    clear(who, h("a", { href: "/signin", "data-link": true }, t("nav.signin")));
  }
  soundSwitch();
  document.title = t("brand");
}

document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || link.target) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
onNavigate(render);
window.addEventListener("popstate", render);
document.getElementById("lang").addEventListener("click", () => setLang(lang() === "ko" ? "en" : "ko"));
document.getElementById("sound").addEventListener("click", () => {
  sounds.setMuted(!sounds.isMuted());
  sounds.unlock();
});
sounds.onChange(soundSwitch);
onLang(() => { header(); if (teardown?.relabel) teardown.relabel(); else render(); });
onSession(header);
document.documentElement.lang = lang();
header();
watchScrollBoxes(document.getElementById("app"));
render();
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
