// The applypatch command (dist/cli.cjs, the package's "bin"), run as a
// process on real temporary directories.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeTree, modeOf, patchOf, read, snapshot } from './fs-helpers.mjs';

const require = createRequire(import.meta.url);
const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

function cli(args, { cwd, input } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input: input ?? '', encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const patch = patchOf(
  '*** Update File: src/app.py',
  '@@ def main():',
  '-    print("hi")',
  '+    print("hello")',
  '*** Add File: notes/todo.txt',
  '+write tests',
  '*** Delete File: old.txt',
);
const files = { 'src/app.py': 'def main():\n    print("hi")\n', 'old.txt': 'bye\n', 'tool.sh': { contents: 'echo 1\n', mode: 0o755 } };

test('package.json declares the bin and ships it', () => {
  assert.deepEqual(pkg.bin, { applypatch: 'dist/cli.cjs' });
  assert.match(readFileSync(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/);
});

test('applies a patch from a file and prints the Codex summary', (t) => {
  const { root } = makeTree(t, files);
  writeFileSync(join(root, 'change.patch'), patch);
  const r = cli(['change.patch'], { cwd: root });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Success. Updated the following files:\nA notes/todo.txt\nM src/app.py\nD old.txt\n');
  assert.equal(read(root, 'src/app.py'), 'def main():\n    print("hello")\n');
  assert.equal(read(root, 'notes/todo.txt'), 'write tests\n');
  assert.ok(!existsSync(join(root, 'old.txt')));
});

test('reads standard input (no argument, or -), and --cwd', (t) => {
  const { base, root } = makeTree(t, files);
  let r = cli(['--cwd', root, '-'], { cwd: base, input: patch });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(read(root, 'notes/todo.txt'), 'write tests\n');
  r = cli([`--cwd=${root}`], { cwd: base, input: patchOf('*** Update File: tool.sh', '@@', '-echo 1', '+echo 2') });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(read(root, 'tool.sh'), 'echo 2\n');
  assert.equal(modeOf(root, 'tool.sh'), '755');
});

test('--dry-run prints a unified diff and writes nothing', (t) => {
  const { root } = makeTree(t, files);
  const before = snapshot(root);
  const r = cli(['--dry-run'], { cwd: root, input: patch });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(root), before);
  assert.equal(
    r.stdout,
    [
      '--- a/src/app.py',
      '+++ b/src/app.py',
      '@@ -1,2 +1,2 @@',
      ' def main():',
      '-    print("hi")',
      '+    print("hello")',
      '--- /dev/null',
      '+++ b/notes/todo.txt',
      '@@ -0,0 +1 @@',
      '+write tests',
      '--- a/old.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '',
    ].join('\n'),
  );
  assert.match(r.stderr, /dry run: the patch applies \(3 files would change\); nothing was written/);
});

test('--json: the result and the error as JSON', (t) => {
  const { root } = makeTree(t, files);
  let r = cli(['--json', '--dry-run'], { cwd: root, input: patch });
  assert.equal(r.code, 0);
  let out = JSON.parse(r.stdout);
  assert.equal(out.ok, true);
  assert.equal(out.applied, false);
  assert.match(out.diff, /^--- a\/src\/app\.py\n/);
  r = cli(['--json'], { cwd: root, input: patch });
  assert.equal(r.code, 0);
  out = JSON.parse(r.stdout);
  assert.deepEqual(out, {
    ok: true,
    applied: true,
    changes: [
      { path: 'src/app.py', status: 'modified' },
      { path: 'notes/todo.txt', status: 'added' },
      { path: 'old.txt', status: 'deleted' },
    ],
    summary: 'Success. Updated the following files:\nA notes/todo.txt\nM src/app.py\nD old.txt\n',
  });
  // Applying it again fails: the change is already there.
  const before = snapshot(root);
  r = cli(['--json'], { cwd: root, input: patch });
  assert.equal(r.code, 1);
  out = JSON.parse(r.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.error.code, 'already_applied');
  assert.equal(out.error.hunk, 1);
  assert.equal(out.error.line, 2);
  assert.match(
    out.error.message,
    /^The patch is already applied: operation 1 \(update src\/app\.py, patch line 2\); operation 2 \(add notes\/todo\.txt/,
  );
  assert.deepEqual(snapshot(root), before);
  r = cli(['--json', '--mode', 'fuzzy'], { cwd: root, input: patch });
  assert.equal(r.code, 2);
  assert.deepEqual(JSON.parse(r.stdout), {
    ok: false,
    error: { code: 'usage', message: "--mode must be strict or codex or git, got 'fuzzy'" },
  });
});

test('a patch that does not apply: exit 1, the file, hunk and line named, nothing written', (t) => {
  const { root } = makeTree(t, { ...files, 'b.txt': 'b1\nb2\n' });
  const failing = patchOf(
    '*** Update File: src/app.py',
    '@@ def main():',
    '-    print("hi")',
    '+    print("hello")',
    '*** Update File: b.txt',
    '@@',
    ' b1',
    '-b3',
    '+b4',
  );
  const before = snapshot(root);
  for (const mode of ['strict', 'codex']) {
    const r = cli(['--mode', mode], { cwd: root, input: failing });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    // Patch line 9 ('-b3') is the first line that differs from the file.
    assert.match(r.stderr, /^applypatch: error\[context_not_found\] in b\.txt \(hunk 2, patch line 9\)\. Nothing was written\.\n/);
    assert.deepEqual(snapshot(root), before);
  }
  let r = cli([], { cwd: root, input: patchOf('*** Add File: ../outside.txt', '+x') });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error\[path_outside_root\] in \.\.\/outside\.txt\. Nothing was written\.\n.*leaves the root directory/);
  r = cli([], { cwd: root, input: 'not a patch' });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /error\[invalid_patch\] \(patch line 1\)\. Nothing was written\.\nInvalid patch: The first line of the patch must be '\*\*\* Begin Patch'/,
  );
});

/** Runs the command in this process (main() with captured output), so node:fs can be replaced. */
async function cliIn(args, { cwd, input, fs }) {
  require('applypatch/node');
  const { main } = require('../../dist/cjs/node/cli.js');
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    stdin: async () => Buffer.from(input),
    cwd,
    ...(fs ? { fs } : {}),
  });
  return { code, stdout, stderr };
}

test('a write that fails midway: exit 1, everything undone', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const before = snapshot(root);
  // The second file's link into place fails, after a.txt was replaced.
  let calls = 0;
  const fs = {
    linkSync: (from, to) => {
      if (++calls === 2) throw Object.assign(new Error('injected'), { code: 'EIO' });
      return linkSync(from, to);
    },
  };
  const input = patchOf('*** Update File: a.txt', '@@', '-a', '+A', '*** Add File: new/x.txt', '+x');
  const r = await cliIn([], { cwd: root, input, fs });
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    'applypatch: error[write_failed] in new/x.txt.\nCould not write new/x.txt: input/output error (EIO). Nothing was written: every file is as it was (the change already made was undone).\n',
  );
  assert.deepEqual(snapshot(root), before);
});

test('a path through a file is a bad path: exit 1, nothing written', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'a\n', blocker: 'a file\n' });
  const before = snapshot(root);
  const r = cli(['--json'], { cwd: root, input: patchOf('*** Update File: a.txt', '@@', '-a', '+A', '*** Add File: blocker/x.txt', '+x') });
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout).error, {
    code: 'invalid_path',
    message: 'blocker (in blocker/x.txt) is a file, not a directory, so blocker/x.txt cannot be there. Nothing was written.',
    path: 'blocker/x.txt',
  });
  assert.deepEqual(snapshot(root), before);
});

test('usage errors exit 2', (t) => {
  const { root } = makeTree(t, files);
  const cases = [
    [['--bogus'], /unknown option --bogus/],
    [['--mode'], /--mode needs a value/],
    [['--mode', 'fuzzy'], /--mode must be strict or codex/],
    [['a.patch', 'b.patch'], /one patch file at most/],
    [['missing.patch'], /cannot read missing\.patch/],
    [['--cwd', 'nowhere'], /--cwd nowhere: no such directory/],
    [['--format', 'blocks'], /--format blocks needs --file PATH/],
    [['--format', 'patch', '--file', 'a.txt'], /--file is for --format blocks/],
    [['--dry-run=yes'], /--dry-run takes no value/],
  ];
  for (const [args, message] of cases) {
    const r = cli(args, { cwd: root, input: patch });
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.match(r.stderr, /Run 'applypatch --help' for usage\./);
  }
  writeFileSync(join(root, 'latin1.patch'), Buffer.from('*** Begin Patch\n*** Add File: x\n+caf\xe9\n*** End Patch\n', 'latin1'));
  const r = cli(['latin1.patch'], { cwd: root });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /latin1\.patch is not UTF-8 text/);
  assert.ok(!existsSync(join(root, 'x')));
});

test('--help explains everything; --version', () => {
  const r = cli(['--help']);
  assert.equal(r.code, 0);
  for (const word of [
    '--mode strict|codex|git',
    '--cwd DIR',
    '--dry-run',
    '--json',
    '--format patch|unified|blocks',
    '--file PATH',
    'Exit status',
    '0  the patch applied',
    '1  the patch did not apply',
    '2  usage error',
    'symlinks',
  ]) {
    assert.ok(r.stdout.includes(word), word);
  }
  assert.equal(cli(['--version']).stdout, `${pkg.version}\n`);
});

// ---- --format blocks ----

const blocksText = '<<<<<<< SEARCH\ndef f():\n    return 1\n=======\ndef f():\n    return 2\n>>>>>>> REPLACE\n';

test('--format blocks: dry run, applied with its mode kept, a block that does not match, escapes', (t) => {
  const { root } = makeTree(t, { 'a.py': { contents: 'def f():\n    return 1\n', mode: 0o640 }, 'b.py': 'x = 1\n' });
  // Dry run: a diff, nothing written.
  let r = cli(['--format', 'blocks', '--file', 'a.py', '--dry-run'], { cwd: root, input: blocksText });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n');
  assert.equal(read(root, 'a.py'), 'def f():\n    return 1\n');
  // Applied, mode kept.
  r = cli(['--format', 'blocks', '--file', 'a.py'], { cwd: root, input: blocksText });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Applied 1 edit block to a\.py \(exact\)\.\n$/);
  assert.equal(read(root, 'a.py'), 'def f():\n    return 2\n');
  assert.equal(modeOf(root, 'a.py'), '640');
  // A block whose SEARCH text is nowhere in the file: exit 1, nothing written.
  const before = snapshot(root);
  const absent = '<<<<<<< SEARCH\nclass Nowhere:\n    pass\n=======\nclass Somewhere:\n    pass\n>>>>>>> REPLACE\n';
  r = cli(['--format', 'blocks', '--file', 'a.py', '--json'], {
    cwd: root,
    input: blocksText.replace('return 2', 'return 3').replace('return 1', 'return 2') + absent,
  });
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.error.code, 'no_match');
  assert.equal(out.error.block, 2);
  assert.match(r.stderr, /Block 2 of 2 did not match a\.py\. Blocks 1-1 matched but were not written either/);
  // Paths stay inside the directory.
  r = cli(['--format', 'blocks', '--file', '../a.py'], { cwd: root, input: blocksText });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error\[path_outside_root\]/);
  // No block in the input.
  r = cli(['--format', 'blocks', '--file', 'b.py'], { cwd: root, input: 'no blocks here\n' });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error\[no_blocks\]/);
  assert.deepEqual(snapshot(root), before);
});

test('--format blocks through main(): JSON results, binary files, new files, directories', async (t) => {
  require('applypatch/node');
  const { main } = require('../../dist/cjs/node/cli.js');
  const { root } = makeTree(t, { 'a.py': { contents: 'def f():\n    return 1\n', mode: 0o600 }, 'img.bin': Buffer.from([0, 1, 2]) });
  const run = async (args, input) => {
    let stdout = '';
    let stderr = '';
    const code = await main(args, {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      stdin: async () => Buffer.from(input),
      cwd: root,
    });
    return { code, stdout, stderr };
  };
  let r = await run(['--format', 'blocks', '--file', 'a.py', '--json'], blocksText);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.deepEqual({ ...json, results: undefined }, { ok: true, applied: true, path: 'a.py', blocks: 1, results: undefined });
  // Each result as applyEdits gives it, without its text.
  assert.equal(json.results.length, 1);
  assert.deepEqual(
    { ok: json.results[0].ok, strategy: json.results[0].strategy, similarity: json.results[0].similarity, start: json.results[0].start },
    { ok: true, strategy: 'exact', similarity: 1, start: 0 },
  );
  assert.equal(json.results[0].text, undefined);
  assert.equal(read(root, 'a.py'), 'def f():\n    return 2\n');
  assert.equal(modeOf(root, 'a.py'), '600');
  const two =
    blocksText.replaceAll('return 1', 'return 2').replaceAll('return 2\n>>>', 'return 3\n>>>') + blocksText.replace('return 1', 'return 9');
  const before = snapshot(root);
  r = await run(['--format', 'blocks', '--file', 'a.py'], two);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /^applypatch: error\[no_match\] in a\.py\. Nothing was written\.\nBlock 2 of 2 did not match a\.py\. Blocks 1-1 matched but were not written either/,
  );
  assert.deepEqual(snapshot(root), before);
  r = await run(['--format', 'blocks', '--file', 'img.bin'], blocksText);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error\[binary_file\]/);
  r = await run(['--format', 'blocks', '--file', 'new/file.py'], '<<<<<<< SEARCH\n=======\nprint(1)\n>>>>>>> REPLACE\n');
  assert.equal(r.code, 0, r.stderr);
  // Block bodies carry no final newline; with the safe preset a file created from an empty SEARCH ends with one (as Cline and aider write it).
  assert.equal(read(root, 'new/file.py'), 'print(1)\n');
  mkdirSync(join(root, 'd'));
  r = await run(['--format', 'blocks', '--file', 'd'], blocksText);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /error\[not_a_file\]/);
});

test('edit blocks are detected without --format: --file alone, or blocks that name their files; --json is typed CliOutput', (t) => {
  const { root } = makeTree(t, { 'a.py': 'def f():\n    return 1\n' });
  // --file alone means edit blocks.
  let r = cli(['--file', 'a.py', '--dry-run'], { cwd: root, input: blocksText });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n');
  // Blocks that name their file, detected (detectFormat says 'blocks'): applied all or nothing.
  r = cli(['--json'], { cwd: root, input: `a.py\n${blocksText}` });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    { ok: out.ok, applied: out.applied, paths: out.paths, blocks: out.blocks, strategy: out.results[0].strategy },
    { ok: true, applied: true, paths: ['a.py'], blocks: 1, strategy: 'exact' },
  );
  assert.equal(read(root, 'a.py'), 'def f():\n    return 2\n');
  // Detected blocks that name no file: the usage error says what to add.
  r = cli([], { cwd: root, input: blocksText });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--format blocks needs --file PATH \(the file the blocks edit\), or blocks that each name their file/);
  // Modes and repairs are for patches: said so, not ignored.
  r = cli(['--mode', 'codex'], { cwd: root, input: `a.py\n${blocksText}` });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--mode codex is for patches and unified diffs; this input is search\/replace edit blocks/);
  r = cli(['--repair'], { cwd: root, input: `a.py\n${blocksText}` });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--repair is for \*\*\* Begin Patch patches; this input is search\/replace edit blocks/);
});

test('--json: a move is its destination with movedFrom, and the source deleted', (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\n' });
  const r = cli(['--json'], { cwd: root, input: patchOf('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-one', '+two') });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).changes, [
    { path: 'a.txt', status: 'deleted' },
    { path: 'b.txt', status: 'added', movedFrom: 'a.txt' },
  ]);
});

test('another format than the one read: the error says which and how to run it, and that works (issue 29)', (t) => {
  const { root } = makeTree(t, { 'f.py': 'def f():\n    return 1\n' });
  const want = 'def f():\n    return 2\n';
  const diff = '@@ def f():\n-    return 1\n+    return 2\n';
  const hintOf = (r) => r.stderr.split('\n').find((l) => l.startsWith('applypatch: hint: '));
  // A bare V4A diff names no file: it goes into a patch.
  let r = cli([], { cwd: root, input: diff });
  assert.equal(r.code, 1);
  assert.equal(
    hintOf(r),
    "applypatch: hint: This input is a bare V4A update diff: it does not say which file it changes. Put it in a patch: '*** Begin Patch', then '*** Update File: PATH', then the diff, then '*** End Patch'.",
  );
  const json = JSON.parse(cli(['--json'], { cwd: root, input: diff }).stdout);
  assert.equal(json.error.hint, hintOf(r).slice('applypatch: hint: '.length));
  r = cli([], { cwd: root, input: `*** Begin Patch\n*** Update File: f.py\n${diff}*** End Patch\n` });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(read(root, 'f.py'), want);
  writeFileSync(join(root, 'f.py'), 'def f():\n    return 1\n');
  // Edit blocks read as a patch: --format blocks.
  const blocks = 'f.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n';
  r = cli(['--format', 'patch'], { cwd: root, input: blocks });
  assert.equal(r.code, 1);
  assert.equal(
    hintOf(r),
    'applypatch: hint: This input is search/replace edit blocks: run it with --format blocks, or without --format (and with --file PATH when the blocks do not name their file).',
  );
  r = cli(['--format', 'blocks'], { cwd: root, input: blocks });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(read(root, 'f.py'), want);
  writeFileSync(join(root, 'f.py'), 'def f():\n    return 1\n');
  // A unified diff read as a patch, and a patch read as a unified diff.
  const unified = '--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n';
  r = cli(['--format', 'patch'], { cwd: root, input: unified });
  assert.equal(hintOf(r), 'applypatch: hint: This input is a unified diff: run it with --format unified, or without --format.');
  r = cli(['--format', 'unified'], { cwd: root, input: unified });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(read(root, 'f.py'), want);
  const patch = `*** Begin Patch\n*** Update File: f.py\n@@\n-    return 2\n+    return 1\n*** End Patch\n`;
  r = cli(['--format', 'unified'], { cwd: root, input: patch });
  assert.equal(hintOf(r), "applypatch: hint: This input is a '*** Begin Patch' patch: run it with --format patch, or without --format.");
  assert.equal(cli(['--format', 'patch'], { cwd: root, input: patch }).code, 0);
  // The right format: no hint.
  assert.equal(hintOf(cli(['--format', 'patch'], { cwd: root, input: patch })), undefined);
});
