// merge3, the `base` option and `applypatch merge` through the package, with
// git merge-file run live: on a sample of the recorded real-history corpus
// (tests/fixtures/merge-git.json, all of which tests/merge_differential.rs
// replays without git) and on real temp files for the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { apply, applyBatch, applyFiles, applyPatch, merge3, PatchError, unifiedDiff } from 'applypatch';
import { fixture, rng } from './helpers.mjs';

const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');
const lines = (text) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
function rebuild(reference, steps) {
  const ref = lines(reference);
  let out = '';
  let at = 0;
  for (let i = 0; i < steps.length; i += 3) {
    out += ref.slice(at, at + steps[i]).join('');
    at += steps[i] + steps[i + 1];
    out += steps[i + 2];
  }
  return out + ref.slice(at).join('');
}

function gitMergeFile(dir, args) {
  const r = spawnSync('git', ['merge-file', ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

test('merge3 writes what git merge-file -p writes, live, on a sample of real triples in all three styles', () => {
  const { bases, cases } = fixture('merge-git.json');
  const random = rng(24);
  const dir = mkdtempSync(join(tmpdir(), 'merge-'));
  let compared = 0;
  try {
    for (let k = 0; k < 120; k++) {
      const c = cases[Math.floor(random() * cases.length)];
      const base = bases[c.base];
      const ours = rebuild(base, c.ours);
      const theirs = rebuild(base, c.theirs);
      writeFileSync(join(dir, 'o'), ours);
      writeFileSync(join(dir, 'b'), base);
      writeFileSync(join(dir, 't'), theirs);
      for (const style of ['merge', 'diff3', 'zdiff3']) {
        const git = gitMergeFile(dir, [
          '-p',
          ...(style === 'merge' ? [] : [`--${style}`]),
          '-L',
          'ours',
          '-L',
          'base',
          '-L',
          'theirs',
          'o',
          'b',
          't',
        ]);
        const ours3 = merge3(base, ours, theirs, { style, labels: ['ours', 'base', 'theirs'] });
        assert.equal(ours3.text, git.stdout, `${c.name} (${style})`);
        assert.equal(ours3.conflicts.length, git.status, `${c.name} (${style})`);
        assert.equal(ours3.ok, git.status === 0);
        compared++;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(compared, 360);
});

test('merge3 reports each conflict and refuses a bad style', () => {
  const r = merge3('a\nb\nc\n', 'A\nb\nc\n', 'a\nB\nc\n');
  assert.deepEqual(r, {
    ok: false,
    text: '<<<<<<<\nA\nb\n=======\na\nB\n>>>>>>>\nc\n',
    conflicts: [{ ours: [1, 2], base: [1, 2], theirs: [1, 2] }],
  });
  assert.throws(() => merge3('', '', '', { style: 'union' }), /options.style must be 'merge', 'diff3' or 'zdiff3', got "union"/);
});

const base = 'function greet(name) {\n  return "Hello " + name;\n}\n\nfunction add(a, b) {\n  return a + b;\n}\n';
// The user typed a comment at the top while the model wrote its diff.
const typed = `// greetings and sums\n${base}`;
const diff = '@@ function add(a, b) {\n-  return a + b;\n+  return Number(a) + Number(b);\n';

test('apply with base: the diff applied to base, merged into what the user typed since', () => {
  assert.throws(() => apply(typed, '@@\n-// nothing\n+x\n'), PatchError);
  assert.equal(apply(typed, diff, { base }), typed.replace('return a + b', 'return Number(a) + Number(b)'));
  assert.equal(applyBatch(typed, [diff], { base }), typed.replace('return a + b', 'return Number(a) + Number(b)'));
  // Without base nothing changes.
  assert.equal(apply(base, diff), base.replace('return a + b', 'return Number(a) + Number(b)'));
});

test('apply with base: the user changed the same line, so it throws merge_conflict and writes nothing', () => {
  const edited = base.replace('return a + b;', 'return a + b; // checked');
  let caught;
  try {
    apply(edited, diff, { base });
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof PatchError);
  assert.equal(caught.code, 'merge_conflict');
  assert.deepEqual(caught.inputLines, [6]);
  assert.deepEqual(caught.conflicts, [{ ours: [6, 6], base: [6, 6], theirs: [6, 6] }]);
  assert.equal(
    caught.message,
    'The patch was written against an earlier version of the text, and the text changed since in the same places: 1 conflict at input lines 6-6 (base lines 6-6). Nothing was applied. Read the text again and write the patch against it as it is now.',
  );
});

test('apply with base: an edit on the line next to the patched one conflicts, as in git', () => {
  const edited = base.replace('function add(a, b) {', 'function add(a, b) { // sum');
  assert.throws(
    () => apply(edited, diff, { base }),
    (e) => e.code === 'merge_conflict' && e.inputLines[0] === 5,
  );
});

const patch = [
  '*** Begin Patch',
  '*** Update File: math.js',
  '@@ function add(a, b) {',
  '-  return a + b;',
  '+  return Number(a) + Number(b);',
  '*** Add File: new.txt',
  '+new',
  '*** End Patch',
].join('\n');

test('applyPatch and applyFiles with a base map merge each file the patch changes, and only those', () => {
  const files = { 'math.js': typed, 'other.js': 'changed by the user\n' };
  const baseFiles = { 'math.js': base, 'other.js': 'as the model saw it\n' };
  const r = applyPatch(files, patch, { base: baseFiles });
  assert.deepEqual(r.files, {
    'math.js': typed.replace('return a + b', 'return Number(a) + Number(b)'),
    'other.js': 'changed by the user\n',
    'new.txt': 'new\n',
  });
  assert.deepEqual(
    r.changes.map((c) => [c.path, c.status]),
    [
      ['math.js', 'modified'],
      ['new.txt', 'added'],
    ],
  );
  assert.deepEqual(applyFiles(files, patch, { base: baseFiles }), r.files);
});

test('applyPatch with a base map: a conflict names the file; a file missing from base is an error naming it', () => {
  const files = { 'math.js': base.replace('return a + b;', 'return a - b;') };
  assert.throws(
    () => applyPatch(files, patch, { base: { 'math.js': base } }),
    (e) =>
      e.code === 'merge_conflict' &&
      e.path === 'math.js' &&
      e.conflicts[0].path === 'math.js' &&
      e.message.startsWith('math.js: The patch was written'),
  );
  assert.throws(
    () => applyPatch(files, patch, { base: {} }),
    (e) => e.code === 'file_not_found' && e.path === 'math.js',
  );
});

function cli(dir, args) {
  const r = spawnSync(process.execPath, [bin, 'merge', ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

test('applypatch merge: the output and exit status of git merge-file, printed and in place, on real files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'merge-cli-'));
  try {
    const cases = [
      ['a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', 'a\nb\nc\nd\nE\n'],
      ['a\nb\nc\nd\ne\n', 'A\nb\nc\nD\ne\n', 'X\nb\nc\nY\ne\n'],
      ['a\r\nb\r\n', 'x\r\nb\r\n', 'y\r\nb\r\n'],
      ['one\ntwo', 'one\nTWO', 'ONE\ntwo'],
      ['', 'x\n', 'y\n'],
    ];
    for (const [b, o, t] of cases) {
      for (const flags of [[], ['--diff3'], ['--zdiff3'], ['-L', 'mine', '-L', 'old', '-L', 'yours']]) {
        writeFileSync(join(dir, 'base.txt'), b);
        writeFileSync(join(dir, 'theirs.txt'), t);
        writeFileSync(join(dir, 'ours.txt'), o);
        const git = gitMergeFile(dir, ['-p', ...flags, 'ours.txt', 'base.txt', 'theirs.txt']);
        const ours = cli(dir, ['-p', ...flags, 'ours.txt', 'base.txt', 'theirs.txt']);
        assert.deepEqual(ours, git, JSON.stringify([b, o, t, flags]));
        if (flags.length > 0) continue;
        // In place: git writes into OURS; so does applypatch merge.
        gitMergeFile(dir, [...flags, 'ours.txt', 'base.txt', 'theirs.txt']);
        const gitWrote = readFileSync(join(dir, 'ours.txt'), 'utf8');
        writeFileSync(join(dir, 'ours.txt'), o);
        const status = cli(dir, [...flags, 'ours.txt', 'base.txt', 'theirs.txt']).status;
        assert.equal(status, git.status);
        assert.equal(readFileSync(join(dir, 'ours.txt'), 'utf8'), gitWrote);
      }
    }
    assert.equal(cli(dir, ['ours.txt', 'base.txt']).status, 129);
    assert.equal(cli(dir, ['ours.txt', 'base.txt', 'missing.txt']).status, 255);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('applyPatchToDirectory with base merges into the files on disk; a conflict writes nothing', async () => {
  const { applyPatchToDirectory } = await import('applypatch/node');
  const root = mkdtempSync(join(tmpdir(), 'merge-dir-'));
  try {
    writeFileSync(join(root, 'math.js'), typed);
    const r = applyPatchToDirectory(root, patch, { base: { 'math.js': base } });
    assert.deepEqual(
      r.changes.map((c) => [c.path, c.status]),
      [
        ['math.js', 'modified'],
        ['new.txt', 'added'],
      ],
    );
    assert.equal(readFileSync(join(root, 'math.js'), 'utf8'), typed.replace('return a + b', 'return Number(a) + Number(b)'));
    const conflicting = base.replace('return a + b;', 'return a - b;');
    writeFileSync(join(root, 'math.js'), conflicting);
    rmSync(join(root, 'new.txt'));
    assert.throws(
      () => applyPatchToDirectory(root, patch, { base: { 'math.js': base } }),
      (e) => e.code === 'merge_conflict' && e.path === 'math.js',
    );
    assert.equal(readFileSync(join(root, 'math.js'), 'utf8'), conflicting);
    assert.throws(() => readFileSync(join(root, 'new.txt')), { code: 'ENOENT' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("docs/merge.md's examples run and print what they say", () => {
  const doc = readFileSync(new URL('../../docs/merge.md', import.meta.url), 'utf8');
  const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 2);
  const file = new URL('./.merge-doc-example.mjs', import.meta.url);
  try {
    writeFileSync(file, blocks[0]);
    const first = spawnSync(process.execPath, [file.pathname], { encoding: 'utf8' });
    // Its values (`// →` comments) are checked by tests/docs/examples.test.mjs; here, that it runs.
    assert.equal(first.status, 0, first.stderr);
    writeFileSync(file, `${blocks[1]}\nconsole.log(JSON.stringify(r));`);
    const r = spawnSync(process.execPath, [file.pathname], { encoding: 'utf8' });
    assert.equal(r.stdout.trim(), JSON.stringify({ ok: true, text: 'A\nb\nC\n', conflicts: [] }));
  } finally {
    rmSync(file, { force: true });
  }
});

// Every recorded real triple through `apply`: the model's diff is the change
// from base to theirs (a V4A diff whose one section is the whole file, so it
// places exactly), applied to ours with `base`. Where git merge-file merges
// cleanly the result is git's text; where git reports conflicts, `apply`
// throws merge_conflict with as many conflicts, and nothing else.
test('apply with base on every real triple: git merge-file clean merges, and merge_conflict exactly where git conflicts', () => {
  const { bases, cases } = fixture('merge-git.json');
  const counts = { clean: 0, conflict: 0, skipped: 0 };
  for (const c of cases) {
    const base = bases[c.base];
    const ours = rebuild(base, c.ours);
    const theirs = rebuild(base, c.theirs);
    const endsLikeBase = (t) => t === '' || base === '' || t.endsWith('\n') === base.endsWith('\n');
    if (theirs === base || !endsLikeBase(theirs) || !endsLikeBase(ours) || base === '') {
      // A V4A diff cannot say that the final newline changed, nor add to an empty file.
      counts.skipped++;
      continue;
    }
    const unified = unifiedDiff({ f: base }, { f: theirs }, { context: 1_000_000 });
    const diff = `@@\n${unified.slice(unified.indexOf('\n', unified.indexOf('\n@@ ') + 1) + 1)}`;
    assert.equal(apply(base, diff), theirs, `${c.name}: the diff makes theirs from base`);
    const [conflicts, steps] = c.git.merge;
    if (conflicts === 0) {
      assert.equal(apply(ours, diff, { base }), rebuild(ours, steps), c.name);
      counts.clean++;
    } else {
      assert.throws(
        () => apply(ours, diff, { base }),
        (e) => e instanceof PatchError && e.code === 'merge_conflict' && e.conflicts.length === conflicts,
        c.name,
      );
      counts.conflict++;
    }
  }
  assert.ok(counts.clean >= 1000 && counts.conflict >= 500, JSON.stringify(counts));
  assert.ok(counts.skipped <= cases.length / 10, JSON.stringify(counts));
  console.log(`apply with base on real triples: ${JSON.stringify(counts)}`);
});
