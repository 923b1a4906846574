// createToolHandlers (applypatch/node) in process: what the MCP server runs.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { toolDefinitions } from '../../dist/index.mjs';
import { createToolHandlers } from '../../dist/node.mjs';
import { makeTree, snapshot } from './fs-helpers.mjs';

test('one handler per tool definition; arguments of any shape give an isError result, never a rejection', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n' });
  const handlers = createToolHandlers({ root });
  assert.deepEqual(Object.keys(handlers).sort(), toolDefinitions.map((d) => d.name).sort());
  const before = snapshot(root);
  const bad = [undefined, null, 'patch', [], {}, { patch: null }, { path: 'a.txt', edits: [] }, { path: 'a.txt', edits: [{ oldText: 1 }] }];
  for (const name of Object.keys(handlers)) {
    for (const input of bad) {
      const r = await handlers[name](input);
      assert.equal(r.isError, true, `${name}(${JSON.stringify(input)})`);
      assert.equal(r.structuredContent.code, 'invalid_arguments', r.content[0].text);
    }
  }
  const extra = await handlers.read_file({ path: 'a.txt', offset: 3 });
  assert.equal(
    extra.structuredContent.message,
    "read_file: unknown argument 'offset'. Nothing was written; call it again with arguments that fit its schema.",
  );
  assert.deepEqual(snapshot(root), before);
});

test('toolDefinitions are frozen plain JSON', () => {
  assert.ok(Object.isFrozen(toolDefinitions) && Object.isFrozen(toolDefinitions[0].inputSchema.properties));
  assert.deepEqual(JSON.parse(JSON.stringify(toolDefinitions)), toolDefinitions);
  for (const d of toolDefinitions) {
    assert.equal(d.inputSchema.type, 'object');
    assert.equal(d.outputSchema.type, 'object');
  }
});

test('merge bases are bounded: past mergeBaseLimit the oldest text is dropped, and that file is edited as on disk unreported', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a'.repeat(60) + '\n', 'b.txt': 'b'.repeat(60) + '\n' });
  const handlers = createToolHandlers({ root, mergeBaseLimit: 100 });
  await handlers.read_file({ path: 'a.txt' });
  await handlers.read_file({ path: 'b.txt' }); // 122 characters in all: a.txt's text goes
  writeFileSync(join(root, 'a.txt'), 'changed\n' + 'a'.repeat(60) + '\n');
  writeFileSync(join(root, 'b.txt'), 'changed\n' + 'b'.repeat(60) + '\n');
  // b.txt (kept) first: writing a.txt keeps its new text, which drops b.txt's.
  const b = await handlers.edit_file({ path: 'b.txt', edits: [{ oldText: 'changed', newText: 'edited' }] });
  // The edit is not in the text the server kept (it names the new line): applied as on disk, reported.
  assert.deepEqual(b.structuredContent.changes, [{ path: 'b.txt', status: 'modified', changedOnDisk: true }]);
  assert.equal(readFileSync(join(root, 'b.txt'), 'utf8'), 'edited\n' + 'b'.repeat(60) + '\n');
  const a = await handlers.edit_file({ path: 'a.txt', edits: [{ oldText: 'changed', newText: 'edited' }] });
  assert.deepEqual(a.structuredContent.changes, [{ path: 'a.txt', status: 'modified' }]);
});

test('a patch over a changed file and an unchanged one: the changed one is merged and reported', async (t) => {
  const { root } = makeTree(t, { 'x.txt': 'one\ntwo\n', 'y.txt': 'three\n' });
  const handlers = createToolHandlers({ root });
  await handlers.read_file({ path: 'x.txt' });
  await handlers.read_file({ path: 'y.txt' });
  writeFileSync(join(root, 'x.txt'), 'zero\none\ntwo\n');
  const patch = '*** Begin Patch\n*** Update File: x.txt\n@@\n one\n-two\n+2\n*** Update File: y.txt\n@@\n-three\n+3\n*** End Patch\n';
  const r = await handlers.apply_patch({ patch });
  assert.deepEqual(r.structuredContent.changes, [
    { path: 'x.txt', status: 'modified', changedOnDisk: true },
    { path: 'y.txt', status: 'modified' },
  ]);
  assert.equal(readFileSync(join(root, 'x.txt'), 'utf8'), 'zero\none\n2\n');
});

test('createToolHandlers checks its options', (t) => {
  const { root } = makeTree(t, {});
  assert.throws(() => createToolHandlers({}), /root must be the path of a directory/);
  assert.throws(() => createToolHandlers({ root: join(root, 'missing') }), /is not a directory/);
  assert.throws(() => createToolHandlers({ root, readOnly: 'yes' }), /readOnly must be a boolean/);
  assert.throws(() => createToolHandlers({ root, mergeBaseLimit: -1 }), /mergeBaseLimit/);
});
