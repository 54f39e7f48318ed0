/* The entry pages' service worker (docs/result-entry.md "Offline entry"), served from
 * /staff/entry-sw.js so that its scope covers the entry pages.
 *
 * It keeps what an entry page needs to show itself without the network: the page and the
 * files it loads (its scripts, styles, icon), as the page lists them (entry_offline.js posts
 * {keep: [urls]}). Nothing else is kept, and nothing is sent from here: the sheet itself waits
 * in IndexedDB and the page sends it (no Background Sync, which not every browser has).
 *
 * - A kept page is asked from the network first (so it shows the saved version of the result)
 *   and comes from the cache when the network fails.
 * - A kept file comes from the cache at once and is refreshed behind it (static files are
 *   named by their content in production, so the copy is the file).
 * - A form posted to a kept page (a reload of a page that answered one: Add round, say) goes
 *   to the network; when that fails, the kept page answers, so the reload still shows the
 *   form (and the page puts back the sheet that waits). No POST is ever sent from here.
 * - Every other request goes to the network untouched, as does one that asks for no cache.
 */
"use strict";

const CACHE = "roundel-entry-v1";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function keepable(response) {
  return response.ok && !response.redirected && response.type === "basic";
}

// The page asks for itself and its files to be kept; those kept already are kept fresh by the
// fetch handler. The answer (on the message's port) says the page can now be shown offline.
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const port = event.ports[0];
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        urls
          .map((url) => new URL(url, self.location.href))
          .filter((url) => url.origin === self.location.origin)
          .map((url) =>
            cache.match(url.href, { ignoreVary: true }).then((kept) =>
              kept ? true : fetch(url.href, { credentials: "same-origin" }).then((response) => {
                if (!keepable(response)) return false;
                return cache.put(url.href, response).then(() => true);
              })
            )
          )
      )
        .then((kept) => port && port.postMessage({ kept: kept.every(Boolean) }))
        .catch(() => port && port.postMessage({ kept: false }))
    )
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch((error) =>
        caches
          .open(CACHE)
          .then((cache) => cache.match(request.url, { ignoreVary: true }))
          .then((kept) => {
            if (!kept) throw error;
            return kept;
          })
      )
    );
    return;
  }
  if (request.method !== "GET") return;
  // Asked for the network's answer only (the page's look at itself before sending a sheet).
  // Not a navigation: a reload may ask the same, and a kept page is always the network's
  // answer first anyway.
  if (request.cache === "no-store" && request.mode !== "navigate") return;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(request, { ignoreVary: true }).then((kept) => {
        if (!kept) return fetch(request);
        if (request.mode === "navigate") {
          return fetch(request).then(
            (response) => {
              if (keepable(response)) cache.put(request, response.clone());
              return response;
            },
            () => kept
          );
        }
        event.waitUntil(
          fetch(request)
            .then((response) => keepable(response) && cache.put(request, response))
            .catch(() => undefined)
        );
        return kept;
      })
    )
  );
});
