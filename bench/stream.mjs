#!/usr/bin/env node
// createPatchStream against the one-shot call on the same text, in one run:
// a 1 MB V4A diff over a generated file of 100,000 lines (bench/generate.mjs;
// Strict and Codex, one-shot `apply`), the same sections as a unified diff
// (one-shot `applyUnified`), and a 1 MB message of edit blocks, one per file
// of a file map (one-shot `applyBlocks`), each pushed in 4-character pieces
// (about a token each) and one character at a time. The pieces are cut
// before the clock starts (a stream's pieces arrive as strings): what is
// timed is the pushes, their events and end(). Prints the median times and
// the ratios to the one-shot call (the goals: at most 3x in 4-character
// pieces, 10x one at a time). Each case's timed rounds start on a collected
// heap: the checks before them (the results as JSON, the pieces of the case
// before) leave tens of MB of garbage, whose collection otherwise falls in
// the next case's rounds, and on the stream more than on the one-shot call
// (it runs longer): Codex's ratio moved from 2.6x to 3.2x with it.
//
//   node bench/stream.mjs            (after npm run build)
//   node bench/stream.mjs --quick    (fewer repetitions)
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generate } from './generate.mjs';
import { median } from './timing.mjs';

const require = createRequire(import.meta.url);
const { apply, applyBlocks, applyUnified, createPatchStream } = require('applypatch');
const quick = process.argv.includes('--quick');
// A full collection, between cases (node's gc(), exposed for this script).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');

const LINES = 100_000;
let { input, diff } = generate(LINES, 1000, 7);
const sections = Math.round((1000 * 1_000_000) / diff.length);
({ input, diff } = generate(LINES, sections, 7));

/** The V4A diff's sections as a unified diff of one file (each section: 7 lines become 8). */
function unified() {
  const inputLines = input.split('\n');
  let out = '--- a/big.js\n+++ b/big.js\n';
  let shift = 0;
  for (const section of diff.split('@@\n').slice(1)) {
    const lines = section.slice(0, -1).split('\n');
    const old = lines.filter((l) => l[0] !== '+').map((l) => l.slice(1));
    const start = inputLines.findIndex((l, i) => old.every((o, j) => inputLines[i + j] === o) && l === old[0]);
    const count = (c) => lines.filter((l) => l[0] !== c).length;
    out += `@@ -${start + 1},${count('+')} +${start + 1 + shift},${count('-')} @@\n${lines.join('\n')}\n`;
    shift += count('-') - count('+');
  }
  return out;
}

/** A message of edit blocks of about 1 MB, one block per file of a map of small files. */
function blocks() {
  const files = new Map();
  let message = 'Here are the edits.\n';
  for (let i = 0; message.length < 1_000_000; i++) {
    files.set(`src/f${i}.js`, `function f${i}(input) {\n  return input + ${i};\n}\n`);
    message += `\nsrc/f${i}.js\n<<<<<<< SEARCH\n  return input + ${i};\n=======\n  return input * ${i};\n>>>>>>> REPLACE\n`;
  }
  return { files, message };
}

const pieces = (text, size) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

/** Pushes the pieces; checks that every section but the last is placed before the end. */
function streamed(target, options, parts, placedWant) {
  const s = createPatchStream(target, options);
  let placed = 0;
  for (const part of parts) {
    for (const e of s.push(part)) {
      if (e.type === 'error') throw e.error;
      if (e.type === 'section') placed++;
    }
  }
  const out = s.end();
  if (placed < placedWant) throw new Error(`${placed} sections placed before the end, not ${placedWant}`);
  return out;
}

const cases = [
  { name: 'strict', target: input, text: diff, options: {}, oneShot: () => apply(input, diff), placed: sections - 1 },
  {
    name: 'codex',
    target: input,
    text: diff,
    options: { mode: 'codex' },
    oneShot: () => apply(input, diff, { mode: 'codex' }),
    placed: sections - 1,
  },
];
{
  const text = unified();
  const files = { 'big.js': input };
  cases.push({
    name: 'unified',
    target: files,
    text,
    options: { format: 'unified' },
    oneShot: () => applyUnified(files, text),
    placed: sections - 1,
  });
}
{
  const { files, message } = blocks();
  const n = files.size;
  cases.push({
    name: 'blocks',
    target: files,
    text: message,
    options: { format: 'blocks' },
    oneShot: () => applyBlocks(files, message),
    placed: n - 1,
  });
}

const reps = quick ? 3 : 9;
const fmt = (ms) => ms.toFixed(1).padStart(8);
console.log(
  `createPatchStream vs the one-shot call, Node ${process.version}: a ${(diff.length / 1e6).toFixed(2)} MB V4A diff of ${sections} sections over ${LINES} lines (strict, codex: apply), the same as a unified diff (applyUnified), a message of edit blocks over a file map (blocks: applyBlocks)`,
);
console.log('median ms of each; ratio = streamed / one-shot (lower is better; goals: 3x in 4-char pieces, 10x one char at a time)\n');
console.log('case        MB  one-shot  4-char pieces  ratio   1 char  ratio');
for (const c of cases) {
  const want = JSON.stringify(c.oneShot(), (_k, v) => (v instanceof Map ? [...v] : v));
  const [four, one] = [pieces(c.text, 4), pieces(c.text, 1)];
  for (const parts of [four, one]) {
    const got = JSON.stringify(streamed(c.target, c.options, parts, c.placed), (_k, v) => (v instanceof Map ? [...v] : v));
    if (got !== want) throw new Error(`the stream in ${parts[0].length}-character pieces ends differently (${c.name})`);
  }
  collect();
  // Interleaved, so that a machine busy with other work slows all three alike.
  const runs = [c.oneShot, () => streamed(c.target, c.options, four, c.placed), () => streamed(c.target, c.options, one, c.placed)];
  const times = runs.map(() => []);
  for (let r = 0; r <= reps; r++) {
    runs.forEach((run, i) => {
      const t = performance.now();
      run();
      if (r > 0) times[i].push(performance.now() - t); // the first round warms up
    });
  }
  const [oneShot, fourMs, single] = times.map(median);
  console.log(
    `${c.name.padEnd(8)}${(c.text.length / 1e6).toFixed(2).padStart(6)}${fmt(oneShot)}  ${fmt(fourMs)}     ${(fourMs / oneShot).toFixed(2).padStart(5)}x ${fmt(single)} ${(single / oneShot).toFixed(2).padStart(5)}x`,
  );
}
