// The playground's line diff (www/diff.js): the script must turn the old lines
// into the new ones, and be a shortest one (checked against an LCS table).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as applypatch from '../../dist/index.mjs';
import { diffRows, lineDiff, splitLines, useEngine } from '../../www/diff.js';
import { pick, rng } from './helpers.mjs';

useEngine(applypatch);

function lcs(a, b) {
  const t = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  return t[0][0];
}

function check(a, b) {
  const ops = lineDiff(a, b);
  const rebuilt = [];
  let ai = 0;
  let bi = 0;
  for (const o of ops) {
    if (o.op === 'eq') {
      assert.equal(o.a, ai++);
      assert.equal(o.b, bi++);
      assert.equal(a[o.a], b[o.b]);
      rebuilt.push(a[o.a]);
    } else if (o.op === 'del') {
      assert.equal(o.a, ai++);
    } else {
      assert.equal(o.b, bi++);
      rebuilt.push(b[o.b]);
    }
  }
  assert.equal(ai, a.length);
  assert.deepEqual(rebuilt, b);
  const changes = ops.filter((o) => o.op !== 'eq').length;
  assert.equal(changes, a.length + b.length - 2 * lcs(a, b), `not a shortest script for ${JSON.stringify([a, b])}`);
}

test('splitLines: a final newline ends the last line', () => {
  assert.deepEqual(splitLines(''), []);
  assert.deepEqual(splitLines('a'), ['a']);
  assert.deepEqual(splitLines('a\n'), ['a']);
  assert.deepEqual(splitLines('a\n\nb\n'), ['a', '', 'b']);
});

test('lineDiff: edge cases', () => {
  for (const [a, b] of [
    [[], []],
    [['x'], []],
    [[], ['x']],
    [['x'], ['y']],
    [
      ['a', 'b', 'c'],
      ['a', 'c'],
    ],
    [
      ['a', 'b'],
      ['b', 'a'],
    ],
    [['a', 'a', 'a'], ['a']],
    [
      ['x', 'a', 'b'],
      ['a', 'b', 'x'],
    ],
  ])
    check(a, b);
});

test('lineDiff: random inputs give shortest scripts that rebuild the output', () => {
  const random = rng(5);
  for (let round = 0; round < 2000; round++) {
    const alphabet = ['a', 'b', 'c', 'd', ''].slice(0, 1 + Math.floor(random() * 5));
    const a = Array.from({ length: Math.floor(random() * 12) }, () => pick(random, alphabet));
    const b = Array.from({ length: Math.floor(random() * 12) }, () => pick(random, alphabet));
    check(a, b);
  }
});

// Its cost is measured in the benchmarks, never timed here.
test('lineDiff: a large, very different pair is correct', () => {
  const a = Array.from({ length: 20000 }, (_, i) => `a${i}`);
  const b = Array.from({ length: 20000 }, (_, i) => `b${i}`);
  const ops = lineDiff(a, b);
  assert.equal(ops.filter((o) => o.op === 'del').length, 20000);
  assert.equal(ops.filter((o) => o.op === 'add').length, 20000);
});

test('diffRows: unchanged runs are folded, with line numbers on each side', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const after = before.replace('line 10\n', 'line ten\n');
  const rows = diffRows(before, after, 2);
  assert.deepEqual(rows, [
    { op: 'skip', count: 7 },
    { op: 'eq', oldNo: 8, newNo: 8, text: 'line 8' },
    { op: 'eq', oldNo: 9, newNo: 9, text: 'line 9' },
    { op: 'del', oldNo: 10, text: 'line 10' },
    { op: 'add', newNo: 10, text: 'line ten' },
    { op: 'eq', oldNo: 11, newNo: 11, text: 'line 11' },
    { op: 'eq', oldNo: 12, newNo: 12, text: 'line 12' },
    { op: 'skip', count: 8 },
  ]);
});
