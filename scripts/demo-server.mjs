// The demo's static server: www/ at /, the web build (pkg/web/) at /pkg/. Used by
// `npm run demo` (scripts/demo.sh) and by the browser tests (tests/browser/demo.test.mjs).
// Usage: node scripts/demo-server.mjs   (PORT from the environment, default 8080)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8',
};
// URL prefix → directory; the first match wins.
const MOUNTS = [['/pkg/', join(root, 'pkg', 'web')], ['/', join(root, 'www')]];

/** Starts the server on 127.0.0.1:`port` (0 = an ephemeral port); resolves to `{ url, close }`. */
export async function startDemoServer(port = 0) {
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    const [prefix, dir] = MOUNTS.find(([p]) => path.startsWith(p));
    const rel = normalize(path.slice(prefix.length) || '/');
    const file = join(dir, rel.endsWith(sep) || rel === '.' ? join(rel, 'index.html') : rel);
    if (!file.startsWith(dir)) { res.writeHead(403).end('forbidden'); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT=${process.env.PORT} is not a port number (0-65535)`);
    process.exit(2);
  }
  startDemoServer(port).then(
    ({ url }) => {
      console.log('simhash-wasm demo (Ctrl-C to stop):');
      console.log(url);
    },
    (e) => {
      console.error(e.code === 'EADDRINUSE' ? `port ${port} is in use; try PORT=8081 npm run demo` : e.message);
      process.exit(1);
    },
  );
}
