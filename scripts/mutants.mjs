// npm run mutants [-- [--report] [module ...] [-- cargo-mutants options]]
//
// Mutation testing of the engine with cargo-mutants (https://mutants.rs):
// each mutant is a small change to the code (a condition negated, a result
// replaced by a default, an operator swapped); `cargo test` must fail on it.
//
// - Modules: matcher, diff, patch, files, blocks, text, unified, repair,
//   limits, mode (mode, batch, format), lib, error, tool, stream, merge,
//   support (near, order, positions, utf16)
//   (default: all of them; src/wasm/, the binding, is excluded in
//   .cargo/mutants.toml because host tests never compile it).
// - One job at a time (in place there is only one), each module in its own run, results in
//   target/mutants/<module>/mutants.out. The checkout is copied once to
//   target/mutants-tree and mutated there in place (--in-place), builds go to
//   target/mutants-build: the path never changes, so each mutant is an
//   incremental rebuild (profile `mutants`, opt-level 1).
// - Per mutant only the library's unit tests and the integration tests that
//   reach the module run (MODULES below).
// - Equivalent mutants are listed, with a reason each, in .cargo/mutants.toml.
// - `--report` prints the scores of the last runs without running anything.
//   Arguments after a second `--` go to cargo mutants, for example
//   `npm run mutants -- matcher -- --re seek --timeout 60`.
//
// Score = (caught + timeout) / (caught + missed + timeout): a mutant that makes
// the tests hang is noticed too. Unviable mutants (they do not compile) do not
// count. Not part of npm test: a full run takes hours on a 2-core machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The integration tests that call into each module's code; the library's unit
// tests run for every module. Running only these per mutant saves building and
// linking the other test binaries; a narrower set of tests can only miss more
// mutants, never catch more, so the score is not flattered.
const V4A = [
  'strict_anchors',
  'strict_errors',
  'strict_exact',
  'strict_messages',
  'strict_nearest',
  'strict_properties',
  'strict_vectors',
  'codex_messages',
  'codex_parity',
  'patch_messages',
  'repairs',
  'repairs_sample',
  'repair_rules',
  'resent',
  'limits',
];
const UNIFIED = ['unified', 'unified_differential', 'unified_properties'];
const BLOCKS = ['blocks_differential', 'blocks_messages', 'blocks_properties', 'blocks_safe', 'blocks_vectors', 'generated'];
const ALL = [...new Set([...V4A, ...UNIFIED, ...BLOCKS, 'codex_tool', 'limits'])];
const MODULES = {
  matcher: { files: ['src/matcher/*.rs'], tests: V4A },
  diff: { files: ['src/diff.rs'], tests: [...V4A, ...UNIFIED] },
  patch: { files: ['src/patch.rs'], tests: V4A },
  files: { files: ['src/files.rs'], tests: V4A },
  blocks: { files: ['src/blocks/*.rs'], tests: BLOCKS },
  text: { files: ['src/text.rs'], tests: ALL },
  unified: { files: ['src/unified/*.rs'], tests: [...UNIFIED, 'generated', 'limits'] },
  repair: { files: ['src/repair/*.rs'], tests: V4A },
  limits: { files: ['src/limits.rs'], tests: ALL },
  mode: { files: ['src/mode.rs', 'src/batch.rs', 'src/format.rs'], tests: ALL },
  lib: { files: ['src/lib.rs'], tests: ALL },
  error: { files: ['src/error.rs'], tests: ALL },
  tool: { files: ['src/tool.rs'], tests: ALL },
  stream: { files: ['src/stream/*.rs'], tests: ['stream', 'stream_allocations', 'limits'] },
  merge: { files: ['src/merge/*.rs'], tests: ['merge', 'merge_differential', 'merge_large'] },
  support: {
    files: ['src/near.rs', 'src/order.rs', 'src/positions.rs', 'src/utf16.rs'],
    tests: [...ALL, 'positions_properties', 'stream', 'merge'],
  },
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
  const tree = copyTree();
  for (const m of modules) {
    const { files, tests } = MODULES[m];
    console.log(`\n== ${m}: cargo mutants ${files.join(' ')} (tests: lib ${tests.join(' ')})`);
    mkdirSync(out(m), { recursive: true });
    const testArgs = ['--lib', ...tests.flatMap((t) => ['--test', t])].map((a) => `--cargo-arg=${a}`);
    const r = spawnSync(
      'cargo',
      ['mutants', '--in-place', '--no-shuffle', ...files.flatMap((f) => ['--file', f]), ...testArgs, '--output', out(m), ...passed],
      {
        cwd: tree,
        stdio: 'inherit',
        env: { ...process.env, CARGO_TARGET_DIR: join(root, 'target', 'mutants-build') },
      },
    );
    // cargo-mutants exits 2 when mutants are missed, 3 on timeouts: still a result.
    if (![0, 2, 3].includes(r.status)) {
      console.error(`cargo mutants failed (exit ${r.status}) on ${m}`);
      process.exit(r.status ?? 1);
    }
  }
}

/**
 * Copies the checkout (tracked and new files, as they are now) to
 * target/mutants-tree, where cargo-mutants mutates in place. The copy keeps
 * one path from run to run, so cargo's incremental build there stays warm;
 * only files whose content changed are written again (their mtime is what
 * cargo looks at), and files gone from the checkout are removed.
 */
function copyTree() {
  const tree = join(root, 'target', 'mutants-tree');
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (git.status !== 0) throw new Error(`git ls-files failed: ${git.stderr}`);
  const wanted = new Set(git.stdout.split('\0').filter((f) => f && existsSync(join(root, f))));
  for (const f of wanted) {
    const from = readFileSync(join(root, f));
    const to = join(tree, f);
    if (existsSync(to) && readFileSync(to).equals(from)) continue;
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, from);
  }
  const walk = (dir) => {
    for (const e of readdirSync(join(tree, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (!dir && (e.name === 'target' || e.name === 'mutants.out')) continue;
      if (e.isDirectory()) walk(rel);
      else if (!wanted.has(rel)) rmSync(join(tree, rel));
    }
  };
  walk('');
  return tree;
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
