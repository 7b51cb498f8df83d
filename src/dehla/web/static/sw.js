/* dehla's service worker: keeps the page shell (HTML, scripts, styles, icons) so the app opens like an
   installed app and shows its own "reconnecting" when offline.  Network first, so a new version is used
   as soon as the server has it; the API and the table sockets are never cached. */

const SHELL = "dehla-shell-v4";
const FILES = [
  "/", "/static/style.css", "/static/cards.css", "/manifest.webmanifest", "/static/icons/icon-192.png",
  "/static/js/main.js", "/static/js/state.js", "/static/js/i18n.js", "/static/js/dom.js", "/static/js/cards.js",
  "/static/js/names.js", "/static/js/errors.js", "/static/js/storage.js", "/static/js/router.js",
  "/static/js/glossary.js", "/static/js/sound.js", "/static/js/outcome.js", "/static/js/lobby.js",
  "/static/js/history.js", "/static/js/replay.js", "/static/js/scorekeeper.js", "/static/js/passkeys.js",
  "/static/js/faces.js", "/static/js/themes.js", "/static/js/table/motion.js",
  "/static/js/daily.js",
  "/static/js/table/page.js", "/static/js/table/felt.js", "/static/js/table/hand.js", "/static/js/table/results.js",
  "/static/js/table/header.js", "/static/js/table/chat.js", "/static/js/table/host.js", "/static/js/verify.js",
  "/static/js/length.js", "/static/js/table/guide.js", "/static/js/table/assist.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).catch(() => null).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  const page = request.mode === "navigate";
  if (!page && !url.pathname.startsWith("/static/") && !url.pathname.startsWith("/i18n/") && url.pathname !== "/manifest.webmanifest") return;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok && !page) {
      const copy = response.clone();
      caches.open(SHELL).then((cache) => cache.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(page ? "/" : request).then((found) => found || Response.error())));
});
