// The service worker (dist/sw.js): after a first visit the site works with no network.
// scripts/lib/service-worker.mjs writes dist/sw.js as
//   const SITE = {version: "<hash of the list>", files: {"<path>": "sha256-<base64>", ...}};
// followed by this file. The list is exactly the site's files (without sw.js and the
// offline copy) with their content hashes, so a build that changes any file changes sw.js,
// and the browser installs the new worker on the next visit.
//   install:  every listed file is fetched past the HTTP cache and checked against its hash
//             (a file that does not match fails the install: the old version stays); then
//             it takes over at once.
//   activate: caches of older versions are deleted.
//   fetch:    a listed file (and a visit to the folder or index.html, whatever its query)
//             is answered from the cache, the network only when the cache lacks it;
//             anything else goes to the network as if there were no service worker.
// A page that was open during an update keeps the code it loaded; its later requests get
// the new version's files.

/* global SITE */

const CACHE = `idemlab-${SITE.version}`;
const PATHS = new Set(Object.keys(SITE.files));
const scope = () => new URL(self.registration.scope);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        [...PATHS].map(async (path) => {
          const res = await fetch(new Request(path, { cache: 'no-cache', integrity: SITE.files[path] }));
          if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
          await cache.put(path, res);
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('idemlab-') && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** The listed path a request is for, or null. */
function listedPath(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  const base = scope();
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  let path = decodeURIComponent(url.pathname.slice(base.pathname.length));
  if (path === '' && request.mode === 'navigate') path = 'index.html';
  // A query only on a visit to the page (?lang=, ?embed=, ?origin=); files are asked without one.
  if (url.search && path !== 'index.html') return null;
  return PATHS.has(path) ? path : null;
}

self.addEventListener('fetch', (event) => {
  const path = listedPath(event.request);
  if (!path) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(path);
      return hit || fetch(event.request);
    })(),
  );
});
