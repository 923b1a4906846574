// The `repair` option through the package: each kind reported through
// onRepair, a refusal by throwing from it, "already applied" in apply,
// applyFiles, applyOperation, both editors and the CLI (real temp dirs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  apply,
  applyBatch,
  applyFiles,
  applyOperation,
  createMemoryEditor,
  errorCodes,
  PatchError,
  parse,
  repairKinds,
  summary,
} from 'applypatch';
import { applyPatchToDirectory, createEditor } from 'applypatch/node';
import { makeTree, patchOf, read, snapshot } from './fs-helpers.mjs';

const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');
const cli = (args, { cwd, input }) => {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const collect = () => {
  const seen = [];
  return { seen, onRepair: (r) => seen.push(r) };
};

test('the codes: already_applied before merge_conflict (the last), and the repair kinds', () => {
  assert.deepEqual(errorCodes.slice(-2), ['already_applied', 'merge_conflict']);
  assert.deepEqual(repairKinds, [
    'trailing-ws',
    'unicode',
    'tabs',
    'indent',
    'line-numbers',
    'hunk-header',
    'envelope',
    'already-applied',
    'file-name',
  ]);
  assert.ok(Object.isFrozen(repairKinds));
});

test('apply: each section repair is applied, and reported', () => {
  const cases = [
    ['def f():\n    x = 1  \n', '@@\n def f():\n-    x = 1\n+    x = 2', 'def f():\n    x = 2\n', 'trailing-ws'],
    ['s = \u201Chi\u201D\n', '-s = "hi"\n+s = "ho"', 's = "ho"\n', 'unicode'],
    ['if x {\n\ty()\n}\n', ' if x {\n-    y()\n+    z()\n }', 'if x {\n\tz()\n}\n', 'tabs'],
    [
      'class A:\n    def f(self):\n        pass\n',
      ' def f(self):\n-    pass\n+    return 1',
      'class A:\n    def f(self):\n        return 1\n',
      'indent',
    ],
    ['a\nb\nc\n', ' 1 | a\n-2 | b\n+B', 'a\nB\nc\n', 'line-numbers'],
    ['a\nb\nc\n', '@@ -1,2 +1,2 @@\n a\n-b\n+B', 'a\nB\nc\n', 'hunk-header'],
  ];
  for (const [input, diff, expected, kind] of cases) {
    assert.throws(() => apply(input, diff), PatchError, diff);
    const { seen, onRepair } = collect();
    assert.equal(apply(input, diff, { repair: true, onRepair }), expected, diff);
    assert.deepEqual(
      seen.map((r) => r.kind),
      [kind],
      diff,
    );
    assert.equal(typeof seen[0].message, 'string');
    assert.equal(typeof seen[0].diffLine, 'number');
  }
});

test('apply: the report in full, and a repair refused by throwing from onRepair', () => {
  const input = 'def f():\n    x = 1  \n    return x\n';
  const diff = '@@\n def f():\n-    x = 1\n+    x = 2\n     return x';
  const { seen, onRepair } = collect();
  apply(input, diff, { repair: true, onRepair });
  assert.deepEqual(seen, [
    {
      kind: 'trailing-ws',
      message:
        "Section 1 (diff lines 1-5): 1 context or removed line differs from the input only in trailing whitespace (diff line 3, input line 2); it matched once, at input line 1, and the input's own text was kept.",
      diffLine: 3,
      inputLine: 2,
    },
  ]);
  assert.throws(
    () =>
      apply(input, diff, {
        repair: true,
        onRepair: (r) => {
          throw new Error(`refused ${r.kind}`);
        },
      }),
    /refused trailing-ws/,
  );
  // Only the kinds listed.
  assert.throws(() => apply(input, diff, { repair: ['indent'] }), { code: 'context_not_found' });
  assert.equal(apply(input, diff, { repair: ['trailing-ws'] }), 'def f():\n    x = 2\n    return x\n');
});

test('apply: ambiguous once repaired is refused, and says why', () => {
  const input = 'def a():\n    return None\ndef b():\n    return None\n';
  assert.throws(() => apply(input, '@@\n-    return None \n+    return []', { repair: true }), {
    code: 'context_not_found',
    message:
      /\nRepair: ignoring trailing whitespace, it matches 2 places \(input lines 2 and 4\), so it was not repaired: a repair never chooses between places\.$/,
  });
});

test('wrong repair options are TypeErrors', () => {
  assert.throws(() => apply('a\n', '-a\n+b', { repair: ['tab'] }), {
    name: 'TypeError',
    message:
      "applypatch: options.repair has an unknown kind 'tab'; the kinds are trailing-ws, unicode, tabs, indent, line-numbers, hunk-header, envelope, already-applied, file-name",
  });
  assert.throws(() => apply('a\n', '-a\n+b', { repair: 'yes' }), TypeError);
  assert.throws(() => apply('a\n', '-a\n+b', { mode: 'codex', repair: true }), /Strict mode option/);
  assert.throws(() => apply('a\n', '-a\n+b', { repair: true, onRepair: 1 }), /onRepair must be a function/);
  // And the module keeps working.
  assert.equal(apply('a\n', '-a\n+b', { repair: false }), 'b\n');
});

test('a diff sent twice: already_applied, or a reported no-op with repair', () => {
  const input = 'def f():\n    return 1\n';
  const diff = '@@ def f():\n+    log()';
  const once = apply(input, diff);
  assert.equal(once, 'def f():\n    log()\n    return 1\n');
  assert.throws(() => apply(once, diff), {
    code: 'already_applied',
    diffLine: 1,
    inputLines: [2],
    message:
      'The diff is already applied. Its new lines are already in the input, where it would put them: section 1 (diff lines 1-2) at input line 2. Nothing was changed, and the diff was not applied a second time. Do not send it again; re-read the file if you want to change it further.',
  });
  const { seen, onRepair } = collect();
  assert.equal(apply(once, diff, { repair: true, onRepair }), once);
  assert.deepEqual(seen, [
    {
      kind: 'already-applied',
      message: 'the diff is already applied (section 1 (diff lines 1-2) at input line 2): nothing was changed. Do not send it again.',
      diffLine: 1,
      inputLine: 2,
    },
  ]);
  // In a batch, repairs name their diff.
  const batch = collect();
  assert.equal(applyBatch('a \nb\n', ['-a\n+A', '-b\n+B'], { repair: true, onRepair: batch.onRepair }), 'A\nB\n');
  assert.deepEqual(
    batch.seen.map((r) => [r.kind, r.diff]),
    [['trailing-ws', 0]],
  );
  // Codex mode keeps Codex's behaviour.
  assert.equal(apply(once, diff, { mode: 'codex' }), 'def f():\n    log()\n    return 1\n    log()\n');
});

const patch = patchOf('*** Update File: a.py', '@@ def f():', '-    return 1', '+    return 2', '*** Add File: n.txt', '+new');

test('applyFiles: envelope repairs, and a patch sent twice', () => {
  const files = { 'a.py': 'def f():\n    return 1\n' };
  const fenced = `Here it is:\n\`\`\`diff\n${patch}\`\`\`\n`;
  assert.throws(() => applyFiles(files, `\`\`\`diff\n${patch}\`\`\`\n`), { code: 'invalid_patch' });
  const { seen, onRepair } = collect();
  const once = applyFiles(files, `\`\`\`diff\n${patch}\`\`\`\n`, { repair: true, onRepair });
  assert.deepEqual(once, { 'a.py': 'def f():\n    return 2\n', 'n.txt': 'new\n' });
  assert.deepEqual(seen, [
    {
      kind: 'envelope',
      message:
        "a Markdown code fence ('```diff') around the patch was removed. Send the patch itself: '*** Begin Patch', the file operations, '*** End Patch', and nothing around it.",
      diffLine: 1,
    },
  ]);
  assert.throws(() => applyFiles(files, fenced, { repair: true }), { code: 'invalid_patch' });
  assert.deepEqual(
    parse(`apply_patch <<'EOF'\n${patch}EOF\n`, { repair: true }).operations.map((o) => o.path),
    ['a.py', 'n.txt'],
  );
  assert.equal(summary(`apply_patch <<'EOF'\n${patch}EOF\n`, { repair: true }), 'Success. Updated the following files:\nA n.txt\nM a.py\n');
  // Sent twice.
  assert.throws(() => applyFiles(once, patch), {
    code: 'already_applied',
    operation: 0,
    diffLine: 2,
    message:
      'The patch is already applied: operation 1 (update a.py, patch line 2); operation 2 (add n.txt, patch line 6). Every file already has its change (updates: their new lines are where they would go; added files: the same contents; deleted files: already gone). Nothing was changed, and nothing was applied a second time. Do not send this patch again; re-read the files if you want to change them further.',
  });
  const again = collect();
  assert.deepEqual(applyFiles(once, patch, { repair: true, onRepair: again.onRepair }), once);
  assert.deepEqual(
    again.seen.map((r) => r.kind),
    ['already-applied'],
  );
  // Partly applied: an error naming the parts, with or without repair.
  for (const options of [undefined, { repair: true }]) {
    assert.throws(() => applyFiles({ 'a.py': once['a.py'] }, patch, options), {
      code: 'already_applied',
      message:
        /^Part of the patch is already applied: operation 1 \(update a\.py, patch line 2\) is already done, but operation 2 \(add n\.txt, patch line 6\) is not\./,
    });
  }
});

test('applyFiles: a patch without its end marker is unwrapped only when it shows it is complete', () => {
  // Cut off, perhaps by the model's output limit: refused, nothing written.
  assert.throws(() => applyFiles({}, '*** Begin Patch\n*** Add File: note.txt\n+hello', { repair: true }), {
    code: 'invalid_patch',
    diffLine: 3,
    message:
      "Invalid patch: the patch does not end with '*** End Patch' (its last line, patch line 3, is '+hello'), and nothing after its last operation shows that it is complete (no closing Markdown fence or heredoc terminator), so it may have been cut off, for example by the model's output token limit, and its last file would be written only in part. Nothing was applied. Send the whole patch again, ending with '*** End Patch'; if it is long, split it into several smaller patches.",
  });
  // A closing fence or heredoc terminator shows the end.
  for (const wrapped of [
    '```\n*** Begin Patch\n*** Add File: note.txt\n+hello\n```',
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: note.txt\n+hello\nEOF",
  ]) {
    assert.deepEqual(applyFiles({}, wrapped, { repair: true }), { 'note.txt': 'hello\n' }, wrapped);
  }
});

test('apply: one line indented differently among exact ones is not repaired', () => {
  const file = "describe('res', function(){\n  it('works', function(done){\n    done()\n  })\n})\n";
  const diff = "@@\n     done()\n })\n+\n+describe('other', function(){\n+})";
  assert.throws(() => apply(file, diff, { repair: true }), {
    code: 'context_not_found',
    message: /\nRepair: ignoring indentation, it matches at input line 3, but its lines are not all shifted by the same amount there/,
  });
  // The whole section shifted by one amount is drift: repaired.
  assert.equal(
    apply(file, '@@\n   done()\n })\n+  assert(true)', { repair: true }),
    "describe('res', function(){\n  it('works', function(done){\n    done()\n  })\n    assert(true)\n})\n",
  );
});

test('applyOperation: an update or a create sent twice', () => {
  const files = { 'a.txt': 'one\n' };
  const op = { type: 'update_file', path: 'a.txt', diff: '@@\n one\n+two' };
  const once = applyOperation(files, op);
  assert.throws(() => applyOperation(once, op), {
    code: 'already_applied',
    path: 'a.txt',
    diffLine: 1,
    message:
      'a.txt: This update_file is already applied: its new lines are already where they would go (section 1 (diff lines 1-3) at input line 1). Nothing was changed, and nothing was applied a second time. Do not send it again; re-read the file if you want to change it further.',
  });
  const create = { type: 'create_file', path: 'b.txt', diff: '+hi' };
  const created = applyOperation(once, create);
  assert.throws(() => applyOperation(created, create), { code: 'already_applied', path: 'b.txt' });
  const { seen, onRepair } = collect();
  assert.deepEqual(applyOperation(created, create, { repair: true, onRepair }), created);
  assert.deepEqual(seen, [
    {
      kind: 'already-applied',
      message:
        'the create_file of b.txt is already applied (the file already has exactly these contents): nothing was changed. Do not send it again.',
      path: 'b.txt',
    },
  ]);
});

test('createMemoryEditor: repairs named in the output, one line each', async () => {
  const editor = createMemoryEditor({ 'a.py': 'def f():\n    x = 1  \n' }, { repair: true });
  let r = await editor.updateFile({ type: 'update_file', path: 'a.py', diff: '@@\n def f():\n-    x = 1\n+    x = 2' });
  assert.deepEqual(r, {
    status: 'completed',
    output:
      "Updated a.py: 1 line removed, 1 added.\nrepaired[trailing-ws] (a.py, diff line 3, input line 2): Section 1 (diff lines 1-4): 1 context or removed line differs from the input only in trailing whitespace (diff line 3, input line 2); it matched once, at input line 1, and the input's own text was kept.",
  });
  r = await editor.updateFile({ type: 'update_file', path: 'a.py', diff: '@@\n def f():\n-    x = 1\n+    x = 2' });
  assert.equal(r.status, 'completed');
  assert.equal(
    r.output,
    'Nothing changed: this update_file of a.py is already applied.\nrepaired[already-applied] (a.py, diff line 1, input line 1): the diff is already applied (section 1 (diff lines 1-4) at input line 1): nothing was changed. Do not send it again.',
  );
  assert.deepEqual(editor.files, { 'a.py': 'def f():\n    x = 2\n' });
  // Without repair: a failure that tells the model not to send it again.
  const plain = createMemoryEditor({ 'a.py': 'def f():\n    x = 2\n' });
  r = await plain.updateFile({ type: 'update_file', path: 'a.py', diff: '@@\n def f():\n-    x = 1\n+    x = 2' });
  assert.equal(r.status, 'failed');
  assert.match(
    r.output,
    /^update_file a\.py failed \(already_applied, diff line 1\)\. Nothing was written: every file is as it was\. The change is already there: do not send it again\.\n/,
  );
});

test('createEditor and applyPatchToDirectory: repairs on a real directory', async (t) => {
  const { root } = makeTree(t, { 'a.py': 'def f():\n\treturn 1\n' });
  const editor = createEditor({ root, repair: true });
  const op = { type: 'update_file', path: 'a.py', diff: '@@ def f():\n-    return 1\n+    return 2' };
  let r = await editor.updateFile(op);
  assert.equal(r.status, 'completed', r.output);
  assert.match(r.output, /^Updated a\.py: 1 line removed, 1 added\.\nrepaired\[tabs\] \(a\.py, diff line 2, input line 2\): /);
  assert.equal(read(root, 'a.py'), 'def f():\n\treturn 2\n');
  r = await editor.updateFile(op);
  assert.match(r.output, /^Nothing changed: this update_file of a\.py is already applied\./);
  // Without repair the slip is not forgiven, so the drifted copy is not recognised either.
  const plain = createEditor({ root });
  r = await plain.updateFile(op);
  assert.equal(r.status, 'failed');
  assert.match(r.output, /\(context_not_found, diff line 2\)/);
  r = await plain.updateFile({ type: 'update_file', path: 'a.py', diff: '@@ def f():\n-\treturn 1\n+\treturn 2' });
  assert.match(r.output, /^update_file a\.py failed \(already_applied, diff line 1\)/);
  assert.throws(() => createEditor({ root, mode: 'codex', repair: true }), TypeError);

  const before = snapshot(root);
  const p = patchOf('*** Update File: a.py', '@@ def f():', '-\treturn 2', '+\treturn 3');
  const seen = [];
  const result = applyPatchToDirectory(root, `\`\`\`\n${p}\`\`\``, { repair: true, onRepair: (x) => seen.push(x.kind) });
  assert.deepEqual(result.changes, [{ path: 'a.py', status: 'modified' }]);
  assert.deepEqual(
    result.repairs.map((x) => x.kind),
    ['envelope'],
  );
  assert.deepEqual(seen, ['envelope']);
  assert.notDeepEqual(snapshot(root), before);
  assert.throws(() => applyPatchToDirectory(root, p), { code: 'already_applied' });
});

test('the CLI: --repair names each repair on standard error; a re-sent patch', (t) => {
  const { root } = makeTree(t, { 'a.py': 'def f():\n    return 1   \n' });
  const p = patchOf('*** Update File: a.py', '@@ def f():', '-    return 1', '+    return 2');
  let r = cli([], { cwd: root, input: p });
  assert.equal(r.code, 1);
  r = cli(['--repair'], { cwd: root, input: `apply_patch <<'EOF'\n${p}EOF\n` });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Success. Updated the following files:\nM a.py\n');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 2, r.stderr);
  assert.match(lines[0], /^applypatch: repaired\[envelope\] \(patch line 1\): the shell heredoc around the patch/);
  assert.match(
    lines[1],
    /^applypatch: repaired\[trailing-ws\] \(a\.py, patch line 5, input line 2\): Section 1 \(patch lines 4-6\): 1 context or removed line differs from the input only in trailing whitespace \(patch line 5, input line 2\)/,
  );
  assert.equal(read(root, 'a.py'), 'def f():\n    return 2\n');
  // Sent again.
  const before = snapshot(root);
  r = cli(['--json'], { cwd: root, input: p });
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).error.code, 'already_applied');
  assert.match(r.stderr, /^applypatch: error\[already_applied\]/);
  r = cli(['--repair', '--json'], { cwd: root, input: p });
  assert.equal(r.code, 0);
  const out = JSON.parse(r.stdout);
  assert.equal(out.summary, 'Nothing changed: the patch is already applied.\n');
  assert.deepEqual(
    out.repairs.map((x) => x.kind),
    ['already-applied'],
  );
  assert.deepEqual(snapshot(root), before);
  r = cli(['--repair=tabs,nope'], { cwd: root, input: p });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--repair: unknown kind 'nope'/);
  r = cli(['--repair', '--mode', 'codex'], { cwd: root, input: p });
  assert.equal(r.code, 2);
});
