// Edit blocks through require(): the same functions and results as import.
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { test } = require('node:test');
const { applyEdit, applyEdits, parseBlocks, similarity } = require('applypatch');

const { cases } = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'apply-edit-block.cases.json'), 'utf8'));

test('require: every apply-edit-block case gives the expected text', () => {
  for (const c of cases) {
    if (c.patch !== undefined) {
      assert.deepEqual(parseBlocks(c.patch), c.expected_blocks, c.name);
      continue;
    }
    const options = { preset: 'compatible', anchorSlack: c.anchor_slack, threshold: c.threshold };
    const r = applyEdits(c.source, c.edits, options);
    assert.equal(r.text, c.expected.text, c.name);
    assert.equal(r.ok, c.expected.ok, c.name);
  }
});

test('require and import give the same results', async () => {
  const esm = await import('applypatch');
  assert.equal(esm.applyEdit, applyEdit);
  const edit = { search: 'a\nb', replace: 'x' };
  assert.deepEqual(esm.applyEdit('a\r\nb\r\n', edit, { preset: 'safe' }), applyEdit('a\r\nb\r\n', edit, { preset: 'safe' }));
  assert.equal(similarity('a\nb', 'a'), 0.5);
});
