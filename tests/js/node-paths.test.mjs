// Directory paths the helpers must get right: long names, a file replaced by
// a directory and back in one patch, binary files, and bad paths refused
// with the right code.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, linkSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { PatchError } from 'applypatch';
import { applyPatchToDirectory } from 'applypatch/node';
import { makeTree, patchOf, read, snapshot } from './fs-helpers.mjs';

const here = import.meta.dirname ?? new URL('.', import.meta.url).pathname;
const bin = join(here, '..', '..', 'dist', 'cli.cjs');

function refused(fn, code, message, root) {
  const before = snapshot(root);
  assert.throws(fn, (e) => {
    assert.ok(e instanceof PatchError, e?.stack);
    assert.equal(e.code, code);
    if (message !== undefined) assert.equal(e.message, message);
    return true;
  });
  assert.deepEqual(snapshot(root), before);
}

test('file names of 225 to 255 bytes can be added, updated, moved and deleted', (t) => {
  const { root } = makeTree(t, {});
  for (const length of [225, 240, 255]) {
    const name = `${'n'.repeat(length - 4)}.txt`;
    const other = `${'m'.repeat(length - 4)}.txt`;
    applyPatchToDirectory(root, patchOf(`*** Add File: ${name}`, '+one'));
    applyPatchToDirectory(root, patchOf(`*** Update File: ${name}`, '@@', '-one', '+two'));
    assert.equal(read(root, name), 'two\n');
    applyPatchToDirectory(root, patchOf(`*** Update File: ${name}`, `*** Move to: ${other}`, '@@', '-two', '+three'));
    assert.equal(read(root, other), 'three\n');
    applyPatchToDirectory(root, patchOf(`*** Delete File: ${other}`));
    assert.deepEqual(readdirSync(root), []);
  }
});

test('a patch deleting x and adding x/y applies, and the reverse', (t) => {
  const { root } = makeTree(t, { x: 'a file\n', 'd/only.txt': 'only\n' });
  applyPatchToDirectory(root, patchOf('*** Delete File: x', '*** Add File: x/y', '+now a directory'));
  assert.equal(read(root, 'x/y'), 'now a directory\n');
  applyPatchToDirectory(root, patchOf('*** Delete File: x/y', '*** Add File: x', '+a file again'));
  assert.equal(read(root, 'x'), 'a file again\n');
  // A move of the file into a directory of its own name.
  applyPatchToDirectory(root, patchOf('*** Update File: x', '*** Move to: x/x', '@@', '-a file again', '+moved'));
  assert.equal(read(root, 'x/x'), 'moved\n');
  // And back: x/x was the only file in x.
  applyPatchToDirectory(root, patchOf('*** Delete File: x/x', '*** Add File: x', '+x'));
  assert.equal(read(root, 'x'), 'x\n');
  applyPatchToDirectory(root, patchOf('*** Delete File: d/only.txt', '*** Add File: d', '+d'));
  assert.equal(read(root, 'd'), 'd\n');
  assert.deepEqual(readdirSync(root).sort(), ['d', 'x']);
});

test('a directory that keeps other files cannot become a file: the error says so, nothing is written', (t) => {
  const { root } = makeTree(t, { 'x/y': 'y\n', 'x/z': 'z\n' });
  const before = snapshot(root);
  assert.throws(
    () => applyPatchToDirectory(root, patchOf('*** Delete File: x/y', '*** Add File: x', '+x')),
    (e) =>
      e.code === 'write_failed' &&
      /^Could not write x: .*ENOTEMPTY.*Nothing was written: every file is as it was \(the change already made was undone\)\.$/.test(
        e.message,
      ),
  );
  assert.deepEqual(snapshot(root), before);
});

test('binary files: a move onto one writes the moved text; a patch may write any text, NULs included', (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]);
  const { root } = makeTree(t, { 'img.png': png, 'a.txt': 'a\n' });
  applyPatchToDirectory(root, patchOf('*** Update File: a.txt', '*** Move to: img.png', '@@', '-a', '+moved'));
  assert.equal(read(root, 'img.png'), 'moved\n');
  assert.ok(!existsSync(join(root, 'a.txt')));
  // The text of the old in-band marker for unread files is just text now.
  applyPatchToDirectory(root, patchOf('*** Add File: marker.txt', '+\0applypatch: not text\0'));
  assert.equal(read(root, 'marker.txt'), '\0applypatch: not text\0\n');
  applyPatchToDirectory(root, patchOf('*** Add File: other.png', '+\0applypatch: not text\0'));
});

test('bad paths are refused with the documented code, before anything is written', (t) => {
  const { base, root } = makeTree(t, { 'f.txt': 'f\n', 'a.txt': 'a\n' });
  symlinkSync(join(base, 'nowhere'), join(root, 'dangling'));
  symlinkSync('missing.txt', join(root, 'dangling-inside'));
  const first = ['*** Update File: a.txt', '@@', '-a', '+b'];
  refused(
    () => applyPatchToDirectory(root, patchOf(...first, '*** Add File: newdir/', '+x')),
    'invalid_path',
    'The path newdir/ ends with a slash: it names a directory, not a file. Nothing was written.',
    root,
  );
  refused(
    () => applyPatchToDirectory(root, patchOf(...first, '*** Add File: f.txt/x', '+x')),
    'invalid_path',
    'f.txt (in f.txt/x) is a file, not a directory, so f.txt/x cannot be there. Nothing was written.',
    root,
  );
  refused(() => applyPatchToDirectory(root, patchOf(...first, '*** Add File: dangling', '+x')), 'path_outside_root', undefined, root);
  refused(
    () => applyPatchToDirectory(root, patchOf(...first, '*** Add File: dangling-inside', '+x')),
    'path_outside_root',
    `dangling-inside is a symlink that leads nowhere (${join(realpathSync(root), 'missing.txt')} does not exist); it is not followed. Nothing was written.`,
    root,
  );
});

test('the CLI: EPIPE after applying still exits 0, and the patch is applied', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n' });
  const code = await new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, '--dry-run'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
    p.stdout.destroy(); // the reader went away: every write to stdout fails with EPIPE
    p.on('exit', resolve);
    p.stdin.end(patchOf('*** Update File: a.txt', '@@', '-a', '+b'));
  });
  assert.equal(code, 0);
  const applied = await new Promise((resolve) => {
    const p = spawn(process.execPath, [bin], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
    p.stdout.destroy();
    p.on('exit', resolve);
    p.stdin.end(patchOf('*** Update File: a.txt', '@@', '-a', '+b'));
  });
  assert.equal(applied, 0);
  assert.equal(read(root, 'a.txt'), 'b\n');
});

test('the CLI: an unexpected failure exits 70, with one JSON object under --json', async (t) => {
  const { root } = makeTree(t, {});
  const require = createRequire(import.meta.url);
  require('applypatch/node');
  const { main } = require('../../dist/cjs/node/cli.js');
  for (const json of [true, false]) {
    let stdout = '';
    let stderr = '';
    const code = await main(json ? ['--json'] : [], {
      stdout: (s) => {
        stdout += s;
      },
      stderr: (s) => {
        stderr += s;
      },
      stdin: async () => {
        throw new TypeError('injected');
      },
      cwd: root,
    });
    assert.equal(code, 70);
    const message =
      'Internal error: TypeError: injected. Files may or may not have been changed: check them (git status). Please report this with the patch.';
    if (json) assert.deepEqual(JSON.parse(stdout), { ok: false, error: { code: 'internal_error', message } });
    else assert.equal(stdout, '');
    assert.ok(stderr.startsWith(`applypatch: ${message}\nTypeError: injected\n`), stderr);
  }
});

test('x/y deleted and x added, then the write of x fails: x/y is back in its directory', (t) => {
  const { root } = makeTree(t, { 'x/y': 'y\n', 'a.txt': 'a\n' });
  const before = snapshot(root);
  const fs = {
    linkSync: (from, to) => {
      if (to.endsWith('/x')) throw Object.assign(new Error('injected'), { code: 'EIO' });
      return linkSync(from, to);
    },
  };
  assert.throws(
    () =>
      applyPatchToDirectory(root, patchOf('*** Delete File: x/y', '*** Update File: a.txt', '@@', '-a', '+b', '*** Add File: x', '+x'), {
        fs,
      }),
    (e) =>
      e.code === 'write_failed' &&
      e.message ===
        'Could not write x: input/output error (EIO). Nothing was written: every file is as it was (the 2 changes already made were undone).',
  );
  assert.deepEqual(snapshot(root), before);
});
