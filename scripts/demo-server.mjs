// The demo's static server: www/ at /, the web build (pkg/web/) at /pkg/, the file readers
// copied into www/vendor/ on start (scripts/demo-vendor.mjs). Text, scripts and wasm are
// sent compressed (Brotli, else gzip, as the browser's Accept-Encoding allows; Vary says
// so), each compressed once per file version and kept in memory.
// Used by `npm run demo` (scripts/demo.sh) and by the browser tests (tests/browser/demo.test.mjs).
// Usage: node scripts/demo-server.mjs   (PORT from the environment, default 8080)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as z } from 'node:zlib';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vendor } from './demo-vendor.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
};
// Worth compressing: text and wasm (images are compressed already).
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg)/;
const ENCODERS = {
  // Quality 5: within 2 % of quality 9 on pdf.js and mammoth, at a third of the time.
  br: (body) => promisify(brotliCompress)(body, { params: { [z.BROTLI_PARAM_QUALITY]: 5, [z.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};
/** `${encoding} ${file}` → { key: mtime and size, body } */
const compressed = new Map();

/** The encoding to use for `acceptEncoding` (an Accept-Encoding header): 'br', 'gzip' or null. */
export function pickEncoding(acceptEncoding = '') {
  const q = {};
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const qv = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    q[name] = qv ? Number(qv.slice(2)) : 1;
  }
  const ok = (e) => (q[e] ?? q['*'] ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

async function encoded(file, body, encoding) {
  const st = await stat(file);
  const key = `${st.mtimeMs} ${st.size}`;
  const id = `${encoding} ${file}`;
  const hit = compressed.get(id);
  if (hit?.key === key) return hit.body;
  const out = await ENCODERS[encoding](body);
  compressed.set(id, { key, body: out });
  return out;
}
// URL prefix → directory; the first match wins.
const MOUNTS = [['/pkg/', join(root, 'pkg', 'web')], ['/', join(root, 'www')]];

/** Starts the server on 127.0.0.1:`port` (0 = an ephemeral port); resolves to `{ url, close }`. */
export async function startDemoServer(port = 0) {
  vendor();
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
    let body;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const headers = { 'content-type': type, 'cache-control': 'no-cache' };
    if (COMPRESSIBLE.test(type)) {
      headers.vary = 'Accept-Encoding';
      const encoding = body.length > 256 ? pickEncoding(req.headers['accept-encoding']) : null;
      if (encoding) {
        body = await encoded(file, body, encoding);
        headers['content-encoding'] = encoding;
      }
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
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
