// One source for defaults: the wasm core's `defaults()`. The defaults documented in the
// hand-written index.d.ts and shown by the CLI's --help must be the same values.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

import { defaults, SimHasher, SimHashIndex, ContentSeen, PassageChecker, dedup } from '../../pkg/index.mjs';

const dts = ['index.d.ts', 'web/index.d.ts'].map((f) => readFileSync(new URL(`../../pkg-template/${f}`, import.meta.url), 'utf8')).join('\n');
const bin = new URL('../../pkg/bin/simhash-wasm.mjs', import.meta.url).pathname;

/** The fields of `interface name` declared in its own body, each with the `(default X)` of its doc comment. */
function documented(name) {
  const body = dts.split(`export interface ${name} `)[1]?.split('\n}\n')[0];
  assert.ok(body, `index.d.ts has no interface ${name}`);
  const fields = {};
  for (const m of body.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)\?:/g)) {
    const d = m[1].match(/\(default ([^\s):;,]+)/);
    fields[m[2]] = d ? JSON.parse(d[1]) : undefined;
  }
  return fields;
}

test('every default documented in index.d.ts is the wasm core\'s', () => {
  const D = defaults();
  const sections = [['HasherOptions', 'hasher'], ['IndexOptions', 'index'], ['ContentSeenOptions', 'contentSeen'],
    ['DedupOptions', 'dedup'], ['DedupIntoOptions', 'dedup'], ['PassageOptions', 'passage']];
  let compared = 0;
  for (const [iface, section] of sections) {
    const fields = documented(iface);
    for (const [field, doc] of Object.entries(fields)) {
      if (!(field in D[section])) continue;   // no default (memoryBudget, ids, hasher)
      assert.notEqual(doc, undefined, `${iface}.${field} documents no default; the wasm's is ${D[section][field]}`);
      assert.deepEqual(doc, D[section][field], `${iface}.${field}`);
      compared++;
    }
  }
  assert.ok(compared >= 17, `compared ${compared} defaults`);
});

test('the defaults are the ones the API applies', () => {
  const D = defaults();
  const h = new SimHasher().options();
  for (const key of ['mode', 'ngram', 'weighting', 'punctuation', 'nfkc', 'lowercase', 'html', 'scheme']) assert.equal(D.hasher[key], h[key], key);
  assert.equal(new SimHashIndex().stats().k, D.index.k);
  assert.equal(new SimHashIndex().stats().tables, D.index.k + 1);   // "default": k + 1 blocks
  assert.equal(new ContentSeen().options().k, D.contentSeen.k);
  const r = dedup(['a', 'b'], ['The cat sat on the mat, and then again on the mat.', 'The cat sat on the mat, and then again on the mat!']);
  // k by the collection's size: two documents take the first row.
  assert.equal(r.k, D.dedup.kBySize[0].k);
  assert.equal(r.verify, D.dedup.verify);
  assert.deepEqual([D.dedup.k, D.dedup.verify, D.dedup.shingle, D.dedupFingerprintsOnly.k, D.dedupFingerprintsOnly.verify], ['auto', 0.8, 4, 6, false]);
  assert.deepEqual([D.dedup.kBySize, D.dedup.kBeyond, D.dedup.sketchVerify], [[{ upTo: 200000, k: 6 }, { upTo: 2000000, k: 4 }], 3, 0.81]);
  assert.deepEqual([D.dedup.kBySizeUnverified, D.dedup.kBeyondUnverified], [[{ upTo: 200000, k: 13 }, { upTo: 2000000, k: 12 }], 10]);
  assert.equal(dedup(['a', 'b'], ['The cat sat on the mat.', 'The cat sat on the mat!'], { verify: 'sketch' }).verify, D.dedup.sketchVerify);
  assert.deepEqual(D.passage, { minChars: 40, threshold: 0.5 });
  assert.ok(new PassageChecker());
});

test('the CLI help shows the core\'s defaults', () => {
  const D = defaults();
  const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  assert.match(help, new RegExp(`--k N\\|auto .*\\(default, auto: by the collection's\\s+size, ${D.dedup.kBySize[0].k} up to ${D.dedup.kBySize[0].upTo} documents, ${D.dedup.kBySize[1].k} up to ${D.dedup.kBySize[1].upTo} documents,\\s+then ${D.dedup.kBeyond}; ${D.dedupFingerprintsOnly.k} with --load/--save\\)`));
  assert.match(help, new RegExp(`least J \\(default ${D.dedup.sketchVerify}\\), keeping no texts`));
  assert.match(help, new RegExp(`least J \\(default ${D.dedup.verify}\\)`));
  assert.match(help, new RegExp(`--ngram N .*\\(default ${D.hasher.ngram}\\)`));
  assert.match(help, new RegExp(`sublinear \\(default ${D.hasher.weighting}\\)`));
});
