#!/usr/bin/env node
// npm run parity: runs the parity corpus (tests/parity/corpus.mjs) through
// Codex mode and through the real Codex CLI binary, and reports every
// difference (see tests/parity/compare.mjs for the rules).
//
//   node scripts/parity.mjs [--record] [--count N] [--seed S] [--only SUBSTRING]
//
// --record writes the binary's results to tests/fixtures/codex-parity.json,
// which `npm test` checks without the binary. The binary comes from the npm
// package @openai/codex@0.171.0-linux-x64 (about 300 MB unpacked), fetched
// once into $ORACLE_CACHE (default ~/.cache/applypatch-oracles), and is run
// under the program name `apply_patch`, which makes it act as that tool.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare } from '../tests/parity/compare.mjs';
import { edgeCases, generatedCases } from '../tests/parity/corpus.mjs';

const VERSION = process.env.CODEX_VERSION ?? '0.171.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);

function codexBinary() {
  const cache = join(process.env.ORACLE_CACHE ?? join(homedir(), '.cache', 'applypatch-oracles'), `codex-${VERSION}`);
  const bin = join(cache, 'package', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
  if (!existsSync(bin)) {
    console.error(`parity: fetching @openai/codex@${VERSION}-linux-x64 from npm (about 100 MB download)…`);
    mkdirSync(cache, { recursive: true });
    const tgz = execFileSync('npm', ['pack', '--silent', `@openai/codex@${VERSION}-linux-x64`], { cwd: cache, encoding: 'utf8' }).trim();
    execFileSync('tar', ['xzf', tgz, 'package/vendor/x86_64-unknown-linux-musl/bin/codex'], { cwd: cache });
    rmSync(join(cache, tgz));
  }
  const link = join(cache, 'bin', 'apply_patch');
  if (!existsSync(link)) {
    mkdirSync(join(cache, 'bin'), { recursive: true });
    symlinkSync(bin, link);
  }
  mkdirSync(join(cache, 'home'), { recursive: true });
  return { exe: link, home: join(cache, 'home') };
}

function readTree(dir, base = dir, out = {}) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) readTree(full, base, out);
    else out[relative(base, full)] = readFileSync(full, 'utf8');
  }
  return out;
}

/** What the binary does with a case, in a fresh directory. */
function runCodex(codex, c) {
  const dir = mkdtempSync(join(tmpdir(), 'parity-'));
  try {
    for (const [path, contents] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), contents);
    }
    // One argument may not exceed 128 KiB on Linux: larger patches go on stdin.
    const big = Buffer.byteLength(c.patch) > 120_000;
    const r = spawnSync(codex.exe, big ? [] : [c.patch], {
      cwd: dir,
      input: big ? c.patch : '',
      encoding: 'utf8',
      env: { ...process.env, CODEX_HOME: codex.home },
    });
    const error = (r.stderr ?? '')
      .split(dir + '/')
      .join('')
      .split('\n')[0];
    return r.status === 0 ? { ok: true, files: readTree(dir), stdout: r.stdout } : { ok: false, error, status: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ap = createRequire(import.meta.url)(join(root, 'dist', 'index.cjs'));
const count = Number(value('--count', 300));
const only = value('--only', null);
const seed = Number(value('--seed', 20261130));
const cases = [...edgeCases(), ...generatedCases(count, seed)].filter((c) => !only || c.name.includes(only));
const codex = codexBinary();

let agree = 0;
const explained = [];
const differ = [];
const recorded = [];
for (const c of cases) {
  const result = runCodex(codex, c);
  recorded.push({ ...c, codex: result });
  const d = compare(ap, c, result);
  if (d === null) agree++;
  else if (d.explained) explained.push({ name: c.name, ...d });
  else differ.push({ name: c.name, ...d });
}

const successes = recorded.filter((r) => r.codex.ok).length;
console.log(`parity with Codex CLI ${VERSION}: ${cases.length} cases (${successes} succeed in Codex, ${cases.length - successes} fail)`);
console.log(`  agree: ${agree}   explained differences: ${explained.length}   unexplained: ${differ.length}`);
for (const d of explained) console.log(`  explained  ${d.name}: ${d.explained}`);
for (const d of differ) console.log(`  DIFFERENT  ${d.name}: ${d.reason}`);
if (flag('--record')) {
  const out = join(root, 'tests', 'fixtures', 'codex-parity.json');
  writeFileSync(out, JSON.stringify({ codex: VERSION, recordedBy: 'scripts/parity.mjs', cases: recorded }, null, 1) + '\n');
  console.log(`recorded ${recorded.length} cases in ${relative(root, out)}`);
}
process.exit(differ.length === 0 ? 0 : 1);
