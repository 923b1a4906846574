#!/usr/bin/env node
// Two builds of the package side by side on the real-edits corpus
// (bench/real-edits.mjs): both loaded in one process, their passes
// alternated (A, B, A, B, …) so that the machine's load falls on both alike.
// For each workload and mode: CPU microseconds per call of each build (the
// median of its passes) and the median of the pass-by-pass ratios B / A
// (below 1: B is faster). Every case is checked first: both builds give the
// new file (Strict), or the same answer (Codex).
//
//   node bench/ab.mjs A_DIST B_DIST [--passes N] [--report] [--patch]
//   e.g. node bench/ab.mjs /work/wt-old/dist dist
//
// A_DIST and B_DIST are dist/ folders made by scripts/build.mjs (each holds
// index.cjs). With --report, B is also timed with `report: true`. With
// --patch, each diff is sent as a one-file `*** Begin Patch` patch to
// `applyPatch` instead (and the splices of its change read, with --report).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { loadCorpus } from './real-edits.mjs';
import { median } from './timing.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const dists = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (dists.length !== 2) {
  console.error('usage: node bench/ab.mjs A_DIST B_DIST [--passes N] [--report]');
  process.exit(2);
}
const [a, b] = dists.map((d) => require(resolve(d, 'index.cjs')));
const passes = Number(flag('--passes') ?? 21);

const { cases } = loadCorpus();
const patch = args.includes('--patch');
for (const c of cases) c.patch = `*** Begin Patch\n*** Update File: f\n${c.diff}\n*** End Patch`;
const codex = { mode: 'codex' };
const attempt = (fn) => {
  try {
    return fn();
  } catch (e) {
    return e;
  }
};
for (const c of cases) {
  for (const lib of [a, b]) {
    if (attempt(() => lib.apply(c.input, c.diff)) !== c.expected)
      throw new Error(`Strict does not give the new file: ${c.source} ${c.path}`);
  }
  c.codex = attempt(() => a.apply(c.input, c.diff, codex)) === c.expected && attempt(() => b.apply(c.input, c.diff, codex)) === c.expected;
}

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Alternated passes of each of `fns` over `list`: per function, its median µs per call, and the median ratio of each to the first. */
function side(list, fns) {
  const pass = (fn) => {
    const t = cpu();
    for (const c of list) fn(c);
    return cpu() - t;
  };
  for (const fn of fns) pass(fn);
  const times = fns.map(() => []);
  for (let i = 0; i < passes; i++) {
    // Alternate which build goes first, so neither always follows the other.
    const order = i % 2 === 0 ? fns.map((_, k) => k) : fns.map((_, k) => k).reverse();
    for (const k of order) times[k].push(pass(fns[k]));
  }
  return times.map((t, k) => ({
    us: median(t) / list.length,
    ratio: median(t.map((x, i) => x / times[0][i])),
    first: k === 0,
  }));
}

const workloads = [
  ['all real edits', () => true],
  ['files under 200 lines', (c) => c.lines < 200],
  ['files of 200-2,000 lines', (c) => c.lines >= 200 && c.lines < 2000],
  ['files of 2,000+ lines', (c) => c.lines >= 2000],
];
const report = { report: true };
console.log(`${new Date().toISOString().slice(0, 10)}: A = ${dists[0]}, B = ${dists[1]}; ${passes} alternated passes`);
console.log('CPU µs per call (median pass / calls); B/A = median of the pass-by-pass ratios\n');
console.log('workload                   mode    calls      A µs      B µs     B/A');
for (const [name, pick] of workloads) {
  for (const [mode, opts, keep] of [
    ['strict', undefined, () => true],
    ['codex', codex, (c) => c.codex],
  ]) {
    const list = cases.filter((c) => pick(c) && keep(c));
    if (list.length === 0) continue;
    const fns = patch
      ? [(c) => a.applyPatch({ f: c.input }, c.patch, opts), (c) => b.applyPatch({ f: c.input }, c.patch, opts)]
      : [(c) => a.apply(c.input, c.diff, opts), (c) => b.apply(c.input, c.diff, opts)];
    if (args.includes('--report'))
      fns.push(
        patch
          ? (c) => b.applyPatch({ f: c.input }, c.patch, opts).changes[0]?.splices
          : (c) => b.apply(c.input, c.diff, { ...opts, ...report }),
      );
    const [ra, rb, rr] = side(list, fns);
    const line = `${name.padEnd(26)} ${mode.padEnd(6)} ${String(list.length).padStart(6)} ${ra.us.toFixed(2).padStart(9)} ${rb.us.toFixed(2).padStart(9)} ${rb.ratio.toFixed(3).padStart(7)}`;
    console.log(rr ? `${line}   B report: ${rr.us.toFixed(2)} µs (${rr.ratio.toFixed(3)})` : line);
  }
}
