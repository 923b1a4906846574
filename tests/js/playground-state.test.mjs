// The playground's URL hash (www/state.js): a link must reproduce the state
// exactly, whatever the text holds.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHash, encodeHash, normalize } from '../../www/state.js';

test('a state survives the hash unchanged (Unicode, CRLF, empty files)', () => {
  const state = {
    mode: 'codex',
    files: [
      { path: 'src/ünï.py', text: 'print("héllo 👋")\r\n' },
      { path: 'empty.txt', text: '' },
    ],
    selected: 1,
    patch: '*** Begin Patch\n*** Delete File: empty.txt\n*** End Patch',
    view: 'text',
    preset: 'safe',
  };
  const hash = encodeHash(state);
  assert.match(hash, /^#s=[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeHash(hash), state);
});

test('a large state round-trips', () => {
  const text = Array.from({ length: 50000 }, (_, i) => `line ${i}`).join('\n');
  const state = normalize({ files: [{ path: 'big.txt', text }], patch: '@@\n-line 1\n+line one' });
  assert.deepEqual(decodeHash(encodeHash(state)), state);
});

test('damaged or foreign hashes give null, bad fields give defaults', () => {
  assert.equal(decodeHash(''), null);
  assert.equal(decodeHash('#section-2'), null);
  assert.equal(decodeHash('#s=%%%'), null);
  assert.equal(decodeHash('#s=' + Buffer.from('{not json').toString('base64url')), null);
  const odd = decodeHash('#s=' + Buffer.from(JSON.stringify({ m: 'nope', f: [[1, 2]], i: 7, p: 3 })).toString('base64url'));
  assert.deepEqual(odd, {
    mode: 'strict',
    files: [{ path: 'file.txt', text: '' }],
    selected: 0,
    patch: '',
    view: 'diff',
    preset: 'safe',
  });
});
