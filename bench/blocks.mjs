#!/usr/bin/env node
// Edit blocks: applyEdit of the built package against apply-edit-block 0.1.0
// (PyPI) on generated files of 1,000 / 10,000 / 100,000 lines. The Python
// function is timed in-process (bench/blocks_driver.py, run with the Python of
// the oracle's virtual environment: ../shared/oracles/apply-edit-block.sh
// installs it), so start-up is not counted. Both must give the same result
// (checked before the figures are printed). Prints medians and ratios.
//
//   npm run bench                       (after npm run build)
//   node bench/blocks.mjs --quick       (fewer repetitions; Python skipped at 100,000 lines)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../scripts/rng.mjs';
import { line } from './generate.mjs';
import { time } from './timing.mjs';

const require = createRequire(import.meta.url);
const { applyEdit } = require('applypatch');
const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');

/** The Python of the oracle's venv, installing it through the oracle if needed. */
function python() {
  const venv = join(process.env.ORACLE_CACHE ?? join(homedir(), '.cache', 'applypatch-oracles'), 'apply-edit-block-venv', 'bin', 'python');
  if (existsSync(venv)) return venv;
  const oracle = join(here, '..', '..', 'shared', 'oracles', 'apply-edit-block.sh');
  if (!existsSync(oracle)) return null;
  execFileSync('bash', [oracle], { input: '{"source": "", "edits": []}', stdio: ['pipe', 'ignore', 'inherit'] });
  return existsSync(venv) ? venv : null;
}

/** A file of `n` lines and the edits to time on it, around its middle. */
function scenarios(n) {
  const random = rng(7 + n);
  const lines = Array.from({ length: n }, (_, i) => line(i, random));
  const source = lines.join('\n') + '\n';
  const at = Math.floor(n / 2) - (Math.floor(n / 2) % 6);
  const block = (len) => lines.slice(at, at + len);
  const out = [];
  const b20 = block(20);
  out.push({ name: 'exact, 20 lines', search: b20.join('\n'), want: 'exact' });
  out.push({ name: 'outdented, 20 lines', search: b20.map((l) => l.replace(/^ +/, '')).join('\n'), want: 'indent' });
  // First line changed (so no anchor) and one more: 18/20 = 0.9.
  const fz = [...b20];
  fz[0] = fz[0].replace('function', 'async function');
  fz[8] += ' // changed';
  out.push({ name: 'fuzzy match, 20 lines', search: fz.join('\n'), want: 'fuzzy' });
  // Five lines changed, the first among them: 15/20 = 0.75 < 0.85.
  const fail = [...b20];
  for (const k of [0, 4, 8, 12, 16]) fail[k] = `${fail[k]} /* stale */`;
  out.push({ name: 'failing, 20 lines', search: fail.join('\n'), want: null });
  if (n <= 10_000) {
    const b50 = block(50);
    for (let k = 0; k < 50; k += 4) b50[k] = `${b50[k]} /* stale */`;
    out.push({ name: 'failing, 50 lines', search: b50.join('\n'), want: null });
  }
  return out.map((s) => ({ ...s, source, lines: n, replace: 'function replaced() {}' }));
}

const sizes = [1_000, 10_000, 100_000];
const all = sizes.flatMap(scenarios);
const py = python();

// Python first: one process, cases timed in-process.
let theirs = null;
if (py) {
  const cases = all
    .map((c) => ({
      source: c.source,
      search: c.search,
      replace: c.replace,
      reps: c.lines >= 100_000 ? 1 : c.lines >= 10_000 ? (quick ? 1 : 3) : quick ? 2 : 5,
    }))
    .map((c, i) => (quick && all[i].lines >= 100_000 ? { ...c, reps: 0 } : c));
  process.stderr.write(`timing apply-edit-block (Python) on ${cases.filter((c) => c.reps).length} cases; this takes a few minutes...\n`);
  const input = JSON.stringify({ cases: cases.filter((c) => c.reps) });
  const results = JSON.parse(execFileSync(py, [join(here, 'blocks_driver.py')], { input, maxBuffer: 1 << 30, encoding: 'utf8' }));
  theirs = [];
  let k = 0;
  for (const c of cases) theirs.push(c.reps ? results[k++] : null);
}

const fmt = (ms) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0)).padStart(9);
console.log(
  `\napplypatch ${require('applypatch/package.json').version} applyEdit vs apply-edit-block 0.1.0 (Python ${py ? execFileSync(py, ['-c', 'import sys; print(sys.version.split()[0])'], { encoding: 'utf8' }).trim() : 'not available'}), Node ${process.version}`,
);
console.log('median ms of one call; ratio = apply-edit-block / applypatch (compatible preset); safe = the safe preset\n');
console.log('   lines  edit                    strategy     applypatch       safe  apply-edit-block      ratio');
for (const [i, c] of all.entries()) {
  const edit = { search: c.search, replace: c.replace };
  const compatible = { preset: 'compatible' };
  const ours = applyEdit(c.source, edit, compatible);
  if (ours.strategy !== c.want) throw new Error(`${c.name} at ${c.lines} lines: strategy ${ours.strategy}, wanted ${c.want}`);
  const t = theirs?.[i];
  if (t) {
    const same = t.ok === ours.ok && t.strategy === ours.strategy && t.similarity === ours.similarity && t.text === ours.text;
    if (!same) throw new Error(`${c.name} at ${c.lines} lines: results differ`);
  }
  const reps = quick ? 5 : c.lines >= 100_000 ? 21 : c.lines >= 10_000 ? 101 : 301;
  const a = time(() => applyEdit(c.source, edit, compatible), reps);
  const s = time(() => applyEdit(c.source, edit, { preset: 'safe' }), reps);
  const b = t ? t.ms : NaN;
  const r = b / a;
  const ratio = t ? `${r < 10 ? r.toFixed(1) : Math.round(r).toLocaleString('en')}x`.padStart(10) : '         -';
  console.log(
    `${String(c.lines).padStart(8)}  ${c.name.padEnd(22)}  ${String(c.want ?? 'failure').padEnd(11)}  ${fmt(a)}  ${fmt(s)}  ${t ? fmt(b) : '        -'}         ${ratio}`,
  );
}
if (!py) console.log('\n(apply-edit-block not timed: its oracle script ../shared/oracles/apply-edit-block.sh is not here)');
