// `node scripts/test/floors.mjs RUN`: passes a benchmark's or quality run's output (stdin)
// through to stdout, then checks the figures of its RESULT line against RUN's bounds in
// scripts/test/floors.json. Exits 1, naming each figure out of bounds, when one is, or when
// a bounded key is missing from the line; exits 0 on a SKIP line (no dev corpus here).
//
// Only figures that a run computes the same on every machine are bounded: precision,
// recall and F1 over fixed data in seeded orders, and counts of lost answers. Timings
// differ by 2x between machines and are never bounded here (their targets are checked by
// the full runs). A bound is the figure as measured when it was set, less 0.01, except for
// promises, bound at their value: the exact flow's precision on planted copies (1) and
// answers lost by the shared store (0). A change that moves a figure on purpose moves its
// bound in the same commit.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The figures of `line` (`RESULT key=value ...`) out of `bounds` ({ key: { min } or
 * { max } }): one message each, empty when all hold.
 */
export function outOfBounds(line, bounds) {
  const figures = new Map(line.trim().split(/\s+/).slice(1).map((kv) => kv.split('=')));
  const out = [];
  for (const [key, { min, max }] of Object.entries(bounds)) {
    const raw = figures.get(key);
    const v = raw === undefined ? NaN : Number(raw);
    if (Number.isNaN(v)) out.push(`${key} is ${raw === undefined ? 'missing from the RESULT line' : `"${raw}", not a number`}`);
    else if (min !== undefined && v < min) out.push(`${key}=${raw} is under its floor ${min}`);
    else if (max !== undefined && v > max) out.push(`${key}=${raw} is over its ceiling ${max}`);
  }
  return out;
}

/** The RESULT or SKIP line a run ended with, from its whole output. */
export function lastLine(output) {
  const lines = output.split('\n').filter((l) => /^(RESULT|SKIP) /.test(l));
  return lines[lines.length - 1];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const run = process.argv[2];
  const file = new URL('floors.json', import.meta.url);
  const bounds = JSON.parse(readFileSync(file, 'utf8'))[run];
  if (bounds === undefined) {
    console.error(`floors.mjs: no run "${run}" in ${file.pathname}`);
    process.exit(2);
  }
  const chunks = [];
  for await (const c of process.stdin) {
    process.stdout.write(c);
    chunks.push(c);
  }
  const line = lastLine(Buffer.concat(chunks).toString('utf8'));
  if (line?.startsWith('SKIP ')) process.exit(0);
  const bad = line === undefined ? ['the run printed no RESULT line'] : outOfBounds(line, bounds);
  if (bad.length) {
    console.error(`${run}: ${bad.length} figure(s) out of the bounds in scripts/test/floors.json:`);
    for (const b of bad) console.error(`  ${b}`);
    process.exit(1);
  }
}
