// applyPatchToDirectory (applypatch/node) on real temporary directories: the
// directory safety shared by the editor and the command line.
import assert from 'node:assert/strict';
import { existsSync, linkSync, lstatSync, mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PatchError } from 'applypatch';
import { applyPatchToDirectory } from 'applypatch/node';
import { makeTree, modeOf, patchOf, read, snapshot } from './fs-helpers.mjs';

/** Runs `fn`, expects a PatchError with `fields`, and that `dirs` are unchanged. */
function refused(fn, fields, ...dirs) {
  const before = dirs.map(snapshot);
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PatchError, `expected a PatchError, got ${e?.stack ?? e}`);
    for (const [k, v] of Object.entries(fields)) assert.deepEqual(e[k], v, `${k} of: ${e.message}`);
    for (const [i, d] of dirs.entries()) assert.deepEqual(snapshot(d), before[i], `${d} changed`);
    return e;
  }
  assert.fail('expected a PatchError');
}

test('applies updates, adds in new directories, deletes and moves; keeps modes', (t) => {
  const { root } = makeTree(t, {
    'src/app.py': 'def main():\n    print("hi")\n',
    'run.sh': { contents: '#!/bin/sh\necho one\n', mode: 0o755 },
    'secret.txt': { contents: 'a\nb\n', mode: 0o600 },
    'old.txt': 'bye\n',
  });
  const patch = patchOf(
    '*** Update File: src/app.py',
    '@@ def main():',
    '-    print("hi")',
    '+    print("hello")',
    '*** Update File: run.sh',
    '@@',
    '-echo one',
    '+echo two',
    '*** Update File: secret.txt',
    '*** Move to: deep/er/secret.txt',
    '@@',
    ' a',
    '-b',
    '+B',
    '*** Add File: docs/new/notes.md',
    '+# Notes',
    '*** Delete File: old.txt',
  );
  const result = applyPatchToDirectory(root, patch);
  assert.deepEqual(result, {
    applied: true,
    changes: [
      { path: 'src/app.py', status: 'modified' },
      { path: 'run.sh', status: 'modified' },
      { path: 'secret.txt', status: 'deleted' },
      { path: 'deep/er/secret.txt', status: 'added', movedFrom: 'secret.txt' },
      { path: 'docs/new/notes.md', status: 'added' },
      { path: 'old.txt', status: 'deleted' },
    ],
  });
  assert.equal(read(root, 'src/app.py'), 'def main():\n    print("hello")\n');
  assert.equal(read(root, 'run.sh'), '#!/bin/sh\necho two\n');
  assert.equal(modeOf(root, 'run.sh'), '755');
  assert.equal(read(root, 'deep/er/secret.txt'), 'a\nB\n');
  assert.equal(modeOf(root, 'deep/er/secret.txt'), '600', 'a moved file keeps its mode');
  assert.equal(read(root, 'docs/new/notes.md'), '# Notes\n');
  assert.ok(!existsSync(join(root, 'old.txt')));
  assert.ok(!existsSync(join(root, 'secret.txt')));
  assert.deepEqual(
    Object.keys(snapshot(root)).filter((p) => p.includes('.tmp')),
    [],
  );
});

test('CRLF files keep CRLF, in both modes; a BOM is kept', (t) => {
  const { root } = makeTree(t, { 'win.txt': 'alpha\r\nbeta\r\n', 'bom.txt': '\uFEFFfirst\nsecond\n' });
  for (const mode of ['strict', 'codex']) {
    writeFileSync(join(root, 'win.txt'), 'alpha\r\nbeta\r\n');
    applyPatchToDirectory(root, patchOf('*** Update File: win.txt', '@@', ' alpha', '+inserted', ' beta'), { mode });
    assert.equal(read(root, 'win.txt'), 'alpha\r\ninserted\r\nbeta\r\n', mode);
  }
  // A CRLF patch is read as well.
  applyPatchToDirectory(root, patchOf('*** Update File: bom.txt', '@@', '-second', '+2nd').replaceAll('\n', '\r\n'));
  assert.equal(read(root, 'bom.txt'), '\uFEFFfirst\n2nd\n');
});

test('escapes are refused and nothing is written: ../, absolute, symlinks leading outside', (t) => {
  const { base, root } = makeTree(t, { 'a.txt': 'a\n', 'inner/real.txt': 'real\n' });
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'target.txt'), 'outside\n');
  symlinkSync(outside, join(root, 'linkdir'));
  symlinkSync(join(outside, 'target.txt'), join(root, 'linkfile.txt'));
  symlinkSync('../../outside/target.txt', join(root, 'inner', 'rel-link.txt'));
  const update = patchOf('*** Update File: a.txt', '@@', '-a', '+changed');
  const attempts = [
    ['*** Add File: ../escaped.txt', '+x'],
    ['*** Add File: inner/../../escaped.txt', '+x'],
    [`*** Add File: ${join(base, 'abs.txt')}`, '+x'],
    [`*** Add File: ${join(root, 'inside-but-absolute.txt')}`, '+x'],
    ['*** Add File: linkdir/evil.txt', '+x'],
    ['*** Update File: linkfile.txt', '@@', '-outside', '+owned'],
    ['*** Delete File: linkfile.txt'],
    ['*** Update File: inner/rel-link.txt', '@@', '-outside', '+owned'],
    ['*** Update File: a.txt', '*** Move to: ../moved.txt', '@@', '-a', '+b'],
  ];
  for (const lines of attempts) {
    // The escape comes last, after an update that would apply: nothing is written at all.
    const patch = update.replace('*** End Patch', [...lines, '*** End Patch'].join('\n'));
    const e = refused(() => applyPatchToDirectory(root, patch), { code: 'path_outside_root' }, root, base);
    assert.match(e.message, /Nothing was written\.$/);
    assert.match(e.message, /absolute|leaves the root|outside the root/);
  }
  assert.equal(read(outside, 'target.txt'), 'outside\n');
  assert.ok(!existsSync(join(base, 'escaped.txt')));
});

test('symlinks inside the root are followed for writes and kept', (t) => {
  const { root } = makeTree(t, { 'inner/real.txt': 'one\n' });
  symlinkSync('inner/real.txt', join(root, 'alias.txt'));
  applyPatchToDirectory(root, patchOf('*** Update File: alias.txt', '@@', '-one', '+two'));
  assert.equal(read(root, 'inner/real.txt'), 'two\n');
  assert.ok(lstatSync(join(root, 'alias.txt')).isSymbolicLink());
  // Two spellings of one file in a patch are refused: each would see the old text.
  refused(
    () =>
      applyPatchToDirectory(
        root,
        patchOf('*** Update File: alias.txt', '@@', '-two', '+x', '*** Update File: inner/real.txt', '@@', '-two', '+y'),
      ),
    { code: 'invalid_path', path: 'inner/real.txt' },
    root,
  );
  refused(
    () => applyPatchToDirectory(root, patchOf('*** Add File: ./n.txt', '+a', '*** Add File: n.txt', '+b')),
    { code: 'invalid_path' },
    root,
  );
  // Deleting a link deletes the link, not its target.
  applyPatchToDirectory(root, patchOf('*** Delete File: alias.txt'));
  assert.ok(!existsSync(join(root, 'alias.txt')));
  assert.equal(read(root, 'inner/real.txt'), 'two\n');
});

test('a failing last operation writes nothing', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  const patch = patchOf(
    '*** Update File: a.txt',
    '@@',
    '-a',
    '+A',
    '*** Add File: new/n.txt',
    '+n',
    '*** Delete File: b.txt',
    '*** Update File: c.txt',
    '@@',
    '-not in the file',
    '+x',
  );
  for (const mode of ['strict', 'codex']) {
    // Line 11 of the patch is '-not in the file'.
    refused(
      () => applyPatchToDirectory(root, patch, { mode }),
      { code: 'context_not_found', path: 'c.txt', operation: 3, diffLine: 11 },
      root,
    );
  }
  refused(
    () => applyPatchToDirectory(root, patch.replace('*** Update File: c.txt', '*** Update File: missing.txt')),
    { code: 'file_not_found', path: 'missing.txt' },
    root,
  );
});

test('a path through a file is refused as a bad path before anything is written', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', 'f.txt': 'a file\n', 'd.txt': 'd\n' });
  const patch = patchOf(
    '*** Update File: a.txt',
    '@@',
    '-a',
    '+A',
    '*** Add File: new/deep/b.txt',
    '+b',
    '*** Delete File: d.txt',
    '*** Add File: f.txt/c.txt',
    '+c',
  );
  const e = refused(() => applyPatchToDirectory(root, patch), { code: 'invalid_path', path: 'f.txt/c.txt' }, root);
  assert.equal(e.message, 'f.txt (in f.txt/c.txt) is a file, not a directory, so f.txt/c.txt cannot be there. Nothing was written.');
});

/** node:fs with one function failing on its `nth` call (1-based) with `code`. */
function failing(name, nth, code = 'EIO') {
  let calls = 0;
  const fs = {
    [name]: (...args) => {
      if (++calls === nth) throw Object.assign(new Error(`${code}: injected failure, ${name}`), { code });
      return { renameSync, unlinkSync, linkSync }[name](...args);
    },
  };
  return fs;
}

test('a rename that fails after files were replaced: they are restored, with their modes', (t) => {
  const { root } = makeTree(t, {
    'a.txt': 'a\n',
    'b.sh': { contents: 'b\n', mode: 0o750 },
    'z.txt': 'z\n',
  });
  const patch = patchOf(
    '*** Update File: a.txt',
    '@@',
    '-a',
    '+A',
    '*** Update File: b.sh',
    '@@',
    '-b',
    '+B',
    '*** Add File: new/c.txt',
    '+c',
    '*** Delete File: z.txt',
  );
  // Links: the claims on z.txt (deleted first), a.txt and b.sh, then new/c.txt's fails.
  const e = refused(
    () => applyPatchToDirectory(root, patch, { fs: failing('linkSync', 4) }),
    { code: 'write_failed', path: 'new/c.txt' },
    root,
  );
  assert.match(
    e.message,
    /input\/output error \(EIO\)\. Nothing was written: every file is as it was \(the 3 changes already made were undone\)\.$/,
  );
  // The same patch applies when nothing fails.
  applyPatchToDirectory(root, patch);
  assert.equal(read(root, 'b.sh'), 'B\n');
  assert.equal(modeOf(root, 'b.sh'), '750');
});

test('a delete that fails after others: deleted files come back, replaced ones too', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', 'd1.txt': { contents: 'one\n', mode: 0o640 }, 'd2.txt': 'two\n', 'keep.txt': 'k\n' });
  symlinkSync('keep.txt', join(root, 'link.txt'));
  const patch = patchOf(
    '*** Update File: a.txt',
    '@@',
    '-a',
    '+A',
    '*** Delete File: d1.txt',
    '*** Delete File: link.txt',
    '*** Delete File: d2.txt',
  );
  // Removals: d1.txt, link.txt, then d2.txt fails.
  const e = refused(
    () => applyPatchToDirectory(root, patch, { fs: failing('unlinkSync', 3) }),
    { code: 'write_failed', path: 'd2.txt' },
    root,
  );
  assert.match(
    e.message,
    /^Could not delete d2\.txt: input\/output error \(EIO\)\. Nothing was written: every file is as it was \(the 2 changes already made were undone\)\.$/,
  );
});

test('when undoing fails too, the error says so', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  let broken = false;
  const fs = {
    renameSync: (from, to) => {
      if (to.endsWith('b.txt')) broken = true;
      if (broken) throw Object.assign(new Error('injected'), { code: 'ENOSPC' });
      return renameSync(from, to);
    },
  };
  const patch = patchOf('*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: b.txt', '@@', '-b', '+B');
  try {
    applyPatchToDirectory(root, patch, { fs });
    assert.fail('should throw');
  } catch (e) {
    assert.equal(e.code, 'write_failed');
    assert.match(
      e.message,
      /^Could not write b\.txt: no space left on the device \(ENOSPC\)\. Undoing the changes already made failed for a\.txt \(no space left on the device \(ENOSPC\); its old contents are in (\.ap\w+\.claim), in [^)]+\): check those files\. The other files are as they were\.$/,
    );
    assert.equal(read(root, e.message.match(/(\.ap\w+\.claim)/)[1]), 'a\n');
    assert.doesNotMatch(e.message, /Nothing was written/);
  }
  assert.equal(read(root, 'a.txt'), 'A\n', 'the honest report matches the disk');
  assert.equal(read(root, 'b.txt'), 'b\n');
});

test('binary and non-UTF-8 files are never read as text; they may be deleted or replaced', (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
  const latin1 = Buffer.from('caf\xe9\n', 'latin1');
  const { root } = makeTree(t, { 'img.png': png, 'latin1.txt': latin1, 'nul.txt': 'a\0b\n', 'other.png': png });
  for (const path of ['img.png', 'latin1.txt', 'nul.txt']) {
    const e = refused(
      () => applyPatchToDirectory(root, patchOf(`*** Update File: ${path}`, '@@', '-x', '+y')),
      { code: 'binary_file', path },
      root,
    );
    assert.match(e.message, /is not UTF-8 text/);
    refused(
      () => applyPatchToDirectory(root, patchOf(`*** Update File: ${path}`, `*** Move to: moved-${path}`, '@@', '-x', '+y')),
      { code: 'binary_file' },
      root,
    );
  }
  const result = applyPatchToDirectory(root, patchOf('*** Delete File: img.png', '*** Add File: other.png', '+now text'), { dryRun: true });
  assert.match(result.diff, /^Binary file img\.png deleted\n/m);
  assert.match(result.diff, /^Binary file other\.png replaced\n/m);
  applyPatchToDirectory(root, patchOf('*** Delete File: img.png', '*** Add File: other.png', '+now text'));
  assert.ok(!existsSync(join(root, 'img.png')));
  assert.equal(read(root, 'other.png'), 'now text\n');
  assert.deepEqual(snapshot(root)['latin1.txt'].bytes, latin1.toString('base64'));
});

test('directories and other non-files are refused', (t) => {
  const { root } = makeTree(t, { 'dir/x.txt': 'x\n' });
  refused(() => applyPatchToDirectory(root, patchOf('*** Update File: dir', '@@', '-x', '+y')), { code: 'not_a_file', path: 'dir' }, root);
  refused(() => applyPatchToDirectory(root, patchOf('*** Add File: dir', '+y')), { code: 'not_a_file' }, root);
  refused(() => applyPatchToDirectory(root, patchOf('*** Delete File: dir')), { code: 'not_a_file' }, root);
  refused(() => applyPatchToDirectory(root, patchOf('*** Add File: .', '+y')), { code: 'invalid_path' }, root);
  assert.throws(
    () => applyPatchToDirectory(join(root, 'dir', 'x.txt'), patchOf('*** Add File: a', '+a')),
    (e) => e.code === 'not_a_file',
  );
  assert.throws(
    () => applyPatchToDirectory(join(root, 'missing'), patchOf('*** Add File: a', '+a')),
    (e) => e.code === 'read_failed',
  );
  assert.throws(() => applyPatchToDirectory(42, ''), TypeError);
});

test('dry run: a unified diff of every change, nothing written', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\ntwo\nthree\n', 'gone.txt': 'bye\n', 'm.txt': 'm1\nm2' });
  const patch = patchOf(
    '*** Update File: a.txt',
    '@@',
    ' one',
    '-two',
    '+2',
    '*** Add File: n.txt',
    '+new',
    '*** Delete File: gone.txt',
    '*** Update File: m.txt',
    '*** Move to: moved/m.txt',
    '@@',
    '-m2',
    '+M2',
  );
  const before = snapshot(root);
  const result = applyPatchToDirectory(root, patch, { dryRun: true });
  assert.deepEqual(snapshot(root), before);
  assert.equal(result.applied, false);
  assert.equal(
    result.diff,
    [
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+2',
      ' three',
      '--- /dev/null',
      '+++ b/n.txt',
      '@@ -0,0 +1 @@',
      '+new',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '--- a/m.txt',
      '+++ b/moved/m.txt',
      '@@ -1,2 +1,2 @@',
      ' m1',
      '-m2',
      '\\ No newline at end of file',
      '+M2',
      '\\ No newline at end of file',
      '',
    ].join('\n'),
  );
  // The diff describes what applying writes.
  applyPatchToDirectory(root, patch);
  assert.equal(read(root, 'moved/m.txt'), 'm1\nM2');
});
