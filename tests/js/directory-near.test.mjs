// A path with no file on a directory (issue 29): the directory functions list
// the root's files when, and only when, a patch names a path that has none,
// so the error names the near paths as an in-memory file map does, and a
// Delete of a missing path is judged by the same rule (already applied only
// when no path is near it). The listing is bounded (listFiles in
// js/node/directory.ts): past its entries or depth it lists nothing, and the
// directory is a partial map as before. Real temporary directories.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { applyFiles, applyOperation, PatchError } from '../../dist/index.mjs';
import { applyPatchToDirectory, applyUnifiedToDirectory, createEditor, createToolHandlers } from '../../dist/node.mjs';
import { makeTree, patchOf, read, snapshot } from './fs-helpers.mjs';

const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');

const files = { 'src/utils.py': 'def f():\n    return 1\n', 'lib/utils.py': 'x = 1\n', 'README.md': '# r\n' };
const update = (path) => patchOf(`*** Update File: ${path}`, '@@', '-    return 1', '+    return 2');
const del = (path) => patchOf(`*** Delete File: ${path}`);

const UPDATE_MESSAGE =
  "src/utlis.py: there is no file at this path to update. Nothing was applied. The files have similar paths: src/utils.py. Check the path (it is used exactly as written, relative to the project root); to create the file, write '*** Add File: src/utlis.py' instead, with every line of the new file starting with '+'.";
const DELETE_MESSAGE =
  "src/utlis.py: there is no file at this path to delete, and it was not taken as already deleted: the files have similar paths (src/utils.py), so the path may be misspelt. Nothing was applied. Write the exact path of the file to delete, or leave out '*** Delete File: src/utlis.py' if that file is already gone.";
const GONE_MESSAGE =
  'The patch is already applied: operation 1 (delete docs/old-notes.txt, patch line 2). Every file already has its change (updates: their new lines are where they would go; added files: the same contents; deleted files: already gone). Nothing was changed, and nothing was applied a second time. Do not send this patch again; re-read the files if you want to change them further.';

function failure(run) {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof PatchError, String(e));
    return e;
  }
  assert.fail('expected a PatchError');
}

/** node:fs with opendirSync counted: directories opened and entries read. */
function counting() {
  const seen = { dirs: 0, entries: 0 };
  const fs = {
    opendirSync(path, options) {
      seen.dirs++;
      const dir = nodeFs.opendirSync(path, options);
      return {
        readSync() {
          const e = dir.readSync();
          if (e !== null) seen.entries++;
          return e;
        },
        closeSync: () => dir.closeSync(),
      };
    },
  };
  return { fs, seen };
}

test('applyPatchToDirectory: an update of a misspelt path lists the near paths; the listed path applies', (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const e = failure(() => applyPatchToDirectory(root, update('src/utlis.py')));
  assert.equal(e.code, 'file_not_found');
  assert.equal(e.path, 'src/utlis.py');
  assert.equal(e.message, UPDATE_MESSAGE);
  assert.deepEqual(snapshot(root), before);
  const listed = /similar paths: ([^ ]+)\. /.exec(e.message)[1];
  applyPatchToDirectory(root, update(listed));
  assert.equal(read(root, 'src/utils.py'), 'def f():\n    return 2\n');
});

test('applyPatchToDirectory gives the messages applyFiles gives for the same files', (t) => {
  const { root } = makeTree(t, files);
  const patches = [
    update('src/utlis.py'),
    update('utils.py'),
    update('SRC/utils.py'),
    del('src/utlis.py'),
    del('docs/old-notes.txt'),
    patchOf('*** Delete File: docs/old-notes.txt', '*** Add File: new.txt', '+x'),
    patchOf(
      '*** Update File: src/utils.py',
      '*** Move to: src/helpers.py',
      '@@',
      '-    return 1',
      '+    return 2',
      '*** Delete File: lib/utlis.py',
    ),
  ];
  // Paths equally near are listed in the map's order; a directory's is its paths sorted.
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
  for (const patch of patches) {
    const inMemory = failure(() => applyFiles(sorted, patch));
    const onDisk = failure(() => applyPatchToDirectory(root, patch));
    assert.deepEqual(
      { code: onDisk.code, message: onDisk.message, path: onDisk.path, operation: onDisk.operation, diffLine: onDisk.diffLine },
      { code: inMemory.code, message: inMemory.message, path: inMemory.path, operation: inMemory.operation, diffLine: inMemory.diffLine },
      patch,
    );
  }
});

test('applyPatchToDirectory: a Delete of a misspelt path is refused listing the near path; of a path nothing is near, already applied', (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const e = failure(() => applyPatchToDirectory(root, del('src/utlis.py')));
  assert.equal(e.code, 'file_not_found');
  assert.equal(e.message, DELETE_MESSAGE);
  // With the repair allowed too: a typo is never taken as done.
  assert.equal(failure(() => applyPatchToDirectory(root, del('src/utlis.py'), { repair: true })).message, DELETE_MESSAGE);
  const gone = failure(() => applyPatchToDirectory(root, del('docs/old-notes.txt')));
  assert.equal(gone.code, 'already_applied');
  assert.equal(gone.message, GONE_MESSAGE);
  const seen = [];
  const r = applyPatchToDirectory(root, del('docs/old-notes.txt'), { repair: true, onRepair: (x) => seen.push(x.kind) });
  assert.deepEqual(r.changes, []);
  assert.deepEqual(seen, ['already-applied']);
  assert.deepEqual(snapshot(root), before);
  // The advice: the exact path deletes the file.
  applyPatchToDirectory(root, del('src/utils.py'));
  assert.equal(nodeFs.existsSync(join(root, 'src/utils.py')), false);
});

test('applyUnifiedToDirectory lists the near paths of a missing file', (t) => {
  const { root } = makeTree(t, files);
  const diff = (path) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`;
  const e = failure(() => applyUnifiedToDirectory(root, diff('lib/utlis.py')));
  assert.equal(e.code, 'file_not_found');
  assert.equal(
    e.message,
    "lib/utlis.py: the diff (line 1) changes this file, but there is no such file. Nothing was changed. The files have similar paths: lib/utils.py. Check the path (the 'a/' and 'b/' prefixes are removed).",
  );
  applyUnifiedToDirectory(root, diff('lib/utils.py'));
  assert.equal(read(root, 'lib/utils.py'), 'x = 2\n');
});

test('createEditor and applyOperation: delete_file and update_file of a missing path, as over a complete map', async (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const editor = createEditor({ root });
  const misspelt = await editor.deleteFile({ type: 'delete_file', path: 'src/utlis.py' });
  assert.deepEqual(misspelt, {
    status: 'failed',
    output:
      'delete_file src/utlis.py failed (file_not_found). Nothing was written: every file is as it was. Fix the operation and send it again.\nsrc/utlis.py: there is no file at this path to delete, and it was not taken as already deleted: the files have similar paths (src/utils.py), so the path may be misspelt. Nothing was applied. Write the exact path of the file to delete.',
  });
  const gone = await editor.deleteFile({ type: 'delete_file', path: 'docs/old-notes.txt' });
  assert.deepEqual(gone, {
    status: 'failed',
    output:
      'delete_file docs/old-notes.txt failed (already_applied). Nothing was written: every file is as it was. The change is already there: do not send it again.\ndocs/old-notes.txt: This delete_file is already applied: the file is already gone, and no path of the files is near this one. Nothing was changed, and nothing was applied a second time. Do not send it again.',
  });
  const upd = await editor.updateFile({ type: 'update_file', path: 'src/utlis.py', diff: '@@\n-    return 1\n+    return 2\n' });
  assert.equal(
    upd.output.split('\n')[1],
    "src/utlis.py: there is no file at this path to update. Nothing was applied. The files have similar paths: src/utils.py. Check the path (it is used exactly as written, relative to the project root); to create the file, send a create_file operation instead, its diff every line of the new file starting with '+'.",
  );
  assert.deepEqual(snapshot(root), before);
  // With the repair, a re-sent delete is a reported no-op.
  const repaired = await createEditor({ root, repair: true }).deleteFile({ type: 'delete_file', path: 'docs/old-notes.txt' });
  assert.equal(repaired.status, 'completed', repaired.output);
  // The same words from applyOperation over the map of the same files.
  for (const [op, said] of [
    [{ type: 'delete_file', path: 'src/utlis.py' }, misspelt.output],
    [{ type: 'delete_file', path: 'docs/old-notes.txt' }, gone.output],
    [{ type: 'update_file', path: 'src/utlis.py', diff: '@@\n-    return 1\n+    return 2\n' }, upd.output],
  ]) {
    const e = failure(() => applyOperation(files, op));
    assert.equal(e.message, said.split('\n')[1]);
  }
  assert.deepEqual(applyOperation(files, { type: 'delete_file', path: 'docs/old-notes.txt' }, { repair: true }), files);
});

test('the CLI (text and --json) lists the near paths', (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const cli = (args, input) => spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: 'utf8' });
  const text = cli([], update('src/utlis.py'));
  assert.equal(text.status, 1);
  assert.equal(text.stdout, '');
  assert.equal(
    text.stderr,
    `applypatch: error[file_not_found] in src/utlis.py (hunk 1, patch line 2). Nothing was written.\n${UPDATE_MESSAGE}\n`,
  );
  const json = cli(['--json'], update('src/utlis.py'));
  assert.equal(json.status, 1);
  assert.deepEqual(JSON.parse(json.stdout), {
    ok: false,
    error: { code: 'file_not_found', message: UPDATE_MESSAGE, path: 'src/utlis.py', operation: 0, diffLine: 2, hunk: 1, line: 2 },
  });
  const gone = cli(['--json'], del('src/utlis.py'));
  assert.equal(JSON.parse(gone.stdout).error.message, DELETE_MESSAGE);
  assert.deepEqual(snapshot(root), before);
});

test('the CLI: edit blocks naming a misspelt file list the near paths; the listed path applies', (t) => {
  const { root } = makeTree(t, files);
  const cli = (args, input) => spawnSync(process.execPath, [bin, ...args], { cwd: root, input, encoding: 'utf8' });
  const block = (path) => `${path}\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n`;
  const said =
    "Block 1 of 1 did not match src/utlis.py.\nBlock 1 (line 2) names src/utlis.py, which is not among the files. Give the file's exact path, or, to create it, an empty SEARCH text. The files have similar paths: src/utils.py.";
  const text = cli(['--format', 'blocks'], block('src/utlis.py'));
  assert.equal(text.status, 1);
  assert.equal(text.stderr, `applypatch: error[no_match] in src/utlis.py. Nothing was written.\n${said}\n`);
  const json = JSON.parse(cli(['--format', 'blocks', '--json'], block('src/utlis.py')).stdout);
  assert.equal(json.error.message, said);
  const listed = /similar paths: ([^ ]+)\.$/.exec(said)[1];
  assert.equal(cli(['--format', 'blocks'], block(listed)).status, 0);
  assert.equal(read(root, 'src/utils.py'), 'def f():\n    return 2\n');
});

test('the MCP tool apply_patch (handlers, and the server over stdio) lists the near paths', async (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const handlers = createToolHandlers({ root });
  const r = await handlers.apply_patch({ patch: update('src/utlis.py') });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.code, 'file_not_found');
  assert.equal(r.structuredContent.message, UPDATE_MESSAGE);
  const d = await handlers.apply_patch({ patch: del('src/utlis.py'), dryRun: true });
  assert.equal(d.structuredContent.message, DELETE_MESSAGE);

  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', root], stderr: 'pipe' });
  const client = new Client({ name: 'applypatch-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const served = await client.callTool({ name: 'apply_patch', arguments: { patch: update('src/utlis.py') } });
  assert.equal(served.isError, true);
  assert.deepEqual(served.structuredContent, r.structuredContent);
  assert.equal(served.content[0].text, r.content[0].text);
  assert.deepEqual(snapshot(root), before);
});

test('the MCP tools edit_file and read_file name the near paths of a path with no file', async (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const handlers = createToolHandlers({ root });
  const edit = await handlers.edit_file({ path: 'src/utlis.py', edits: [{ oldText: '    return 1', newText: '    return 2' }] });
  assert.deepEqual(edit.structuredContent, {
    code: 'file_not_found',
    message:
      'src/utlis.py does not exist. The files have similar paths: src/utils.py. edit_file changes an existing file: to create one, use apply_patch with *** Add File: src/utlis.py. Nothing was written.',
    path: 'src/utlis.py',
  });
  const readMissing = await handlers.read_file({ path: 'utils.py' });
  assert.equal(
    readMissing.structuredContent.message,
    'utils.py does not exist (paths are relative to the root). The files have similar paths: lib/utils.py and src/utils.py.',
  );
  const far = await handlers.read_file({ path: 'docs/old-notes.txt' });
  assert.equal(far.structuredContent.message, 'docs/old-notes.txt does not exist (paths are relative to the root).');
  assert.deepEqual(snapshot(root), before);
  // The advice: the listed path works.
  const fixed = await handlers.edit_file({ path: 'src/utils.py', edits: [{ oldText: '    return 1', newText: '    return 2' }] });
  assert.equal(fixed.isError, undefined);
  assert.equal(read(root, 'src/utils.py'), 'def f():\n    return 2\n');
});

test('the root is listed only for a missing path: a patch whose paths are all there opens no directory to list', (t) => {
  const { root } = makeTree(t, files);
  const { fs, seen } = counting();
  applyPatchToDirectory(root, update('src/utils.py'), { fs });
  applyPatchToDirectory(root, patchOf('*** Add File: new.txt', '+x', '*** Delete File: README.md'), { fs });
  applyUnifiedToDirectory(root, '--- /dev/null\n+++ b/added.txt\n@@ -0,0 +1 @@\n+a\n', { fs });
  assert.deepEqual(seen, { dirs: 0, entries: 0 });
  failure(() => applyPatchToDirectory(root, update('src/utlis.py'), { fs }));
  // The root, src and lib: every entry read once.
  assert.deepEqual(seen, { dirs: 3, entries: 6 });
});

test('the listing is bounded: past 10,000 entries it stops, and the directory is a partial map as before', (t) => {
  const { root } = makeTree(t, files);
  mkdirSync(join(root, 'data'));
  for (let i = 0; i < 9_995; i++) writeFileSync(join(root, 'data', `f${i}`), '');
  // 3 files + 2 directories + data + 9,995 = 10,001 entries: one past the bound.
  const { fs, seen } = counting();
  const e = failure(() => applyPatchToDirectory(root, update('src/utlis.py'), { fs }));
  assert.equal(seen.entries, 10_001);
  assert.equal(
    e.message,
    "src/utlis.py: there is no file at this path to update. Nothing was applied. Check the path (it is used exactly as written, relative to the project root); to create the file, write '*** Add File: src/utlis.py' instead, with every line of the new file starting with '+'.",
  );
  // Unknown files: a Delete of a missing path is not taken as done (nor its typo told).
  assert.equal(
    failure(() => applyPatchToDirectory(root, del('docs/old-notes.txt'), { fs })).message,
    "docs/old-notes.txt: there is no file at this path to delete (it may be deleted already, or the path misspelt). Nothing was applied. Check the path, or leave out '*** Delete File: docs/old-notes.txt' and send the rest again.",
  );
  // One entry fewer: listed in full.
  nodeFs.unlinkSync(join(root, 'data', 'f0'));
  seen.entries = 0;
  assert.equal(failure(() => applyPatchToDirectory(root, update('src/utlis.py'), { fs })).message, UPDATE_MESSAGE);
  assert.equal(seen.entries, 10_000);
});

test('the listing does not enter .git, node_modules or symlinks, and stops 32 directories down', (t) => {
  const { root } = makeTree(t, {
    ...files,
    '.git/objects/utlis.py': 'x\n',
    'node_modules/pkg/utlis.py': 'x\n',
  });
  symlinkSync(join(root, 'src'), join(root, 'linked'));
  const { fs, seen } = counting();
  assert.equal(failure(() => applyPatchToDirectory(root, update('src/utlis.py'), { fs })).message, UPDATE_MESSAGE);
  // root (6 entries), src, lib: .git, node_modules and the symlink are read as names only.
  assert.deepEqual(seen, { dirs: 3, entries: 8 });
  // A missing path inside node_modules: not listed (its near paths would be there).
  const inside = failure(() => applyPatchToDirectory(root, del('node_modules/pkg/utils.py')));
  assert.match(inside.message, /^node_modules\/pkg\/utils\.py: there is no file at this path to delete \(it may be deleted already/);
  // 33 directories down: deeper than the bound, so nothing is listed.
  const deep = Array.from({ length: 33 }, (_, i) => `d${i}`).join('/');
  mkdirSync(join(root, deep), { recursive: true });
  assert.doesNotMatch(failure(() => applyPatchToDirectory(root, update('src/utlis.py'))).message, /similar paths/);
  nodeFs.rmSync(
    join(root, 'd0/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17/d18/d19/d20/d21/d22/d23/d24/d25/d26/d27/d28/d29/d30/d31/d32'),
    {
      recursive: true,
    },
  );
  assert.equal(failure(() => applyPatchToDirectory(root, update('src/utlis.py'))).message, UPDATE_MESSAGE);
});
