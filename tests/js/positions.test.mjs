// Changes as positions through the package: `report: true` on apply and
// applyBatch, and `splices` on applyPatch, applyUnified and the edit-block
// results. Property: the splices, applied in order to the string passed,
// give the text; they are sorted, disjoint, and minimal (no splice starts or
// ends with a code point that is the same before and after; a surrogate pair
// is never split). Plus the editor core (applypatch/codemirror's and
// applypatch/monaco's): only the document's part of a message is applied.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apply, applyBatch, applyEdit, applyEdits, applyPatch, applyUnified, PatchError, parseBlocks, unifiedDiff } from 'applypatch';
import { rng } from '../../scripts/rng.mjs';
import { fixture } from './helpers.mjs';

const VOCAB = ['', 'a', 'b', 'ab', '{', '}', '  x = 1;', 'é😀', '😀', '中文', 'a😀b', 'trail ', '👍🏽 ok'];

function applySplices(input, splices) {
  let out = '';
  let pos = 0;
  for (const s of splices) {
    out += input.slice(pos, s.from) + s.insert;
    pos = s.to;
  }
  return out + input.slice(pos);
}

const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

function checkMinimal(input, splices, where) {
  let last = 0;
  for (const s of splices) {
    assert.ok(s.from >= last && s.from <= s.to && s.to <= input.length, `${where}: sorted and in range ${JSON.stringify(splices)}`);
    last = s.to;
    for (const at of [s.from, s.to])
      assert.ok(!isLow(input.charCodeAt(at)) || at === input.length, `${where}: offset ${at} splits a surrogate pair`);
    const old = input.slice(s.from, s.to);
    assert.notEqual(old, s.insert, where);
    const [o, n] = [[...old], [...s.insert]];
    if (o.length && n.length) {
      assert.notEqual(o[0], n[0], `${where}: ${JSON.stringify(s)} starts with a shared character`);
      assert.notEqual(o.at(-1), n.at(-1), `${where}: ${JSON.stringify(s)} ends with a shared character`);
    }
  }
}

function lines(r, n) {
  return Array.from({ length: n }, () => VOCAB[Math.floor(r() * VOCAB.length)]);
}

function textOf(ls, sep, final) {
  return ls.join(sep) + (final && ls.length ? sep : '');
}

function diffFor(ls, at, removed, added) {
  const d = ['@@'];
  if (at > 0) d.push(` ${ls[at - 1]}`);
  for (const l of ls.slice(at, at + removed)) d.push(`-${l}`);
  for (const l of added) d.push(`+${l}`);
  if (at + removed < ls.length) d.push(` ${ls[at + removed]}`);
  return d.join('\n');
}

test('apply with report: splices give the text and are minimal, sections name whole lines (generated)', () => {
  const r = rng(25);
  let checked = 0;
  for (let i = 0; i < 600; i++) {
    const ls = lines(r, 1 + Math.floor(r() * 9));
    const sep = r() < 0.5 ? '\n' : '\r\n';
    const input = textOf(ls, sep, r() < 0.6);
    const at = Math.floor(r() * ls.length);
    const removed = Math.min(Math.floor(r() * 4), ls.length - at);
    const diff = diffFor(ls, at, removed, lines(r, Math.floor(r() * 4)));
    const mode = r() < 0.5 ? 'strict' : 'codex';
    let text;
    try {
      text = apply(input, diff, { mode });
    } catch (e) {
      assert.ok(e instanceof PatchError);
      continue;
    }
    const rep = apply(input, diff, { mode, report: true });
    assert.equal(rep.text, text);
    assert.equal(applySplices(input, rep.splices), text, JSON.stringify({ input, diff, rep }));
    checkMinimal(input, rep.splices, JSON.stringify({ input, diff }));
    for (const s of rep.sections) {
      assert.ok(s.from === 0 || /[\n\r]$/.test(input.slice(0, s.from)), 'a section starts a line');
      assert.equal(input.slice(0, s.from).split('\n').length, s.inputLine);
      assert.ok(s.to >= s.from && s.to <= input.length);
    }
    checked++;
  }
  assert.ok(checked > 300, `${checked} cases applied`);
});

test('applyBatch with report: splices against the original input, sections name their diff', () => {
  const input = 'x😀\ny\nz\n';
  const rep = applyBatch(input, ['@@\n-x😀\n+x😁', '@@\n y\n-z\n+Z'], { report: true });
  assert.deepEqual(rep, {
    text: 'x😁\ny\nZ\n',
    splices: [
      { from: 1, to: 3, insert: '😁' },
      { from: 6, to: 7, insert: 'Z' },
    ],
    sections: [
      { diffLine: 2, inputLine: 1, from: 0, to: 4, diff: 0 },
      { diffLine: 3, inputLine: 3, from: 6, to: 8, diff: 1 },
    ],
  });
  assert.equal(applyBatch(input, ['@@\n-y\n+Y']), 'x😀\nY\nz\n', 'without report: the text');
  assert.throws(() => apply('a', '@@\n-a\n+b', { report: 'yes' }), TypeError);
});

test('the changes a call leaves in the engine: a leading U+FEFF in a new text stays, and a large answer, then a small one, are each whole', () => {
  assert.equal(apply('a\nb\n', '@@\n-a\n+\uFEFFa'), '\uFEFFa\nb\n');
  assert.deepEqual(apply('a\n', '@@\n-a\n+\uFEFF', { report: true }).splices, [{ from: 0, to: 1, insert: '\uFEFF' }]);
  // More than the engine keeps between calls (64 Ki words, 64 KiB of text):
  // 35,000 runs of one changed line each.
  const many = Array.from({ length: 70_000 }, (_, i) => `line ${i}`);
  const input = `${many.join('\n')}\n`;
  const diff = many.map((l, i) => (i % 2 ? ` ${l}` : `-${l}\n+${l}!`)).join('\n');
  const text = `${many.map((l, i) => (i % 2 ? l : `${l}!`)).join('\n')}\n`;
  const rep = apply(input, diff, { report: true });
  assert.equal(rep.text, text);
  assert.equal(rep.splices.length, 35_000);
  const last = input.indexOf('\nline 69999\n');
  assert.deepEqual(rep.splices[34_999], { from: last, to: last, insert: '!' });
  assert.equal(rep.sections.length, 35_000);
  assert.equal(apply(input, diff), text);
  assert.equal(apply('a\n', '@@\n-a\n+b'), 'b\n');
  assert.deepEqual(apply('a\nb\n', '@@\n a\n-b\n+c', { report: true }), {
    text: 'a\nc\n',
    splices: [{ from: 2, to: 3, insert: 'c' }],
    sections: [{ diffLine: 3, inputLine: 2, from: 2, to: 4 }],
  });
});

test('splices of a result: not enumerable, made once on first read, each result its own', () => {
  const a = applyEdit('x\ny\n', { search: 'x', replace: 'X' });
  const b = applyEdit('x\ny\n', { search: 'y', replace: 'Y' });
  assert.deepEqual(Object.keys(a), ['ok', 'text', 'strategy', 'similarity', 'start', 'end', 'matches']);
  assert.equal({ ...a }.splices, undefined);
  assert.deepEqual(b.splices, [{ from: 2, to: 3, insert: 'Y' }]);
  assert.deepEqual(a.splices, [{ from: 0, to: 1, insert: 'X' }]);
  assert.equal(a.splices, a.splices, 'the same array on every read');
});

test('repairs come with the report', () => {
  const rep = apply('  a\n', '@@\n-a\n+b', { repair: true, report: true });
  assert.equal(applySplices('  a\n', rep.splices), rep.text);
  assert.ok(rep.repairs.length >= 1 && typeof rep.repairs[0].kind === 'string');
});

test('applyPatch, applyUnified and edit blocks: splices of each modified file (generated)', () => {
  const r = rng(2525);
  for (let i = 0; i < 200; i++) {
    const sep = r() < 0.5 ? '\n' : '\r\n';
    const before = textOf(lines(r, 1 + Math.floor(r() * 12)), sep, r() < 0.7);
    const after = textOf(lines(r, 1 + Math.floor(r() * 12)), sep, r() < 0.7);
    if (before === after) continue;
    const diff = unifiedDiff({ f: before }, { f: after }, { context: 1 });
    const rep = applyUnified({ f: before }, diff, { report: true });
    const change = rep.changes.find((c) => c.path === 'f');
    assert.equal(applySplices(before, change.splices), after);
    checkMinimal(before, change.splices, JSON.stringify({ before, after }));
  }
  const p = applyPatch(
    { f: 'one\nkeep 😀\ntwo\n', g: 'x\n' },
    '*** Begin Patch\n*** Update File: f\n@@\n-one\n+1\n keep 😀\n-two\n+2\n*** Delete File: g\n*** End Patch',
  );
  assert.deepEqual(p.changes.find((c) => c.path === 'f').splices, [
    { from: 0, to: 3, insert: '1' },
    { from: 12, to: 15, insert: '2' },
  ]);
  assert.deepEqual(p.changes[0], { path: 'f', status: 'modified' }, 'splices is not enumerable: results compare as before');
  assert.equal(p.changes.find((c) => c.path === 'g').splices, undefined);
  const e = applyEdit('héllo wörld\n', { search: 'wörld', replace: 'wörd' });
  assert.deepEqual(e.splices, [{ from: 9, to: 10, insert: '' }]);
  const es = applyEdits('a\nb\nc\n', [
    { search: 'a', replace: 'A' },
    { search: 'c', replace: 'C' },
  ]);
  assert.deepEqual(es.splices, [
    { from: 0, to: 1, insert: 'A' },
    { from: 4, to: 5, insert: 'C' },
  ]);
  assert.deepEqual(applyEdit('a', { search: 'zzz', replace: 'y' }).splices, []);
});

test('applyPatch and applyUnified: the splices of an update are where its sections were placed, as apply with report gives them (generated)', () => {
  const r = rng(2526);
  let checked = 0;
  for (let i = 0; i < 300; i++) {
    const sep = r() < 0.5 ? '\n' : '\r\n';
    const ls = lines(r, 1 + Math.floor(r() * 10));
    const input = textOf(ls, sep, r() < 0.7);
    const at = Math.floor(r() * ls.length);
    const removed = Math.min(Math.floor(r() * 4), ls.length - at);
    const diff = diffFor(ls, at, removed, lines(r, Math.floor(r() * 4)));
    const mode = r() < 0.5 ? 'strict' : 'codex';
    let report;
    try {
      report = apply(input, diff, { mode, report: true });
    } catch {
      continue;
    }
    const p = applyPatch({ f: input }, `*** Begin Patch\n*** Update File: f\n${diff}\n*** End Patch`, { mode });
    const change = p.changes.find((c) => c.path === 'f');
    if (report.text === input) {
      assert.equal(change, undefined);
      continue;
    }
    assert.equal(p.files.f, report.text);
    assert.deepEqual(change.splices, report.splices, JSON.stringify({ input, diff, mode }));
    checked++;
  }
  assert.ok(checked > 100, `${checked} updates checked`);
  // A run of changed lines is one splice, as the diff placed it (comparing
  // the texts would find the unchanged middle line): the engine did not re-diff.
  const run = applyPatch({ f: 'a\nx\nb\n' }, '*** Begin Patch\n*** Update File: f\n@@\n-a\n-x\n-b\n+A\n+x\n+B\n*** End Patch');
  assert.deepEqual(run.changes[0].splices, [{ from: 0, to: 5, insert: 'A\nx\nB' }]);
  const hunk = applyUnified({ f: 'a\nx\nb\n' }, '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n-x\n-b\n+A\n+x\n+B\n', { report: true });
  assert.deepEqual(hunk.changes[0].splices, [{ from: 0, to: 5, insert: 'A\nx\nB' }], 'a unified hunk too');
  // A file updated twice has no one placement: its texts are compared.
  const twice = applyPatch(
    { f: 'a\nx\nb\n' },
    '*** Begin Patch\n*** Update File: f\n@@\n-a\n+A\n*** Update File: f\n@@\n-b\n+B\n*** End Patch',
  );
  assert.deepEqual(twice.changes[0].splices, [
    { from: 0, to: 1, insert: 'A' },
    { from: 4, to: 5, insert: 'B' },
  ]);
});

// Edit blocks' splices come from where the engine placed each edit (composed
// across the edits, each split by the lines it covers): on every recorded
// edit-block vector they apply, are minimal, never touch, and are the very
// splices the line diff of the two whole texts gives (what `splices` was
// before) except where that diff pairs lines another way. Today's splices are
// what applyUnified reports for the two texts (the same bounded line diff).
test("edit blocks: splices from the placement on every edit-block vector, as the texts' line diff gives them", () => {
  const cases = [
    ...fixture('apply-edit-block.differential.json').cases.map((c) => ({
      source: c.source,
      edits: c.patch !== undefined ? parseBlocks(c.patch) : c.edits,
      options: { preset: 'compatible', anchorSlack: c.anchor_slack, threshold: c.threshold },
    })),
    ...fixture('apply-edit-block.cases.json')
      .cases.filter((c) => typeof c.source === 'string')
      .map((c) => ({ source: c.source, edits: c.edits, options: { preset: 'compatible', ...c.options } })),
  ];
  const tally = { changed: 0, same: 0, other: 0 };
  for (const [i, c] of cases.entries()) {
    let got;
    try {
      got = applyEdits(c.source, c.edits, c.options);
    } catch (e) {
      assert.ok(e instanceof PatchError, `case ${i}: ${e}`);
      continue;
    }
    const at = `case ${i}`;
    assert.equal(applySplices(c.source, got.splices), got.text, at);
    checkMinimal(c.source, got.splices, at);
    for (let k = 1; k < got.splices.length; k++) assert.ok(got.splices[k - 1].to < got.splices[k].from, `${at}: splices touch`);
    let step = c.source;
    for (const r of got.results) {
      assert.equal(applySplices(step, r.splices), r.text, `${at}: a step`);
      checkMinimal(step, r.splices, `${at}: a step`);
      step = r.text;
    }
    if (got.text === c.source) {
      assert.deepEqual(got.splices, [], at);
      continue;
    }
    tally.changed++;
    const before = applyUnified({ f: c.source }, unifiedDiff({ f: c.source }, { f: got.text }), { report: true }).changes[0].splices;
    if (JSON.stringify(before) === JSON.stringify(got.splices)) tally.same++;
    else tally.other++;
  }
  assert.deepEqual(tally, { changed: 456, same: 447, other: 9 });
  // An edit's unchanged lines stay out of its splices: a cursor there keeps its place.
  const e = applyEdit('a\nkeep\nb\nrest\n', { search: 'a\nkeep\nb\n', replace: 'A\nkeep\nB\n' });
  assert.deepEqual(e.splices, [
    { from: 0, to: 1, insert: 'A' },
    { from: 7, to: 8, insert: 'B' },
  ]);
  // replaceAll: one splice per copy; a later edit inside an earlier one's text is composed into it.
  const all = applyEdit('x😀 = 1;\ny = 2;\nx😀 = 3;\n', { search: 'x😀', replace: 'z', replaceAll: true });
  assert.deepEqual(all.splices, [
    { from: 0, to: 3, insert: 'z' },
    { from: 16, to: 19, insert: 'z' },
  ]);
  const seq = applyEdits('one\ntwo\nthree\n', [
    { search: 'two', replace: 'TWO and more' },
    { search: 'and more\nthree', replace: 'and 3' },
  ]);
  assert.equal(seq.text, 'one\nTWO and 3\n');
  assert.deepEqual(seq.splices, [{ from: 4, to: 13, insert: 'TWO and 3' }]);
  assert.deepEqual(Object.keys(seq), ['ok', 'text', 'results', 'applied'], 'splices is not enumerable');
});
