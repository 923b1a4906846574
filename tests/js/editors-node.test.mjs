// The editor adapters in Node, next to the main entry: each has its own
// engine (the glue's one wasm instance of the main entry is never replaced),
// both keep working, and the first example of docs/editors.md runs as written.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EditorState } from '@codemirror/state';
import { apply, PatchError } from 'applypatch';
import { PatchError as AdapterError, patchDiagnostics, patchTransaction } from 'applypatch/codemirror';
import { patchEdits } from 'applypatch/monaco';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the main entry and the adapters work side by side in Node', () => {
  assert.equal(apply('x\n', '@@\n-x\n+y'), 'y\n');
  const state = EditorState.create({ doc: 'a\nb 😀\n' });
  const spec = patchTransaction(state, '@@\n a\n-b 😀\n+B 😀');
  assert.deepEqual(spec.changes, [{ from: 2, to: 3, insert: 'B' }]);
  assert.equal(spec.userEvent, 'input.patch');
  assert.equal(state.update(spec).state.doc.toString(), 'a\nB 😀\n');
  assert.equal(apply('x\n', '@@\n-x\n+z'), 'z\n', 'the main entry still works after the adapters loaded');
  assert.throws(
    () => patchTransaction(state, '@@\n-zz\n+y'),
    (e) => e instanceof AdapterError && e.code === 'context_not_found',
  );
  assert.throws(() => apply('a', '@@\n-zz\n+y'), PatchError);
  let error;
  try {
    patchTransaction(EditorState.create({ doc: 'one\ntwo\nthree\n' }), '@@\n one\n-tw0\n+2');
  } catch (e) {
    error = e;
  }
  const d = patchDiagnostics(error, EditorState.create({ doc: 'one\ntwo\nthree\n' }));
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'error');
  assert.equal(typeof patchEdits, 'function');
});

test('docs/editors.md: the positions example gives what its comments say', () => {
  const md = readFileSync(join(root, 'docs', 'editors.md'), 'utf8');
  const block = /```js\n(import \{ apply \} from 'applypatch';[\s\S]*?)```/.exec(md)[1];
  const call = /const \{ text, splices, sections \} = (apply\([^;]*\));/.exec(block)[1];
  const r = new Function('apply', `return ${call}`)(apply);
  const said = Object.fromEntries(
    [...block.matchAll(/^\/\/ (text|splices|sections)\s+(.*)$/gm)].map(([, k, v]) => [k, new Function(`return ${v}`)()]),
  );
  assert.deepEqual({ text: r.text, splices: r.splices, sections: r.sections }, said);
});

test("a message naming several files: only the document's part applies, and errors name the message's own lines", () => {
  const state = EditorState.create({ doc: 'one\ntwo\n' });
  const patch = '*** Begin Patch\n*** Update File: other.txt\n@@\n-x\n+y\n*** Update File: doc.txt\n@@\n-tw0\n+2\n*** End Patch';
  assert.throws(
    () => patchTransaction(state, patch, { path: 'doc.txt' }),
    (e) =>
      e instanceof AdapterError &&
      e.code === 'context_not_found' &&
      e.diffLine === 8 &&
      e.path === 'doc.txt' &&
      e.message.startsWith('doc.txt: Section 1 (patch lines 7-9):'),
  );
  const unified = '--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-x\n+y\n--- a/doc.txt\n+++ b/doc.txt\n@@ -1,2 +1,2 @@\n one\n-tw0\n+2\n';
  assert.throws(
    () => patchTransaction(state, unified, { path: 'doc.txt' }),
    (e) => e instanceof AdapterError && e.diffLine === 10 && e.message.startsWith("doc.txt: hunk 1 (diff lines 8-11, '@@ -1,2 +1,2 @@')"),
  );
  const ok = unified.replace('-tw0', '-two');
  assert.deepEqual(patchTransaction(state, ok, { path: 'doc.txt' }).changes, [{ from: 4, to: 7, insert: '2' }]);
  assert.throws(() => patchTransaction(state, ok), /names 2 files \(other\.txt, doc\.txt\); pass options\.path/);
  assert.throws(
    () => patchTransaction(state, '--- a/doc.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n', { path: 'doc.txt' }),
    (e) => e.code === 'invalid_operation' && /deletes doc\.txt/.test(e.message),
  );
  assert.throws(() => patchTransaction(state, ok, { path: 'doc.txt', mode: 'codex' }), TypeError);
  const apart =
    '*** Begin Patch\n*** Update File: doc.txt\n@@\n-one\n+1\n*** Update File: b\n@@\n-x\n+y\n*** Update File: doc.txt\n@@\n-two\n+2\n*** End Patch';
  assert.throws(
    () => patchTransaction(state, apart, { path: 'doc.txt' }),
    (e) => e.code === 'invalid_operation' && /not together/.test(e.message),
  );
});
