// The playground's URL hash (www/state.js): a link must reproduce the state
// exactly, whatever the text holds; links from before compression still open.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHash, encodeHash, encodeHashPlain, normalize } from '../../www/state.js';

const state = {
  mode: 'codex',
  files: [
    { path: 'src/ünï.py', text: 'print("héllo 👋")\r\n' },
    { path: 'empty.txt', text: '' },
  ],
  selected: 1,
  patch: '*** Begin Patch\n*** Delete File: empty.txt\n*** End Patch',
  view: 'text',
  preset: 'compatible',
  repair: true,
};

test('a state survives the hash unchanged (Unicode, CRLF, empty files)', async () => {
  const hash = await encodeHash(state);
  assert.match(hash, /^#z=[A-Za-z0-9_-]+$/);
  assert.deepEqual(await decodeHash(hash), state);
});

test('the uncompressed hash of the first playground still opens', async () => {
  const hash = encodeHashPlain(state);
  assert.match(hash, /^#s=[A-Za-z0-9_-]+$/);
  assert.deepEqual(await decodeHash(hash), state);
  // A link written by the first playground, which had no repair field.
  const old = `#s=${Buffer.from(JSON.stringify({ m: 'strict', f: [['a.txt', 'a\n']], i: 0, p: '@@\n-a\n+b', v: 'diff', o: 'safe' })).toString('base64url')}`;
  assert.deepEqual(await decodeHash(old), normalize({ files: [{ path: 'a.txt', text: 'a\n' }], patch: '@@\n-a\n+b' }));
});

test('a large state round-trips, compressed far below its size', async () => {
  const text = Array.from({ length: 50000 }, (_, i) => `line ${i}`).join('\n');
  const big = normalize({ files: [{ path: 'big.txt', text }], patch: '@@\n-line 1\n+line one' });
  const hash = await encodeHash(big);
  assert.deepEqual(await decodeHash(hash), big);
  assert.ok(hash.length * 3 < encodeHashPlain(big).length, `compressed ${hash.length}, plain ${encodeHashPlain(big).length}`);
});

test('damaged or foreign hashes give null, bad fields give defaults', async () => {
  assert.equal(await decodeHash(''), null);
  assert.equal(await decodeHash('#section-2'), null);
  assert.equal(await decodeHash('#s=%%%'), null);
  assert.equal(await decodeHash(`#s=${Buffer.from('{not json').toString('base64url')}`), null);
  assert.equal(await decodeHash(`#z=${Buffer.from('not deflate').toString('base64url')}`), null);
  const odd = await decodeHash(`#s=${Buffer.from(JSON.stringify({ m: 'nope', f: [[1, 2]], i: 7, p: 3 })).toString('base64url')}`);
  assert.deepEqual(odd, {
    mode: 'strict',
    files: [{ path: 'file.txt', text: '' }],
    selected: 0,
    patch: '',
    view: 'diff',
    preset: 'safe',
    repair: false,
  });
});
