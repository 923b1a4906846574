// Edit blocks with the `repair` option, through the built package: read-tool
// line numbers in SEARCH (`line-numbers`), file names mapped onto a file map
// (`file-name`, applyBlocks), and Roo Code's line markers in a REPLACE part.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyBlocks, applyEdit, applyEdits, parseBlocks } from 'applypatch';

const block = (path, search, replace) => `${path}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

test('line-numbers: prefixes that are the lines own numbers go, reported; others stay', () => {
  const file = 'line 1\nline to delete\nline 3';
  const edit = { search: '2 | line to delete', replace: '' };
  const seen = [];
  const r = applyEdit(file, edit, { repair: true, onRepair: (x) => seen.push(x) });
  assert.equal(r.text, 'line 1\nline 3');
  const repair = {
    kind: 'line-numbers',
    message:
      "The SEARCH lines start with line numbers copied from a read tool ('2 |'); without them they are line 2 of the file, so the numbers were removed before matching. Write SEARCH and REPLACE lines without line numbers.",
    inputLine: 2,
  };
  assert.deepEqual(r.repairs, [repair]);
  assert.deepEqual(seen, [repair]);
  // Without the option: not found, and the message says what the lines are.
  const plain = applyEdit(file, edit);
  assert.equal(plain.ok, false);
  assert.equal(plain.repairs, undefined);
  assert.ok(
    plain.message.endsWith(
      " Its lines start with line numbers copied from a read tool ('2 |'); without them they are line 2 of the file: send the block again without the numbers (or allow the 'line-numbers' repair).",
    ),
    plain.message,
  );
  // Numbers that are not the lines' own: no repair, no hint.
  const other = applyEdit(file, { search: '3 | line to delete', replace: '' }, { repair: ['line-numbers'] });
  assert.equal(other.ok, false);
  assert.ok(!other.message.includes('line numbers'));
  // Only the kinds asked for.
  assert.equal(applyEdit(file, edit, { repair: ['file-name'] }).ok, false);
  // REPLACE prefixes go too; text that is in the file as written is never stripped.
  const many = applyEdits('a\nb\nc\n', [{ search: '2 | b\n3 | c\n', replace: '2 | B\n3 | C\n' }], { repair: true });
  assert.equal(many.text, 'a\nB\nC\n');
  assert.equal(applyEdit('1 | x\n', { search: '1 | x', replace: 'y' }, { repair: true }).repairs, undefined);
  assert.throws(() => applyEdit(file, edit, { repair: ['nope'] }), /unknown kind 'nope'/);
  assert.throws(() => applyEdit(file, edit, { onRepair: 1 }), /onRepair must be a function/);
});

test('line-numbers: the numbers choose among equal places', () => {
  const file = 'x = 1\ny = 2\nx = 1\n';
  const r = applyEdit(file, { search: '3 | x = 1', replace: 'x = 3' }, { repair: true });
  assert.equal(r.text, 'x = 1\ny = 2\nx = 3\n');
});

test('file-name: a name taken as the one file it can mean, several refused, new files kept', () => {
  const files = { 'file1.py': 'a = 1\n', 'dir/file3.py': 'x = 1\n', 'a/util.py': 'u\n', 'b/util.py': 'u\n' };
  const seen = [];
  const r = applyBlocks(files, block('file3.py', 'x = 1', 'x = 2') + block('file1_py', 'a = 1', 'a = 2'), {
    repair: true,
    onRepair: (x) => seen.push(x.path),
  });
  assert.ok(r.ok);
  assert.equal(r.files['dir/file3.py'], 'x = 2\n');
  assert.equal(r.files['file1.py'], 'a = 2\n');
  assert.equal(r.files['file3.py'], undefined);
  assert.deepEqual(
    r.results.map((b) => b.path),
    ['dir/file3.py', 'file1.py'],
  );
  assert.deepEqual(r.results[0].repairs, [
    {
      kind: 'file-name',
      message:
        "Block 1 (line 2) names file3.py, which is not among the files; it was taken as dir/file3.py, the one file that name can mean (the only file whose path ends so). Write the file's path as given.",
      path: 'dir/file3.py',
    },
  ]);
  assert.deepEqual(seen, ['dir/file3.py', 'file1.py']);
  // Two files: refused, listed, nothing changes.
  const two = applyBlocks(files, block('util.py', 'u', 'v'), { repair: true });
  assert.equal(two.ok, false);
  assert.deepEqual(two.files, files);
  assert.equal(two.results[0].reason, 'unknown-file');
  assert.equal(
    two.results[0].message,
    "Block 1 (line 2) names util.py, which is not among the files, and it could mean any of a/util.py, b/util.py, so it was not applied. Write the file's exact path.",
  );
  // A block that creates a file keeps its name, and so does a later block on it.
  const created = applyBlocks(files, block('file3.py', '', 'new') + block('file3.py', 'new', 'newer'), { repair: true });
  assert.ok(created.ok);
  assert.equal(created.files['file3.py'], 'newer\n');
  assert.equal(created.files['dir/file3.py'], 'x = 1\n');
  // Without the option: unknown, with a hint.
  const plain = applyBlocks(files, block('file3.py', 'x = 1', 'x = 2'));
  assert.equal(plain.results[0].reason, 'unknown-file');
  assert.ok(
    plain.results[0].message.endsWith(
      " Did you mean dir/file3.py? (The 'file-name' repair takes a name that can mean one file only as that file.)",
    ),
  );
  // Both repairs on one block, over a Map.
  const map = new Map([['src/app.py', 'def f():\n    return 1\n']]);
  const both = applyBlocks(map, block('src\\app.py', '2 |     return 1', '    return 2'), { repair: true });
  assert.equal(both.files.get('src/app.py'), 'def f():\n    return 2\n');
  assert.deepEqual(
    both.results[0].repairs.map((x) => [x.kind, x.path]),
    [
      ['file-name', 'src/app.py'],
      ['line-numbers', 'src/app.py'],
    ],
  );
});

test("Roo's line markers in a REPLACE part are a problem of the block, never written", () => {
  const message = 'a.py\n<<<<<<< SEARCH\nx = 1\n=======\n:start_line:1\nx = 2\n>>>>>>> REPLACE\n';
  const parsed = parseBlocks(message, { detailed: true });
  assert.deepEqual(parsed.edits, []);
  assert.deepEqual(parsed.problems, [
    {
      line: 2,
      message:
        "The edit block starting at line 2 has the line marker ':start_line:' at line 5, in its REPLACE text, so it was not applied (the marker would have been written into the file). Line markers (:start_line: and :end_line:) may stand only in the SEARCH part, right after '<<<<<<< SEARCH' and before the '-------' line; a line of text that starts with ':start_line:' is written '\\:start_line:'.",
    },
  ]);
  const r = applyBlocks({ 'a.py': 'x = 1\n' }, message);
  assert.equal(r.ok, false);
  assert.equal(r.problems.length, 1);
  const escaped = applyBlocks({ 'a.py': 'x = 1\n' }, message.replace(':start_line:1', '\\:start_line:1'));
  assert.equal(escaped.files['a.py'], ':start_line:1\nx = 2\n');
});
