#!/usr/bin/env node
// Strict `apply` of the built package against `applyDiff` of the OpenAI Agents
// SDK (@openai/agents-core, a devDependency), in one process, on the same
// generated inputs: files of 1,000 / 100,000 / 1,000,000 lines with diffs of
// 1 / 10 / 100 sections that both apply identically (checked before timing).
// Prints the median time of each and the speed ratio, then where applypatch's
// time goes at 100,000 lines: encoding the strings into wasm memory, the
// engine's work, and rebuilding the JS string from the changed ranges.
//
//   npm run bench                    (after npm run build)
//   node bench/strict.mjs --quick    (fewer repetitions)
import { createRequire } from 'node:module';
import { generate } from './generate.mjs';
import { time } from './timing.mjs';

const require = createRequire(import.meta.url);
const applypatch = require('applypatch');
const { applyDiff } = await import('@openai/agents-core');
const quick = process.argv.includes('--quick');

const fmt = (ms) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0)).padStart(8);

console.log(`applypatch ${require('applypatch/package.json').version} (Strict) vs @openai/agents-core applyDiff, Node ${process.version}`);
console.log('median ms of each call; ratio = applyDiff / applypatch (higher is better for applypatch)\n');
console.log('   lines  sections  applypatch  applyDiff   ratio');
const rows = [];
for (const lines of [1_000, 100_000, 1_000_000]) {
  for (const sections of [1, 10, 100]) {
    const { input, diff } = generate(lines, sections, 42 + sections);
    const ours = applypatch.apply(input, diff);
    if (ours === input) throw new Error('the diff changed nothing');
    let theirs;
    try {
      theirs = applyDiff(input, diff);
    } catch (e) {
      theirs = e;
    }
    const reps = quick ? 5 : lines >= 1_000_000 ? 9 : lines >= 100_000 ? 31 : 301;
    const a = time(() => applypatch.apply(input, diff), reps);
    const row = `${String(lines).padStart(8)}  ${String(sections).padStart(8)}  ${fmt(a)}`;
    if (theirs instanceof Error) {
      // applyDiff copies the lines between sections with push(...slice), which
      // exceeds the engine's argument limit when a gap is very long.
      rows.push({ lines, sections, a, b: NaN });
      console.log(`${row}    applyDiff throws ${theirs.name}: ${theirs.message}`);
      continue;
    }
    if (ours !== theirs) throw new Error(`outputs differ at ${lines} lines, ${sections} sections`);
    const b = time(() => applyDiff(input, diff), reps);
    rows.push({ lines, sections, a, b });
    console.log(`${row}    ${fmt(b)}  ${(b / a).toFixed(1).padStart(6)}x`);
  }
}

// Where the time goes at 100,000 lines and 100 sections.
const { input, diff } = generate(100_000, 100, 142);
// The core engine, compiled when the package was first called above; its binding's calls are guarded.
const { core } = require('../dist/cjs/engines/core.js');
const glue = core.wasm();
const reps = quick ? 5 : 31;
const bytes = new Uint8Array(input.length * 3);
const encoder = new TextEncoder();
const encode = time(() => encoder.encodeInto(input, bytes), reps);
const put = time(() => core.putInput(input), reps);
const len = core.putInput(input);
const diffLen = core.putInput(diff, len);
// The engine leaves the changes in its memory; takeChanges reads them out.
const call = time(() => core.takeChanges(glue.applyChanges(len, diffLen, 0, false), false), reps);
const [offsets, texts] = core.takeChanges(glue.applyChanges(len, diffLen, 0, false), false);
const rebuild = time(() => {
  let out = '';
  let pos = 0;
  let text = 0;
  for (let i = 0; i < offsets.length; i += 3) {
    out += input.slice(pos, offsets[i]) + texts.slice(text, offsets[i + 2]);
    pos = offsets[i + 1];
    text = offsets[i + 2];
  }
  return out + input.slice(pos);
}, reps);
const whole = rows.find((r) => r.lines === 100_000 && r.sections === 100).a;
console.log(`\nat 100,000 lines (${(input.length / 1e6).toFixed(1)} MB), 100 sections:`);
console.log(`  TextEncoder.encodeInto of the input alone ${fmt(encode)} ms`);
console.log(`  putInput: encodeInto wasm memory          ${fmt(put)} ms`);
console.log(`  (the diff is put after it the same way)`);
console.log(`  wasm call (engine, changes read out)      ${fmt(call)} ms`);
console.log(`  rebuilding the string from ${offsets.length / 3} changes ${fmt(rebuild)} ms`);
console.log(`  whole apply() (argument checks included)  ${fmt(whole)} ms`);
