// The rulebook's service worker. Every page and asset of the site is kept as it is read,
// and a book can be kept whole from its front page, so a reader who loses the signal
// mid-game can go on reading. Network first: online, the newest build is always what is
// shown; the kept copy answers only when the network does not.
// It lives at the site's root because a worker controls only the pages below it.
const CACHE = "rulebook-pages-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!url.pathname.startsWith(new URL(self.registration.scope).pathname)) return;
  if (url.pathname.includes("/livereload/")) return;  // `rulebook serve`'s long poll
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(async () => {
        const cache = await caches.open(CACHE);
        const kept = await cache.match(request, { ignoreSearch: true });
        if (kept) return kept;
        if (request.mode === "navigate") {
          return new Response(
            "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
            "<title>Not kept for offline reading</title><body style='font:1rem system-ui;" +
            "margin:2rem'><h1>No connection</h1><p>This page was not kept on this device. " +
            "Pages you have opened, and books you kept from their front page, open without " +
            "a connection.</p><p><a href='javascript:history.back()'>Back</a></p>",
            { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
        }
        return Response.error();
      }),
  );
});
