// A crawler worker process for the Redis tests: checks the pages given on stdin (JSON
// `{ target, namespace, pages: [{ url, fp }] }`, fp as hex, or `[{ url, text }]`; `sketch` for
// sketch mode), prints one JSON line per result.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { RedisContentSeen } = require('../../pkg/index.cjs');
const { createClient, createCluster } = require('redis');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { target, namespace, pages, k = 3, retries = 0, batch = 1, sketch } = JSON.parse(input);
const client = target.cluster
  ? createCluster({ rootNodes: target.cluster })
  : createClient({ url: target.url, socket: { reconnectStrategy: (n) => Math.min(n * 50, 500) } });
client.on('error', () => {}); // errors surface through the calls
await client.connect();
const seen = await RedisContentSeen.open(client, { namespace, k, retries, sketch: sketch ?? false });
const out = [];
for (let i = 0; i < pages.length; i += batch) {
  const chunk = pages.slice(i, i + batch);
  const rs = await seen.checkBatch(chunk.map((p) => (p.text !== undefined ? { url: p.url, text: p.text } : { url: p.url, fingerprint: BigInt('0x' + p.fp) })));
  rs.forEach((r, j) => {
    const line = r.error
      ? { url: chunk[j].url, error: r.error.code || String(r.error.message) }
      : { url: chunk[j].url, duplicate: r.duplicate, cluster: r.cluster, count: r.count, rt: r.roundTrips, matches: r.matches.map((m) => [m.id, m.distance]) };
    process.stdout.write(JSON.stringify(line) + '\n');
  });
}
process.stdout.write(JSON.stringify({ retriedCalls: seen.retriedCalls }) + '\n');
seen.close();
await client.quit().catch(() => {});
