// The package against apply-edit-block 0.1.0 on the generated cases recorded
// by tests/differential/record-blocks.mjs (no Python needed here): with the
// compatible preset (asked for by name: safe is the default) every ok, text, applied, strategy, similarity and offset
// agrees. Recorded offsets are code points; the package's are UTF-16 units.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyEdits, parseBlocks } from 'applypatch';
import { fixture } from './helpers.mjs';

const recorded = fixture('apply-edit-block.differential.json');
const units = (text, cp) => (cp < 0 ? cp : [...text].slice(0, cp).join('').length);

test(`the package agrees with apply-edit-block on ${recorded.cases.length} recorded cases`, () => {
  assert.ok(recorded.cases.length >= 500);
  let agreed = 0;
  for (const c of recorded.cases) {
    const edits = c.patch !== undefined ? parseBlocks(c.patch) : c.edits;
    const options = { preset: 'compatible', anchorSlack: c.anchor_slack, threshold: c.threshold };
    const got = applyEdits(c.source, edits, options);
    const want = c.expected;
    const at = `case ${c.id} (${c.kinds.join(', ')})`;
    assert.equal(got.ok, want.ok, at);
    assert.equal(got.text, want.text, at);
    assert.equal(got.applied, want.applied, at);
    assert.equal(got.results.length, want.results.length, at);
    want.results.forEach((w, k) => {
      const g = got.results[k];
      const step = k === 0 ? c.source : c.patch !== undefined ? got.results[k - 1].text : c.steps[k - 1];
      assert.equal(g.ok, w.ok, at);
      assert.equal(g.strategy, w.strategy, at);
      assert.equal(g.similarity, w.similarity, at);
      assert.deepEqual([g.start, g.end], [units(step, w.start), units(step, w.end)], at);
    });
    agreed++;
  }
  assert.equal(agreed, recorded.cases.length);
});
