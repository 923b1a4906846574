#!/usr/bin/env node
// Three-way merge: the built package's merge3, and apply with `base`, against
// `git merge-file -p` on the same three files (written to a temp dir), as a
// ratio of times (git's includes starting the process and reading the files;
// ours, the texts crossing into wasm and back). Every result is checked equal
// to git's before timing.
//
// Texts: code-like lines (a brace line in 7, a blank in 11, the rest
// pseudo-random words with a line number), 1 MB and 10 MB; ours changes a
// line in 50 and inserts one in 100, theirs changes a line in 50 between
// them (ordinary edits); and three unrelated texts of distinct lines (each
// side replaces everything: a conflict over the whole file).
//
//   node bench/merge.mjs            (after npm run build; git on the PATH)
//   node bench/merge.mjs --quick    (1 MB only, fewer repetitions)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rng } from '../scripts/rng.mjs';
import { median, time } from './timing.mjs';

const require = createRequire(import.meta.url);
const { apply, merge3 } = require('applypatch');
const quick = process.argv.includes('--quick');

function codeLines(bytes, seed) {
  const random = rng(seed);
  const words = ['return', 'if', 'x', 'y', 'foo', 'bar', '}', '{', 'let', 'const', 'value', 'i', '+=', '1;', '(', ')'];
  const lines = [];
  for (let total = 0, i = 0; total < bytes; i++) {
    const l =
      i % 7 === 0
        ? '}\n'
        : i % 11 === 0
          ? '\n'
          : `  ${Array.from({ length: 6 }, () => words[Math.floor(random() * words.length)]).join(' ')} // ${i}\n`;
    lines.push(l);
    total += l.length;
  }
  return lines;
}

function ordinary(bytes) {
  const base = codeLines(bytes, 24);
  const ours = base.flatMap((l, i) => [...(i % 100 === 3 ? ['// typed\n'] : []), i % 50 === 0 ? `${l.slice(0, -1)} ours\n` : l]);
  const theirs = base.map((l, i) => (i % 50 === 25 ? `${l.slice(0, -1)} theirs\n` : l));
  return [base.join(''), ours.join(''), theirs.join('')];
}

function unrelated(bytes) {
  return ['b', 'o', 't'].map((tag) => {
    const n = Math.floor(bytes / 12);
    return Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join('');
  });
}

const dir = mkdtempSync(join(tmpdir(), 'bench-merge-'));
function git(base, ours, theirs) {
  writeFileSync(join(dir, 'b'), base);
  writeFileSync(join(dir, 'o'), ours);
  writeFileSync(join(dir, 't'), theirs);
  const run = () => spawnSync('git', ['merge-file', '-p', 'o', 'b', 't'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  const r = run();
  const times = [];
  for (let i = 0; i < (quick ? 3 : 5); i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return { text: r.stdout, status: r.status, ms: median(times) };
}

const rows = [];
try {
  for (const bytes of quick ? [1e6] : [1e6, 1e7]) {
    for (const [name, make] of [
      ['ordinary edits', ordinary],
      ['unrelated texts', unrelated],
    ]) {
      const [base, ours, theirs] = make(bytes);
      const g = git(base, ours, theirs);
      // git writes the file names after the markers.
      const m = merge3(base, ours, theirs, { labels: ['o', 'b', 't'] });
      if (m.text !== g.text || m.conflicts.length !== Math.min(g.status, 127))
        throw new Error(`${name}: merge3 differs from git merge-file`);
      const ms = time(() => merge3(base, ours, theirs), quick ? 3 : 5);
      rows.push([`merge3, ${name}, ${bytes / 1e6} MB`, ms, g.ms]);
      if (name !== 'ordinary edits') continue;
      // apply with base: the model's diff written against base, applied to ours (the user's typing).
      const at = Math.floor(base.length / 2);
      const lineStart = base.lastIndexOf('\n', at) + 1;
      const line = base.slice(lineStart, base.indexOf('\n', at) + 1);
      const diff = `@@\n-${line}+${line.slice(0, -1)} patched\n`;
      // Unique in base? Otherwise skip (the diff must apply).
      if (base.indexOf(line) !== base.lastIndexOf(line)) continue;
      const want = merge3(base, ours, apply(base, diff)).text;
      if (apply(ours, diff, { base }) !== want) throw new Error('apply with base differs from merge3');
      rows.push([`apply with base, ${bytes / 1e6} MB`, time(() => apply(ours, diff, { base }), quick ? 3 : 5), g.ms]);
      rows.push([
        `apply with base, report: true, ${bytes / 1e6} MB`,
        time(() => apply(ours, diff, { base, report: true }), quick ? 3 : 5),
        g.ms,
      ]);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('Three-way merge (median ms; ratio to git merge-file -p on the same files, lower is faster):');
for (const [name, ms, gitMs] of rows) {
  console.log(
    `  ${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   git ${gitMs.toFixed(1).padStart(8)} ms   ${(ms / gitMs).toFixed(2)}x`,
  );
}
