// The same package through require(): CommonJS users get the same API.
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { test } = require('node:test');
const { apply, applyBatch, PatchError, errorCodes } = require('applypatch');

const vectors = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'strict.json'), 'utf8'));

test('require: every strict vector', () => {
  for (const c of vectors.apply) {
    if (c.fails) assert.throws(() => apply(c.input, c.diff), PatchError, c.name);
    else assert.equal(apply(c.input, c.diff), c.want, c.name);
  }
  for (const c of vectors.applyBatch) {
    if (c.fails) assert.throws(() => applyBatch(c.input, c.diffs), PatchError, c.name);
    else assert.equal(applyBatch(c.input, c.diffs), c.want, c.name);
  }
});

test('require and import share one PatchError class', async () => {
  const esm = await import('applypatch');
  assert.equal(esm.PatchError, PatchError);
  assert.equal(esm.errorCodes, errorCodes);
  assert.throws(() => esm.apply('a', '+b'), PatchError);
});
