// The demo's service worker: after the first visit, the page works offline. Every GET of
// this site goes to the network first (so a served update is seen at once) and is kept in
// the cache; when the network fails, the cached copy answers. On install it caches the
// page's own files, the package's browser build and its wasm, and the file readers (the
// reader worker imports them only when a .docx, .odt or .pdf is opened, so a visit that
// opened none would otherwise leave them out); the page then sends the list of everything
// it loaded (the 'cache' message). pdf.js's CMaps and font data are kept as they are first
// used.
const CACHE = 'simhash-demo-v1';
const CORE = [
  './', 'index.html', 'style.css', 'data/quality.json',
  'js/main.js', 'js/dom.js', 'js/examples.js', 'js/tabs.js', 'js/present.js',
  'js/check/inputs.js', 'js/check/files.js', 'js/check/reader.js', 'js/check/diff.js', 'js/check/results.js', 'js/check/run.js', 'js/check/worker.js',
  'js/teach/model.js', 'js/teach/texts.js', 'js/teach/features.js', 'js/teach/sums.js', 'js/teach/sign.js', 'js/teach/compare.js',
  'js/teach/worked.js', 'js/teach/tables.js', 'js/teach/huffman.js', 'js/teach/quality.js', 'js/teach/bits.js',
  'pkg/index.js', 'pkg/errors.js', 'pkg/args.js', 'pkg/pool.js', 'pkg/pool-worker.js', 'pkg/simhash_wasm.js', 'pkg/simhash_wasm_bg.wasm',
  // The file readers, as js/check/reader.js imports them (copied by scripts/demo-vendor.mjs).
  'vendor/fflate/fflate.js', 'vendor/mammoth/mammoth.browser.min.js', 'vendor/pdfjs/pdf.min.mjs', 'vendor/pdfjs/pdf.worker.min.mjs',
];

/** Adds `urls` to the cache; one that fails (a file this build lacks) does not stop the rest. */
async function keep(urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(urls.map(async (u) => {
    try {
      const res = await fetch(u, { cache: 'no-cache' });
      if (res.ok) await cache.put(u, res);
    } catch { /* offline or missing: cached when next fetched */ }
  }));
}

self.addEventListener('install', (e) => {
  e.waitUntil(keep(CORE.map((p) => new URL(p, self.registration.scope).href)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const k of await caches.keys()) if (k !== CACHE) await caches.delete(k);
    await self.clients.claim();
  })());
});

self.addEventListener('message', (e) => {
  if (e.data?.type === 'cache' && Array.isArray(e.data.urls)) {
    const own = e.data.urls.filter((u) => new URL(u).origin === self.location.origin);
    e.waitUntil(keep(own).then(() => e.source?.postMessage({ type: 'cached', count: own.length })));
  }
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(req);
      if (res.ok && res.type === 'basic') cache.put(req, res.clone());
      return res;
    } catch (err) {
      const hit = await cache.match(req, { ignoreSearch: true });
      if (hit) return hit;
      throw err;
    }
  })());
});
