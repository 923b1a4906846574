// One parse per call: the engine answers, from one parsed patch, which files
// it reads, the changes with their moves, and the summary; from one parsed
// unified diff, the paths it names, its files and its result; from one parse
// of edit blocks, the files they name and their result. These tests count
// the calls into the wasm binding that parse a patch, a diff or blocks.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { makeTree, patchOf, read } from './fs-helpers.mjs';

const require = createRequire(import.meta.url);
const { applyFiles } = require('applypatch');
const { main } = require('../../dist/cjs/node/cli.js');
// The engines the package loaded (each compiled on its first use).
const engines = [require('../../dist/cjs/engines/core.js').core, require('../../dist/cjs/engines/extra.js').extra];

/** Counts the binding's calls that parse a patch until the test ends. */
function countParses(t) {
  const calls = {};
  for (const engine of engines) {
    const b = engine.wasm();
    for (const name of ['parsePatch', 'preparePatch', 'summary', 'parseUnified', 'prepareUnified', 'blocksParse', 'prepareBlocks']) {
      const original = b[name];
      if (original === undefined) continue;
      b[name] = (...args) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return original(...args);
      };
      t.after(() => {
        b[name] = original;
      });
    }
  }
  return calls;
}

const patch = patchOf(
  '*** Update File: a.txt',
  '*** Move to: b.txt',
  '@@',
  '-one',
  '+two',
  '*** Add File: c.txt',
  '+new',
  '*** Delete File: d.txt',
);

test('a CLI run parses the patch once, and prints the summary and the move from that parse', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\n', 'd.txt': 'gone\n' });
  const calls = countParses(t);
  const out = [];
  const err = [];
  const io = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), stdin: async () => Buffer.from(patch), cwd: root };
  assert.equal(await main(['--json', '-'], io), 0, err.join(''));
  assert.deepEqual(calls, { preparePatch: 1 });
  assert.deepEqual(JSON.parse(out.join('')), {
    ok: true,
    applied: true,
    changes: [
      { path: 'a.txt', status: 'deleted' },
      { path: 'b.txt', status: 'added', movedFrom: 'a.txt' },
      { path: 'c.txt', status: 'added' },
      { path: 'd.txt', status: 'deleted' },
    ],
    summary: 'Success. Updated the following files:\nA c.txt\nM b.txt\nD d.txt\n',
  });
  assert.equal(read(root, 'b.txt'), 'two\n');
});

test('applyFiles parses the patch once', (t) => {
  const calls = countParses(t);
  const out = applyFiles({ 'a.txt': 'one\n', 'd.txt': 'gone\n' }, patch);
  assert.deepEqual(calls, { preparePatch: 1 });
  assert.deepEqual(out, { 'b.txt': 'two\n', 'c.txt': 'new\n' });
});

test('applyPatch: the new files, the changes with the move, and the summary, from one parse', (t) => {
  const calls = countParses(t);
  const { applyPatch } = require('applypatch');
  const files = new Map([
    ['a.txt', 'one\n'],
    ['d.txt', 'gone\n'],
  ]);
  const r = applyPatch(files, patch, { mode: 'codex' });
  assert.deepEqual(calls, { preparePatch: 1 });
  assert.deepEqual(
    r.files,
    new Map([
      ['b.txt', 'two\n'],
      ['c.txt', 'new\n'],
    ]),
  );
  assert.deepEqual(r.changes, [
    { path: 'b.txt', status: 'added', movedFrom: 'a.txt' },
    { path: 'a.txt', status: 'deleted' },
    { path: 'c.txt', status: 'added' },
    { path: 'd.txt', status: 'deleted' },
  ]);
  assert.equal(r.summary, 'Success. Updated the following files:\nA c.txt\nM b.txt\nD d.txt\n');
});

const unifiedDiff = [
  'diff --git a/a.txt b/b.txt',
  'similarity index 50%',
  'rename from a.txt',
  'rename to b.txt',
  '--- a/a.txt',
  '+++ b/b.txt',
  '@@ -1 +1 @@',
  '-one',
  '+two',
  'diff --git a/c.sh b/c.sh',
  'new file mode 100755',
  '--- /dev/null',
  '+++ b/c.sh',
  '@@ -0,0 +1 @@',
  '+echo hi',
  '',
].join('\n');

test('applyUnified parses the diff once, with or without the report', (t) => {
  const calls = countParses(t);
  const { applyUnified } = require('applypatch');
  assert.deepEqual(applyUnified({ 'a.txt': 'one\n', 'z.txt': 'z\n' }, unifiedDiff), {
    'z.txt': 'z\n',
    'b.txt': 'two\n',
    'c.sh': 'echo hi\n',
  });
  assert.deepEqual(calls, { prepareUnified: 1 });
  const r = applyUnified(new Map([['a.txt', 'x\none\n']]), unifiedDiff, { report: true });
  assert.deepEqual(calls, { prepareUnified: 2 });
  assert.deepEqual(r, {
    files: new Map([
      ['b.txt', 'x\ntwo\n'],
      ['c.sh', 'echo hi\n'],
    ]),
    changes: [
      { path: 'a.txt', status: 'deleted' },
      { path: 'b.txt', status: 'added', movedFrom: 'a.txt' },
      { path: 'c.sh', status: 'added' },
    ],
    modes: [{ path: 'c.sh', mode: '100755' }],
    hunks: [
      { path: 'b.txt', hunk: 1, statedLine: 1, line: 2, offset: 1 },
      { path: 'c.sh', hunk: 1, statedLine: 1, line: 1, offset: 0 },
    ],
  });
});

test('a CLI run of a unified diff parses it once (and detects it without parsing it)', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\n' });
  const calls = countParses(t);
  const out = [];
  const err = [];
  const io = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), stdin: async () => Buffer.from(unifiedDiff), cwd: root };
  assert.equal(await main(['--json', '-'], io), 0, err.join(''));
  assert.deepEqual(calls, { prepareUnified: 1 });
  assert.deepEqual(JSON.parse(out.join('')), {
    ok: true,
    applied: true,
    changes: [
      { path: 'a.txt', status: 'deleted' },
      { path: 'b.txt', status: 'added', movedFrom: 'a.txt' },
      { path: 'c.sh', status: 'added' },
    ],
    summary: 'Success. Updated the following files:\nD a.txt\nA b.txt\nA c.sh\n',
  });
  assert.equal(read(root, 'b.txt'), 'two\n');
});

const blocksMessage =
  'a.txt\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n\nnew.txt\n<<<<<<< SEARCH\n=======\nfresh\n>>>>>>> REPLACE\n';

test('applyBlocks parses the blocks once', (t) => {
  const calls = countParses(t);
  const { applyBlocks } = require('applypatch');
  const r = applyBlocks({ 'a.txt': 'one\n' }, blocksMessage);
  assert.deepEqual(calls, { prepareBlocks: 1 });
  assert.equal(r.ok, true);
  assert.deepEqual(r.files, { 'a.txt': '1\n', 'new.txt': 'fresh\n' });
});

test('a CLI run of blocks that name their files parses them once', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\n' });
  const calls = countParses(t);
  const err = [];
  const io = { stdout: () => {}, stderr: (s) => err.push(s), stdin: async () => Buffer.from(blocksMessage), cwd: root };
  assert.equal(await main(['--format', 'blocks', '-'], io), 0, err.join(''));
  assert.deepEqual(calls, { prepareBlocks: 1 });
  assert.equal(read(root, 'a.txt'), '1\n');
  assert.equal(read(root, 'new.txt'), 'fresh\n');
});
