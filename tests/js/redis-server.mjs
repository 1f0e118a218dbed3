// Starts real redis-server processes for the tests and benchmarks: children of this
// process (no --daemonize), on free loopback ports, in temp dirs, always stopped.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import { createRequire } from 'node:module';

export function haveRedis() {
  try {
    execFileSync('redis-server', ['--version']);
    return true;
  } catch {
    return false;
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const live = new Set();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

function launch(dir, port, extra) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', ...extra];
  const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  let log = '';
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('redis-server did not start: ' + log)), 10000);
    proc.stdout.on('data', (d) => {
      log += d;
      if (/Ready to accept connections/.test(log)) {
        clearTimeout(t);
        resolve(proc);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`redis-server exited (${code}): ${log}`));
    });
  });
}

async function stopProc(proc, signal = 'SIGTERM') {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const done = new Promise((r) => proc.once('exit', r));
  proc.kill(signal);
  await done;
}

/** One server: `{ port, url, dir, kill(), restart(), stop() }`. */
export async function startServer(extra = []) {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-redis-'));
  const port = await freePort();
  const server = { port, dir, url: `redis://127.0.0.1:${port}` };
  server.proc = await launch(dir, port, extra);
  /** Kills the server at once (SIGKILL: no shutdown, no final fsync). */
  server.kill = () => stopProc(server.proc, 'SIGKILL');
  /** Starts it again on the same port and dir (it reloads its AOF). */
  server.restart = async () => {
    server.proc = await launch(dir, port, extra);
  };
  server.stop = async () => {
    await stopProc(server.proc);
    rmSync(dir, { recursive: true, force: true });
  };
  return server;
}

/** A 3-master Redis Cluster: `{ nodes: [{ port }], rootNodes, stop() }`. */
export async function startCluster(masters = 3) {
  const nodes = [];
  try {
    for (let i = 0; i < masters; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'simhash-redis-cluster-'));
      mkdirSync(dir, { recursive: true });
      const port = await freePort();
      const args = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'];
      const node = { port, dir, proc: await launch(dir, port, args) };
      /** Kills this master at once (SIGKILL), as startServer's kill. */
      node.kill = () => stopProc(node.proc, 'SIGKILL');
      /** Starts it again on its port and dir: it reloads nodes.conf and its AOF, and rejoins. */
      node.restart = async () => {
        node.proc = await launch(dir, port, args);
      };
      nodes.push(node);
    }
    execFileSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], { stdio: 'pipe' });
    for (let i = 0; i < 100; i++) {
      const ok = nodes.every((n) => /cluster_state:ok/.test(execFileSync('redis-cli', ['-p', String(n.port), 'cluster', 'info']).toString()));
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    for (const n of nodes) await stopProc(n.proc);
    throw e;
  }
  return {
    nodes,
    rootNodes: nodes.map((n) => ({ url: `redis://127.0.0.1:${n.port}` })),
    /** The master serving `key`'s slot (the others answer MOVED). */
    ownerOf: (key) => {
      const owner = nodes.find((n) => !/MOVED/.test(execFileSync('redis-cli', ['-p', String(n.port), 'exists', key]).toString()));
      if (!owner) throw new Error(`no master serves ${key}`);
      return owner;
    },
    stop: async () => {
      for (const n of nodes) {
        await stopProc(n.proc);
        rmSync(n.dir, { recursive: true, force: true });
      }
    },
  };
}

/** `INFO memory` used_memory of a server, in bytes. */
export function usedMemory(port) {
  const info = execFileSync('redis-cli', ['-p', String(port), 'info', 'memory']).toString();
  return Number(/used_memory:(\d+)/.exec(info)[1]);
}

/** The server's CPU time so far, user and system, in seconds (INFO cpu). */
export function serverCpu(port) {
  const info = execFileSync('redis-cli', ['-p', String(port), 'info', 'cpu']).toString();
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1]);
}

/** Microseconds spent inside EVALSHA calls since the last `CONFIG RESETSTAT` (INFO commandstats). */
export function scriptMicros(port) {
  const info = execFileSync('redis-cli', ['-p', String(port), 'info', 'commandstats']).toString();
  return Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(info)[1]);
}

/**
 * One server and one 3-master cluster with a connected node-redis client each, for a test
 * file's `before` hook: `{ server, client, cluster, clusterClient }`. `stopBoth` closes and
 * stops whatever of it was started.
 */
export async function startBoth() {
  const { createClient, createCluster } = createRequire(import.meta.url)('redis');
  const [server, cluster] = await Promise.all([startServer(), startCluster()]);
  const client = createClient({ url: server.url });
  const clusterClient = createCluster({ rootNodes: cluster.rootNodes });
  await Promise.all([client.connect(), clusterClient.connect()]);
  return { server, client, cluster, clusterClient };
}

/** One server with a connected node-redis client, for a test file's `before` hook: `{ server, client }` (`stopBoth` stops it). */
export async function startOne() {
  const { createClient } = createRequire(import.meta.url)('redis');
  const server = await startServer();
  const client = createClient({ url: server.url });
  await client.connect();
  return { server, client };
}

export async function stopBoth({ server, client, cluster, clusterClient } = {}) {
  if (client) await client.quit().catch(() => {});
  if (clusterClient) await clusterClient.quit().catch(() => {});
  if (server) await server.stop();
  if (cluster) await cluster.stop();
}

/**
 * A TCP proxy on loopback in front of `port` that loses replies: each reply chunk from the
 * server (after the first `skip` of a connection: the client's handshake) is, with
 * probability `rate`, not forwarded, and both sides of the connection are closed. The
 * request reached the server and ran; only its reply is lost, as when a network path or
 * a client host fails at the wrong moment. `{ port, rate, drops, forwarded, stop() }`.
 */
export async function startProxy(port, { rate = 0.05, skip = 3, seed = 1 } = {}) {
  let s = seed >>> 0 || 1;
  const random = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  // `rate` and `skip` may be changed while the proxy runs.
  const proxy = { drops: 0, forwarded: 0, rate, skip };
  const sockets = new Set();
  const server = net.createServer((down) => {
    const up = net.connect(port, '127.0.0.1');
    sockets.add(down);
    sockets.add(up);
    let replies = 0;
    const close = () => {
      down.destroy();
      up.destroy();
      sockets.delete(down);
      sockets.delete(up);
    };
    down.on('data', (d) => up.write(d));
    up.on('data', (d) => {
      if (replies++ >= proxy.skip && random() < proxy.rate) {
        proxy.drops++;
        close();
        return;
      }
      proxy.forwarded++;
      down.write(d);
    });
    down.on('error', close);
    up.on('error', close);
    down.on('close', close);
    up.on('close', close);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = server.address().port;
  proxy.stop = () =>
    new Promise((resolve) => {
      for (const x of sockets) x.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
