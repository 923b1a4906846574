#!/usr/bin/env node
// The real-edits corpus: every text file that changed between consecutive
// published versions of a few well-known packages (npm and PyPI), and between
// consecutive commits of this repository, turned into a V4A update diff (one
// `@@` section per `git diff` hunk, 3 lines of context, more where 3 do not
// make the section unique). Only diffs that Strict `apply` turns into exactly
// the new file are kept; the rest are counted by reason.
//
//   node bench/real-edits.mjs          builds .cache/real-edits/corpus.json if missing, prints its counts
//   node bench/real-edits.mjs --force  rebuilds it
//
// The downloads come from the package registries (npm pack, pip download) and
// are cached in .cache/real-edits/; bench/real.mjs times the corpus.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache', 'real-edits');
export const corpusPath = join(cache, 'corpus.json');

// Consecutive releases; each pair (v[i], v[i+1]) contributes its changed files.
const NPM = {
  express: ['4.19.2', '4.20.0', '4.21.0', '4.21.1', '4.21.2', '5.0.0', '5.0.1', '5.1.0'],
  commander: ['12.0.0', '12.1.0', '13.0.0', '13.1.0', '14.0.0', '14.0.1'],
  axios: ['1.7.0', '1.7.4', '1.7.7', '1.7.9', '1.8.0', '1.8.4', '1.9.0'],
  eslint: ['9.10.0', '9.11.0', '9.12.0', '9.13.0', '9.14.0', '9.15.0'],
  lodash: ['4.17.19', '4.17.20', '4.17.21'],
  webpack: ['5.108.0', '5.109.0', '5.110.0', '5.111.0', '5.112.0', '5.113.0'],
  mocha: ['11.5.0', '11.6.0', '11.7.0', '11.7.6', '12.0.0'],
};
const PYPI = {
  flask: ['3.0.0', '3.0.1', '3.0.2', '3.0.3', '3.1.0', '3.1.1'],
  requests: ['2.31.0', '2.32.0', '2.32.2', '2.32.3', '2.32.4'],
  django: ['5.1', '5.1.1', '5.1.2', '5.1.3', '5.1.4', '5.2', '5.2.1'],
  click: ['8.1.7', '8.1.8', '8.2.0', '8.2.1', '8.3.0'],
  rich: ['13.9.4', '14.0.0', '14.1.0', '14.2.0'],
};
// Text files worth editing; generated or minified files are left out.
const TEXT = /\.(m?js|cjs|ts|py|md|rst|txt|json|toml|cfg|rs|html|css|sh)$/;
const SKIP = /(\.min\.|\/dist\/|package-lock|\.map$)/;

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** Unpacks one release into its own folder and returns that folder. */
function fetchRelease(kind, name, version) {
  const dir = join(cache, kind, `${name}-${version}`);
  if (existsSync(join(dir, '.done'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const dl = join(cache, 'downloads');
  mkdirSync(dl, { recursive: true });
  let archive;
  if (kind === 'npm') {
    const out = JSON.parse(run('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', dl]));
    archive = join(dl, out[0].filename);
  } else {
    const before = new Set(readdirSync(dl));
    // The wheel: pure-Python packages ship their sources in it, and unlike an
    // sdist it needs no build step to download.
    run('pip', ['download', '--quiet', '--no-deps', '--only-binary', ':all:', '-d', dl, `${name}==${version}`]);
    const wheel = readdirSync(dl).find((f) => f.toLowerCase().startsWith(`${name}-${version}-`) && f.endsWith('.whl'));
    archive = join(dl, wheel ?? readdirSync(dl).filter((f) => !before.has(f))[0]);
  }
  if (archive.endsWith('.whl')) run('python3', ['-m', 'zipfile', '-e', archive, dir]);
  else run('tar', ['-xzf', archive, '-C', dir, '--strip-components=1']);
  writeFileSync(join(dir, '.done'), '');
  return dir;
}

function walk(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, base, out);
    else if (entry.isFile() && entry.name !== '.done') out.push(relative(base, path));
  }
  return out;
}

/**
 * A V4A diff for old -> new made from `git diff --no-index -U<context>`: each
 * hunk becomes a bare `@@` section. Null when git's output cannot be expressed
 * (a change of the final newline).
 */
function v4a(oldText, newText, context) {
  const tmp = join(cache, 'tmp');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'a'), oldText);
  writeFileSync(join(tmp, 'b'), newText);
  let out;
  try {
    out = run('git', ['diff', '--no-index', '--no-color', `-U${context}`, 'a', 'b'], { cwd: tmp });
  } catch (e) {
    out = e.stdout; // exit 1: the files differ
  }
  const diff = [];
  let inHunk = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('@@')) {
      diff.push('@@');
      inHunk = true;
    } else if (inHunk && line.startsWith('\\')) {
      return null;
    } else if (inHunk) {
      diff.push(line);
    }
  }
  while (diff.length > 0 && diff[diff.length - 1] === '') diff.pop();
  return diff.join('\n');
}

const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function addPair(corpus, stats, source, path, oldText, newText, apply) {
  if (oldText === newText) return;
  // An empty file filled in is a file created, not an update diff (V4A writes
  // a created file with create_file; an update of '' leaves no final newline).
  if (oldText === '') {
    stats.skipped.emptyBefore = (stats.skipped.emptyBefore ?? 0) + 1;
    return;
  }
  if (oldText.includes('\r') || newText.includes('\r') || oldText.includes('\0') || newText.includes('\0')) {
    stats.skipped.crOrBinary = (stats.skipped.crOrBinary ?? 0) + 1;
    return;
  }
  for (const context of [3, 6, 12]) {
    const diff = v4a(oldText, newText, context);
    if (diff === null) {
      stats.skipped.finalNewline = (stats.skipped.finalNewline ?? 0) + 1;
      return;
    }
    let out;
    try {
      out = apply(oldText, diff);
    } catch (e) {
      out = e;
    }
    if (out === newText) {
      const sections = diff.split('\n').filter((l) => l === '@@').length;
      corpus.push({ source, path, lines: lineCount(oldText), sections, context, input: oldText, diff, expected: newText });
      return;
    }
    if (!(out instanceof Error)) throw new Error(`${source} ${path}: Strict applied to a different text`);
  }
  stats.skipped.ambiguous = (stats.skipped.ambiguous ?? 0) + 1;
}

// At most this many edits from one package, taken evenly over its releases, so
// that one package with a sweeping release does not stand for the rest.
const PER_PACKAGE = 400;

function releasePairs(kind, table, corpus, stats, apply) {
  for (const [name, versions] of Object.entries(table)) {
    const edits = [];
    for (let i = 0; i + 1 < versions.length; i++) {
      const a = fetchRelease(kind, name, versions[i]);
      const b = fetchRelease(kind, name, versions[i + 1]);
      const source = `${kind}:${name}@${versions[i]}..${versions[i + 1]}`;
      for (const path of walk(b)) {
        if (!TEXT.test(path) || SKIP.test(`/${path}`) || !existsSync(join(a, path))) continue;
        if (statSync(join(b, path)).size > 2_000_000) continue;
        addPair(edits, stats, source, path, readFileSync(join(a, path), 'utf8'), readFileSync(join(b, path), 'utf8'), apply);
      }
    }
    const step = Math.max(1, edits.length / PER_PACKAGE);
    for (let i = 0; i < edits.length; i += step) corpus.push(edits[Math.floor(i)]);
  }
}

/** Files changed by each commit of this repository (first parent). */
function ownHistory(corpus, stats, apply) {
  let commits;
  try {
    commits = run('git', ['rev-list', '--first-parent', '--reverse', 'HEAD'], { cwd: root }).trim().split('\n');
  } catch {
    return; // not a git checkout (a tarball): the packages are enough
  }
  for (let i = 1; i < commits.length; i++) {
    const [parent, commit] = [commits[i - 1], commits[i]];
    const changed = run('git', ['diff', '--name-only', '--diff-filter=M', parent, commit], { cwd: root }).trim().split('\n');
    for (const path of changed) {
      if (!TEXT.test(path) || SKIP.test(`/${path}`) || path.startsWith('tests/fixtures/')) continue;
      const show = (rev) => run('git', ['show', `${rev}:${path}`], { cwd: root });
      addPair(corpus, stats, `git:${commit.slice(0, 10)}`, path, show(parent), show(commit), apply);
    }
  }
}

export function loadCorpus({ force = false } = {}) {
  if (!force && existsSync(corpusPath)) return JSON.parse(readFileSync(corpusPath, 'utf8'));
  const { apply } = createRequire(import.meta.url)('applypatch');
  const corpus = [];
  const stats = { skipped: {} };
  releasePairs('npm', NPM, corpus, stats, apply);
  releasePairs('pypi', PYPI, corpus, stats, apply);
  ownHistory(corpus, stats, apply);
  const data = { built: new Date().toISOString(), skipped: stats.skipped, cases: corpus };
  mkdirSync(cache, { recursive: true });
  writeFileSync(corpusPath, JSON.stringify(data));
  return data;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const data = loadCorpus({ force: process.argv.includes('--force') });
  const bySource = {};
  for (const c of data.cases) {
    const key = c.source.startsWith('git:') ? 'git:applypatch' : c.source.split('@')[0];
    bySource[key] = (bySource[key] ?? 0) + 1;
  }
  console.log(`${data.cases.length} real edits (skipped: ${JSON.stringify(data.skipped)})`);
  console.log(bySource);
  console.log(`under 200 lines: ${data.cases.filter((c) => c.lines < 200).length}`);
}
