// The service worker: keeps the app's shell (pages, scripts, styles, icons) so the Camera app
// and its camera open without the server. The server prefixes this file with `version` and
// `shell`, the list of the shell's URLs, made from the files it serves.
// Pages and scripts come from the network when it answers, so an update shows at once, and
// from the cache when it does not. The library's data and media are never cached here.
const cacheName = `cameraroll-shell-${version}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(cacheName);
    // One by one, so a page that needs a sign-in first does not stop the rest.
    await Promise.all(shell.map(async (url) => {
      const response = await fetch(url, { credentials: "same-origin" }).catch(() => null);
      if (response?.ok && !response.redirected) await cache.put(url, response);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== cacheName) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Every picker page is the same file: offline, any /picker/<id> is answered with it.
function shellKey(url) {
  return url.pathname.startsWith("/picker/") ? "/picker/offline" : url.pathname;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !shell.includes(shellKey(url))) return;
  event.respondWith((async () => {
    const cache = await caches.open(cacheName);
    try {
      const response = await fetch(event.request);
      // Any picker page is the offline picker's page too: one signed-in visit caches it.
      if (response.ok && !response.redirected) await cache.put(shellKey(url), response.clone());
      return response;
    } catch (error) {
      const cached = await cache.match(shellKey(url));
      if (cached) return cached;
      throw error;
    }
  })());
});
