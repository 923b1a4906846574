// The published types: both editors type-check as the Agents SDK's Editor
// (applyPatchTool({ editor })), from import and from require
// (tests/types/, checked with the project's TypeScript against dist/).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the editors are the SDK Editor type, through the package types', () => {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  const project = fileURLToPath(new URL('../types/tsconfig.sdk.json', import.meta.url));
  const r = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
