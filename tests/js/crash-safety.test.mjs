// saveIndex under SIGKILL: a child saves a large index in a loop and is killed at random
// moments; every time, the file at the target path must still load as a complete index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SimHashIndex, saveIndex, loadIndex } from '../../pkg/index.mjs';

const child = fileURLToPath(new URL('./fixtures/save-loop.cjs', import.meta.url));
const N = 300_000;

test('a save killed at any moment (SIGKILL) never leaves a half-written snapshot', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'simhash-crash-'));
  const file = join(dir, 'index.bin');
  const first = new SimHashIndex({ k: 3, ids: 'number' });
  first.insert(1, 42n);
  saveIndex(first, file);
  const sizes = new Set([1, N, N + 1]);
  for (let round = 0; round < 6; round++) {
    const p = spawn(process.execPath, [child, file, String(N)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve, reject) => {
      p.stdout.once('data', resolve);
      p.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 600));
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
    const ix = loadIndex(file);   // throws if the file were half-written
    assert.ok(sizes.has(ix.size), `round ${round}: ${ix.size} entries`);
    ix.free();
  }
  // Stray temp files may remain from the kills; the target is never one of them.
  assert.ok(readdirSync(dir).includes('index.bin'));
});
