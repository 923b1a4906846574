#!/usr/bin/env node
// Unified diffs: the built package's applyUnified (Strict and git mode)
// against jsdiff's applyPatch (npm `diff` 9.0.0, a devDependency), in one
// process.
//
// 1. On the recorded cases of tests/fixtures/unified-git.json (generated and
//    real diffs, with git apply's results): how often jsdiff writes what git
//    writes, lands a hunk elsewhere, applies where git refuses, or fails.
// 2. Speed: files of 1,000 / 100,000 lines, diffs of 1 / 10 / 100 hunks
//    written by unifiedDiff; every result checked equal before timing.
//
//   npm run bench                     (after npm run build)
//   node bench/unified.mjs --quick    (fewer repetitions)
import { createRequire } from 'node:module';
import { rng } from '../scripts/rng.mjs';
import { compareJsdiff, gitFiles, loadCases } from './jsdiff-cases.mjs';
import { time } from './timing.mjs';

const require = createRequire(import.meta.url);
const { applyUnified, unifiedDiff } = require('applypatch');
const { applyPatch } = require('diff');
const quick = process.argv.includes('--quick');

const recorded = loadCases();
const { counts, examples } = compareJsdiff(recorded.cases);
let agree = 0;
for (const c of recorded.cases) {
  let ours;
  try {
    ours = applyUnified(c.files, c.diff, { mode: 'git' });
  } catch {
    ours = null;
  }
  const want = gitFiles(c);
  const same =
    ours === null
      ? want === null
      : want !== null && JSON.stringify(Object.entries(ours).sort()) === JSON.stringify(Object.entries(want).sort());
  if (same) agree++;
}
console.log(`Recorded cases (${recorded.git}): ${recorded.cases.length}; applyUnified git mode agrees with git apply on ${agree}.`);
console.log('jsdiff applyPatch on the same cases:');
console.log(`  writes git's files exactly      ${counts.same}`);
console.log(`  writes other files              ${counts.different}${examples.length ? ` (e.g. ${examples[0]})` : ''}`);
console.log(`  applies where git refuses       ${counts.appliedWhereGitRefused}`);
console.log(`  fails where git applies         ${counts.failedWhereGitApplied}`);
console.log(`  fails where git fails           ${counts.bothFail}`);
console.log(
  `  file patches with another result than git's (a hunk landed elsewhere): ${counts.filesLandedElsewhere} of ${counts.filesPatched}\n`,
);

function generate(lines, hunks, seed) {
  const random = rng(seed);
  const before = Array.from({ length: lines }, (_, i) => `  const v${i} = compute(${Math.floor(random() * 1000)}, "${i}");\n`);
  const after = [...before];
  for (let h = 0; h < hunks; h++) {
    const at = Math.floor(((h + 0.5) * lines) / hunks);
    after[at] = `  const changed${h} = ${h};\n`;
  }
  return { before: before.join(''), after: after.join('') };
}

const fmt = (ms) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0)).padStart(9);
console.log(`Speed, Node ${process.version}: median ms per call; ratio = jsdiff / applyUnified Strict`);
console.log('   lines  hunks     strict       git    jsdiff   ratio');
for (const lines of [1_000, 100_000]) {
  for (const hunks of [1, 10, 100]) {
    const { before, after } = generate(lines, hunks, lines + hunks);
    const files = { 'f.js': before };
    const diff = unifiedDiff(files, { 'f.js': after });
    if (applyUnified(files, diff)['f.js'] !== after) throw new Error('applyUnified: wrong result');
    if (applyUnified(files, diff, { mode: 'git' })['f.js'] !== after) throw new Error('applyUnified git: wrong result');
    if (applyPatch(before, diff) !== after) throw new Error('jsdiff: wrong result');
    const reps = quick ? 5 : lines >= 100_000 ? 21 : 201;
    const s = time(() => applyUnified(files, diff), reps);
    const g = time(() => applyUnified(files, diff, { mode: 'git' }), reps);
    const j = time(() => applyPatch(before, diff), reps);
    console.log(
      `${String(lines).padStart(8)}  ${String(hunks).padStart(5)} ${fmt(s)} ${fmt(g)} ${fmt(j)} ${(j / s).toFixed(1).padStart(6)}×`,
    );
  }
}
