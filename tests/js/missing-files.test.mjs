// A file missing from an in-memory file map (issues 29 and 22): the error lists
// the map's paths near it, says nothing was applied, and hints '*** Add File';
// a Delete of a path with no file is already applied only when no path is near
// it. Following each message's advice works. The engine's whole messages are
// pinned in tests/snapshots/patch_messages__near_paths.snap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyBlocks, applyFiles, applyUnified, PatchError } from 'applypatch';

const files = { 'src/utils.py': 'def f():\n    return 1\n', 'lib/utils.py': 'x = 1\n', 'README.md': '# r\n' };

function failure(run) {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof PatchError);
    return e;
  }
  assert.fail('expected a PatchError');
}

test('an update of a misspelt path lists the near paths; the listed path and *** Add File both apply', () => {
  const patch = (path) => `*** Begin Patch\n*** Update File: ${path}\n@@\n-    return 1\n+    return 2\n*** End Patch`;
  for (const map of [files, new Map(Object.entries(files))]) {
    const e = failure(() => applyFiles(map, patch('src/utlis.py')));
    assert.equal(e.code, 'file_not_found');
    assert.equal(e.path, 'src/utlis.py');
    assert.equal(
      e.message,
      "src/utlis.py: there is no file at this path to update. Nothing was applied. The files have similar paths: src/utils.py. Check the path (it is used exactly as written, relative to the project root); to create the file, write '*** Add File: src/utlis.py' instead, with every line of the new file starting with '+'.",
    );
  }
  const listed = /similar paths: ([^ ]+)\. /.exec(failure(() => applyFiles(files, patch('src/utlis.py'))).message)[1];
  assert.equal(applyFiles(files, patch(listed))['src/utils.py'], 'def f():\n    return 2\n');
  const add = applyFiles(files, '*** Begin Patch\n*** Add File: src/utlis.py\n+x\n*** End Patch');
  assert.equal(add['src/utlis.py'], 'x\n');
  // In another directory: both files of that name.
  const e = failure(() => applyFiles(files, '*** Begin Patch\n*** Update File: utils.py\n@@\n-x = 1\n+x = 2\n*** End Patch'));
  assert.match(e.message, / The files have similar paths: src\/utils\.py and lib\/utils\.py\. /);
});

test('a Delete of a misspelt path is refused with the near paths; of a path nothing is near, already applied', () => {
  const del = (path) => `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch`;
  const e = failure(() => applyFiles(files, del('src/utlis.py')));
  assert.equal(e.code, 'file_not_found');
  assert.equal(
    e.message,
    "src/utlis.py: there is no file at this path to delete, and it was not taken as already deleted: the files have similar paths (src/utils.py), so the path may be misspelt. Nothing was applied. Write the exact path of the file to delete, or leave out '*** Delete File: src/utlis.py' if that file is already gone.",
  );
  assert.equal(applyFiles(files, del('src/utils.py'))['src/utils.py'], undefined);
  // Nothing near: the file is already gone (a re-sent Delete).
  assert.equal(failure(() => applyFiles(files, del('docs/old-notes.txt'))).code, 'already_applied');
  const seen = [];
  const out = applyFiles(files, del('docs/old-notes.txt'), { repair: true, onRepair: (r) => seen.push(r.kind) });
  assert.deepEqual(out, files);
  assert.deepEqual(seen, ['already-applied']);
  // With the near file present, repair does not take the typo as done.
  assert.equal(failure(() => applyFiles(files, del('src/utlis.py'), { repair: true })).code, 'file_not_found');
});

test('an edit block naming a misspelt file lists the near paths; the listed path applies', () => {
  const block = (path) => `${path}\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n`;
  const r = applyBlocks(files, block('src/utlis.py'));
  assert.equal(r.ok, false);
  assert.equal(
    r.results[0].message,
    "Block 1 (line 2) names src/utlis.py, which is not among the files. Give the file's exact path, or, to create it, an empty SEARCH text. The files have similar paths: src/utils.py.",
  );
  const listed = /similar paths: ([^ ]+)\.$/.exec(r.results[0].message)[1];
  const fixed = applyBlocks(files, block(listed));
  assert.equal(fixed.ok, true);
  assert.equal(fixed.files['src/utils.py'], 'def f():\n    return 2\n');
});

test('a unified diff of a misspelt path lists the near paths; the listed path applies', () => {
  const diff = (path) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`;
  const e = failure(() => applyUnified(files, diff('lib/utlis.py')));
  assert.equal(e.code, 'file_not_found');
  assert.equal(
    e.message,
    "lib/utlis.py: the diff (line 1) changes this file, but there is no such file. Nothing was changed. The files have similar paths: lib/utils.py. Check the path (the 'a/' and 'b/' prefixes are removed).",
  );
  const listed = /similar paths: ([^ ]+)\. /.exec(e.message)[1];
  assert.equal(applyUnified(files, diff(listed))['lib/utils.py'], 'x = 2\n');
});
