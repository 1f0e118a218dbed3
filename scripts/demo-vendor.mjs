// Copies the browser builds of the demo's file readers from node_modules into www/vendor/
// (not committed: they are third-party builds, copied again whenever node_modules is newer):
//   mammoth  (BSD-2-Clause)  .docx → text
//   pdfjs    (Apache-2.0)    .pdf → text, with its CMaps (CJK fonts) and standard-font data
//   fflate   (MIT)           unzips .odt
// Run by scripts/demo.sh and by the demo server on start: `node scripts/demo-vendor.mjs`.
import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const nm = join(root, 'node_modules');
export const vendorDir = join(root, 'www', 'vendor');

// [from (under node_modules), to (under www/vendor)]
const FILES = [
  ['mammoth/mammoth.browser.min.js', 'mammoth/mammoth.browser.min.js'],
  ['mammoth/LICENSE', 'mammoth/LICENSE'],
  ['pdfjs-dist/build/pdf.min.mjs', 'pdfjs/pdf.min.mjs'],
  ['pdfjs-dist/build/pdf.worker.min.mjs', 'pdfjs/pdf.worker.min.mjs'],
  ['pdfjs-dist/cmaps', 'pdfjs/cmaps'],
  ['pdfjs-dist/standard_fonts', 'pdfjs/standard_fonts'],
  ['pdfjs-dist/LICENSE', 'pdfjs/LICENSE'],
  ['fflate/esm/browser.js', 'fflate/fflate.js'],
  ['fflate/LICENSE', 'fflate/LICENSE'],
];

/** Copies what is missing or older than node_modules; throws with what to run when node_modules lacks a reader. */
export function vendor() {
  for (const [from, to] of FILES) {
    const src = join(nm, from), dst = join(vendorDir, to);
    if (!existsSync(src)) throw new Error(`${src} is missing: run npm ci (the demo's file readers are devDependencies)`);
    if (existsSync(dst) && statSync(dst).mtimeMs >= statSync(src).mtimeMs) continue;
    mkdirSync(join(dst, '..'), { recursive: true });
    cpSync(src, dst, { recursive: true, preserveTimestamps: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  vendor();
  console.log(`file readers copied to ${vendorDir}`);
}
