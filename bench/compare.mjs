#!/usr/bin/env node
// Two builds of the package side by side in one process, on the benchmarks'
// inputs (Strict apply, applyFiles and edit blocks), so that a refactoring
// can be held to "no benchmark more than 5% slower". The calls alternate
// between the builds in rounds, so a busy machine slows both alike, and the
// time is this process's CPU time (process.cpuUsage), not the wall clock,
// so time spent waiting for a shared CPU is not counted; each case prints
// both medians and their ratio (after / before).
//
//   node bench/compare.mjs BEFORE_DIST [AFTER_DIST] [--rounds N]
// e.g. cp -r dist /tmp/before-dist, change and rebuild, then
//   node bench/compare.mjs /tmp/before-dist dist
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { rng } from '../scripts/rng.mjs';
import { generate, line } from './generate.mjs';
import { median } from './timing.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 15;
const [beforeDir, afterDir = 'dist'] = args;
if (!beforeDir) {
  console.error('usage: node bench/compare.mjs BEFORE_DIST [AFTER_DIST] [--rounds N]');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const before = require(resolve(beforeDir, 'index.cjs'));
const after = require(resolve(afterDir, 'index.cjs'));

function blockSource(n) {
  const random = rng(7 + n);
  const lines = Array.from({ length: n }, (_, i) => line(i, random));
  const mid = Math.floor(n / 2) - (Math.floor(n / 2) % 6);
  return { source: lines.join('\n') + '\n', block: lines.slice(mid, mid + 20) };
}

const cases = [];
for (const [lines, sections] of [
  [1_000, 1],
  [1_000, 100],
  [100_000, 1],
  [100_000, 100],
]) {
  const { input, diff } = generate(lines, sections, 42 + sections);
  cases.push({ name: `apply ${lines} lines, ${sections} sections`, reps: lines > 10_000 ? 3 : 200, run: (api) => api.apply(input, diff) });
}
{
  const { input, diff } = generate(1_000, 10, 52);
  const files = { 'a.js': input, 'b.txt': 'x\n' };
  const patch = `*** Begin Patch\n*** Update File: a.js\n${diff.trimEnd()}\n*** Delete File: b.txt\n*** Add File: c.txt\n+y\n*** End Patch`;
  cases.push({ name: 'applyFiles 1000 lines, 10 sections', reps: 200, run: (api) => api.applyFiles(files, patch) });
}
for (const n of [1_000, 10_000]) {
  const { source, block } = blockSource(n);
  const exact = { search: block.join('\n'), replace: 'function replaced() {}' };
  const outdented = { search: block.map((l) => l.replace(/^ +/, '')).join('\n'), replace: 'function replaced() {}' };
  const failing = { search: block.map((l, k) => (k % 4 === 0 ? `${l} /* stale */` : l)).join('\n'), replace: 'x' };
  const reps = n > 1_000 ? 20 : 200;
  for (const [name, edit] of [
    ['exact', exact],
    ['outdented', outdented],
    ['failing', failing],
  ]) {
    cases.push({ name: `applyEdit ${n} lines, ${name}`, reps, run: (api) => api.applyEdit(source, edit, { preset: 'compatible' }) });
    cases.push({ name: `applyEdit ${n} lines, ${name}, safe`, reps, run: (api) => api.applyEdit(source, edit, { preset: 'safe' }) });
  }
}

console.log(`median CPU ms per call over ${rounds} alternating rounds; ratio = after / before (below 1.05: within 5%)\n`);
console.log(`${'case'.padEnd(44)}    before     after   ratio`);
for (const c of cases) {
  const want = JSON.stringify(c.run(before));
  if (JSON.stringify(c.run(after)) !== want) {
    // A change of behaviour, not of speed: not timed.
    console.log(`${c.name.padEnd(44)}   (the builds give different results: not compared)`);
    continue;
  }
  const t = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [key, api] of r % 2
      ? [
          ['after', after],
          ['before', before],
        ]
      : [
          ['before', before],
          ['after', after],
        ]) {
      const s = process.cpuUsage();
      for (let i = 0; i < c.reps; i++) c.run(api);
      const used = process.cpuUsage(s);
      t[key].push((used.user + used.system) / 1000 / c.reps);
    }
  }
  const [b, a] = [median(t.before), median(t.after)];
  console.log(`${c.name.padEnd(44)} ${b.toFixed(4).padStart(9)} ${a.toFixed(4).padStart(9)} ${(a / b).toFixed(3).padStart(7)}`);
}
