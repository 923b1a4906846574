// The editors driven by the real Agents SDK runner (@openai/agents-core): a
// scripted model emits apply_patch_call items, the runner calls the editor as
// it does in production and sends apply_patch_call_output items back. A
// change of the SDK's Editor interface or of the runner's calls breaks these.
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Agent, applyPatchTool, Runner } from '@openai/agents-core';
import { assistantMessage, ScriptedModel } from '@openai/agents-core/testing';
import { createMemoryEditor } from 'applypatch';
import { createEditor } from 'applypatch/node';
import { makeTree, modeOf, read, snapshot } from './fs-helpers.mjs';

let n = 0;
const call = (operation) => ({ type: 'apply_patch_call', callId: `call_${++n}`, status: 'completed', operation });

/**
 * Runs an agent whose model emits `operations` as one turn of apply_patch
 * calls, then answers. Returns the results as the model receives them.
 */
async function runAgent(editor, operations) {
  const calls = operations.map(call);
  const model = new ScriptedModel([calls, [assistantMessage('done')]]);
  const agent = new Agent({ name: 'coder', model, tools: [applyPatchTool({ editor })] });
  const result = await new Runner({ tracingDisabled: true }).run(agent, 'edit the files');
  assert.equal(result.finalOutput, 'done');
  model.assertComplete();
  // What the model sees on its next turn.
  const sent = model.calls[1].request.input.filter((item) => item.type === 'apply_patch_call_output');
  assert.deepEqual(
    sent.map((r) => r.callId),
    calls.map((c) => c.callId),
  );
  return sent.map(({ status, output }) => ({ status, output }));
}

test('the memory editor through the SDK runner', async () => {
  const editor = createMemoryEditor({ 'src/app.py': 'def greet():\n    print("Hi")\n' });
  const results = await runAgent(editor, [
    { type: 'update_file', path: 'src/app.py', diff: '@@ def greet():\n-    print("Hi")\n+    print("Hello")' },
    { type: 'create_file', path: 'README.md', diff: '+# App\n+' },
    { type: 'update_file', path: 'src/app.py', diff: '@@\n-    print("Bye")\n+    print("x")' },
    { type: 'delete_file', path: 'missing.txt' },
  ]);
  assert.deepEqual(results.slice(0, 2), [
    { status: 'completed', output: 'Updated src/app.py: 1 line removed, 1 added.' },
    { status: 'completed', output: 'Created README.md (2 lines).' },
  ]);
  assert.equal(results[2].status, 'failed');
  assert.match(results[2].output, /^update_file src\/app\.py failed \(context_not_found, diff line 2\)\. Nothing was written/);
  assert.match(results[2].output, /\nsrc\/app\.py: Section 1 \(diff lines 1-3\): /);
  // No file, and no path near it: already gone.
  assert.match(results[3].output, /^delete_file missing\.txt failed \(already_applied\)\. Nothing was written/);
  assert.deepEqual(editor.files, { 'src/app.py': 'def greet():\n    print("Hello")\n', 'README.md': '# App\n\n' });
});

test('the directory editor through the SDK runner: changes, failures, escapes', async (t) => {
  const { base, root } = makeTree(t, {
    'src/app.py': 'def greet():\n    print("Hi")\n',
    'bin/run': { contents: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'win.txt': 'a\r\nb\r\n',
    'old.txt': 'old\n',
  });
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, join(root, 'out'));
  const editor = createEditor({ root });
  const results = await runAgent(editor, [
    { type: 'update_file', path: 'src/app.py', diff: '@@ def greet():\n-    print("Hi")\n+    print("Hello")\n' },
    { type: 'update_file', path: 'bin/run', diff: '@@\n-echo hi\n+echo hello', move_to: 'scripts/run' },
    { type: 'update_file', path: 'win.txt', diff: '@@\n a\n+between\n b' },
    { type: 'create_file', path: 'docs/new.md', diff: '+# New' },
    { type: 'delete_file', path: 'old.txt' },
    { type: 'create_file', path: '../escape.txt', diff: '+x' },
    { type: 'create_file', path: join(base, 'abs.txt'), diff: '+x' },
    { type: 'update_file', path: 'out/secret.txt', diff: '@@\n-secret\n+owned' },
    { type: 'update_file', path: 'src/app.py', diff: '@@\n-nothing like this\n+x' },
  ]);
  assert.deepEqual(results.slice(0, 5), [
    { status: 'completed', output: 'Updated src/app.py: 1 line removed, 1 added.' },
    { status: 'completed', output: 'Updated bin/run and moved it to scripts/run: 1 line removed, 1 added.' },
    { status: 'completed', output: 'Updated win.txt: 0 lines removed, 1 added.' },
    { status: 'completed', output: 'Created docs/new.md (1 line).' },
    { status: 'completed', output: 'Deleted old.txt.' },
  ]);
  for (const r of results.slice(5, 8)) {
    assert.equal(r.status, 'failed');
    assert.match(r.output, /failed \(path_outside_root\)\. Nothing was written/);
  }
  assert.match(results[5].output, /The path \.\.\/escape\.txt leaves the root directory/);
  assert.match(results[6].output, /is absolute: write paths relative to the root/);
  assert.match(results[7].output, /out \(in out\/secret\.txt\) is a symlink to .*outside, outside the root directory/);
  assert.match(results[8].output, /^update_file src\/app\.py failed \(context_not_found, diff line 2\)/);

  assert.equal(read(root, 'src/app.py'), 'def greet():\n    print("Hello")\n');
  assert.equal(read(root, 'scripts/run'), '#!/bin/sh\necho hello\n');
  assert.equal(modeOf(root, 'scripts/run'), '755');
  assert.ok(!existsSync(join(root, 'bin/run')));
  assert.equal(read(root, 'win.txt'), 'a\r\nbetween\r\nb\r\n');
  assert.equal(read(root, 'docs/new.md'), '# New\n');
  assert.ok(!existsSync(join(root, 'old.txt')));
  assert.ok(!existsSync(join(base, 'escape.txt')) && !existsSync(join(base, 'abs.txt')));
  assert.equal(read(outside, 'secret.txt'), 'secret\n');
});

test('the directory editor: a write that fails is reported, and undone', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', 'b.txt': 'b\n', file: 'not a directory\n' });
  const before = snapshot(root);
  // The destination's parent is a file: the path is refused before anything is written.
  let [r] = await runAgent(createEditor({ root }), [{ type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+A', move_to: 'file/a.txt' }]);
  assert.equal(r.status, 'failed');
  assert.equal(
    r.output,
    'update_file a.txt failed (invalid_path). Nothing was written: every file is as it was. Fix the operation and send it again.\n' +
      'file (in file/a.txt) is a file, not a directory, so file/a.txt cannot be there. Nothing was written.',
  );
  assert.deepEqual(snapshot(root), before);

  // A move whose destination cannot be written after the source was deleted
  // (deletes go first), and whose undo fails too: the output says so, and
  // where the old contents are, instead of claiming nothing was written.
  let links = 0;
  const injected = (p) => {
    throw Object.assign(new Error(`injected: ${p}`), { code: 'EPERM' });
  };
  const fs = { linkSync: (from, to) => (++links === 1 ? linkSync(from, to) : injected(to)), renameSync: injected };
  [r] = await runAgent(createEditor({ root, fs }), [{ type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+A', move_to: 'c.txt' }]);
  assert.equal(r.status, 'failed');
  assert.match(r.output, /^update_file a\.txt failed \(write_failed\)\. Some changes could not be undone: see below\.\n/);
  assert.match(r.output, /Could not write c\.txt: operation not permitted \(EPERM\)\./);
  const kept = r.output.match(
    /Undoing the changes already made failed for a\.txt \(operation not permitted \(EPERM\); its old contents are in (\.ap\w+\.claim), in /,
  );
  assert.ok(kept, r.output);
  assert.ok(!existsSync(join(root, 'a.txt')) && !existsSync(join(root, 'c.txt')));
  renameSync(join(root, kept[1]), join(root, 'a.txt'));
  assert.deepEqual(snapshot(root), before);

  // With renames failing, nothing is replaced in the first place.
  const noRename = {
    renameSync: () => {
      throw Object.assign(new Error('injected'), { code: 'EIO' });
    },
  };
  const now = snapshot(root);
  [r] = await runAgent(createEditor({ root, fs: noRename }), [{ type: 'update_file', path: 'b.txt', diff: '@@\n-b\n+B' }]);
  assert.equal(r.status, 'failed');
  assert.equal(
    r.output,
    'update_file b.txt failed (write_failed). Nothing was written: every file is as it was. The operation itself may be right: the file system failed (see below).\n' +
      'Could not write b.txt: input/output error (EIO). Nothing was written: every file is as it was.',
  );
  assert.deepEqual(snapshot(root), now);
});

test('createEditor checks its options', (t) => {
  const { root } = makeTree(t, {});
  assert.throws(() => createEditor({}), TypeError);
  assert.throws(() => createEditor({ root, mode: 'sloppy' }), TypeError);
  assert.throws(() => createEditor({ root: join(root, 'missing') }), /is not a directory/);
});
