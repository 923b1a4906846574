// npm run mutants [-- [--report] [module ...] [-- cargo-mutants options]]
//
// Mutation testing of the engine with cargo-mutants (https://mutants.rs):
// each mutant is a small change to the code (a condition negated, a result
// replaced by a default, an operator swapped); `cargo test` must fail on it.
//
// - Modules: matcher, diff, patch, files, blocks, text, unified, mode (mode,
//   batch, format), lib, error, tool
//   (default: all of them; src/wasm.rs, the binding, is excluded in
//   .cargo/mutants.toml because host tests never compile it).
// - One job at a time (-j 1), each module in its own run, results in
//   target/mutants/<module>/mutants.out. Builds share target/mutants-build, so
//   the dependencies are compiled once.
// - Equivalent mutants are listed, with a reason each, in .cargo/mutants.toml.
// - `--report` prints the scores of the last runs without running anything.
//   Arguments after a second `--` go to cargo mutants, for example
//   `npm run mutants -- matcher -- --re seek --timeout 60`.
//
// Score = (caught + timeout) / (caught + missed + timeout): a mutant that makes
// the tests hang is noticed too. Unviable mutants (they do not compile) do not
// count. Not part of npm test: a full run takes hours on a 2-core machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = {
  matcher: ['src/matcher/*.rs'],
  diff: ['src/diff.rs'],
  patch: ['src/patch.rs'],
  files: ['src/files.rs'],
  blocks: ['src/blocks/*.rs'],
  text: ['src/text.rs'],
  unified: ['src/unified/*.rs'],
  mode: ['src/mode.rs', 'src/batch.rs', 'src/format.rs'],
  lib: ['src/lib.rs'],
  error: ['src/error.rs'],
  tool: ['src/tool.rs'],
};
const OUTCOMES = ['caught', 'missed', 'timeout', 'unviable'];

const args = process.argv.slice(2);
const sep = args.indexOf('--');
const own = sep < 0 ? args : args.slice(0, sep);
const passed = sep < 0 ? [] : args.slice(sep + 1);
const reportOnly = own.includes('--report');
const chosen = own.filter((a) => a !== '--report');
const unknown = chosen.filter((a) => !(a in MODULES));
if (unknown.length) {
  console.error(`unknown module ${unknown.join(', ')}: choose from ${Object.keys(MODULES).join(', ')}`);
  process.exit(2);
}
const modules = chosen.length ? chosen : Object.keys(MODULES);

const out = (m) => join(root, 'target', 'mutants', m);

if (!reportOnly) {
  const have = spawnSync('cargo', ['mutants', '--version'], { encoding: 'utf8' });
  if (have.status !== 0) {
    console.error('cargo-mutants is missing: cargo install cargo-mutants --locked');
    process.exit(2);
  }
  for (const m of modules) {
    console.log(`\n== ${m}: cargo mutants ${MODULES[m].join(' ')}`);
    mkdirSync(out(m), { recursive: true });
    const files = MODULES[m].flatMap((f) => ['--file', f]);
    const r = spawnSync('cargo', ['mutants', '-j', '1', '--no-shuffle', ...files, '--output', out(m), ...passed], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, CARGO_TARGET_DIR: join(root, 'target', 'mutants-build') },
    });
    // cargo-mutants exits 2 when mutants are missed, 3 on timeouts: still a result.
    if (![0, 2, 3].includes(r.status)) {
      console.error(`cargo mutants failed (exit ${r.status}) on ${m}`);
      process.exit(r.status ?? 1);
    }
  }
}

/** Mutant lines of one outcome file of a run ("src/x.rs:12:5: replace …"). */
function read(m, outcome) {
  const f = join(out(m), 'mutants.out', `${outcome}.txt`);
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : null;
}

const rows = [];
const missedLines = [];
for (const m of modules) {
  const lists = Object.fromEntries(OUTCOMES.map((o) => [o, read(m, o)]));
  if (lists.caught === null) {
    rows.push({ module: m, note: 'not run' });
    continue;
  }
  const byFile = new Map();
  for (const o of OUTCOMES) {
    for (const line of lists[o] ?? []) {
      const file = line.split(':')[0];
      if (!byFile.has(file)) byFile.set(file, Object.fromEntries(OUTCOMES.map((k) => [k, 0])));
      byFile.get(file)[o]++;
    }
  }
  const count = (o) => (lists[o] ?? []).length;
  rows.push({ module: m, ...Object.fromEntries(OUTCOMES.map((o) => [o, count(o)])) });
  if (byFile.size > 1) for (const [file, c] of [...byFile].sort()) rows.push({ module: `  ${file}`, ...c });
  missedLines.push(...(lists.missed ?? []));
}

const score = (r) => {
  const viable = r.caught + r.missed + r.timeout;
  return viable ? `${(((r.caught + r.timeout) / viable) * 100).toFixed(1)}%` : '-';
};
console.log('\nmodule                          caught  missed  timeout  unviable  score');
for (const r of rows) {
  if (r.note) console.log(`${r.module.padEnd(30)}  ${r.note}`);
  else
    console.log(
      `${r.module.padEnd(30)}  ${String(r.caught).padStart(6)}  ${String(r.missed).padStart(6)}  ${String(r.timeout).padStart(7)}  ${String(r.unviable).padStart(8)}  ${score(r).padStart(6)}`,
    );
}
const total = rows.filter((r) => !r.note && !r.module.startsWith(' '));
if (total.length > 1) {
  const sum = Object.fromEntries(OUTCOMES.map((o) => [o, total.reduce((s, r) => s + r[o], 0)]));
  console.log(
    `${'all'.padEnd(30)}  ${String(sum.caught).padStart(6)}  ${String(sum.missed).padStart(6)}  ${String(sum.timeout).padStart(7)}  ${String(sum.unviable).padStart(8)}  ${score(sum).padStart(6)}`,
  );
}
if (missedLines.length) console.log(`\nmissed (a test should fail on each):\n${missedLines.map((l) => `  ${l}`).join('\n')}`);
