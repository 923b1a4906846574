// Unified diffs through the built package: applyUnified, parseUnified,
// unifiedDiff (round trip through applyUnified and the installed git), and
// the CLI applying a real `git diff` to a directory.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { makeTree, modeOf, read, snapshot } from './fs-helpers.mjs';
import { pick, rng } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { applyUnified, errorCodes, parseUnified, PatchError, unifiedDiff } = require('applypatch');
const { applyUnifiedToDirectory } = require('applypatch/node');
const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');

const hasGit = spawnSync('git', ['--version']).status === 0;
const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
const git = (cwd, args, input) =>
  execFileSync('git', ['-c', 'core.autocrlf=false', ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: gitEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });

function cli(args, { cwd, input } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input: input ?? '', encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const DIFF = `diff --git a/src/app.py b/src/app.py
index 1111111..2222222 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,2 +1,2 @@ def main():
 def main():
-    print("hi")
+    print("hello")
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/notes.txt b/notes.txt
new file mode 100644
--- /dev/null
+++ b/notes.txt
@@ -0,0 +1 @@
+first line
`;

test('applyUnified: plain objects and Maps, a new map, the argument unchanged', () => {
  const files = { 'src/app.py': 'def main():\n    print("hi")\n', 'old.txt': 'bye\n', 'keep.txt': 'k\n' };
  const copy = { ...files };
  const want = { 'src/app.py': 'def main():\n    print("hello")\n', 'keep.txt': 'k\n', 'notes.txt': 'first line\n' };
  assert.deepEqual(applyUnified(files, DIFF), want);
  assert.deepEqual(applyUnified(files, DIFF, { mode: 'git' }), want);
  assert.deepEqual(files, copy);
  const out = applyUnified(new Map(Object.entries(files)), DIFF);
  assert.ok(out instanceof Map);
  assert.deepEqual(Object.fromEntries(out), want);
});

test('applyUnified: report gives the changes, where each hunk went and the modes', () => {
  const files = { 'f.sh': 'x\nx\nhead\na\nb\nc\n' };
  const diff = 'diff --git a/f.sh b/f.sh\nold mode 100644\nnew mode 100755\n--- a/f.sh\n+++ b/f.sh\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n';
  const r = applyUnified(files, diff, { report: true });
  assert.deepEqual(r, {
    files: { 'f.sh': 'x\nx\nhead\na\nB\nc\n' },
    changes: [{ path: 'f.sh', status: 'modified' }],
    modes: [{ path: 'f.sh', mode: '100755' }],
    hunks: [{ path: 'f.sh', hunk: 1, statedLine: 1, line: 4, offset: 3 }],
  });
});

test('applyUnified: errors are PatchErrors with file, hunk and line; nothing is returned', () => {
  const files = { 'a.txt': 'one\ntwo\n', 'b.txt': 'x\n' };
  const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-y\n+Y\n';
  assert.throws(
    () => applyUnified(files, diff),
    (e) => {
      assert.ok(e instanceof PatchError);
      assert.equal(e.code, 'context_not_found');
      assert.equal(e.path, 'b.txt');
      assert.equal(e.diffLine, 10);
      assert.match(
        e.message,
        /^b\.txt: hunk 1 \(diff lines 9-11, '@@ -1,1 \+1,1 @@'\): its 1 context and removed line are not in the file\./,
      );
      return true;
    },
  );
  for (const code of ['hunk_count_mismatch', 'binary_patch', 'file_exists']) assert.ok(errorCodes.includes(code));
  assert.throws(() => applyUnified(files, 'Binary files a/x and b/x differ\n'), { code: 'binary_patch' });
  assert.throws(() => applyUnified(files, '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+new\n'), { code: 'file_exists', path: 'a.txt' });
  assert.throws(() => applyUnified(files, DIFF, { mode: 'codex' }), TypeError);
  assert.throws(() => applyUnified(files, 42), TypeError);
  assert.throws(() => applyUnified([], DIFF), TypeError);
});

test('parseUnified: the structure of a git diff', () => {
  const files = parseUnified(`commit message\n\n${DIFF}`);
  assert.deepEqual(
    files.map((f) => [f.oldPath, f.newPath, f.status, f.line]),
    [
      ['src/app.py', 'src/app.py', 'modified', 3],
      ['old.txt', null, 'deleted', 11],
      [null, 'notes.txt', 'added', 17],
    ],
  );
  assert.deepEqual(files[0].hunks[0], {
    oldStart: 1,
    oldLines: 2,
    newStart: 1,
    newLines: 2,
    section: 'def main():',
    line: 7,
    lines: [
      { kind: 'context', text: 'def main():', line: 8 },
      { kind: 'remove', text: '    print("hi")', line: 9 },
      { kind: 'add', text: '    print("hello")', line: 10 },
    ],
  });
  assert.equal(files[0].index, '1111111..2222222 100644');
  assert.equal(files[2].newMode, '100644');
  const [noNl] = parseUnified('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n');
  assert.deepEqual(noNl.hunks[0].lines[0], { kind: 'remove', text: 'a', noNewline: true, line: 4 });
});

/** Random file maps and edits, for round trips. */
function randomPair(random) {
  const words = ['a', 'b', '', '  x', '}', 'é ✓', 'c\r'];
  const text = () => {
    let s = Array.from({ length: Math.floor(random() * 20) }, () => `${pick(random, words)}\n`).join('');
    if (random() < 0.2) s = s.replace(/\n$/, '');
    return s;
  };
  const before = {};
  const after = {};
  for (const name of ['a.txt', 'dir/b.txt', 'c d.txt']) {
    if (random() < 0.8) before[name] = text();
    const r = random();
    if (r < 0.6 && name in before) {
      const lines = before[name].split(/(?<=\n)/);
      for (let k = Math.floor(random() * 4); k > 0; k--)
        lines.splice(Math.floor(random() * (lines.length + 1)), random() < 0.5 ? 1 : 0, `${pick(random, words)}\n`);
      after[name] = lines.join('');
    } else if (r < 0.8) after[name] = text();
  }
  return [before, after];
}

test('unifiedDiff: applies back exactly with applyUnified (strict and git mode)', () => {
  const random = rng(151);
  for (let i = 0; i < 400; i++) {
    const [before, after] = randomPair(random);
    const diff = unifiedDiff(before, after);
    assert.equal(
      diff === '',
      JSON.stringify(before) === JSON.stringify(after) || Object.keys({ ...before, ...after }).every((k) => before[k] === after[k]),
    );
    if (diff === '') continue;
    assert.deepEqual(applyUnified(before, diff), after, diff);
    assert.deepEqual(applyUnified(before, diff, { mode: 'git' }), after, diff);
  }
  assert.equal(unifiedDiff({ f: 'a\n' }, { f: 'b\n' }), 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n');
  assert.equal(unifiedDiff({}, { e: '' }), 'diff --git a/e b/e\nnew file mode 100644\n');
  assert.equal(
    unifiedDiff({ f: '1\n2\n3\n4\n' }, { f: '1\n2\nthree\n4\n' }, { context: 0 }),
    'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -3 +3 @@\n-3\n+three\n',
  );
});

test('unifiedDiff: applies back exactly with git apply (a live run)', { skip: !hasGit && 'git is not installed' }, (t) => {
  const random = rng(7);
  const base = mkdtempSync(join(tmpdir(), 'applypatch-unified-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  for (let i = 0; i < 40; i++) {
    const [before, after] = randomPair(random);
    const diff = unifiedDiff(before, after);
    if (diff === '') continue;
    const dir = join(base, String(i));
    for (const [p, c] of Object.entries(before)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
    mkdirSync(dir, { recursive: true });
    git(dir, ['apply', '-'], diff);
    for (const [p, c] of Object.entries(after)) assert.equal(readFileSync(join(dir, p), 'utf8'), c, `${i} ${p}\n${diff}`);
    for (const p of Object.keys(before)) if (!(p in after)) assert.ok(!existsSync(join(dir, p)), `${i}: ${p} deleted`);
  }
});

test('CLI: applies a real git diff (rename, mode change, new and deleted files) to a directory', {
  skip: !hasGit && 'git is not installed',
}, (t) => {
  const files = {
    'src/app.py': 'def main():\n    print("hi")\n\n\ndef other():\n    return 1\n',
    'old.txt': 'bye\n',
    'run.sh': 'echo run\n',
    'docs/guide.md': '# Guide\n\nLine one.\nLine two.\nLine three.\nLine four.\n',
  };
  const { base, root } = makeTree(t, files);
  // The repository where the change is made and diffed.
  const repo = join(base, 'repo');
  cpSync(root, repo, { recursive: true });
  git(repo, ['init', '-q']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'base']);
  writeFileSync(join(repo, 'src/app.py'), files['src/app.py'].replace('"hi"', '"hello"').replace('return 1', 'return 2'));
  rmSync(join(repo, 'old.txt'));
  chmodSync(join(repo, 'run.sh'), 0o755);
  mkdirSync(join(repo, 'guide'));
  writeFileSync(join(repo, 'guide/index.md'), files['docs/guide.md'].replace('Line two.', 'Line 2.'));
  rmSync(join(repo, 'docs'), { recursive: true });
  writeFileSync(join(repo, 'new.txt'), 'new\n');
  git(repo, ['add', '-A']);
  const diff = git(repo, ['diff', '--cached', '-M']);
  assert.match(diff, /rename from docs\/guide\.md/);
  assert.match(diff, /new mode 100755/);

  const dry = cli(['--dry-run'], { cwd: root, input: diff });
  assert.equal(dry.code, 0, dry.stderr);
  assert.equal(snapshot(root)['run.sh'].mode, '644', 'dry run writes nothing');
  assert.match(dry.stdout, /^--- a\/docs\/guide\.md\n\+\+\+ b\/guide\/index\.md\n/m);

  const r = cli([], { cwd: root, input: diff });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    'Success. Updated the following files:\nD docs/guide.md\nA guide/index.md\nA new.txt\nD old.txt\nM run.sh\nM src/app.py\n',
  );
  for (const p of ['src/app.py', 'run.sh', 'guide/index.md', 'new.txt'])
    assert.equal(read(root, p), readFileSync(join(repo, p), 'utf8'), p);
  assert.ok(!existsSync(join(root, 'old.txt')) && !existsSync(join(root, 'docs/guide.md')));
  assert.equal(modeOf(root, 'run.sh'), '755');
  // Applied again, it no longer applies: nothing is written.
  const before = snapshot(root);
  const again = cli(['--format', 'unified', '--mode', 'git', '--json'], { cwd: root, input: diff });
  assert.equal(again.code, 1);
  assert.equal(JSON.parse(again.stdout).ok, false);
  assert.deepEqual(snapshot(root), before);
});

test('CLI: all or nothing, and paths stay inside the root', (t) => {
  const { base, root } = makeTree(t, { 'a.txt': 'one\n', 'b.txt': 'two\n' });
  writeFileSync(join(base, 'outside.txt'), 'secret\n');
  const before = snapshot(root);
  let r = cli([], {
    cwd: root,
    input: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-nope\n+2\n',
  });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /^applypatch: error\[context_not_found\] in b\.txt \(diff line 9\)\. Nothing was written\.\nb\.txt: hunk 1 \(diff lines 8-10/,
  );
  assert.deepEqual(snapshot(root), before);
  r = cli([], { cwd: root, input: '--- a/../outside.txt\n+++ b/../outside.txt\n@@ -1 +1 @@\n-secret\n+leaked\n' });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error\[path_outside_root\]/);
  assert.equal(readFileSync(join(base, 'outside.txt'), 'utf8'), 'secret\n');
  assert.deepEqual(snapshot(root), before);
  // Detected by the engine's detectFormat: a commit message before the diff is skipped.
  r = cli(['--json'], { cwd: root, input: 'Subject: fix a\n\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n' });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    ok: true,
    applied: true,
    changes: [{ path: 'a.txt', status: 'modified' }],
    summary: 'Success. Updated the following files:\nM a.txt\n',
  });
  assert.equal(read(root, 'a.txt'), '1\n');
  writeFileSync(join(root, 'a.txt'), 'one\n');
  r = cli(['--format', 'unified', '--mode', 'codex'], { cwd: root, input: '' });
  assert.equal(r.code, 2);
  r = cli(['--mode', 'git'], { cwd: root, input: '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n' });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--mode git is for unified diffs/);
});

test('applyUnifiedToDirectory: modes and a symlink diff refused', (t) => {
  const { root } = makeTree(t, { 'tool.sh': { contents: 'x\n', mode: 0o755 } });
  const r = applyUnifiedToDirectory(root, 'diff --git a/tool.sh b/tool.sh\nold mode 100755\nnew mode 100644\n');
  assert.deepEqual(r, { applied: true, changes: [{ path: 'tool.sh', status: 'modified' }] });
  assert.equal(modeOf(root, 'tool.sh'), (0o666 & ~process.umask()).toString(8));
  assert.throws(
    () =>
      applyUnifiedToDirectory(
        root,
        'diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+tool.sh\n\\ No newline at end of file\n',
      ),
    { code: 'invalid_path', path: 'l' },
  );
});

test('unifiedDiff: a context out of range is refused with the range and the value given', () => {
  assert.throws(() => unifiedDiff({ f: 'a\n' }, { f: 'b\n' }, { context: 1e9 }), {
    name: 'TypeError',
    message: 'applypatch: options.context must be a whole number of lines from 0 to 1000000, got 1000000000',
  });
  assert.throws(() => unifiedDiff({ f: 'a\n' }, { f: 'b\n' }, { context: '3' }), {
    message: 'applypatch: options.context must be a whole number of lines from 0 to 1000000, got string',
  });
});
