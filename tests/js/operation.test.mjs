// Responses API operations (applyOperation, createFile) and the memory editor,
// through the built package.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { applyDiff } from '@openai/agents-core';
import { apply, applyFiles, applyOperation, createFile, createMemoryEditor, errorCodes, PatchError, parse } from 'applypatch';

function throws(fn, fields) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PatchError, `expected a PatchError, got ${e}`);
    for (const [k, v] of Object.entries(fields)) assert.deepEqual(e[k], v, `${k} of ${e.message}`);
    return e;
  }
  assert.fail('expected a PatchError');
}

test('createFile: every + line ends with a newline, LF or CRLF diffs', () => {
  assert.equal(createFile('+a\n+b'), 'a\nb\n');
  assert.equal(createFile('+a\n+b\n'), 'a\nb\n');
  assert.equal(createFile('+a\r\n+\r\n+b\r\n'), 'a\n\nb\n');
  assert.equal(createFile(''), '');
  assert.equal(createFile('+'), '\n');
  assert.equal(createFile('+héllo ✓'), 'héllo ✓\n');
});

test('createFile agrees with *** Add File: and differs from the SDK only in the last newline', () => {
  for (const diff of ['+a\n+b', '+a\n+b\n', '+x\n+\n', '+  indented\n+\ttab', '+one']) {
    const patch = `*** Begin Patch\n*** Add File: f\n${diff.replace(/\n$/, '')}\n*** End Patch`;
    assert.equal(createFile(diff), applyFiles({}, patch).f, JSON.stringify(diff));
    // The SDK joins the lines with newlines; here every line ends with one.
    assert.equal(createFile(diff), applyDiff('', diff, 'create') + '\n', JSON.stringify(diff));
  }
  assert.equal(applyDiff('', '+a\n+b\n', 'create'), 'a\nb');
  assert.equal(createFile('+a\n+b\n'), 'a\nb\n');
});

test('createFile refuses a line without +, naming it', () => {
  const e = throws(() => createFile('+a\nb\n+c'), { code: 'invalid_line', diffLine: 2 });
  assert.match(e.message, /^Create diff line 2 does not start with '\+': 'b'/);
  throws(() => createFile('+a\n\n'), { code: 'invalid_line', diffLine: 2 });
  throws(() => createFile('+a\n*** End Patch'), { code: 'invalid_line', diffLine: 2 });
  assert.throws(() => createFile(42), TypeError);
  throws(() => createFile('+\uD800'), { code: 'invalid_string' });
});

test('applyOperation: create, update, move, delete on objects and Maps', () => {
  const files = { 'a.py': 'def f():\n    return 1\n', 'b.txt': 'b\n' };
  const frozen = JSON.stringify(files);
  assert.deepEqual(applyOperation(files, { type: 'create_file', path: 'n/new.txt', diff: '+x\n+y' }), { ...files, 'n/new.txt': 'x\ny\n' });
  const diff = '@@ def f():\n-    return 1\n+    return 2\n';
  assert.deepEqual(applyOperation(files, { type: 'update_file', path: 'a.py', diff }), { ...files, 'a.py': 'def f():\n    return 2\n' });
  // move_to (the Responses API) and moveTo (the Agents SDK), replacing the destination.
  for (const move of [{ move_to: 'b.txt' }, { moveTo: 'b.txt' }, { move_to: 'b.txt', moveTo: 'b.txt' }]) {
    assert.deepEqual(applyOperation(files, { type: 'update_file', path: 'a.py', diff, ...move }), { 'b.txt': 'def f():\n    return 2\n' });
  }
  assert.deepEqual(applyOperation(files, { type: 'update_file', path: 'a.py', diff, move_to: null }), {
    ...files,
    'a.py': 'def f():\n    return 2\n',
  });
  assert.deepEqual(applyOperation(files, { type: 'delete_file', path: 'b.txt' }), { 'a.py': files['a.py'] });
  const map = new Map(Object.entries(files));
  const out = applyOperation(map, { type: 'delete_file', path: 'a.py' }, { mode: 'codex' });
  assert.ok(out instanceof Map);
  assert.deepEqual([...out.keys()], ['b.txt']);
  assert.equal(map.size, 2);
  assert.equal(JSON.stringify(files), frozen);
});

test('applyOperation: an update in place, of a file with characters outside the BMP, is what apply gives; a move crosses whole', () => {
  const files = { 'e.txt': '😀 one\r\ntwo\r\n三\r\n', 'b.txt': 'first\n' };
  const update = { type: 'update_file', path: 'e.txt', diff: '@@\n two\n-三\n+四 🎉' };
  assert.deepEqual(applyOperation(files, update), { ...files, 'e.txt': '😀 one\r\ntwo\r\n四 🎉\r\n' });
  assert.deepEqual(applyOperation(files, { type: 'update_file', path: 'b.txt', diff: '@@\n-first\n+\uFEFFfirst' }), {
    ...files,
    'b.txt': '\uFEFFfirst\n',
  });
  assert.deepEqual(applyOperation(files, { ...update, move_to: 'm.txt' }), { 'b.txt': 'first\n', 'm.txt': '😀 one\r\ntwo\r\n四 🎉\r\n' });
  assert.deepEqual(applyOperation(files, { type: 'update_file', path: 'b.txt', diff: '@@\n-first' }), { ...files, 'b.txt': '' });
});

test('applyOperation: an update is what apply gives, on every update of the recorded Codex parity corpus that applies', () => {
  const { cases } = JSON.parse(readFileSync(new URL('../fixtures/codex-parity.json', import.meta.url), 'utf8'));
  let compared = 0;
  for (const c of cases) {
    let operations;
    try {
      operations = parse(c.patch).operations;
    } catch {
      continue;
    }
    for (const op of operations) {
      if (op.kind !== 'update' || op.moveTo !== undefined || c.files[op.path] === undefined) continue;
      for (const options of [undefined, { mode: 'codex' }]) {
        let expected;
        try {
          expected = apply(c.files[op.path], op.diff, options);
        } catch {
          continue;
        }
        const out = applyOperation(c.files, { type: 'update_file', path: op.path, diff: op.diff }, options);
        assert.equal(out[op.path], expected, `${c.name}: ${op.path}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 200, `${compared} updates compared`);
});

test('applyOperation: modes differ as in apply', () => {
  const files = { 'a.txt': 'value = 1   \n' };
  const op = { type: 'update_file', path: 'a.txt', diff: '@@\n-value = 1\n+value = 2' };
  assert.deepEqual(applyOperation(files, op, { mode: 'codex' }), { 'a.txt': 'value = 2\n' });
  const e = throws(() => applyOperation(files, op), { code: 'context_not_found', path: 'a.txt', diffLine: 2 });
  assert.match(e.message, /^a\.txt: Section 1 \(diff lines 1-3\)/);
});

test('applyOperation: errors', () => {
  const files = { 'a.txt': 'a\n' };
  throws(() => applyOperation(files, { type: 'update_file', path: 'gone.txt', diff: '@@\n-a\n+b' }), {
    code: 'file_not_found',
    path: 'gone.txt',
  });
  // A delete of a path with no file, none near it in the map: already gone (issues 22, 29); near one, a typo.
  throws(() => applyOperation(files, { type: 'delete_file', path: 'gone.txt' }), { code: 'already_applied', path: 'gone.txt' });
  throws(() => applyOperation(files, { type: 'delete_file', path: 'b.txt' }), { code: 'file_not_found', path: 'b.txt' });
  throws(() => applyOperation(files, { type: 'create_file', path: 'c.txt', diff: '+ok\nnot ok' }), {
    code: 'invalid_line',
    path: 'c.txt',
    diffLine: 2,
  });
  throws(() => applyOperation(files, { type: 'rename_file', path: 'a.txt' }), { code: 'invalid_operation' });
  throws(() => applyOperation(files, { type: 'delete_file', path: '' }), { code: 'invalid_operation' });
  throws(() => applyOperation(files, { type: 'update_file', path: 'a.txt' }), { code: 'invalid_operation', path: 'a.txt' });
  throws(() => applyOperation(files, { type: 'update_file', path: 'a.txt', diff: '', move_to: '' }), { code: 'invalid_operation' });
  throws(() => applyOperation(files, { type: 'update_file', path: 'a.txt', diff: '', move_to: 'x', moveTo: 'y' }), {
    code: 'invalid_operation',
  });
  assert.throws(() => applyOperation(files, null), TypeError);
  assert.throws(() => applyOperation(files, 'delete a.txt'), TypeError);
  assert.throws(() => applyOperation([], { type: 'delete_file', path: 'a' }), TypeError);
  assert.throws(() => applyOperation(files, { type: 'delete_file', path: 'a.txt' }, { mode: 'loose' }), TypeError);
});

test('the new error codes are in errorCodes', () => {
  for (const code of [
    'invalid_operation',
    'path_outside_root',
    'invalid_path',
    'binary_file',
    'not_a_file',
    'read_failed',
    'write_failed',
  ]) {
    assert.ok(errorCodes.includes(code), code);
  }
});

test('createMemoryEditor: results for the model, files after each operation', async () => {
  const initial = { 'a.txt': 'one\ntwo\n' };
  const editor = createMemoryEditor(initial);
  assert.notEqual(editor.files, initial);
  let r = await editor.createFile({ type: 'create_file', path: 'b.txt', diff: '+hello\n+world' });
  assert.deepEqual(r, { status: 'completed', output: 'Created b.txt (2 lines).' });
  r = await editor.updateFile({ type: 'update_file', path: 'a.txt', diff: '@@\n one\n-two\n+2\n+3', moveTo: 'c.txt' });
  assert.deepEqual(r, { status: 'completed', output: 'Updated a.txt and moved it to c.txt: 1 line removed, 2 added.' });
  r = await editor.createFile({ type: 'create_file', path: 'b.txt', diff: '+again' });
  assert.equal(r.output, 'Created b.txt (1 line), replacing the file that was there.');
  r = await editor.deleteFile({ type: 'delete_file', path: 'b.txt' });
  assert.deepEqual(r, { status: 'completed', output: 'Deleted b.txt.' });
  assert.deepEqual(editor.files, { 'c.txt': 'one\n2\n3\n' });
  assert.deepEqual(initial, { 'a.txt': 'one\ntwo\n' });

  const before = editor.files;
  r = await editor.updateFile({ type: 'update_file', path: 'c.txt', diff: '@@\n-two\n+TWO' });
  assert.equal(r.status, 'failed');
  assert.match(r.output, /^update_file c\.txt failed \(context_not_found, diff line 2\)\. Nothing was written/);
  assert.match(r.output, /\nc\.txt: Section 1 \(diff lines 1-3\)/);
  assert.equal(editor.files, before);
  r = await editor.deleteFile({ type: 'delete_file', path: 'nope' });
  assert.equal(r.status, 'failed');
  assert.match(r.output, /^delete_file nope failed \(already_applied\)\. Nothing was written/);
  r = await editor.deleteFile({ type: 'delete_file', path: 'c.tx' });
  assert.match(r.output, /^delete_file c\.tx failed \(file_not_found\)\. Nothing was written/);

  const codex = createMemoryEditor(new Map([['x', 'a  \n']]), { mode: 'codex' });
  r = await codex.updateFile({ type: 'update_file', path: 'x', diff: '@@\n-a\n+b' });
  assert.equal(r.status, 'completed');
  assert.deepEqual([...codex.files], [['x', 'b\n']]);
  assert.throws(() => createMemoryEditor({}, { mode: 'fuzzy' }), TypeError);
  assert.throws(() => createMemoryEditor('files'), TypeError);
});
