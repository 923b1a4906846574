// docs/errors.md is the reference of PatchError's codes: every code the
// package can throw has its row there, and the table names no code that does
// not exist.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { errorCodes } from 'applypatch';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const table = doc.slice(doc.indexOf('## Codes'));
const documented = new Set([...table.matchAll(/^\| (.*?) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([a-z_]+)`/g)].map((c) => c[1])));
documented.delete('code');

test('docs/errors.md has a row for every error code, and no code that does not exist', () => {
  assert.deepEqual(
    [...errorCodes].filter((c) => !documented.has(c)),
    [],
    'codes missing from docs/errors.md',
  );
  assert.deepEqual(
    [...documented].filter((c) => !errorCodes.includes(c)),
    [],
    'docs/errors.md names codes that errorCodes lacks',
  );
});
