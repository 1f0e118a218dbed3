// redis.d.ts against the runtime, as typings.test.mjs holds the shared API: every option
// RedisContentSeen.open takes is declared and every declared one is taken, and each kind
// of answer (new, duplicate, empty; by text, bytes or fingerprint; in a batch) has exactly
// the fields RedisCheck declares, each of its declared type. On a real redis-server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { haveRedis, startOne, stopBoth } from './redis-server.mjs';
import { typingsOf } from './typings-common.mjs';

const require = createRequire(import.meta.url);
const { RedisContentSeen } = require('../../pkg/index.cjs');
const { declared, members, sameShape, acceptedAsync } = typingsOf(new URL('../../pkg-template/redis.d.ts', import.meta.url).pathname);

const skip = haveRedis() ? false : 'redis-server is not installed (scripts/setup.sh installs it)';
let server, client;
test.before(async () => {
  if (!skip) ({ server, client } = await startOne());
});
test.after(() => stopBoth({ server, client }));

test('every option RedisContentSeen.open takes is declared, and every declared option is taken', { skip }, async () => {
  const taken = await acceptedAsync((o) => RedisContentSeen.open(client, { namespace: 'typings-options', ...o }));
  assert.deepEqual(taken, [...members(declared('RedisContentSeenOptions')).keys()].sort());
});

const page = '<html><body><nav>Home | About</nav><p>The quick brown fox jumps over the lazy dog, again and again and again.</p></body></html>';
for (const [name, options] of [
  ['sketch mode', { sketch: true, html: true }],
  ['fingerprint-only', { sketch: false, html: true }],
  ['fingerprint-only without URLs', { sketch: false, urls: false }],
]) {
  test(`every RedisCheck field is declared with its type (${name})`, { skip }, async () => {
    const seen = await RedisContentSeen.open(client, { namespace: `typings-${name.replace(/\W+/g, '-')}`, ...options });
    const answers = [
      ['check (new)', await seen.check('https://a.test/1', page)],
      ['check (duplicate)', await seen.check('https://a.test/2', `${page} `)],
      ['check (bytes)', await seen.check('https://a.test/3', Buffer.from(page.replace('fox', 'cat').replace('dog', 'hen')))],
      ['check (empty)', await seen.check('https://a.test/4', options.html ? '<script>app()</script>' : '')],
      ['checkFingerprint (new)', await seen.checkFingerprint('https://a.test/5', 0x0123456789abcdefn)],
      ['checkFingerprint (duplicate)', await seen.checkFingerprint('https://a.test/6', 0x0123456789abcdeen)],
    ];
    const [batched, failed] = await seen.checkBatch([{ url: 'https://a.test/7', text: Buffer.from(page) }, { url: 'https://a.test/8', text: 42 }]);
    answers.push(['checkBatch (a page)', batched]);
    assert.ok(answers[1][1].duplicate && answers[5][1].duplicate, 'the duplicates are duplicates');
    assert.ok(answers[3][1].empty, 'the empty page is empty');
    for (const [what, r] of answers) sameShape(r, 'RedisCheck', `${what}, ${name}`);
    // The sketch-mode fields hold values in sketch mode only.
    assert.equal(answers[0][1].sketch instanceof Uint8Array, options.sketch, `${name}: sketch`);
    assert.ok(options.sketch ? typeof answers[1][1].estimate === 'number' : answers[1][1].estimate === null, `${name}: estimate`);
    assert.equal(answers[1][1].distance, 0, `${name}: distance`);
    // options() as declared, in every mode.
    sameShape(seen.options(), 'ResolvedRedisContentSeenOptions', `options(), ${name}`);
    assert.deepEqual(Object.keys(failed).sort(), ['error', 'url']);
    assert.equal(failed.error.code, 'InvalidOption');
    seen.close();
  });
}

test('layout "auto" takes the expected size and memory budget it is declared with', { skip }, async () => {
  const small = await RedisContentSeen.open(client, { namespace: 'typings-auto-small', layout: 'auto', expectedSize: 1000, sketch: false });
  const big = await RedisContentSeen.open(client, { namespace: 'typings-auto-big', layout: 'auto', expectedSize: 1e9, sketch: false });
  assert.notDeepEqual(small.options().layout, big.options().layout);
  await assert.rejects(RedisContentSeen.open(client, { namespace: 'typings-auto-bad', layout: 'auto', expectedSize: -1 }), { code: 'InvalidOption' });
  small.close();
  big.close();
});

test('the test itself fails on a missing or mistyped field', { skip }, async () => {
  const seen = await RedisContentSeen.open(client, { namespace: 'typings-forged' });
  const r = await seen.check('https://a.test/1', page);
  assert.throws(() => sameShape({ ...r, extra: 1 }, 'RedisCheck', 'forged'), /runtime fields/);
  const { roundTrips, ...less } = r;
  assert.throws(() => sameShape(less, 'RedisCheck', 'forged'), /runtime fields/);
  assert.throws(() => sameShape({ ...r, roundTrips: String(roundTrips) }, 'RedisCheck', 'forged'), /does not fit/);
  seen.close();
});
