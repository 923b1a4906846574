// Edit blocks that name their files, over a file map and on a directory, and
// detectFormat: engine answers the package and the CLI use as they are.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeTree, read, snapshot } from './fs-helpers.mjs';

const require = createRequire(import.meta.url);
const { applyBlocks, detectFormat } = require('applypatch');
const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');

const block = (path, search, replace) => `${path}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

test('detectFormat follows the parsers: heredoc and whitespace around a patch, blocks, else a diff', () => {
  assert.equal(detectFormat("<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF\n"), 'patch');
  assert.equal(detectFormat('\n  *** Begin Patch  \r\n*** Delete File: a\r\n*** End Patch\r\n'), 'patch');
  assert.equal(detectFormat(block('a.py', 'x', 'y')), 'blocks');
  assert.equal(detectFormat('------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n'), 'blocks');
  assert.equal(detectFormat('@@ def f():\n-    return 1\n+    return 2'), 'diff');
  // Unified diffs, by the unified parser's rules: a git diff after a commit message, a plain diff -u;
  // not hunks with no file header, nor a patch that quotes a diff.
  assert.equal(detectFormat('fix the greeting\n\ndiff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n'), 'unified');
  assert.equal(detectFormat('--- a.py\t2024-01-01 00:00:00\r\n+++ a.py\t2024-01-02 00:00:00\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n'), 'unified');
  assert.equal(detectFormat('@@ -1 +1 @@\n-x\n+y\n'), 'diff');
  assert.equal(detectFormat('*** Begin Patch\n*** Add File: a.diff\n+--- a/f\n++++ b/f\n*** End Patch\n'), 'patch');
  assert.throws(() => detectFormat(1), TypeError);
});

test('applyBlocks: each block to its file, in order, all or nothing, a map of the same kind', () => {
  const files = new Map([
    ['a.py', 'x = 1\ny = 2\n'],
    ['b.py', 'z = 3\n'],
  ]);
  const message = block('a.py', 'x = 1', 'x = 10') + '\n' + block('b.py', 'z = 3', 'z = 30') + block('c.txt', '', 'new');
  const r = applyBlocks(files, message, { preset: 'safe' });
  assert.equal(r.ok, true);
  assert.deepEqual(
    r.files,
    new Map([
      ['a.py', 'x = 10\ny = 2\n'],
      ['b.py', 'z = 30\n'],
      ['c.txt', 'new\n'],
    ]),
  );
  assert.deepEqual(
    r.results.map((b) => [b.path, b.line, b.ok, b.strategy]),
    [
      ['a.py', 2, true, 'exact'],
      ['b.py', 9, true, 'exact'],
      ['c.txt', 15, true, 'empty-search'],
    ],
  );
  assert.equal(files.get('a.py'), 'x = 1\ny = 2\n', 'the argument is never changed');

  const failing = applyBlocks({ 'a.py': 'x = 1\n' }, block('a.py', 'x = 1', 'x = 2') + block('b.py', 'q', 'r'));
  assert.equal(failing.ok, false);
  assert.deepEqual(failing.files, { 'a.py': 'x = 1\n' });
  assert.deepEqual(
    failing.results.map((b) => [b.path, b.ok, b.reason]),
    [
      ['a.py', true, undefined],
      ['b.py', false, 'unknown-file'],
    ],
  );
  assert.equal(
    failing.results[1].message,
    "Block 2 (line 8) names b.py, which is not among the files. Give the file's exact path, or, to create it, an empty SEARCH text. The files have similar paths: a.py.",
  );
  const unnamed = '<<<<<<< SEARCH\nx = 1\n=======\nx = 5\n>>>>>>> REPLACE\n';
  assert.deepEqual(applyBlocks({ 'a.py': 'x = 1\n' }, unnamed, { path: 'a.py' }).files, { 'a.py': 'x = 5\n' });
});

test('applyBlocks results whole: every field of a block that applied and of one that failed', () => {
  const files = { 'a.py': 'def f():\n    x = 1\n    y = 2\n    return x\n' };
  const r = applyBlocks(files, block('a.py', 'def f():\n  x = 1', 'def f():\n  x = 9') + block('a.py', 'y = 3', 'y = 4'));
  assert.deepEqual(r.results, [
    { path: 'a.py', line: 2, endMarkerLine: 8, ok: true, strategy: 'indent', similarity: 0.5, matches: 1 },
    {
      path: 'a.py',
      line: 10,
      endMarkerLine: 14,
      ok: false,
      strategy: null,
      similarity: 0,
      matches: 0,
      reason: 'not-found',
      message:
        'Edit not applied: its SEARCH text (1 line) is not in the file. Nothing was changed. No line of the SEARCH text is in the file, even ignoring whitespace: check that the edit is meant for this file, and read the file again before editing it.',
    },
  ]);
  assert.deepEqual(r.files, files, 'all or nothing');
  // The keys in the order the engine writes them (JSON output is stable).
  assert.deepEqual(Object.keys(r.results[0]), ['path', 'line', 'endMarkerLine', 'ok', 'strategy', 'similarity', 'matches']);
});

test('applyBlocks reads only the files the blocks go to, not the whole map', () => {
  // An agent passes its whole project; only a.py is named. Files the blocks do
  // not name are neither encoded nor checked: a 40 MB log and a file with a
  // lone surrogate beside it change nothing.
  const files = new Map([
    ['a.py', 'x = 1\n'],
    ['big.log', 'x'.repeat(40 * 1024 * 1024)],
    ['odd.txt', 'a\uD800b'],
  ]);
  const r = applyBlocks(files, block('a.py', 'x = 1', 'x = 2'));
  assert.equal(r.ok, true);
  assert.equal(r.files.get('a.py'), 'x = 2\n');
  assert.equal(r.files.get('big.log'), files.get('big.log'));
  assert.equal(r.files.get('odd.txt'), 'a\uD800b');
  // A named file is still checked.
  assert.throws(() => applyBlocks(files, block('odd.txt', 'a', 'b')), {
    code: 'invalid_string',
    message: /^files\["odd\.txt"\] is not well-formed UTF-16/,
  });
});

test('the CLI applies blocks that name their files without --file, all or nothing', (t) => {
  const { root } = makeTree(t, { 'a.py': 'x = 1\n', 'src/b.py': 'z = 3\n' });
  const cli = (args, input) => spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: 'utf8' });
  const message = block('a.py', 'x = 1', 'x = 2') + block('src/b.py', 'z = 3', 'z = 4');

  let r = cli(['--format', 'blocks', '--dry-run'], message);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^--- a\/a\.py\n\+\+\+ b\/a\.py\n/);
  assert.equal(read(root, 'a.py'), 'x = 1\n');

  const before = snapshot(root);
  r = cli(['--format', 'blocks'], message + block('a.py', 'not there', 'y'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^applypatch: error\[no_match\] in a\.py\. Nothing was written\.\nBlock 3 of 3 did not match a\.py\./);
  assert.deepEqual(snapshot(root), before);

  r = cli(['--format', 'blocks'], message);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'Applied 2 edit blocks to a.py, src/b.py (exact, exact).\n');
  assert.equal(read(root, 'a.py'), 'x = 2\n');
  assert.equal(read(root, 'src/b.py'), 'z = 4\n');

  r = cli(['--format', 'blocks'], '<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--format blocks needs --file PATH/);
});
