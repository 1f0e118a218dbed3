// The .wasm sizes, gzipped at level 9.
//
// The budget, 150 kB, is for the wasm a browser downloads: pkg/web, the default build for
// browsers and bundlers (`--no-default-features`, opt-level "z"). It has the fingerprint
// core, explain, the index, the Huffman table and passages; it leaves out HTML to text and
// the crawler's part (ContentSeen, dedup, index snapshots, CompactSet, the sketch API,
// IdfTable), which throw FeatureDisabled there.
// pkg/node and pkg/full (`simhash-wasm/full`) are built at opt-level 3, for speed; pkg/node
// has every feature, pkg/full all but the Node-only Redis bindings.
//
// "gzipped" is GNU `gzip -9`, the figure the budget is stated in (Debian has it). Node's
// zlib, a Chromium fork, makes these files 4-5 % larger; both figures are printed. Where
// `gzip` is missing, Node's figure stands in for it with a 5 % allowance for that difference.
//
// The full build has no budget of its own, only a guard against growing back (414 kB by
// Node's zlib). It holds what the browser build leaves out: HTML to text and main-content
// extraction (one copy of html5gum's tokenizer serves both), the site templates and
// the passage checker's path for code. Where the bytes go, and what each part costs, is in
// docs/decisions/018-two-wasm-builds.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

function gzipSizes(path) {
  const bytes = readFileSync(new URL(path, import.meta.url));
  const node = gzipSync(bytes, { level: 9 }).length;
  let gnu;
  try {
    gnu = execFileSync('gzip', ['-9c'], { input: bytes, maxBuffer: 64 << 20 }).length;
  } catch {
    gnu = undefined;
  }
  return { bytes, node, gnu };
}

/** Names of the module's custom sections (a dev build has `name` and DWARF sections). */
function customSections(bytes) {
  const names = [];
  let i = 8;
  const leb = () => {
    let result = 0; let shift = 0; let b;
    do { b = bytes[i++]; result += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    return result;
  };
  while (i < bytes.length) {
    const id = bytes[i++];
    const size = leb();
    const end = i + size;
    if (id === 0) {
      const len = leb();
      names.push(bytes.subarray(i, i + len).toString('utf8'));
    }
    i = end;
  }
  return names;
}

const web = gzipSizes('../../pkg/web/simhash_wasm_bg.wasm');
const full = gzipSizes('../../pkg/full/simhash_wasm_bg.wasm');
const kb = (n) => (n === undefined ? 'n/a' : (n / 1000).toFixed(1));
const sections = customSections(web.bytes);
const devBuild = sections.some((s) => s === 'name' || s.startsWith('.debug'));
const skip = devBuild && `pkg/ holds a dev build (custom sections ${sections.join(', ')}); sizes are for release builds`;

test('the size check reads real wasm modules', () => {
  for (const m of [web, full]) {
    assert.equal(m.bytes.subarray(0, 4).toString('latin1'), '\0asm');
    assert.ok(m.node > 10_000 && m.node < m.bytes.length, `${m.node} bytes gzipped of ${m.bytes.length}`);
  }
  assert.ok(web.bytes.length < full.bytes.length, 'the browser build is the smaller one');
});

test(`the browser build's wasm is at most 150 kB gzipped (gzip -9: ${kb(web.gnu)} kB, Node's zlib: ${kb(web.node)} kB)`, { skip }, () => {
  if (web.gnu !== undefined) assert.ok(web.gnu <= 150_000, `${web.gnu} bytes by gzip -9`);
  else assert.ok(web.node <= 157_500, `${web.node} bytes by Node's zlib (no gzip here)`);
});

test(`the full build does not grow back: at most 414 kB gzipped (gzip -9: ${kb(full.gnu)} kB, Node's zlib: ${kb(full.node)} kB)`, { skip }, () => {
  assert.ok(full.node <= 414_000, `${full.node} bytes by Node's zlib`);
});
