// parse, applyFiles, summary and the Codex tool, through the built package.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { apply, applyBatch, applyFiles, applyOperation, applyPatch, codexGrammar, codexTool, PatchError, parse, summary } from 'applypatch';

const patch = `*** Begin Patch
*** Update File: src/app.py
@@ def main():
-    print("hi")
+    print("hello")
*** Add File: notes.txt
+first
+second
*** Delete File: old.txt
*** End Patch
`;
const files = { 'src/app.py': 'def main():\n    print("hi")\n', 'old.txt': 'bye\n', 'keep.txt': 'k\n' };

test('parse returns the operations', () => {
  assert.deepEqual(parse(patch), {
    operations: [
      { kind: 'update', path: 'src/app.py', diff: '@@ def main():\n-    print("hi")\n+    print("hello")\n', line: 2 },
      { kind: 'add', path: 'notes.txt', contents: 'first\nsecond\n', line: 6 },
      { kind: 'delete', path: 'old.txt', line: 9 },
    ],
  });
  assert.deepEqual(
    parse('*** Begin Patch\n*** Environment ID: box-1\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch').operations[0].moveTo,
    'b',
  );
  assert.equal(parse('*** Begin Patch\n*** Environment ID: box-1\n*** Add File: a\n*** End Patch').environmentId, 'box-1');
});

test('applyFiles in both modes, on objects and Maps, without touching the argument', () => {
  const before = JSON.stringify(files);
  for (const mode of ['strict', 'codex', undefined]) {
    const out = applyFiles(files, patch, mode ? { mode } : undefined);
    assert.deepEqual(out, { 'src/app.py': 'def main():\n    print("hello")\n', 'keep.txt': 'k\n', 'notes.txt': 'first\nsecond\n' });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    const map = new Map(Object.entries(files));
    const outMap = applyFiles(map, patch, { mode });
    assert.ok(outMap instanceof Map);
    assert.deepEqual(Object.fromEntries(outMap), out);
    assert.equal(map.size, 3);
    assert.equal(map.get('old.txt'), 'bye\n');
  }
  assert.equal(JSON.stringify(files), before);
});

test('applyFiles: every way a file ends (deleted, added, moved, updated twice, updated in place) crosses back whole', () => {
  const given = {
    'gone.txt': 'bye\n',
    'emoji.txt': '😀 one\r\ntwo\r\n三\r\n',
    'twice.txt': 'a\nb\nc\n',
    'from.txt': 'x\ny\n',
    'bom.txt': 'first\nsecond\n',
    'empty.txt': 'only\n',
  };
  const patch = [
    '*** Begin Patch',
    '*** Delete File: gone.txt',
    '*** Add File: new.txt',
    '+n',
    '*** Update File: emoji.txt',
    '@@',
    ' two',
    '-三',
    '+四 🎉',
    '*** Update File: twice.txt',
    '@@',
    '-a',
    '+A',
    '*** Update File: twice.txt',
    '@@',
    '-c',
    '+C',
    '*** Update File: from.txt',
    '*** Move to: to.txt',
    '@@',
    '-y',
    '+Y',
    '*** Update File: bom.txt',
    '@@',
    '-first',
    '+\uFEFFfirst',
    '*** Update File: empty.txt',
    '@@',
    '-only',
    '*** End Patch',
  ].join('\n');
  const out = applyFiles(given, patch);
  assert.deepEqual(out, {
    'emoji.txt': '😀 one\r\ntwo\r\n四 🎉\r\n',
    'twice.txt': 'A\nb\nC\n',
    'bom.txt': '\uFEFFfirst\nsecond\n',
    'empty.txt': '',
    'new.txt': 'n\n',
    'to.txt': 'x\nY\n',
  });
  assert.deepEqual(applyPatch(given, patch).files, out, 'applyPatch, whose files cross whole');
});

test('applyFiles: a file one update changed is what apply gives for that update, on every recorded Codex parity case that applies', () => {
  const { cases } = JSON.parse(readFileSync(new URL('../fixtures/codex-parity.json', import.meta.url), 'utf8'));
  let compared = 0;
  for (const c of cases) {
    for (const options of [undefined, { mode: 'codex' }]) {
      let files;
      try {
        files = applyFiles(c.files, c.patch, options);
      } catch {
        continue;
      }
      assert.deepEqual(applyPatch(c.files, c.patch, options).files, files, c.name);
      const { operations } = parse(c.patch);
      for (const op of operations) {
        if (op.kind !== 'update' || op.moveTo !== undefined || operations.filter((o) => o.path === op.path).length > 1) continue;
        assert.equal(files[op.path], apply(c.files[op.path], op.diff, options), `${c.name}: ${op.path}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 200, `${compared} updates compared`);
});

test('applyFiles is all or nothing', () => {
  // A misspelt delete (old.txt is in the map): refused in Strict, not taken as already done.
  const failing = patch.replace('*** Delete File: old.txt', '*** Delete File: olds.txt');
  const copy = structuredClone(files);
  for (const mode of ['strict', 'codex']) {
    try {
      applyFiles(files, failing, { mode });
      assert.fail('should throw');
    } catch (e) {
      assert.ok(e instanceof PatchError);
      assert.equal(e.code, 'file_not_found');
      assert.equal(e.path, 'olds.txt');
      assert.equal(e.operation, 2);
      assert.equal(e.diffLine, 9);
      assert.equal(
        e.message,
        mode === 'codex'
          ? 'Failed to delete file olds.txt'
          : "olds.txt: there is no file at this path to delete, and it was not taken as already deleted: the files have similar paths (old.txt), so the path may be misspelt. Nothing was applied. Write the exact path of the file to delete, or leave out '*** Delete File: olds.txt' if that file is already gone.",
      );
    }
  }
  assert.deepEqual(files, copy);
});

test('strict and codex differ where Codex forgives', () => {
  const drifted = '*** Begin Patch\n*** Update File: a.txt\n@@\n-value = 1\n+value = 2\n*** End Patch\n';
  const input = { 'a.txt': 'value = 1   \n' };
  assert.deepEqual(applyFiles(input, drifted, { mode: 'codex' }), { 'a.txt': 'value = 2\n' });
  try {
    applyFiles(input, drifted);
    assert.fail('strict should refuse');
  } catch (e) {
    assert.equal(e.code, 'context_not_found');
    assert.equal(e.path, 'a.txt');
    assert.match(e.message, /^a\.txt: Section 1 \(patch lines 3-5\)/);
    assert.match(e.message, /only whitespace differs/);
  }
});

test('Codex wording and structured fields on failures', () => {
  const p = '*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n*** End Patch';
  try {
    applyFiles({ 'a.py': 'def f():\n    return 3\n' }, p, { mode: 'codex' });
    assert.fail();
  } catch (e) {
    assert.equal(e.code, 'context_not_found');
    assert.ok(e.message.startsWith('Failed to find expected lines in a.py:\ndef f():\n    return 1'));
    assert.equal(e.path, 'a.py');
    assert.equal(e.operation, 0);
    assert.equal(e.diffLine, 5, 'the first patch line that differs from the closest place');
    assert.equal(e.nearest.line, 1);
  }
  try {
    parse('*** Begin Patch\n*** Frobnicate File: x\n*** End Patch');
    assert.fail();
  } catch (e) {
    assert.equal(e.code, 'invalid_header');
    assert.equal(e.diffLine, 2);
    assert.ok(e.message.startsWith("Invalid patch hunk on line 2: '*** Frobnicate File: x' is not a valid hunk header."));
  }
  try {
    parse('{"input": "*** Begin Patch ..."}');
    assert.fail();
  } catch (e) {
    assert.equal(e.code, 'invalid_patch');
    assert.match(e.message, /The first line of the patch must be '\*\*\* Begin Patch' \(it is '\{"input".*JSON/);
  }
  assert.throws(
    () => applyFiles({}, '*** Begin Patch\n*** End Patch'),
    (e) => e.code === 'empty_patch' && e.message === 'No files were modified.',
  );
});

test('Move to the same path keeps the file (a deliberate difference from Codex)', () => {
  const p = '*** Begin Patch\n*** Update File: a\n*** Move to: a\n@@\n-1\n+2\n*** End Patch';
  assert.deepEqual(applyFiles({ a: '1\n' }, p, { mode: 'codex' }), { a: '2\n' });
});

test('paths are keys exactly as written, even odd ones', () => {
  const p = '*** Begin Patch\n*** Add File: __proto__\n+x\n*** Add File: ../up\n+y\n*** End Patch';
  const out = applyFiles({}, p);
  assert.deepEqual(Object.keys(out), ['__proto__', '../up']);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(out, '__proto__').value, 'x\n');
});

test('summary is the text Codex prints', () => {
  assert.equal(summary(patch), 'Success. Updated the following files:\nA notes.txt\nM src/app.py\nD old.txt\n');
  assert.throws(() => summary('nope'), PatchError);
});

test('codexTool deep-equals the tool Codex sends', () => {
  const want = JSON.parse(readFileSync(new URL('../fixtures/codex-apply-patch-tool.json', import.meta.url), 'utf8'));
  assert.deepEqual(codexTool(), want);
  assert.deepEqual(codexTool({ environmentId: false }), want);
  const env = readFileSync(new URL('../../src/codex-tool/apply_patch_with_environment_id.lark', import.meta.url), 'utf8');
  assert.equal(codexTool({ environmentId: true }).format.definition, env);
  assert.equal(codexGrammar(), want.format.definition);
  assert.equal(codexGrammar({ environmentId: true }), env);
  assert.throws(() => codexTool({ environmentId: 'yes' }), TypeError);
  assert.notEqual(codexTool(), codexTool(), 'a fresh object each time');
});

test('Codex mode for apply and applyBatch', () => {
  assert.equal(apply('a\r\nb', '@@\n-a\n+A', { mode: 'codex' }), 'A\r\nb\r\n');
  assert.equal(apply('x\nx\n', '@@\n-x\n+y', { mode: 'codex' }), 'y\nx\n');
  assert.equal(apply('a\nb\n', '@@ a\n+z', { mode: 'codex' }), 'a\nb\nz\n');
  assert.throws(
    () => apply('a\n', '', { mode: 'codex' }),
    (e) => e.code === 'empty_update',
  );
  // Batches run one after another in Codex mode, against the original in Strict.
  assert.equal(applyBatch('a\nb\n', ['-a\n+x', '-x\n+y'], { mode: 'codex' }), 'y\nb\n');
  assert.throws(() => applyBatch('a\nb\n', ['-a\n+x', '-x\n+y']), PatchError);
  assert.throws(
    () => applyBatch('a\n', ['-a\n+x', '-zzz\n+y'], { mode: 'codex' }),
    (e) => e.diff === 1,
  );
});

test('wrong argument types throw TypeError', () => {
  for (const f of [
    () => applyFiles(null, patch),
    () => applyFiles([], patch),
    () => applyFiles(new (class X {})(), patch),
    () => applyFiles({ a: 1 }, patch),
    () => applyFiles(new Map([[1, 'x']]), patch),
    () => applyFiles({}, 5),
    () => applyFiles({}, patch, { mode: 'lenient' }),
    () => parse(undefined),
    () => summary({}),
  ]) {
    assert.throws(f, TypeError);
  }
  assert.throws(
    () => applyFiles({ 'src/app.py': 'bad \uD800' }, patch),
    (e) => e.code === 'invalid_string' && /src\/app\.py/.test(e.message),
  );
  // Checked after encoding, where the bytes hold a U+FFFD: the second file
  // (non-ASCII, with a real U+FFFD) is named, and a real U+FFFD alone is kept.
  assert.throws(
    () => applyFiles({ 'a.txt': 'ok\n', 'src/app.py': '中\uFFFD\uDBFF\n' }, patch),
    (e) =>
      e instanceof PatchError &&
      e.code === 'invalid_string' &&
      /^files\["src\/app\.py"\] is not well-formed UTF-16: .*\(\\uDBFF\) at index 2\./.test(e.message),
  );
  assert.deepEqual(
    applyFiles({ 'f.txt': '中\uFFFD\n' }, '*** Begin Patch\n*** Update File: f.txt\n@@\n-中\uFFFD\n+文\uFFFD\n*** End Patch'),
    { 'f.txt': '文\uFFFD\n' },
  );
});

test("Strict's missing-file errors say nothing was applied and how to create the file; the advice works", () => {
  const map = { 'src/util.py': 'x = 1\n' };
  const update = '*** Begin Patch\n*** Update File: src/utils.py\n@@\n-x = 1\n+x = 2\n*** End Patch';
  let e;
  try {
    applyFiles(map, update);
  } catch (caught) {
    e = caught;
  }
  assert.ok(e instanceof PatchError);
  assert.equal(e.code, 'file_not_found');
  assert.equal(
    e.message,
    "src/utils.py: there is no file at this path to update. Nothing was applied. The files have similar paths: src/util.py. Check the path (it is used exactly as written, relative to the project root); to create the file, write '*** Add File: src/utils.py' instead, with every line of the new file starting with '+'.",
  );
  // Followed: an Add File with the new lines creates it.
  const added = applyFiles(map, '*** Begin Patch\n*** Add File: src/utils.py\n+x = 2\n*** End Patch');
  assert.deepEqual(added, { 'src/util.py': 'x = 1\n', 'src/utils.py': 'x = 2\n' });
  // The same for a Responses API operation, in its own terms.
  try {
    applyOperation(map, { type: 'update_file', path: 'src/utils.py', diff: '@@\n-x = 1\n+x = 2' });
    assert.fail('should throw');
  } catch (caught) {
    assert.match(caught.message, /to create the file, send a create_file operation instead/);
  }
  // Codex mode keeps Codex's words.
  assert.throws(() => applyFiles(map, update, { mode: 'codex' }), {
    message: 'Failed to read file to update src/utils.py: No such file or directory (os error 2)',
  });
});
