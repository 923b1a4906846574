#!/usr/bin/env node
// Real edits, per call: Strict and Codex `apply` of the built package against
// `applyDiff` of the OpenAI Agents SDK (@openai/agents-core), in one process,
// on the real-edits corpus (bench/real-edits.mjs: files changed between
// consecutive releases of well-known packages and commits of this repository,
// as V4A diffs). Every case is checked first: Strict gives exactly the new
// file; applyDiff and Codex mode are timed only on the cases where they give
// it too (the counts are printed). Each workload is timed as whole passes over
// its cases, after a warm-up pass, in CPU time (process.cpuUsage); the figure
// is the median pass divided by the number of calls.
//
//   npm run bench          (after npm run build)
//   node bench/real.mjs --quick
import { createRequire } from 'node:module';
import { loadCorpus } from './real-edits.mjs';
import { median } from './timing.mjs';

const require = createRequire(import.meta.url);
const { apply, applyFiles } = require('applypatch');
const { applyDiff } = await import('@openai/agents-core');
const quick = process.argv.includes('--quick');

const { cases } = loadCorpus();
const codex = { mode: 'codex' };
const attempt = (fn) => {
  try {
    return fn();
  } catch (e) {
    return e;
  }
};
for (const c of cases) {
  const ours = attempt(() => apply(c.input, c.diff));
  if (ours !== c.expected) throw new Error(`Strict does not give the new file: ${c.source} ${c.path}`);
  c.sdk = attempt(() => applyDiff(c.input, c.diff)) === c.expected;
  // Codex mode always ends the file with a newline; every corpus file has one.
  c.codex = attempt(() => apply(c.input, c.diff, codex)) === c.expected;
}

/** CPU microseconds of this process (user and system): on a shared machine, other work does not count. */
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Microseconds per call of `fn` over `list`: the median of `passes` whole passes, in CPU time. */
function perCall(list, fn, passes) {
  const pass = () => {
    const t = cpu();
    for (const c of list) fn(c);
    return cpu() - t;
  };
  pass();
  const times = [];
  for (let i = 0; i < passes; i++) times.push(pass());
  return median(times) / list.length;
}

const workloads = [
  ['all real edits', (c) => c.sdk],
  ['files under 200 lines', (c) => c.sdk && c.lines < 200],
  ['files of 200-2,000 lines', (c) => c.sdk && c.lines >= 200 && c.lines < 2000],
  ['files of 2,000+ lines', (c) => c.sdk && c.lines >= 2000],
];
const passes = quick ? 3 : 15;
const us = (x) => x.toFixed(1).padStart(9);
const agree = cases.filter((c) => c.sdk).length;
console.log(
  `real-edits corpus: ${cases.length} V4A diffs; applyDiff gives the new file for ${agree}, Codex mode for ${cases.filter((c) => c.codex).length}`,
);
console.log('CPU microseconds per call (median pass / calls); ratio = applyDiff / applypatch\n');
console.log('workload                      calls   Strict µs  applyDiff µs   ratio   Codex µs   ratio');
for (const [name, pick] of workloads) {
  const list = cases.filter(pick);
  if (list.length === 0) continue;
  const strict = perCall(list, (c) => apply(c.input, c.diff), passes);
  const sdk = perCall(list, (c) => applyDiff(c.input, c.diff), passes);
  const both = list.filter((c) => c.codex);
  const cx = perCall(both, (c) => apply(c.input, c.diff, codex), passes);
  const sdkBoth = both.length === list.length ? sdk : perCall(both, (c) => applyDiff(c.input, c.diff), passes);
  console.log(
    `${name.padEnd(28)} ${String(list.length).padStart(6)} ${us(strict)}   ${us(sdk)}  ${(sdk / strict).toFixed(1).padStart(5)}x ${us(cx)}  ${(sdkBoth / cx).toFixed(1).padStart(5)}x`,
  );
}

// Patches: the same edits grouped as agents send them, several files in one
// Codex `*** Begin Patch` (the edits of one release or commit, up to five
// files a patch), applied with `applyFiles` to a map of the files they touch.
// The per-file `apply` calls of the same diffs, and `applyDiff` on each file,
// are timed beside it, so the cost of the patch around its files is seen.
const patches = [];
const bySource = new Map();
for (const c of cases) {
  if (!bySource.has(c.source)) bySource.set(c.source, []);
  bySource.get(c.source).push(c);
}
for (const list of bySource.values()) {
  let group = [];
  const flush = () => {
    if (group.length === 0) return;
    const body = group.map((c) => `*** Update File: ${c.path}\n${c.diff.endsWith('\n') ? c.diff : `${c.diff}\n`}`).join('');
    patches.push({
      files: group,
      patch: `*** Begin Patch\n${body}*** End Patch\n`,
      map: Object.fromEntries(group.map((c) => [c.path, c.input])),
    });
    group = [];
  };
  for (const c of list) {
    if (group.some((g) => g.path === c.path)) flush();
    group.push(c);
    if (group.length === 5) flush();
  }
  flush();
}
const gives = (p, options) => {
  const out = attempt(() => applyFiles(p.map, p.patch, options));
  return out instanceof Error ? false : p.files.every((c) => out[c.path] === c.expected);
};
const strictPatches = patches.filter((p) => gives(p));
if (strictPatches.length !== patches.length) throw new Error('applyFiles (Strict) does not give the new files of every patch');
const codexPatches = patches.filter((p) => gives(p, codex));
const sdkPatches = patches.filter((p) => p.files.every((c) => c.sdk));
const files = patches.reduce((n, p) => n + p.files.length, 0);
console.log(
  `\npatches: the same edits as ${patches.length} Codex patches of 1 to 5 files (${files} files, ${(files / patches.length).toFixed(1)} a patch), applyFiles on a map of the files each touches`,
);
console.log('CPU microseconds per patch (median pass / patches)\n');
console.log('call                                          patches   µs a patch   µs a file');
const row = (name, list, fn) => {
  const t = perCall(list, fn, passes);
  const n = list.reduce((k, p) => k + p.files.length, 0);
  console.log(`${name.padEnd(44)} ${String(list.length).padStart(8)} ${us(t)}    ${us((t * list.length) / n)}`);
};
row('applyFiles, Strict', strictPatches, (p) => applyFiles(p.map, p.patch));
row('apply on each file, Strict (same diffs)', strictPatches, (p) => {
  for (const c of p.files) apply(c.input, c.diff);
});
row('applyFiles, Codex mode', codexPatches, (p) => applyFiles(p.map, p.patch, codex));
row('applyDiff on each file', sdkPatches, (p) => {
  for (const c of p.files) applyDiff(c.input, c.diff);
});
