#!/usr/bin/env node
// createPatchStream against the one-shot apply, on the same 1 MB V4A diff
// over a generated file of 100,000 lines (bench/generate.mjs): the diff
// pushed in 4-character pieces (about a token each) and one character at a
// time, in one run. Prints the median times and the ratios to the one-shot
// call (the goals: at most 3x in 4-character pieces, 10x one at a time).
//
//   node bench/stream.mjs            (after npm run build)
//   node bench/stream.mjs --quick    (fewer repetitions)
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { generate } from './generate.mjs';
import { median } from './timing.mjs';

const require = createRequire(import.meta.url);
const { apply, createPatchStream } = require('applypatch');
const quick = process.argv.includes('--quick');

const LINES = 100_000;
let { input, diff } = generate(LINES, 1000, 7);
const sections = Math.round((1000 * 1_000_000) / diff.length);
({ input, diff } = generate(LINES, sections, 7));

function streamed(mode, size) {
  const s = createPatchStream(input, { mode });
  let placed = 0;
  for (let i = 0; i < diff.length; i += size) {
    for (const e of s.push(diff.slice(i, i + size))) {
      if (e.type === 'error') throw e.error;
      placed++;
    }
  }
  const out = s.end();
  if (placed !== sections - 1) throw new Error(`${placed} sections placed before the end, not ${sections - 1}`);
  return out;
}

const reps = quick ? 3 : 9;
const fmt = (ms) => ms.toFixed(1).padStart(8);
console.log(
  `createPatchStream vs apply: a ${(diff.length / 1e6).toFixed(2)} MB diff of ${sections} sections over ${LINES} lines, Node ${process.version}`,
);
console.log('median ms of each; ratio = streamed / one-shot (lower is better; goals: 3x in 4-char pieces, 10x one char at a time)\n');
console.log('mode      one-shot  4-char pieces  ratio   1 char  ratio');
for (const mode of ['strict', 'codex']) {
  const want = apply(input, diff, { mode });
  for (const size of [4, 1]) {
    if (streamed(mode, size) !== want) throw new Error(`the stream in ${size}-character pieces ends differently (${mode})`);
  }
  // Interleaved, so that a machine busy with other work slows all three alike.
  const runs = [() => apply(input, diff, { mode }), () => streamed(mode, 4), () => streamed(mode, 1)];
  const times = runs.map(() => []);
  for (let r = 0; r <= reps; r++) {
    runs.forEach((run, i) => {
      const t = performance.now();
      run();
      if (r > 0) times[i].push(performance.now() - t); // the first round warms up
    });
  }
  const [one, four, single] = times.map(median);
  console.log(
    `${mode.padEnd(8)}${fmt(one)}  ${fmt(four)}     ${(four / one).toFixed(2).padStart(5)}x ${fmt(single)} ${(single / one).toFixed(2).padStart(5)}x`,
  );
}
