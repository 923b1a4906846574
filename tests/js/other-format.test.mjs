// A text of another format given to apply() says which format it is and which
// function takes it (issue 29); following the advice applies it. The whole
// messages are pinned in tests/snapshots/strict_messages__another_format.snap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apply, applyBatch, applyBlocks, applyUnified, detectFormat, PatchError } from 'applypatch';

const file = 'def f():\n    return 1\n';
const want = 'def f():\n    return 2\n';

function failure(run) {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof PatchError);
    return e;
  }
  assert.fail('expected a PatchError');
}

test('a unified diff given to apply() names applyUnified, which applies it', () => {
  for (const diff of [
    '--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n',
    'diff --git a/f.py b/f.py\nindex 1111111..2222222 100644\n--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n',
  ]) {
    assert.equal(detectFormat(diff), 'unified');
    const e = failure(() => apply(file, diff));
    assert.match(
      e.message,
      /^This is a unified diff \(file headers '--- a\/PATH' and '\+\+\+ b\/PATH', hunks '@@ -l,s \+l,s @@'\), not a V4A diff: apply it with applyUnified\(files, diff\), which reads its paths and line numbers\. Nothing was applied\. Read as a V4A diff, it fails:\n/,
    );
    // The advice, followed:
    assert.deepEqual(applyUnified({ 'f.py': file }, diff), { 'f.py': want });
  }
});

test('edit blocks given to apply() name applyBlocks, which applies them', () => {
  const text = 'f.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n';
  const e = failure(() => apply(file, text));
  assert.equal(e.code, 'invalid_line');
  assert.match(
    e.message,
    /^These are search\/replace edit blocks \('<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE'\), not a V4A diff: apply them with applyBlocks\(files, text\)\. Nothing was applied\. Read as a V4A diff, they fail:\n/,
  );
  const r = applyBlocks({ 'f.py': file }, text);
  assert.equal(r.ok, true);
  assert.deepEqual(r.files, { 'f.py': want });
});

test('in a batch, the diff that is another format is named', () => {
  const e = failure(() =>
    applyBatch(file, ['@@ def f():\n-    return 1\n+    return 2', '--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n-def f():\n+def g():\n']),
  );
  assert.equal(e.diff, 1);
  assert.match(e.message, /^This is a unified diff .*\n(diff 2 of the batch: )?Section 1/);
});

test("a V4A diff is not mistaken for another format, and Codex mode keeps Codex's words", () => {
  const e = failure(() => apply(file, '@@\n-    return 3\n+    return 2'));
  assert.doesNotMatch(e.message, /not a V4A diff/);
  const codex = failure(() =>
    apply(file, '--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n', { mode: 'codex' }),
  );
  assert.doesNotMatch(codex.message, /not a V4A diff/);
});
