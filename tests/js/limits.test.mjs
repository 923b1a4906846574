// Hostile input sizes (issue 13): each reproducer either gets its exact
// answer quickly or an input_too_large PatchError, and the module keeps
// working afterwards. No timings are asserted: npm run stress measures them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apply, applyBlocks, applyEdit, applyEdits, applyFiles, errorCodes, PatchError, parseBlocks, similarity } from 'applypatch';

const lines = (n, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i}`);

/** The module still works after whatever the call before it did. */
function stillWorks() {
  assert.equal(apply('a\nb\n', '@@\n-a\n+A'), 'A\nb\n');
  assert.equal(applyEdit('a\nb\n', { search: 'b', replace: 'B' }).text, 'a\nB\n');
}

function tooLarge(fn, message) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof PatchError, `not a PatchError: ${e}`);
    assert.equal(e.code, 'input_too_large');
    if (message instanceof RegExp) assert.match(e.message, message);
    else if (message !== undefined) assert.equal(e.message, message);
    return true;
  });
  stillWorks();
}

test('input_too_large, already_applied and merge_conflict were added after every earlier code', () => {
  assert.deepEqual(errorCodes.slice(-3), ['input_too_large', 'already_applied', 'merge_conflict']);
});

test('a SEARCH text of 140,000 distinct lines is searched, not a trap', () => {
  const search = lines(140_000).join('\n');
  const r = applyEdit('a\nb\n', { search, replace: '' });
  assert.deepEqual(
    { ok: r.ok, text: r.text, strategy: r.strategy, similarity: r.similarity, start: r.start, end: r.end },
    { ok: false, text: 'a\nb\n', strategy: null, similarity: 0, start: -1, end: -1 },
  );
  const safe = applyEdit('a\nb\n', { search, replace: '' }, { preset: 'safe' });
  assert.equal(safe.ok, false);
  assert.equal(safe.reason, 'not-found');
  stillWorks();
});

test('an input of 150 million line breaks is refused before it is copied', () => {
  const input = '\n'.repeat(150_000_000);
  tooLarge(
    () => apply(input, '@@\n-\n+x'),
    'input is 150000000 UTF-16 code units long, so over 33554432 bytes; applypatch takes texts of at most 33554432 bytes (32 MiB). Split the work into smaller files or edits.',
  );
});

test('a text under 32 Mi code units but over 32 MiB of UTF-8 is refused by the engine', () => {
  const input = '\u20ac'.repeat(12_000_000); // 36,000,000 bytes
  tooLarge(
    () => apply(input, '@@\n-x\n+y'),
    'the input is 36000000 bytes long; applypatch takes texts of at most 33554432 bytes (32 MiB). Split the work into smaller files or edits.',
  );
});

test('similarity of two 1M-line texts: exact when cheap, refused when not', () => {
  const a = lines(1_000_000);
  const changed = [...a];
  changed[500_000] = 'changed';
  assert.equal(similarity(a.join('\n'), changed.join('\n')), 999_999 / 1_000_000);
  assert.equal(similarity(a.join('\n'), lines(1_000_000, 'other').join('\n')), 0);
  tooLarge(
    () => similarity(a.join('\n'), [...a].reverse().join('\n')),
    'the similarity of these texts needs more than 268435456 word operations of line comparison (lines x lines/64), the most applypatch does in one call. Use a shorter text, or a smaller part of the file.',
  );
  // Small texts in another order are still exact.
  const small = lines(3_000);
  assert.equal(similarity(small.join('\n'), [...small].reverse().join('\n')), 1 / 3_000);
});

test('Codex, 1,000 context lines over 100,000 almost-matching lines', () => {
  const input = 'a \n'.repeat(100_000);
  const diff = `${' a\n'.repeat(1000)}-b\n+c\n `;
  assert.throws(
    () => apply(input, diff, { mode: 'codex' }),
    (e) => e.code === 'context_not_found' && e.message.startsWith('Failed to find expected lines in the input:\na\na\n'),
  );
  // Found by the trailing-whitespace pass, after a near miss at every line.
  const found = `${input}b \n`;
  const out = apply(found, `${' a\n'.repeat(1000)}-b\n+c`, { mode: 'codex' });
  assert.equal(out, `${input}c\n`);
});

test('Strict, 1,000 context lines over 1,000,000 repeated lines', () => {
  const input = 'x\n'.repeat(1_000_000);
  assert.throws(
    () => apply(input, `${' x\n'.repeat(999)}-x\n+y`),
    (e) =>
      e.code === 'context_ambiguous' &&
      e.inputLines.join() === '1,2,3,4,5,6,7,8,9,10' &&
      e.message.startsWith(
        'Section 1 (diff lines 1-1001): its context and removed lines match the input in 999001 places: at input lines 1, 2,',
      ),
  );
  // A near miss: a 'y' every 1,000 lines, so no 1,000 lines are all 'x'.
  const gaps = Array.from({ length: 1_000_000 }, (_, i) => (i % 1000 === 999 ? 'y' : 'x')).join('\n');
  assert.throws(
    () => apply(gaps, `${' x\n'.repeat(999)}-x\n+z`),
    (e) =>
      e.code === 'context_not_found' &&
      // The input line the message quotes as the one that differs (nearest.line is where the place starts).
      e.inputLines.join() === '1000' &&
      e.nearest.line === 1 &&
      e.diffLine === 1000 &&
      e.message.includes('The closest place is input line 1, where 999 of 1000 lines are equal:'),
  );
});

test('edit blocks, a fuzzy search that cannot prune, is refused, not run for seconds', () => {
  const file = Array.from({ length: 100_000 }, (_, i) => 'abc'[i % 3]).join('\n');
  const search = Array.from({ length: 2000 }, (_, i) => (i % 50 === 0 ? 'z' : 'abc'[i % 3])).join('\n');
  tooLarge(() => applyEdit(file, { search, replace: 'r' }), /^the fuzzy search of this edit needs more than 268435456 word operations/);
  tooLarge(() => applyEdit(file, { search, replace: 'r' }, { preset: 'safe' }), /^the fuzzy search of this edit/);
});

test('applyFiles: 40,000 updates of 40,000 files', () => {
  const files = {};
  let patch = '*** Begin Patch\n';
  for (let i = 0; i < 40_000; i++) {
    files[`f${i}.txt`] = `one ${i}\n`;
    patch += `*** Update File: f${i}.txt\n@@\n-one ${i}\n+two ${i}\n`;
  }
  const out = applyFiles(files, `${patch}*** End Patch`);
  assert.equal(Object.keys(out).length, 40_000);
  for (let i = 0; i < 40_000; i++) assert.equal(out[`f${i}.txt`], `two ${i}\n`);
});

test('applyFiles: 10,000 updates of one 100,000-line file are refused past 128 MiB of re-reading', () => {
  const big = lines(100_000);
  let patch = '*** Begin Patch\n';
  for (let i = 0; i < 10_000; i++) patch += `*** Update File: big.txt\n@@\n-${big[i * 7]}\n+${big[i * 7]}!\n`;
  assert.throws(
    () => applyFiles({ 'big.txt': `${big.join('\n')}\n` }, `${patch}*** End Patch`),
    (e) => {
      assert.equal(e.code, 'input_too_large');
      assert.equal(e.path, 'big.txt');
      assert.match(
        e.message,
        /^big\.txt: The \d+ updates up to this one read \d+ bytes of file text, more than the 134217728 bytes \(128 MiB\) applypatch reads in one call/,
      );
      return true;
    },
  );
  // 100 updates of it are fine.
  let few = '*** Begin Patch\n';
  for (let i = 0; i < 100; i++) few += `*** Update File: big.txt\n@@\n-${big[i * 7]}\n+${big[i * 7]}!\n`;
  const out = applyFiles({ 'big.txt': `${big.join('\n')}\n` }, `${few}*** End Patch`);
  assert.equal(out['big.txt'].split('\n')[693], 'line 693!');
});

test('applyEdits: 20,000 edits of a 100,000-line text are refused past 128 MiB of re-reading', () => {
  const source = `${lines(100_000).join('\n')}\n`;
  const edits = Array.from({ length: 20_000 }, (_, i) => ({ search: `line ${i * 5}\n`, replace: `line ${i * 5}!\n` }));
  assert.throws(
    () => applyEdits(source, edits),
    (e) => {
      assert.equal(e.code, 'input_too_large');
      assert.match(
        e.message,
        /^The \d+ edits up to this one read \d+ bytes of text, more than the 134217728 bytes \(128 MiB\) applypatch reads in one call: each edit searches the whole text as the edits before it left it\./,
      );
      return true;
    },
  );
  // 100 of them are fine.
  const out = applyEdits(source, edits.slice(0, 100));
  assert.equal(out.applied, 100);
  assert.equal(out.text.split('\n')[495], 'line 495!');
});

test('applyBlocks: 20,000 blocks for one 100,000-line file are refused the same way', () => {
  const source = `${lines(100_000, '[').join(']\n')}]\n`;
  let message = '';
  for (let i = 0; i < 20_000; i++) message += `big.txt\n<<<<<<< SEARCH\n[ ${i * 5}]\n=======\n[ ${i * 5}]!\n>>>>>>> REPLACE\n`;
  assert.throws(
    () => applyBlocks({ 'big.txt': source }, message),
    (e) => e.code === 'input_too_large' && / edits up to this one read \d+ bytes of text/.test(e.message),
  );
});

test('parseBlocks detailed: 400,000 unclosed markers give 100 problems and a count', () => {
  const { edits, problems } = parseBlocks('<<<<<<< SEARCH\n'.repeat(400_000), { detailed: true });
  assert.equal(edits.length, 0);
  assert.equal(problems.length, 101);
  assert.deepEqual(problems.at(-1), {
    line: 101,
    message:
      '399900 more problems like the ones above, from line 101 to line 400000, are not listed one by one. Fix the blocks above and send the message again.',
  });
});
