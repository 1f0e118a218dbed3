// 100,000 hashers and 100,000 indexes created and dropped (half free()d, half left to the
// FinalizationRegistry under --expose-gc): wasm memory and RSS must level off, not grow
// with the number of objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('creating and dropping 100k hashers and 100k indexes does not grow memory without bound', { timeout: 300_000 }, () => {
  const child = fileURLToPath(new URL('./fixtures/churn.cjs', import.meta.url));
  const rounds = JSON.parse(execFileSync(process.execPath, ['--expose-gc', child], { encoding: 'utf8', timeout: 280_000 }));
  const mb = (x) => (x / 2 ** 20).toFixed(1);
  const first = rounds[1], last = rounds[rounds.length - 1];
  // After warm-up, the second half of the run may not grow the wasm heap by more than
  // 16 MB or RSS by more than 64 MB (a leak of one small index per iteration would add
  // well over 100 MB of wasm memory over the run).
  assert.ok(last.wasm - first.wasm <= 16 * 2 ** 20, `wasm memory ${mb(first.wasm)} → ${mb(last.wasm)} MB`);
  assert.ok(last.rss - first.rss <= 64 * 2 ** 20, `RSS ${mb(first.rss)} → ${mb(last.rss)} MB`);
  assert.ok(last.wasm < 128 * 2 ** 20, `wasm memory ${mb(last.wasm)} MB`);
});
