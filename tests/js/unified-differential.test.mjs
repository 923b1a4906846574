// The package's applyUnified against `git apply` on the recorded cases of
// tests/fixtures/unified-git.json (tests/differential/record-unified.mjs),
// and a smaller live run: the first generated cases and the recent history
// of this repository applied by the installed git, right now.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { gitFiles, loadCases } from '../../bench/jsdiff-cases.mjs';

const require = createRequire(import.meta.url);
const { applyUnified } = require('applypatch');
const recorded = loadCases();
const hasGit = spawnSync('git', ['--version']).status === 0;

const sorted = (files) => JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));

function ours(files, diff, mode) {
  try {
    return applyUnified(files, diff, { mode });
  } catch (e) {
    if (e.name !== 'PatchError') throw e;
    return null;
  }
}

test('git mode writes what git apply wrote, on every recorded case', () => {
  assert.ok(recorded.cases.length >= 1000);
  let applied = 0;
  for (const c of recorded.cases) {
    const want = gitFiles(c);
    const got = ours(c.files, c.diff, 'git');
    if (want === null) assert.equal(got, null, `${c.name}: git refused (${c.git.error}), applyUnified applied`);
    else {
      assert.notEqual(got, null, `${c.name}: git applied, applyUnified refused`);
      assert.equal(sorted(got), sorted(want), c.name);
      applied++;
    }
    // Strict applies less often, and never writes anything else.
    const strict = ours(c.files, c.diff, 'strict');
    if (strict !== null && want !== null) assert.equal(sorted(strict), sorted(want), `${c.name}: Strict`);
  }
  assert.ok(applied > 800);
});

function gitApply(files, diff) {
  const dir = mkdtempSync(join(tmpdir(), 'applypatch-git-'));
  try {
    for (const [p, t] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), t);
    }
    const r = spawnSync('git', ['apply', '--whitespace=nowarn', '-'], {
      cwd: dir,
      input: diff,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
    });
    if (r.status !== 0) return null;
    const out = {};
    const walk = (rel) => {
      for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(p);
        else out[p] = readFileSync(join(dir, p), 'utf8');
      }
    };
    walk('');
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('live: the installed git agrees with the recording and with applyUnified', { skip: !hasGit && 'git is not installed' }, () => {
  for (const c of recorded.cases.slice(0, 25)) {
    const live = gitApply(c.files, c.diff);
    assert.equal(
      live === null ? null : sorted(live),
      gitFiles(c) === null ? null : sorted(gitFiles(c)),
      `${c.name}: the installed git differs from the recording`,
    );
    const got = ours(c.files, c.diff, 'git');
    assert.equal(got === null ? null : sorted(got), live === null ? null : sorted(live), c.name);
  }
});

test('live: the last commits of this repository apply as git applies them', { skip: !hasGit && 'git is not installed' }, (t) => {
  const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
  const git = (args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  let commits;
  try {
    commits = git(['rev-list', '--no-merges', '--max-count=8', 'HEAD']).trim().split('\n').filter(Boolean);
  } catch {
    t.skip('not a git checkout');
    return;
  }
  let checked = 0;
  for (const c of commits) {
    let diff;
    try {
      diff = git(['diff', '-M', `${c}^`, c]);
    } catch {
      continue; // the first commit, or a shallow clone
    }
    if (diff === '' || /^(Binary files|GIT binary patch)/m.test(diff)) continue;
    const files = {};
    for (const m of diff.matchAll(/^--- a\/(.*)$/gm)) files[m[1]] = git(['show', `${c}^:${m[1]}`]);
    const want = gitApply(files, diff);
    assert.notEqual(want, null, `git apply refused ${c}`);
    assert.equal(sorted(applyUnified(files, diff, { mode: 'git' })), sorted(want), c);
    assert.equal(sorted(applyUnified(files, diff)), sorted(want), `${c} (Strict)`);
    checked++;
  }
  if (checked === 0) t.skip('no history to check');
});
