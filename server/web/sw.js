// sw.js: the service worker of the installable web app. The server puts
// the build before this file (GET /sw.js): const BUILD = {version, shell},
// the name of this release (a hash of every file of the page) and the
// files it keeps for offline play: the page, its scripts and styles, the
// icons, the catalogues and the WebAssembly engine of the local games.
//
// Install keeps every shell file in the cache named by the build; activate
// deletes the caches of other builds and takes the open pages, which then
// reload into the new release (pwa.js): no page of an old release stays.
// A page or shell file is asked of the network first, so an online visit
// always gets the release being served, and taken from the cache when the
// network fails or takes longer than NETWORK_WAIT. The API and the
// WebSocket are never cached.
const CACHE = `farkle-${BUILD.version}`;
const NETWORK_WAIT = 4000;

self.addEventListener('install', (e) => {
  e.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(BUILD.shell.map((u) => new Request(u, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const k of await caches.keys()) {
      if (k.startsWith('farkle-') && k !== CACHE) await caches.delete(k);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    e.respondWith(networkFirst(req, '/'));
    return;
  }
  if (BUILD.shell.includes(url.pathname)) e.respondWith(networkFirst(req, url.pathname));
});

// networkFirst answers req from the network, or with the kept copy of key
// when the network fails, answers an error, or is slower than
// NETWORK_WAIT (when there is a copy).
async function networkFirst(req, key) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(key);
  const net = fetch(req);
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, NETWORK_WAIT); });
  try {
    const resp = await (kept ? Promise.race([net, late]) : net);
    if (resp && (resp.ok || resp.status === 304 || !kept)) return resp;
  } catch (err) {
    if (!kept) throw err;
  } finally {
    clearTimeout(timer);
  }
  return kept;
}
