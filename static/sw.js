// The service worker: keeps the client's shell (the page, its scripts, styles, words, icons and
// fonts) so the site opens from a phone's home screen at once, also on a weak connection.
// It never stores an answer of the API or anything of a game (/api/, /ws/ and every other
// address go to the network untouched): game state is the server's alone.
//
// The shell is fetched from the network first and the stored copy is used only when the
// network fails, so a new version of the site is seen on the next load; the fonts never
// change and are taken from the store first.
const CACHE = "shell-v3";
const FONTS = ["/static/fonts/noto-sans-kr-regular.woff2", "/static/fonts/noto-sans-kr-bold.woff2"];
const SHELL = [
  "/", "/manifest.webmanifest", "/static/css/app.css",
  "/static/icons/favicon.svg", "/static/icons/favicon-move.svg", "/static/icons/icon-192.png",
  "/static/i18n/en.json", "/static/i18n/ko.json",
  "/static/js/main.js", "/static/js/api.js", "/static/js/account.js", "/static/js/attention.js",
  "/static/js/catalogue.js", "/static/js/charts.js", "/static/js/chatter.js", "/static/js/dom.js",
  "/static/js/errors.js",
  "/static/js/fairness.js", "/static/js/games.js", "/static/js/i18n.js", "/static/js/korean.js",
  "/static/js/morph.js", "/static/js/nav.js", "/static/js/scroll.js", "/static/js/socket.js",
  "/static/js/sound.js", "/static/js/timeouts.js",
  "/static/js/pages/game.js", "/static/js/pages/leaderboard.js", "/static/js/pages/leagues.js", "/static/js/pages/lobby.js",
  "/static/js/pages/player.js", "/static/js/pages/room.js", "/static/js/pages/rules.js",
  "/static/js/pages/signin.js", "/static/js/pages/clubs.js",
  "/static/js/pages/tutorial.js",
  "/static/js/tables/bob.js", "/static/js/tables/common.js", "/static/js/tables/ninth.js",
  "/static/tutorials/base-on-board.json", "/static/tutorials/bottom-of-the-9th.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...SHELL, ...FONTS])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

function isShell(url) {
  return SHELL.includes(url.pathname) || url.pathname.startsWith("/static/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (FONTS.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((hit) => hit || fetch(request)));
    return;
  }
  // Every page address is the same shell ("/"): a page opened offline still starts.
  const key = request.mode === "navigate" ? "/" : url.pathname;
  if (request.mode !== "navigate" && !isShell(url)) return;
  event.respondWith(fetch(request)
    .then((response) => {
      if (response.ok && SHELL.includes(key)) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(key, copy));
      }
      return response;
    })
    .catch(() => caches.match(key).then((hit) => hit || Response.error())));
});
