// The engine's unified-diff writer (unifiedDiff, and --dry-run): on random texts, applying the
// printed hunks to the old text gives the new one, hunk headers count right,
// and the edit is minimal (as many changed lines as the longest common
// subsequence allows).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { pick, rng } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { unifiedDiff, lineDiff } = require('applypatch');

/** The hunks of a one-file diff, without its three header lines. */
const unifiedHunks = (before, after) => unifiedDiff({ f: before }, { f: after }).split('\n').slice(3).join('\n');
const SIGN = { eq: ' ', del: '-', add: '+' };
const signs = (a, b) => lineDiff(a, b).map((o) => [SIGN[o.op]]);

const splitLines = (text) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** Applies hunks to `before`, checking every context and removed line and each header. */
function applyHunks(before, hunks) {
  const old = splitLines(before);
  const lines = hunks.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out = [];
  let pos = 0;
  let i = 0;
  while (i < lines.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]);
    assert.ok(m, `hunk header expected, got ${JSON.stringify(lines[i])}`);
    const [oldStart, oldLen, newLen] = [Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), m[4] === undefined ? 1 : Number(m[4])];
    const from = oldLen === 0 ? oldStart : oldStart - 1;
    assert.ok(from >= pos, 'hunks in order');
    out.push(...old.slice(pos, from));
    pos = from;
    i++;
    let seenOld = 0;
    let seenNew = 0;
    while (i < lines.length && !lines[i].startsWith('@@')) {
      const op = lines[i][0];
      let text = lines[i].slice(1) + '\n';
      if (lines[i + 1] === '\\ No newline at end of file') {
        text = text.slice(0, -1);
        i++;
      }
      if (op === ' ' || op === '-') {
        assert.equal(old[pos], text, `old line ${pos + 1}`);
        pos++;
        seenOld++;
      }
      if (op === ' ' || op === '+') {
        out.push(text);
        seenNew++;
      }
      i++;
    }
    assert.equal(seenOld, oldLen, 'old count in the header');
    assert.equal(seenNew, newLen, 'new count in the header');
  }
  out.push(...old.slice(pos));
  return out.join('');
}

function lcs(a, b) {
  const row = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

test('unified hunks round-trip and are minimal on random texts', () => {
  const random = rng(20251130);
  const words = ['a', 'b', 'c', '', '  x', 'return 1;', '}'];
  const text = () => {
    const n = Math.floor(random() * 30);
    let s = Array.from({ length: n }, () => pick(random, words) + '\n').join('');
    if (random() < 0.2) s = s.replace(/\n$/, '');
    return s;
  };
  const mutate = (s) => {
    const lines = splitLines(s);
    for (let k = Math.floor(random() * 6); k > 0; k--) {
      const at = Math.floor(random() * (lines.length + 1));
      const r = random();
      if (r < 0.4) lines.splice(at, 0, pick(random, words) + '\n');
      else if (r < 0.8) lines.splice(at, 1);
      else if (lines.length) lines[Math.min(at, lines.length - 1)] = pick(random, words) + '\n';
    }
    let out = lines.join('');
    if (random() < 0.2) out = out.replace(/\n$/, '');
    return out;
  };
  for (let k = 0; k < 1500; k++) {
    const before = text();
    const after = random() < 0.5 ? mutate(before) : text();
    const hunks = unifiedHunks(before, after);
    assert.equal(hunks === '', before === after);
    assert.equal(applyHunks(before, hunks), after, JSON.stringify({ before, after, hunks }));
    const a = splitLines(before);
    const b = splitLines(after);
    const changed = signs(a, b).filter(([op]) => op !== ' ').length;
    assert.equal(changed, a.length + b.length - 2 * lcs(a, b), 'minimal');
  }
});

test('hunks are separated by more than twice the context', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
  const after = before.replace('line 2\n', 'two\n').replace('line 18\n', 'eighteen\n');
  assert.equal(
    unifiedHunks(before, after),
    '@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n-line 18\n+eighteen\n line 19\n line 20\n',
  );
  const close = before.replace('line 2\n', 'two\n').replace('line 9\n', 'nine\n');
  assert.equal(unifiedHunks(before, close).match(/^@@/gm).length, 1);
});
