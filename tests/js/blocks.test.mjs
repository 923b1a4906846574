// Search/replace edit blocks through the built package as users import it:
// the shared apply-edit-block vectors (their offsets are code points; the
// package's are UTF-16 code units), presets and options, argument checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyEdit, applyEdits, PatchError, parseBlocks, similarity } from 'applypatch';
import { fixture } from './helpers.mjs';

const cases = fixture('apply-edit-block.cases.json').cases;
const upstream = fixture('apply-edit-block.upstream-tests.json').vectors;

/** UTF-16 units of the first `cp` code points of `text`. */
const units = (text, cp) => (cp < 0 ? cp : [...text].slice(0, cp).join('').length);

function checkResult(name, source, got, want) {
  assert.equal(got.ok, want.ok, `${name}: ok`);
  assert.equal(got.strategy, want.strategy, `${name}: strategy`);
  assert.equal(got.similarity, want.similarity, `${name}: similarity`);
  assert.equal(got.start, units(source, want.start), `${name}: start`);
  assert.equal(got.end, units(source, want.end), `${name}: end`);
  if (got.ok) assert.equal(typeof got.matches, 'number');
}

/** apply-edit-block's behaviour is the compatible preset, asked for by name (safe is the default). */
function optionsOf(c) {
  const o = { preset: 'compatible' };
  if (c.anchor_slack !== undefined) o.anchorSlack = c.anchor_slack;
  if (c.threshold !== undefined) o.threshold = c.threshold;
  return o;
}

test('every case of apply-edit-block.cases.json with the compatible preset', () => {
  let n = 0;
  for (const c of cases) {
    if (c.patch !== undefined) {
      assert.deepEqual(parseBlocks(c.patch), c.expected_blocks, c.name);
      n++;
      continue;
    }
    const r = applyEdits(c.source, c.edits, optionsOf(c));
    assert.equal(r.ok, c.expected.ok, c.name);
    assert.equal(r.text, c.expected.text, c.name);
    assert.equal(r.applied, c.expected.applied, c.name);
    assert.equal(r.results.length, c.expected.results.length, c.name);
    let step = c.source;
    r.results.forEach((got, i) => {
      checkResult(c.name, step, got, c.expected.results[i]);
      step = got.text;
    });
    if (c.edits.length === 1) {
      const one = applyEdit(c.source, c.edits[0], optionsOf(c));
      checkResult(c.name, c.source, one, c.expected.results[0]);
      assert.equal(one.text, c.expected.text, c.name);
      // Its options, one by one, are the compatible preset.
      const { preset: _, ...rest } = optionsOf(c);
      const single = { unique: false, anchorThreshold: 0, newlines: false, relativeIndent: false, explain: false };
      const flags = { wholeLines: false, emptySearch: false, noChange: false, lineHints: false };
      assert.deepEqual(applyEdit(c.source, c.edits[0], { ...rest, preset: 'safe', ...single, ...flags }), one);
    }
    n++;
  }
  assert.equal(n, 41);
});

test('every vector of apply-edit-block.upstream-tests.json', () => {
  let n = 0;
  for (const v of upstream) {
    const opts = optionsOf(v.kwargs);
    if (v.raises) {
      assert.equal(v.raises, 'TypeError');
      assert.throws(() => applyEdit(v.args[0], v.args[1], opts), TypeError, v.test);
      n++;
      continue;
    }
    switch (v.fn) {
      case 'apply_edit': {
        const r = applyEdit(v.args[0], v.args[1], opts);
        assert.equal(r.text, v.result.text, v.test);
        checkResult(v.test, v.args[0], r, v.result);
        break;
      }
      case 'apply_edits': {
        const r = applyEdits(v.args[0], v.args[1], opts);
        assert.equal(r.ok, v.result.ok);
        assert.equal(r.text, v.result.text);
        assert.equal(r.applied, v.result.applied);
        let step = v.args[0];
        r.results.forEach((got, i) => {
          assert.equal(got.text, v.result.results[i].text);
          checkResult(v.test, step, got, v.result.results[i]);
          step = got.text;
        });
        break;
      }
      case 'similarity':
        assert.equal(similarity(v.args[0], v.args[1]), v.result, v.test);
        break;
      case 'parse_blocks':
        assert.deepEqual(parseBlocks(v.args[0]), v.result, v.test);
        break;
      default:
        assert.fail(`unknown fn ${v.fn}`);
    }
    n++;
  }
  assert.equal(n, 27);
});

test('offsets are UTF-16 code units, for every step of applyEdits', () => {
  const source = '😀😀\nfoo\né bar\n';
  const r = applyEdit(source, { search: 'foo', replace: 'FOO' }, { preset: 'compatible' });
  assert.deepEqual([r.start, r.end], [5, 8]);
  assert.equal(source.slice(r.start, r.end), 'foo');
  // Line strategies too (trailing-ws here), and offsets into each step's text.
  const m = applyEdits(
    source,
    [
      { search: 'foo', replace: '🎉' },
      { search: 'é bar  ', replace: 'é baz' },
    ],
    { preset: 'compatible' },
  );
  assert.equal(m.text, '😀😀\n🎉\né baz\n');
  assert.deepEqual([m.results[1].strategy, m.results[1].start, m.results[1].end], ['trailing-ws', 8, 13]);
  assert.equal(m.results[0].text.slice(8, 13), 'é bar');
  // Safe mode on a CRLF file with a BOM: offsets into the original text.
  const crlf = '\uFEFF😀\r\nold\r\nnext\r\n';
  const s = applyEdit(crlf, { search: 'old\nnext\n', replace: 'new\n' }, { preset: 'safe' });
  assert.equal(s.text, '\uFEFF😀\r\nnew\r\n');
  assert.equal(crlf.slice(s.start, s.end), 'old\r\nnext\r\n');
});

test('the safe preset: ambiguity, anchors, newlines, indentation, explanations', () => {
  const safe = { preset: 'safe' };
  // Two places: refused, with both line ranges.
  const amb = applyEdit('a=1\nb\na=1\n', { search: 'a=1', replace: 'A' }, safe);
  assert.equal(amb.ok, false);
  assert.equal(amb.reason, 'ambiguous');
  assert.equal(amb.matches, 2);
  assert.deepEqual(amb.candidates, [
    { startLine: 1, endLine: 1 },
    { startLine: 3, endLine: 3 },
  ]);
  assert.match(amb.message, /matches 2 places/);
  const compatible = { preset: 'compatible' };
  assert.equal(applyEdit('a=1\nb\na=1\n', { search: 'a=1', replace: 'A' }, compatible).matches, 2, 'compatible reports the count too');
  // A made-up body between two anchors.
  const src = 'def f():\n    return 1\n\ndef g():\n    return 2\n';
  const made = { search: 'def f():\n    totally\n    hallucinated\n    return 2', replace: 'X' };
  assert.equal(applyEdit(src, made, compatible).text, 'X\n');
  assert.equal(applyEdit(src, made, safe).ok, false);
  assert.equal(applyEdit(src, made).ok, false, 'safe is the default');
  assert.equal(applyEdit(src, made, { preset: 'compatible', anchorThreshold: 0.5 }).ok, false);
  // CRLF in, CRLF out.
  assert.equal(applyEdit('a\r\nb\r\nc\r\n', { search: 'a\nb', replace: 'A\nB' }, safe).text, 'A\r\nB\r\nc\r\n');
  // Tabs stay tabs.
  assert.equal(
    applyEdit('\t\tif x:\n\t\t\ty()\n', { search: 'if x:\n\ty()', replace: 'if x:\n\tz()' }, safe).text,
    '\t\tif x:\n\t\t\tz()\n',
  );
  // Where, how close, which lines.
  const miss = applyEdit('one\ntwo\nthree\nfour\n', { search: 'one\nTWO\nthree', replace: 'x' }, safe);
  assert.equal(miss.ok, false);
  assert.equal(miss.reason, 'not-found');
  assert.equal(miss.nearest.startLine, 1);
  assert.equal(miss.nearest.endLine, 3);
  assert.ok(miss.nearest.similarity > 0.6 && miss.nearest.similarity < 0.7);
  assert.deepEqual(miss.nearest.differences, [{ kind: 'changed', searchLine: 2, search: 'TWO', fileLine: 2, file: 'two' }]);
  assert.match(miss.message, /lines 1-3/);
  // Options override the preset, one by one.
  assert.equal(applyEdit('a=1\nb\na=1\n', { search: 'a=1', replace: 'A' }, { preset: 'safe', unique: false }).ok, true);
  assert.equal(applyEdit('x', { search: 'y', replace: 'z' }, { preset: 'safe', explain: false }).message, undefined);
  // Compatible results carry no failure report.
  const plain = applyEdit('x', { search: 'y', replace: 'z' }, compatible);
  assert.deepEqual(Object.keys(plain).sort(), ['end', 'matches', 'ok', 'similarity', 'start', 'strategy', 'text']);
});

test('parseBlocks: compatible array, and the detailed form', () => {
  const text =
    'src/app.py\n```python\n<<<<<<< SEARCH\n>>> x = 1\n=======\n>>> x = 2\n>>>>>>> REPLACE\n```\n<<<<<<< SEARCH\nfoo\n=======\nbar\n';
  assert.deepEqual(parseBlocks(text), [{ search: '>>> x = 1', replace: '' }]);
  assert.deepEqual(parseBlocks(text, { detailed: false }), parseBlocks(text));
  const d = parseBlocks(text, { detailed: true });
  assert.deepEqual(d.edits, [{ search: '>>> x = 1', replace: '>>> x = 2', path: 'src/app.py', line: 3 }]);
  assert.equal(d.problems.length, 1);
  assert.equal(d.problems[0].line, 9);
  assert.match(d.problems[0].message, /not closed/);
});

test('wrong argument types throw TypeError; failed matches do not throw', () => {
  const bad = [
    () => applyEdit(42, { search: 'a', replace: 'b' }),
    () => applyEdit('src', { search: 42, replace: 'b' }),
    () => applyEdit('src', { search: 'a' }),
    () => applyEdit('src', null),
    () => applyEdit('src', 'a'),
    () => applyEdit('src', { search: 'a', replace: 'b' }, 'safe'),
    () => applyEdit('src', { search: 'a', replace: 'b' }, { preset: 'unsafe' }),
    () => applyEdit('src', { search: 'a', replace: 'b' }, { threshold: '0.9' }),
    () => applyEdit('src', { search: 'a', replace: 'b' }, { unique: 1 }),
    () => applyEdits('src', { search: 'a', replace: 'b' }),
    () => applyEdits('src', [{ search: 'a', replace: 'b' }, {}]),
    () => parseBlocks(null),
    () => parseBlocks('x', { detailed: 'yes' }),
    () => similarity('a', undefined),
  ];
  for (const f of bad) assert.throws(f, TypeError);
  assert.throws(() => applyEdit('\uD800', { search: 'a', replace: 'b' }), PatchError);
  const r = applyEdit('abc', { search: 'zzz', replace: 'y' });
  assert.equal(r.ok, false);
  assert.equal(r.text, 'abc');
  assert.equal(applyEdit('abc', { search: 'b', replace: 'B' }).text, 'aBc', 'the module keeps working');
  assert.deepEqual(applyEdits('abc', []), { ok: true, text: 'abc', results: [], applied: 0 });
});

test('odd option values behave like apply-edit-block', () => {
  const src = 'START\na\nb\nEND\n';
  const edit = { search: 'START\nEND', replace: 'X' };
  assert.equal(applyEdit(src, edit, { preset: 'compatible', anchorSlack: 2 }).strategy, 'anchor');
  assert.equal(applyEdit(src, edit, { preset: 'compatible', anchorSlack: 1.9 }).ok, false, 'a fraction rounds down');
  assert.equal(applyEdit(src, edit, { preset: 'compatible', anchorSlack: -1 }).ok, false);
  assert.equal(applyEdit(src, edit, { preset: 'compatible', anchorSlack: NaN }).ok, false);
  assert.equal(applyEdit(src, edit, { preset: 'compatible', anchorSlack: Infinity }).strategy, 'anchor');
  assert.equal(applyEdit('a\nb\nc\n', { search: 'x\ny\nz', replace: 'R' }, { preset: 'compatible', threshold: 0 }).strategy, 'fuzzy');
  assert.equal(applyEdit('a\nb\nc\n', { search: 'a\nb\nz', replace: 'R' }, { preset: 'compatible', threshold: NaN }).ok, false);
});

test('the README examples say what the package does', () => {
  const message = 'src/app.py\n<<<<<<< SEARCH\ndef greet():\n  print("Hi")\n=======\ndef greet():\n  print("Hello")\n>>>>>>> REPLACE';
  const file = 'class App:\n    def greet():\n        print("Hi")\n';
  const safe = applyEdits(file, parseBlocks(message), { preset: 'safe' });
  assert.equal(safe.results[0].strategy, 'indent');
  assert.equal(safe.text, 'class App:\n    def greet():\n        print("Hello")\n');
  assert.equal(
    applyEdits(file, parseBlocks(message), { preset: 'compatible' }).text,
    'class App:\n    def greet():\n      print("Hello")\n',
  );
  assert.equal(applyEdits(file, parseBlocks(message)).text, safe.text, 'safe is the default');

  const amb = applyEdit('x = 1\ny = 2\nx = 1\n', { search: 'x = 1', replace: 'x = 3' }, { preset: 'safe' });
  assert.deepEqual(amb.candidates, [
    { startLine: 1, endLine: 1 },
    { startLine: 3, endLine: 3 },
  ]);
  assert.match(amb.message, /^Edit not applied: its SEARCH text matches 2 places in the file \(exactly\): line 1, line 3\. /);

  const source = 'def f():\n    total = 1\n    for x in xs:\n        total += x\n    return total\n';
  const edit = { search: 'def f():\n    total = 0\n    for x in items:\n        total += x\n    return total', replace: '…' };
  const miss = applyEdit(source, edit, { preset: 'safe' });
  assert.equal(miss.similarity, 0.6);
  assert.deepEqual([miss.nearest.startLine, miss.nearest.endLine, miss.nearest.similarity], [1, 5, 0.6]);
  assert.deepEqual(
    miss.nearest.differences.map((d) => [d.kind, d.searchLine, d.fileLine]),
    [
      ['changed', 2, 2],
      ['changed', 3, 3],
    ],
  );
  assert.equal(
    miss.message,
    'Edit not applied: its SEARCH text (5 lines) is not in the file. Nothing was changed. The closest place is lines 1-5, where 3 of the 5 SEARCH lines are found in order, ignoring whitespace around lines (fuzzy similarity 0.60; 0.85 needed). Differences:\n- SEARCH line 2 "    total = 0" is "    total = 1" in the file (line 2)\n- SEARCH line 3 "    for x in items:" is "    for x in xs:" in the file (line 3)\nCopy the SEARCH lines exactly from the file (read lines 1-5 again if unsure) and send the edit again.',
  );
  const compat = applyEdit(source, edit, { preset: 'compatible' });
  assert.deepEqual([compat.strategy, compat.text], ['anchor', '…\n']);
});

test('safe is the default, with the fixes the peers made: whole lines, empty SEARCH, no-op edits', () => {
  assert.equal(applyEdit('a\nb\nc\n', { search: 'b', replace: '' }).text, 'a\nc\n');
  assert.equal(applyEdit('a\nb\nc\n', { search: 'b', replace: '' }, { preset: 'compatible' }).text, 'a\n\nc\n');
  const glued = applyEdit('a\nb\n', { search: '', replace: 'x' });
  assert.equal(glued.ok, false);
  assert.equal(glued.reason, 'empty-search');
  assert.equal(
    glued.message,
    'Edit not applied: its SEARCH text is empty, and an empty SEARCH only creates a new file, but this file is not empty (2 lines). Nothing was changed. To insert lines, put the lines they go after in SEARCH, and the same lines followed by the new ones in REPLACE: to append at the end, SEARCH "b" and REPLACE "b" then the new lines; to insert at the top, SEARCH "a" and REPLACE the new lines then "a".',
  );
  assert.equal(applyEdit('', { search: '', replace: 'new content' }).text, 'new content\n');
  const same = applyEdit('a\nb\n', { search: 'a', replace: 'a' });
  assert.equal(same.ok, false);
  assert.equal(same.reason, 'no-change');
  assert.match(same.message, /^Edit not applied: its SEARCH and REPLACE texts are the same \(1 line\), so it would change nothing\./);
});

test("Roo's :start_line: chooses among equal matches; continue.dev's replaceAll replaces every copy", () => {
  const message = '<<<<<<< SEARCH\n:start_line:3\n-------\nx = 1\n=======\nx = 9\n>>>>>>> REPLACE\n';
  const { edits, problems } = parseBlocks(message, { detailed: true });
  assert.deepEqual(problems, []);
  assert.deepEqual(edits, [{ search: 'x = 1', replace: 'x = 9', line: 1, startLine: 3 }]);
  const r = applyEdits('x = 1\ny = 2\nx = 1\n', edits);
  assert.equal(r.text, 'x = 1\ny = 2\nx = 9\n');
  assert.equal(
    r.results[0].note,
    'The SEARCH text matches 2 places in the file (exactly): line 1, line 3; applied at line 3, the one nearest its startLine 3.',
  );
  assert.equal(applyEdit('x = 1\ny = 2\nx = 1\n', { search: 'x = 1', replace: 'x = 9' }).reason, 'ambiguous');
  const all = applyEdit('foo(1)\nfoo(2)\n', { search: 'foo', replace: 'bar', replaceAll: true });
  assert.deepEqual([all.ok, all.text, all.matches], [true, 'bar(1)\nbar(2)\n', 2]);
  assert.equal(all.note, 'Replaced 2 places (every exact copy of the SEARCH text): line 1, line 2.');
  assert.equal(applyEdits('foo foo\n', [{ search: 'foo', replace: 'x' }], { replaceAll: true }).text, 'x x\n');
  for (const bad of [{ startLine: 0 }, { startLine: 1.5 }, { endLine: '3' }, { replaceAll: 1 }]) {
    assert.throws(() => applyEdit('a', { search: 'a', replace: 'b', ...bad }), TypeError);
  }
});

test("parseBlocks: Cline's markers of any length, aider's elision, two dividers", () => {
  const cline = parseBlocks('--- SEARCH\na\n=====\nb\n+++++++++ REPLACE\n', { detailed: true });
  assert.deepEqual(cline.edits, [{ search: 'a', replace: 'b', line: 1 }]);
  const elided = parseBlocks('a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n...\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE', {
    detailed: true,
  });
  assert.deepEqual(
    elided.edits.map((e) => e.path),
    ['a.py', 'a.py'],
  );
  const two = parseBlocks('<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n', { detailed: true });
  assert.deepEqual(two.edits, []);
  assert.equal(two.problems.length, 1);
  assert.match(two.problems[0].message, /has two '=======' lines \(lines 3 and 5\)/);
});
