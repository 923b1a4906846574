// Arguments that looked valid but were not checked: a null mode, holes in
// an array of edits, a Map subclass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apply, applyEdits, applyFiles, applyOperation, createMemoryEditor } from 'applypatch';

test('{ mode: null } is refused, not taken as the default', () => {
  for (const call of [
    () => apply('a\n', '@@\n-a\n+b', { mode: null }),
    () => applyFiles({}, '*** Begin Patch\n*** Add File: a\n+a\n*** End Patch', { mode: null }),
    () => createMemoryEditor({}, { mode: null }),
  ]) {
    assert.throws(call, (e) => e instanceof TypeError && e.message === "applypatch: options.mode must be 'strict' or 'codex', got null");
  }
  assert.equal(apply('a\n', '@@\n-a\n+b', { mode: undefined }), 'b\n');
});

test('a hole in the edits of applyEdits is refused like any edit that is not one', () => {
  const edit = { search: 'a', replace: 'b' };
  // biome-ignore lint/suspicious/noSparseArray: the hole is the point
  const sparse = [, edit];
  assert.throws(
    () => applyEdits('a\n', sparse),
    (e) => e instanceof TypeError && /^applypatch: edits\[0\] /.test(e.message),
  );
  assert.throws(() => applyEdits('a\n', new Array(2)), TypeError);
  assert.deepEqual(applyEdits('a\n', [edit]).ok, true);
});

test('a Map subclass comes back as the same class', () => {
  class Files extends Map {
    describe() {
      return [...this.keys()].join(',');
    }
  }
  const files = new Files([['a.txt', 'a\n']]);
  const out = applyFiles(files, '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Add File: n.txt\n+n\n*** End Patch');
  assert.ok(out instanceof Files);
  assert.notEqual(out, files);
  assert.equal(out.describe(), 'a.txt,n.txt');
  assert.equal(out.get('a.txt'), 'b\n');
  assert.equal(files.get('a.txt'), 'a\n', 'the argument is unchanged');
  const op = applyOperation(files, { type: 'delete_file', path: 'a.txt' });
  assert.ok(op instanceof Files);
  assert.equal(op.size, 0);
});
