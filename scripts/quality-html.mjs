// The parts of `npm run quality:html` (scripts/quality-html.sh), run in file-name order:
// every `scripts/quality-html/*.mjs` exports `default async function (args)` that prints
// what it likes and returns an object of RESULT keys ({ extract_f1: 0.96, ... }). The keys
// of all parts are merged into one line: `RESULT key=value ...`. A new part is a new file.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'quality-html');
const args = process.argv.slice(2);
const result = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
  const part = await import(pathToFileURL(join(dir, file)).href);
  Object.assign(result, await part.default(args));
}
console.log(`RESULT ${Object.entries(result).map(([k, v]) => `${k}=${v}`).join(' ')}`);
