// The `base` option on applyUnified, applyEdit, applyEdits and applyBlocks
// (apply, applyBatch, applyPatch and applyFiles: merge.test.mjs): the edit
// applied to the text the model read, merged into the text as it is now;
// each answer checked against merge3 of the same three texts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apply, applyBlocks, applyEdit, applyEdits, applyPatch, applyUnified, merge3, PatchError } from 'applypatch';

const base = 'function greet(name) {\n  return "Hello " + name;\n}\n\nfunction add(a, b) {\n  return a + b;\n}\n';
// The user typed a comment at the top while the model wrote its edit.
const typed = `// greetings and sums\n${base}`;
const fixed = base.replace('return a + b', 'return Number(a) + Number(b)');
const merged = typed.replace('return a + b', 'return Number(a) + Number(b)');
// The user changed the line the edit changes: a conflict at input line 6.
const clash = base.replace('return a + b;', 'return a + b; // checked');
const edit = { search: '  return a + b;\n', replace: '  return Number(a) + Number(b);\n' };
const unified = [
  'diff --git a/math.js b/math.js',
  '--- a/math.js',
  '+++ b/math.js',
  '@@ -5,3 +5,3 @@',
  ' function add(a, b) {',
  '-  return a + b;',
  '+  return Number(a) + Number(b);',
  ' }',
  '',
].join('\n');
const blocks = `math.js\n<<<<<<< SEARCH\n  return a + b;\n=======\n  return Number(a) + Number(b);\n>>>>>>> REPLACE\n`;

/** Applies `splices` to `text`, in order. */
function spliced(text, splices) {
  let out = '';
  let at = 0;
  for (const s of splices) {
    out += text.slice(at, s.from) + s.insert;
    at = s.to;
  }
  return out + text.slice(at);
}

test('merge3 agrees: the merged text is the clean merge of base, the input and the edit applied to base', () => {
  assert.deepEqual(merge3(base, typed, fixed), { ok: true, text: merged, conflicts: [] });
  assert.equal(merge3(base, clash, fixed).ok, false);
});

test('apply with base and report: the splices come from the merge, minimal, against the input as it is', () => {
  const diff = '@@ function add(a, b) {\n-  return a + b;\n+  return Number(a) + Number(b);\n';
  const r = apply(typed, diff, { base, report: true });
  assert.equal(r.text, merged);
  assert.deepEqual(r.sections, []);
  // The same minimal splice the diff applied to the input directly gives.
  assert.deepEqual(r.splices, apply(typed, diff, { report: true }).splices);
  assert.deepEqual(r.splices, [{ from: typed.indexOf('a + b'), to: typed.indexOf('a + b') + 5, insert: 'Number(a) + Number(b)' }]);
  // The input unchanged since base: the patch's own splices.
  assert.deepEqual(apply(base, diff, { base, report: true }).splices, apply(base, diff, { report: true }).splices);
  // Several regions, some typed by the user, some by the patch: only the patch's are splices.
  const far = `${typed}\nfunction mul(a, b) {\n  return a * b;\n}\n`;
  const farBase = `${base}\nfunction mul(a, b) {\n  return a * b;\n}\n`;
  const two = `${diff}@@ function mul(a, b) {\n-  return a * b;\n+  return Number(a) * Number(b);\n`;
  const both = apply(far, two, { base: farBase, report: true });
  assert.equal(spliced(far, both.splices), both.text);
  assert.equal(both.text, merge3(farBase, far, apply(farBase, two)).text);
  assert.equal(both.splices.length, 2);
});

test('applyEdit with base: merged into the source, the range and splices against the source; a conflict fails', () => {
  assert.equal(applyEdit(typed, edit).ok, true); // the edit finds its text in the input too, but:
  const r = applyEdit(typed, edit, { base });
  assert.equal(r.ok, true);
  assert.equal(r.text, merged);
  assert.equal(r.strategy, 'exact');
  assert.equal(typed.slice(0, r.start) + merged.slice(r.start, merged.length - (typed.length - r.end)) + typed.slice(r.end), merged);
  assert.ok(r.splices.length > 0);
  assert.equal(spliced(typed, r.splices), merged);
  assert.ok(r.splices.every((s) => s.from >= typed.indexOf('return a')));

  const c = applyEdit(clash, edit, { base });
  assert.equal(c.ok, false);
  assert.equal(c.reason, 'merge-conflict');
  assert.equal(c.text, clash);
  assert.deepEqual(c.splices, []);
  assert.deepEqual([c.start, c.end, c.strategy], [-1, -1, null]);
  assert.deepEqual(c.conflicts, [{ ours: [6, 6], base: [6, 6], theirs: [6, 6] }]);
  assert.equal(
    c.message,
    'The patch was written against an earlier version of the text, and the text changed since in the same places: 1 conflict at input lines 6-6 (base lines 6-6). Nothing was applied. Read the text again and write the patch against it as it is now.',
  );
  // An edit that does not apply to base fails as without base, the source unchanged.
  const missing = applyEdit(typed, { search: 'nowhere\n', replace: 'x\n' }, { base });
  assert.equal(missing.ok, false);
  assert.equal(missing.reason, 'not-found');
  assert.equal(missing.text, typed);
  assert.throws(() => applyEdit(typed, edit, { base: 3 }), TypeError);
});

test('applyEdits with base: all edits on base, then one merge; a conflict fails the last edit, the source unchanged', () => {
  const second = { search: '  return "Hello " + name;\n', replace: '  return "Hi " + name;\n' };
  const both = applyEdits(typed, [edit, second], { base });
  const want = merge3(base, typed, applyEdits(base, [edit, second]).text).text;
  assert.deepEqual([both.ok, both.text, both.applied], [true, want, 2]);
  assert.equal(spliced(typed, both.splices), want);

  const c = applyEdits(clash, [second, edit], { base });
  assert.deepEqual([c.ok, c.text, c.applied, c.results.length], [false, clash, 1, 2]);
  assert.equal(c.results[0].ok, true);
  assert.equal(c.results[1].reason, 'merge-conflict');
  assert.deepEqual(c.results[1].conflicts, [{ ours: [6, 6], base: [6, 6], theirs: [6, 6] }]);
  assert.deepEqual(c.splices, []);
});

test('applyUnified with a base map: each file the diff changes merged, the others untouched; a conflict throws naming the file', () => {
  const files = { 'math.js': typed, 'other.js': 'changed by the user\n' };
  const baseMap = { 'math.js': base, 'other.js': 'as the model saw it\n' };
  assert.deepEqual(applyUnified(files, unified, { base: baseMap }), { 'math.js': merged, 'other.js': 'changed by the user\n' });
  const r = applyUnified(new Map(Object.entries(files)), unified, { base: baseMap, report: true });
  assert.ok(r.files instanceof Map);
  assert.equal(r.files.get('math.js'), merged);
  assert.deepEqual(
    r.changes.map((c) => [c.path, c.status]),
    [['math.js', 'modified']],
  );
  assert.equal(spliced(typed, r.changes[0].splices), merged);
  assert.deepEqual(
    r.hunks.map((h) => [h.path, h.line]),
    [['math.js', 5]],
  );

  assert.throws(
    () => applyUnified({ 'math.js': clash }, unified, { base: { 'math.js': base } }),
    (e) =>
      e instanceof PatchError &&
      e.code === 'merge_conflict' &&
      e.path === 'math.js' &&
      e.message.startsWith('math.js: The patch was written') &&
      JSON.stringify(e.conflicts) === JSON.stringify([{ path: 'math.js', ours: [6, 6], base: [6, 6], theirs: [6, 6] }]) &&
      JSON.stringify(e.inputLines) === '[6]',
  );
  // A file the diff updates that base lacks is an error naming it.
  assert.throws(
    () => applyUnified(files, unified, { base: {} }),
    (e) => e instanceof PatchError && e.code === 'file_not_found' && e.path === 'math.js',
  );
  assert.throws(() => applyUnified(files, unified, { base }), /options.base must be a file map here/);
});

test('a rename over base: the renamed file keeps what the user typed in it, and its source goes', () => {
  const rename = [
    'diff --git a/math.js b/sum.js',
    'similarity index 80%',
    'rename from math.js',
    'rename to sum.js',
    '--- a/math.js',
    '+++ b/sum.js',
    '@@ -5,3 +5,3 @@',
    ' function add(a, b) {',
    '-  return a + b;',
    '+  return Number(a) + Number(b);',
    ' }',
    '',
  ].join('\n');
  assert.deepEqual(applyUnified({ 'math.js': typed }, rename, { base: { 'math.js': base } }), { 'sum.js': merged });
  const patch =
    '*** Begin Patch\n*** Update File: math.js\n*** Move to: sum.js\n@@ function add(a, b) {\n-  return a + b;\n+  return Number(a) + Number(b);\n*** End Patch\n';
  assert.deepEqual(applyPatch({ 'math.js': typed }, patch, { base: { 'math.js': base } }).files, { 'sum.js': merged });
});

test("applyBlocks with a base map: merged per file; a conflict fails the file's last block, the map unchanged", () => {
  const files = { 'math.js': typed, 'other.js': 'changed by the user\n' };
  const baseMap = { 'math.js': base, 'other.js': 'as the model saw it\n' };
  const r = applyBlocks(files, blocks, { base: baseMap });
  assert.equal(r.ok, true);
  assert.deepEqual(r.files, { 'math.js': merged, 'other.js': 'changed by the user\n' });
  assert.deepEqual(
    r.results.map((x) => [x.path, x.ok, x.strategy]),
    [['math.js', true, 'exact']],
  );

  const two = `${blocks}\nnew.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n`;
  const c = applyBlocks({ 'math.js': clash }, two, { base: { 'math.js': base } });
  assert.equal(c.ok, false);
  assert.deepEqual(c.files, { 'math.js': clash });
  assert.deepEqual(
    c.results.map((x) => [x.path, x.ok, x.reason]),
    [['math.js', false, 'merge-conflict']],
  );
  assert.deepEqual(c.results[0].conflicts, [{ path: 'math.js', ours: [6, 6], base: [6, 6], theirs: [6, 6] }]);
  assert.match(c.results[0].message, /^math\.js: The patch was written against an earlier version/);

  // A block for a file missing from base: unknown-file, naming it.
  const missing = applyBlocks(files, blocks, { base: { 'other.js': 'x\n' } });
  assert.equal(missing.ok, false);
  assert.equal(missing.results[0].reason, 'unknown-file');
  assert.match(missing.results[0].message, /math\.js/);
  assert.deepEqual(missing.files, files);
  assert.throws(() => applyBlocks(files, blocks, { base }), /options.base must be a file map here/);
});
