// The peers' own test suites as an exam (tests/fixtures/peers/): each case a
// peer's test asserts, transcribed as data (input, edit, the peer's expected
// result or failure, and where it comes from), run through the package in the
// matching mode or preset. A case where applypatch differs must say which
// documented difference it is (an id of the differences table in docs/testing.md) and
// what applypatch gives instead; the table's count per peer must be right.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { agrees, runPeerCase } from './peers.mjs';

const dir = new URL('../fixtures/peers/', import.meta.url);
const readme = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
const suites = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));

test('the transcribed suites cover the eight peers', () => {
  assert.deepEqual(suites.map((s) => s.peer).sort(), [
    'Cline',
    'Codex CLI',
    'OpenHands',
    'Roo Code',
    'aider',
    'continue.dev',
    'openai-agents-js',
    'openai-agents-python',
  ]);
  for (const s of suites) {
    for (const c of s.cases) {
      assert.ok(c.file && c.test && c.kind && c.peer, `${s.peer}: every case names its file, test, kind and the peer's result`);
    }
  }
});

for (const s of suites) {
  test(`${s.peer} (${s.repository}): ${s.cases.length} cases agree, or differ as documented`, () => {
    let agree = 0;
    let differ = 0;
    for (const c of s.cases) {
      const at = `${s.peer}, ${c.file}: ${c.test}`;
      const ours = runPeerCase(c);
      if (c.differs === undefined) {
        assert.ok(agrees(c.peer, ours), `${at}\n  peer: ${JSON.stringify(c.peer)}\n  applypatch: ${JSON.stringify(ours)}`);
        agree++;
      } else {
        assert.ok(!agrees(c.peer, ours), `${at}: listed as a difference, but applypatch now agrees`);
        assert.deepEqual(ours, c.differs.ours, at);
        assert.ok(readme.includes(`| \`${c.differs.id}\` |`), `${at}: the README's differences table has no row \`${c.differs.id}\``);
        differ++;
      }
    }
    const row = readme.split('\n').find((l) => l.startsWith(`| ${s.peer} |`));
    assert.ok(row, `the README's count table has a row for ${s.peer}`);
    const numbers = row
      .split('|')
      .map((x) => x.trim())
      .filter((x) => /^\d+$/.test(x))
      .map(Number);
    assert.deepEqual(numbers.slice(-3), [s.cases.length, agree, differ], `README counts for ${s.peer}: cases, agree, differ by design`);
  });
}
