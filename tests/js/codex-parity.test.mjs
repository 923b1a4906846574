// Codex mode against the results the real Codex CLI 0.171.0 binary recorded
// for the parity corpus (scripts/parity.mjs --record), without the binary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ap from 'applypatch';
import { compare } from '../parity/compare.mjs';
import { fixture } from './helpers.mjs';

const recorded = fixture('codex-parity.json');

test('the recorded corpus is large and varied', () => {
  const cases = recorded.cases;
  assert.ok(cases.length >= 300, `${cases.length} cases`);
  assert.ok(cases.filter((c) => c.codex.ok).length >= 150);
  assert.ok(cases.filter((c) => !c.codex.ok).length >= 50);
  assert.ok(cases.some((c) => Object.values(c.files).some((f) => f.includes('\r\n'))));
  assert.ok(cases.some((c) => Object.values(c.files).some((f) => /\r(?!\n)/.test(f))));
});

test('Codex mode agrees with the Codex CLI on every recorded case', () => {
  const differences = [];
  const explained = [];
  for (const c of recorded.cases) {
    const d = compare(ap, c, c.codex);
    if (d?.explained) explained.push(c.name);
    else if (d) differences.push(`${c.name}: ${d.reason}`);
  }
  assert.deepEqual(differences, []);
  // The one deliberate difference (README): Move to the same path keeps the file.
  assert.deepEqual(explained, ['ops: move to same path']);
});

test('apply(contents, op.diff, { mode }) does what applyFiles does with the operation', () => {
  let checked = 0;
  for (const c of recorded.cases) {
    let ops;
    try {
      ops = ap.parse(c.patch).operations;
    } catch {
      continue;
    }
    for (const op of ops.filter((o) => o.kind === 'update' && o.path in c.files)) {
      for (const mode of ['strict', 'codex']) {
        // The operation on its own, with its own move (the result is at the destination).
        const move = op.moveTo === undefined ? '' : `*** Move to: ${op.moveTo}\n`;
        const alone = `*** Begin Patch\n*** Update File: ${op.path}\n${move}${op.diff}*** End Patch\n`;
        let viaFiles, viaApply;
        try {
          viaFiles = ap.applyFiles({ [op.path]: c.files[op.path] }, alone, { mode })[op.moveTo ?? op.path];
        } catch (e) {
          viaFiles = e.code;
        }
        try {
          viaApply = ap.apply(c.files[op.path], op.diff, { mode });
        } catch (e) {
          viaApply = e.code;
        }
        assert.equal(viaApply, viaFiles, `${c.name}, ${op.path}, ${mode}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 300, `${checked} operations checked`);
});
