#!/usr/bin/env node
// Records what `git apply` writes for generated unified diffs and for real
// ones (this repository's history; consecutive versions of npm packages,
// fetched with `npm pack`), so that `npm test` can check
// applyUnified's git mode (tests/unified_differential.rs, and the package in
// tests/js/unified-differential.test.mjs) without regenerating everything.
//
//   node tests/differential/record-unified.mjs [--count N] [--seed S] [--history N] [--no-packages] [--out FILE]
//
// Each generated case: 1-4 random files (lines drawn from a small vocabulary,
// so context repeats; CRLF files; files without a final newline; executable
// files), random edits (changed, inserted and removed runs, new files,
// deletes, renames with and without changes, mode changes), the diff written
// by `git diff --cached -M` in a scratch repository, then the files the diff
// is applied to are changed the way a working tree drifts (lines added or
// removed above a hunk, a context line changed, a region duplicated, a final
// newline added or dropped) and the diff itself sometimes damaged the way
// models damage diffs (line numbers shifted, a count off by one, a
// `\ No newline` marker dropped). `git apply` runs on a plain directory
// (outside any repository); its files and modes, or its first error line,
// are recorded (the files that changed, the paths removed, the executable
// files).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../../scripts/rng.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const count = Number(arg('--count', 1200));
const seed = Number(arg('--seed', 1515));
const historyCount = Number(arg('--history', 60));
const out = arg('--out', join(root, 'tests', 'fixtures', 'unified-git.json'));

const random = rng(seed);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;

const VOCAB = ['}', '', 'return x;', '  i++;', 'if (a) {', 'else', '  // note', 'x = 1;', 'y = 2;', 'end', '\tindented', 'café ✓', 'a  b'];
const NAMES = ['a.txt', 'b.js', 'src/c.rs', 'src/deep/d.md', 'e f.txt', 'g.py'];

function randomLine() {
  return chance(0.5) ? pick(VOCAB) : `line ${int(1, 60)} ${pick(['foo', 'bar', 'baz'])}`;
}

function randomText(crlf, n = int(0, 30)) {
  const nl = crlf ? '\r\n' : '\n';
  const lines = Array.from({ length: n }, randomLine);
  let text = lines.map((l) => l + nl).join('');
  if (n > 0 && chance(0.15)) text = text.slice(0, -nl.length);
  return text;
}

function splitKeep(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** A random edit of a text: changed, inserted and removed runs. */
function editText(text) {
  const crlf = text.includes('\r\n');
  const nl = crlf ? '\r\n' : '\n';
  const lines = splitKeep(text);
  const edits = int(1, 4);
  for (let e = 0; e < edits; e++) {
    const at = int(0, lines.length);
    const del = Math.min(lines.length - at, chance(0.6) ? int(0, 3) : 0);
    const add = Array.from({ length: chance(0.7) ? int(0, 3) : 0 }, () => randomLine() + nl);
    lines.splice(at, del, ...add);
  }
  let out = lines.join('');
  if (chance(0.1)) out = out.endsWith('\n') ? out.slice(0, -nl.length) : out === '' ? out : out + nl;
  return out;
}

function git(cwd, args, input) {
  return execFileSync('git', ['-c', 'core.quotepath=off', '-c', 'core.autocrlf=false', ...args], {
    cwd,
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: tmpdir(),
      GIT_AUTHOR_NAME: 'r',
      GIT_AUTHOR_EMAIL: 'r@r',
      GIT_COMMITTER_NAME: 'r',
      GIT_COMMITTER_EMAIL: 'r@r',
    },
  });
}

function writeTree(dir, files, modes = {}) {
  for (const [path, contents] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, contents);
    chmodSync(full, modes[path] === '100755' ? 0o755 : 0o644);
  }
}

function readTree(dir, base = '') {
  const files = {};
  const modes = {};
  for (const entry of readdirSync(join(dir, base), { withFileTypes: true })) {
    const rel = base === '' ? entry.name : `${base}/${entry.name}`;
    if (entry.name === '.git' || entry.name === '.patch') continue;
    if (entry.isDirectory()) {
      const sub = readTree(dir, rel);
      Object.assign(files, sub.files);
      Object.assign(modes, sub.modes);
    } else {
      files[rel] = readFileSync(join(dir, rel), 'utf8');
      if (statSync(join(dir, rel)).mode & 0o100) modes[rel] = '100755';
    }
  }
  return { files, modes };
}

/** The diff `git diff --cached -M` writes from `before` to `after`. */
function gitDiff(before, beforeModes, after, afterModes) {
  const dir = mkdtempSync(join(tmpdir(), 'unified-diff-'));
  try {
    git(dir, ['init', '-q']);
    writeTree(dir, before, beforeModes);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'before']);
    for (const path of Object.keys(before)) rmSync(join(dir, path));
    writeTree(dir, after, afterModes);
    git(dir, ['add', '-A']);
    return git(dir, ['diff', '--cached', '-M']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `git apply` does with `diff` on a plain directory holding `files`. */
export function gitApply(files, modes, diff) {
  const dir = mkdtempSync(join(tmpdir(), 'unified-apply-'));
  try {
    writeTree(dir, files, modes);
    try {
      git(dir, ['apply', '--whitespace=nowarn', '-'], diff);
    } catch (e) {
      const first =
        String(e.stderr)
          .split('\n')
          .find((l) => l.startsWith('error:')) ?? String(e.stderr).split('\n')[0];
      return { ok: false, error: first };
    }
    const after = readTree(dir);
    return { ok: true, files: after.files, modes: after.modes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Changes the target files the way a working tree drifts from the diff's base. */
function drift(files, kind) {
  const paths = Object.keys(files).filter((p) => files[p] !== '');
  if (paths.length === 0) return 'none';
  const path = pick(paths);
  const text = files[path];
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = splitKeep(text);
  switch (kind) {
    case 'offset-down':
      lines.splice(int(0, Math.min(3, lines.length)), 0, ...Array.from({ length: int(1, 5) }, () => `drift ${int(1, 9)}${nl}`));
      break;
    case 'offset-up':
      lines.splice(0, Math.min(lines.length - 1, int(1, 3)));
      break;
    case 'changed-line': {
      const i = int(0, lines.length - 1);
      lines[i] = `changed ${int(1, 9)}${lines[i].endsWith('\n') ? nl : ''}`;
      break;
    }
    case 'duplicate': {
      const a = int(0, lines.length - 1);
      const b = Math.min(lines.length, a + int(2, 6));
      const copy = lines.slice(a, b).map((l) => (l.endsWith('\n') ? l : l + nl));
      lines.splice(int(0, lines.length), 0, ...copy);
      if (!lines[lines.length - 1].endsWith('\n') && lines.length > 1) {
        // keep a final line without newline only at the end
      }
      break;
    }
    case 'final-newline':
      files[path] = text.endsWith('\n') ? text.slice(0, -nl.length) : text + nl;
      return `${kind} ${path}`;
  }
  // Only the last line may lack a newline.
  files[path] = lines.map((l, i) => (i < lines.length - 1 && !l.endsWith('\n') ? l + nl : l)).join('');
  return `${kind} ${path}`;
}

/** Damages a diff the way models do. */
function damage(diff, kind) {
  const lines = diff.split('\n');
  const hunks = lines.map((l, i) => (l.startsWith('@@ -') ? i : -1)).filter((i) => i >= 0);
  if (hunks.length === 0) return [diff, 'none'];
  const h = pick(hunks);
  const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/.exec(lines[h]);
  if (!m) return [diff, 'none'];
  let [os, ol, ns, nl] = [Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
  switch (kind) {
    case 'shift': {
      const d = pick([-3, -2, -1, 1, 2, 5, 10]);
      os = Math.max(0, os + d);
      ns = Math.max(0, ns + d);
      break;
    }
    case 'miscount-old':
      ol += pick([-1, 1]);
      break;
    case 'miscount-new':
      nl += pick([-1, 1]);
      break;
    case 'drop-no-newline': {
      const i = lines.findIndex((l) => l.startsWith('\\ '));
      if (i < 0) return [diff, 'none'];
      lines.splice(i, 1);
      return [lines.join('\n'), kind];
    }
  }
  lines[h] = `@@ -${os},${Math.max(0, ol)} +${ns},${Math.max(0, nl)} @@${m[5]}`;
  return [lines.join('\n'), kind];
}

function generated(i) {
  const before = {};
  const modes = {};
  const names = [...NAMES].sort(() => random() - 0.5).slice(0, int(1, 4));
  for (const name of names) {
    before[name] = randomText(chance(0.2));
    if (chance(0.1)) modes[name] = '100755';
  }
  const after = { ...before };
  const afterModes = { ...modes };
  const ops = [];
  for (const name of names) {
    const r = random();
    if (r < 0.55) {
      after[name] = editText(before[name]);
      ops.push(`modify ${name}`);
    } else if (r < 0.65) {
      delete after[name];
      delete afterModes[name];
      ops.push(`delete ${name}`);
    } else if (r < 0.77 && before[name].length > 40) {
      const to = `moved/${name.replace(/\//g, '_')}`;
      after[to] = chance(0.5) ? editText(before[name]) : before[name];
      if (modes[name]) afterModes[to] = modes[name];
      delete after[name];
      delete afterModes[name];
      ops.push(`rename ${name}`);
    } else if (r < 0.82) {
      afterModes[name] = modes[name] ? undefined : '100755';
      if (afterModes[name] === undefined) delete afterModes[name];
      if (chance(0.5)) after[name] = editText(before[name]);
      ops.push(`mode ${name}`);
    }
  }
  if (chance(0.25)) {
    after['new/file.txt'] = randomText(chance(0.2), int(0, 8));
    ops.push('add new/file.txt');
  }
  let diff = gitDiff(before, modes, after, afterModes);
  if (diff === '') return null;
  const target = { ...before };
  let drifted = 'none';
  let damaged = 'none';
  if (chance(0.45))
    drifted = drift(target, pick(['offset-down', 'offset-down', 'offset-up', 'changed-line', 'duplicate', 'final-newline']));
  if (chance(0.2)) [diff, damaged] = damage(diff, pick(['shift', 'shift', 'miscount-old', 'miscount-new', 'drop-no-newline']));
  const result = gitApply(target, modes, diff);
  return { name: `generated ${i}: ${ops.join(', ')}; drift: ${drifted}; damage: ${damaged}`, files: target, modes, diff, git: result };
}

/** Real diffs: consecutive commits of this repository (text files only). */
function history(n) {
  let commits;
  try {
    commits = git(root, ['rev-list', '--first-parent', `--max-count=${n * 3}`, 'HEAD'])
      .trim()
      .split('\n');
  } catch {
    return [];
  }
  const cases = [];
  for (const c of commits) {
    if (cases.length >= n) break;
    let diff;
    try {
      diff = git(root, ['diff', '-M', `${c}^`, c]);
    } catch {
      continue;
    }
    if (diff === '' || diff.length > 20_000 || /^(Binary files|GIT binary patch)/m.test(diff)) continue;
    const names = git(root, ['diff', '--name-only', '-M', `${c}^`, c])
      .trim()
      .split('\n');
    const renamed = [...diff.matchAll(/^rename from (.*)$/gm)].map((m) => m[1]);
    const files = {};
    for (const path of new Set([...names, ...renamed])) {
      try {
        files[path] = git(root, ['show', `${c}^:${path}`]);
      } catch {
        // added in this commit
      }
    }
    if (Object.values(files).reduce((n, t) => n + t.length, 0) > 40_000) continue;
    cases.push({ name: `history ${c.slice(0, 10)}`, files, modes: {}, diff, git: gitApply(files, {}, diff) });
  }
  return cases;
}

/**
 * git's result as stored: the files that differ from the input (`files`),
 * the paths it removed (`deleted`), and the executable files (`modes`).
 */
export function compact(input, result) {
  if (!result.ok) return result;
  const files = {};
  for (const [p, t] of Object.entries(result.files)) if (input[p] !== t) files[p] = t;
  const deleted = Object.keys(input).filter((p) => !(p in result.files));
  return { ok: true, files, deleted, modes: result.modes };
}

/** The files of an npm package version, from the tarball `npm pack` fetches. */
function packageFiles(spec, dir) {
  const out = join(dir, spec.replace(/[^a-z0-9.-]/gi, '_'));
  mkdirSync(out, { recursive: true });
  const name = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', out], { encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', join(out, name), '-C', out]);
  const tree = readTree(join(out, 'package'));
  return Object.fromEntries(Object.entries(tree.files).filter(([, t]) => t.length < 60_000 && !t.includes('\0')));
}

/** Real diffs between consecutive versions of npm packages. */
function packages(pairs) {
  const dir = mkdtempSync(join(tmpdir(), 'unified-pkg-'));
  const cases = [];
  try {
    for (const [from, to] of pairs) {
      let before;
      let after;
      try {
        before = packageFiles(from, dir);
        after = packageFiles(to, dir);
      } catch (e) {
        console.error(`skipping ${from} -> ${to}: ${e.message.split('\n')[0]}`);
        continue;
      }
      const diff = gitDiff(before, {}, after, {});
      const touched = new Set(
        [...diff.matchAll(/^(?:---|\+\+\+) [ab]\/(.*)$/gm), ...diff.matchAll(/^rename from (.*)$/gm)].map((m) => m[1]),
      );
      const files = Object.fromEntries(Object.entries(before).filter(([p]) => touched.has(p)));
      cases.push({ name: `npm ${from} -> ${to}`, files, modes: {}, diff, git: gitApply(files, {}, diff) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cases;
}

const PACKAGES = [
  ['semver@7.6.2', 'semver@7.6.3'],
  ['semver@7.6.3', 'semver@7.7.0'],
  ['semver@7.7.0', 'semver@7.7.1'],
  ['ms@2.1.2', 'ms@2.1.3'],
  ['minimist@1.2.7', 'minimist@1.2.8'],
];

/** A case as stored: only the input files the diff names (the others cannot change), git's result compacted. */
function trim(c) {
  const named = (p) => [`a/${p}`, `b/${p}`, `from ${p}`, `to ${p}`].some((n) => c.diff.includes(n));
  const files = Object.fromEntries(Object.entries(c.files).filter(([p]) => named(p)));
  const modes = Object.fromEntries(Object.entries(c.modes).filter(([p]) => p in files));
  const git = compact(c.files, c.git);
  if (git.ok) git.modes = Object.fromEntries(Object.entries(git.modes).filter(([p]) => p in files || p in git.files));
  return { ...c, files, modes, git };
}

const version = git(root, ['--version']).trim();
const cases = [];
for (let i = 0; cases.length < count; i++) {
  const c = generated(i);
  if (c !== null) cases.push(c);
}
const real = [...history(historyCount), ...(argv.includes('--no-packages') ? [] : packages(PACKAGES))];
const all = [...cases, ...real].map(trim);
const ok = all.filter((c) => c.git.ok).length;
writeFileSync(out, `${JSON.stringify({ git: version, seed, cases: all }, null, 0)}\n`);
console.log(
  `${version}: ${cases.length} generated and ${real.length} history cases, ${ok} applied by git, ${all.length - ok} refused -> ${out}`,
);
