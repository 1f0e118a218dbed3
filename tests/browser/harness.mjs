// Shared set-up for the browser tests: a static server on 127.0.0.1 over the repository
// (so pages can import pkg/web), and Debian's chromium driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, mkdtemp } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';

const root = new URL('../..', import.meta.url).pathname;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png', '.svg': 'image/svg+xml' };

/** Serves `dir` (default: the repository root) on an ephemeral 127.0.0.1 port. */
export async function serve(dir = root) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Launches Debian's chromium headless, with the flags this machine needs. `options` go to
 * the context (e.g. `{ serviceWorkers: 'block' }`: requests a page's service worker serves
 * are not seen by `page.route`).
 */
export async function launch(options = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'simhash-chromium-'));
  return chromium.launchPersistentContext(dataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...options,
  });
}
