#!/usr/bin/env node
// Records what `git merge-file -p` writes, in the merge, diff3 and zdiff3
// styles, on three-way merges built from real repository histories, into
// tests/fixtures/merge-git.json (tests/merge_differential.rs replays them
// without git; tests/js/merge.test.mjs runs git live on a sample).
//
// For each commit that modifies a small text file, the commit's change is cut
// into its hunks (`git diff -U0`), and triples are built from them:
// - split: ours applies some hunks, theirs the others (the commit itself is
//   the true merge);
// - alternate: ours the odd hunks, theirs the even ones (edits a few lines
//   apart);
// - inside: ours is the commit, theirs edits a line inside one of its hunks
//   (a conflict);
// - near: ours applies one hunk, theirs edits a line 0, 1 or 2 lines after
//   or before it (touching edits conflict in git; one line apart merge);
// - and variants of those: CRLF line breaks, no final newline, a side that
//   deletes everything, an empty base.
//
// Usage: node tests/differential/record-merge.mjs [--cases N] [--repo DIR]...
// (default repos: this repository; a repository fetched elsewhere can be
// added with --repo; histories are only read).
// Texts are stored compactly: each base once, every other text as a line
// diff against a reference text.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffArrays } from 'diff';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1];
};
const repos = [];
for (let i = 0; i < args.length; i++) if (args[i] === '--repo') repos.push(args[i + 1]);
if (repos.length === 0) repos.push(root);
const wanted = Number(option('--cases', '2400'));
const out = option('--out', join(root, 'tests', 'fixtures', 'merge-git.json'));
const MAX_FILE = 5_000;

let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (n) => Math.floor(random() * n);

const git = (repo, ...a) => execFileSync('git', ['-C', repo, ...a], { maxBuffer: 1 << 28, encoding: 'buffer' });
const lines = (text) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** `git diff -U0` hunks of one file: [oldStart, oldCount, newStart, newCount] (0-based starts). */
function hunks(repo, parent, commit, path) {
  const diff = git(repo, 'diff', '-U0', '--no-color', '--no-ext-diff', parent, commit, '--', path).toString('utf8');
  const found = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const [a, b, c, d] = [Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
    found.push([b === 0 ? a : a - 1, b, d === 0 ? c : c - 1, d]);
  }
  return found;
}

/** The base with the chosen hunks applied (their new lines from `after`). */
function applyHunks(base, after, chosen) {
  const out = [];
  let at = 0;
  for (const [a, b, c, d] of chosen) {
    out.push(...base.slice(at, a), ...after.slice(c, c + d));
    at = a + b;
  }
  out.push(...base.slice(at));
  return out.join('');
}

/** A line changed the way a person would: its text edited, its break kept. */
const edited = (line) => {
  const m = line.match(/^(.*?)(\r?\n)?$/s);
  return `${m[1]} /* edited */${m[2] ?? ''}`;
};

function editAt(base, index) {
  const copy = base.slice();
  if (index >= copy.length) copy.push('added at the end\n');
  else copy[index] = edited(copy[index]);
  return copy.join('');
}

const toCrlf = (t) => t.replace(/\r?\n/g, '\r\n');
const dropFinalNewline = (t) => t.replace(/\r?\n$/, '');

function triples(base, after, hs, name) {
  const baseText = base.join('');
  const afterText = after.join('');
  const made = [];
  if (hs.length >= 2) {
    const j = 1 + pick(hs.length - 1);
    made.push({
      kind: 'split',
      base: baseText,
      ours: applyHunks(base, after, hs.slice(0, j)),
      theirs: applyHunks(base, after, hs.slice(j)),
    });
    made.push({
      kind: 'alternate',
      base: baseText,
      ours: applyHunks(
        base,
        after,
        hs.filter((_, i) => i % 2 === 0),
      ),
      theirs: applyHunks(
        base,
        after,
        hs.filter((_, i) => i % 2 === 1),
      ),
    });
  }
  const h = hs[pick(hs.length)];
  const [a, b] = h;
  const inside = b > 0 ? a + pick(b) : a;
  const insideTheirs = b > 0 ? editAt(base, inside) : [...base.slice(0, a), 'inserted by theirs\n', ...base.slice(a)].join('');
  made.push({ kind: 'inside', base: baseText, ours: afterText, theirs: insideTheirs });
  const gap = pick(3);
  const afterIndex = a + b + gap;
  made.push({ kind: `near-after-${gap}`, base: baseText, ours: applyHunks(base, after, [h]), theirs: editAt(base, afterIndex) });
  if (a - 1 - gap >= 0) {
    made.push({ kind: `near-before-${gap}`, base: baseText, ours: applyHunks(base, after, [h]), theirs: editAt(base, a - 1 - gap) });
  }
  const variants = [];
  for (const t of made) {
    const r = random();
    if (r < 0.08) variants.push({ ...t, kind: `${t.kind}-crlf`, base: toCrlf(t.base), ours: toCrlf(t.ours), theirs: toCrlf(t.theirs) });
    else if (r < 0.14)
      variants.push({
        ...t,
        kind: `${t.kind}-no-final-newline`,
        base: dropFinalNewline(t.base),
        ours: dropFinalNewline(t.ours),
        theirs: t.theirs,
      });
    else if (r < 0.16) variants.push({ ...t, kind: `${t.kind}-theirs-deletes-all`, theirs: '' });
    else if (r < 0.18) variants.push({ ...t, kind: `${t.kind}-empty-base`, base: '' });
  }
  return [...made, ...variants].map((t) => ({ ...t, name: `${name} ${t.kind}` }));
}

const dir = mkdtempSync(join(tmpdir(), 'record-merge-'));
function mergeFile(t, style) {
  writeFileSync(join(dir, 'ours'), t.ours);
  writeFileSync(join(dir, 'base'), t.base);
  writeFileSync(join(dir, 'theirs'), t.theirs);
  const flags = style === 'merge' ? [] : [`--${style}`];
  try {
    const text = execFileSync('git', ['merge-file', '-p', ...flags, '-L', 'ours', '-L', 'base', '-L', 'theirs', 'ours', 'base', 'theirs'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    return { conflicts: 0, text };
  } catch (e) {
    if (typeof e.status !== 'number' || e.status < 0 || e.status > 127) throw e;
    return { conflicts: e.status, text: e.stdout };
  }
}

/**
 * `text` against `ref`, as a flat list of steps over `ref`'s lines: lines
 * kept, lines removed, text inserted (a line diff, `diff`'s `diffArrays`).
 */
function delta(ref, text) {
  const steps = [];
  let keep = 0;
  let removed = 0;
  let inserted = '';
  const flush = () => {
    if (removed > 0 || inserted !== '') {
      steps.push(keep, removed, inserted);
      keep = 0;
      removed = 0;
      inserted = '';
    }
  };
  for (const part of diffArrays(lines(ref), lines(text))) {
    if (part.added) inserted += part.value.join('');
    else if (part.removed) removed += part.value.length;
    else {
      flush();
      keep += part.value.length;
    }
  }
  flush();
  return steps;
}

const bases = [];
const baseIndex = new Map();
const cases = [];
const names = new Set();
const isText = (buf) =>
  buf.length <= MAX_FILE &&
  !buf.includes(0) &&
  buf.toString('utf8') === new TextDecoder().decode(buf) &&
  !buf.toString('utf8').includes('\uFFFD');
outer: for (const repo of repos) {
  const repoName = repo === root ? 'self' : repo.split('/').filter(Boolean).slice(-2).join('/').replace('+', '/');
  const commits = git(repo, 'log', '--no-merges', '--format=%H %P').toString('utf8').trim().split('\n');
  for (const row of commits) {
    const [commit, parent] = row.split(' ');
    if (!parent) continue;
    const files = git(repo, 'diff', '--name-only', '--diff-filter=M', '--no-renames', parent, commit)
      .toString('utf8')
      .trim()
      .split('\n')
      .filter(Boolean);
    for (const path of files.slice(0, 2)) {
      let before;
      let after;
      try {
        before = git(repo, 'show', `${parent}:${path}`);
        after = git(repo, 'show', `${commit}:${path}`);
      } catch {
        continue;
      }
      if (!isText(before) || !isText(after)) continue;
      const hs = hunks(repo, parent, commit, path);
      if (hs.length === 0) continue;
      const name = `${repoName} ${commit.slice(0, 10)} ${path}`;
      for (const t of triples(lines(before.toString('utf8')), lines(after.toString('utf8')), hs, name)) {
        if (names.has(t.name)) continue;
        names.add(t.name);
        if (!baseIndex.has(t.base)) {
          baseIndex.set(t.base, bases.length);
          bases.push(t.base);
        }
        const git3 = {};
        for (const style of ['merge', 'diff3', 'zdiff3']) {
          const r = mergeFile(t, style);
          git3[style] = [r.conflicts, delta(t.ours, r.text)];
        }
        cases.push({ name: t.name, base: baseIndex.get(t.base), ours: delta(t.base, t.ours), theirs: delta(t.base, t.theirs), git: git3 });
        if (cases.length >= wanted) break outer;
      }
    }
  }
}
rmSync(dir, { recursive: true, force: true });
const version = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
const fixture = {
  about: `Recorded by tests/differential/record-merge.mjs with ${version} (git merge-file -p -L ours -L base -L theirs; --diff3; --zdiff3). Texts: steps [lines kept, lines removed, text inserted, ...] over the lines of the base (ours, theirs) or of ours (git's output); git: [conflicts, steps].`,
  git: version,
  bases,
  cases,
};
writeFileSync(out, `${JSON.stringify(fixture)}\n`);
const conflicted = cases.filter((c) => c.git.merge[0] > 0).length;
console.log(
  `${cases.length} cases (${conflicted} with conflicts) from ${repos.length} repositories, ${bases.length} bases, ${(readFileSync(out).length / 1024).toFixed(0)} KiB`,
);
