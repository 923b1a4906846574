// `applypatch mcp` (dist/cli.cjs) driven by the MCP SDK's own Client over
// StdioClientTransport, on real temporary directories: the tools listed,
// every result checked against the tool's outputSchema (Ajv), edits applied,
// dry runs, failures, escapes, two clients at once, and 1,000 calls over one
// server process.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';
import { makeTree, patchOf, snapshot } from './fs-helpers.mjs';

const bin = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli.cjs');
const ajv = new Ajv({ strict: false, allErrors: true });

/** A client connected to `applypatch mcp --root root`; closed by `t.after`. Every result is checked against its tool's outputSchema. */
async function connect(t, root, extra = []) {
  const stderr = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', root, ...extra], stderr: 'pipe' });
  transport.stderr?.on('data', (d) => stderr.push(String(d)));
  const client = new Client({ name: 'applypatch-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema)]));
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    const validate = validators.get(name);
    assert.ok(
      validate(result.structuredContent),
      `${name}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(result.structuredContent)}`,
    );
    assert.equal(result.content[0].type, 'text');
    return result;
  };
  return { client, tools, call, transport, stderr };
}

const read = (root, path) => readFileSync(join(root, path), 'utf8');

test('lists the four tools with the schemas of toolDefinitions', async (t) => {
  const { root } = makeTree(t, {});
  const { tools } = await connect(t, root);
  const { toolDefinitions } = await import('../../dist/index.mjs');
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['apply_patch', 'edit_file', 'apply_unified_diff', 'read_file'],
  );
  for (const def of toolDefinitions) {
    const listed = tools.find((tool) => tool.name === def.name);
    assert.deepEqual(listed.inputSchema, def.inputSchema);
    assert.deepEqual(listed.outputSchema, def.outputSchema);
    assert.equal(listed.description, def.description);
  }
  assert.equal(tools.find((tool) => tool.name === 'read_file').annotations.readOnlyHint, true);
});

test('apply_patch: a dry run returns the diff and writes nothing, then the patch applies', async (t) => {
  const { root } = makeTree(t, { 'src/app.py': 'def main():\n    print("hi")\n', 'old.txt': 'bye\n', 'a.txt': 'move me\n' });
  const { call } = await connect(t, root);
  const patch = patchOf(
    '*** Update File: src/app.py',
    '@@ def main():',
    '-    print("hi")',
    '+    print("hello")',
    '*** Add File: notes/todo.txt',
    '+write tests',
    '*** Delete File: old.txt',
    '*** Update File: a.txt',
    '*** Move to: b.txt',
    '@@',
    '-move me',
    '+moved',
  );
  const before = snapshot(root);
  const dry = await call('apply_patch', { patch, dryRun: true });
  assert.equal(dry.isError, undefined);
  assert.equal(dry.structuredContent.applied, false);
  assert.match(dry.structuredContent.diff, /^\+ {4}print\("hello"\)$/m);
  assert.match(dry.content[0].text, /^Dry run: nothing was written/);
  assert.deepEqual(snapshot(root), before);

  const r = await call('apply_patch', { patch });
  assert.equal(r.structuredContent.applied, true);
  // The text is Codex's summary (a move is its destination, M); the changes list both ends.
  assert.deepEqual(r.structuredContent.changes, [
    { path: 'src/app.py', status: 'modified' },
    { path: 'notes/todo.txt', status: 'added' },
    { path: 'old.txt', status: 'deleted' },
    { path: 'a.txt', status: 'deleted' },
    { path: 'b.txt', status: 'added', movedFrom: 'a.txt' },
  ]);
  assert.equal(r.content[0].text, 'Success. Updated the following files:\nA notes/todo.txt\nM src/app.py\nM b.txt\nD old.txt\n');
  assert.equal(read(root, 'src/app.py'), 'def main():\n    print("hello")\n');
  assert.equal(read(root, 'b.txt'), 'moved\n');
});

test('apply_patch: failures are isError results with the code, and nothing is written', async (t) => {
  const { root } = makeTree(t, { 'x.txt': 'a\nb\na\nb\n' });
  const { call } = await connect(t, root);
  const before = snapshot(root);
  const notFound = await call('apply_patch', { patch: patchOf('*** Update File: x.txt', '@@', '-zzz', '+y') });
  assert.equal(notFound.isError, true);
  assert.equal(notFound.structuredContent.code, 'context_not_found');
  assert.equal(notFound.structuredContent.path, 'x.txt');
  assert.match(notFound.content[0].text, /^error\[context_not_found\]: /);
  const ambiguous = await call('apply_patch', { patch: patchOf('*** Update File: x.txt', '@@', ' a', '-b', '+c') });
  assert.equal(ambiguous.structuredContent.code, 'context_ambiguous');
  const missing = await call('apply_patch', { patch: patchOf('*** Update File: nope.txt', '@@', '-a', '+b') });
  assert.equal(missing.structuredContent.code, 'file_not_found');
  const badArgs = await call('apply_patch', { patch: 42 });
  assert.equal(badArgs.isError, true);
  assert.equal(badArgs.structuredContent.code, 'invalid_arguments');
  assert.equal(
    badArgs.structuredContent.message,
    "apply_patch: 'patch' must be a string, got number. Nothing was written; call it again with arguments that fit its schema.",
  );
  assert.deepEqual(snapshot(root), before);
});

test('escapes through .. and symlinks are refused by every tool', async (t) => {
  const { base, root } = makeTree(t, { 'in.txt': 'inside\n' });
  writeFileSync(join(base, 'secret.txt'), 'secret\n');
  symlinkSync(join(base, 'secret.txt'), join(root, 'link.txt'));
  mkdirSync(join(base, 'outdir'));
  symlinkSync(join(base, 'outdir'), join(root, 'dirlink'));
  const { call } = await connect(t, root);
  const before = snapshot(base);
  const attempts = [
    ['read_file', { path: '../secret.txt' }],
    ['read_file', { path: 'link.txt' }],
    ['read_file', { path: join(base, 'secret.txt') }],
    ['edit_file', { path: '../secret.txt', edits: [{ oldText: 'secret', newText: 'x' }] }],
    ['edit_file', { path: 'link.txt', edits: [{ oldText: 'secret', newText: 'x' }] }],
    ['apply_patch', { patch: patchOf('*** Add File: ../evil.txt', '+x') }],
    ['apply_patch', { patch: patchOf('*** Add File: dirlink/evil.txt', '+x') }],
    ['apply_patch', { patch: patchOf('*** Update File: link.txt', '@@', '-secret', '+x') }],
    ['apply_unified_diff', { diff: '--- /dev/null\n+++ b/../evil.txt\n@@ -0,0 +1 @@\n+x\n' }],
  ];
  for (const [name, args] of attempts) {
    const r = await call(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
    assert.ok(['path_outside_root', 'invalid_path', 'invalid_header'].includes(r.structuredContent.code), r.content[0].text);
  }
  assert.deepEqual(snapshot(base), before);
});

test('edit_file: unique matches apply; ambiguous ones are refused with the places; replaceAll; CRLF, BOM and tabs kept', async (t) => {
  const { root } = makeTree(t, {
    'crlf.txt': '\uFEFFone\r\n\ttwo\r\nthree\r\n',
    'dup.txt': 'x = 1\ny = 2\nx = 1\n',
    'crlf-nonl.txt': 'a\r\nb\r\nc',
  });
  const { call } = await connect(t, root);
  // No final newline, CRLF: kept by edit_file and by apply_patch.
  await call('edit_file', { path: 'crlf-nonl.txt', edits: [{ oldText: 'c', newText: 'C' }] });
  await call('apply_patch', { patch: patchOf('*** Update File: crlf-nonl.txt', '@@', ' a', '-b', '+B', ' C') });
  assert.equal(read(root, 'crlf-nonl.txt'), 'a\r\nB\r\nC');
  const r = await call('edit_file', { path: 'crlf.txt', edits: [{ oldText: '\ttwo\n', newText: '\tTWO\n\tand a half\n' }] });
  assert.equal(r.isError, undefined, r.content[0].text);
  assert.deepEqual(r.structuredContent.changes, [{ path: 'crlf.txt', status: 'modified' }]);
  assert.equal(read(root, 'crlf.txt'), '\uFEFFone\r\n\tTWO\r\n\tand a half\r\nthree\r\n');
  assert.match(r.structuredContent.diff, /^\+\tTWO/m);

  const before = snapshot(root);
  const amb = await call('edit_file', { path: 'dup.txt', edits: [{ oldText: 'x = 1', newText: 'x = 3' }] });
  assert.equal(amb.isError, true);
  assert.equal(amb.structuredContent.code, 'context_ambiguous');
  assert.equal(amb.structuredContent.edit, 1);
  assert.equal(
    amb.structuredContent.message,
    'dup.txt, edit 1: its oldText matches 2 places in the file (exactly): line 1, line 3. Nothing was changed. Make the oldText match one place only: add a line above or below the change that differs between these places. To change every place, set replaceAll: true on this edit.',
  );
  assert.deepEqual(amb.structuredContent.candidates, [
    { startLine: 1, endLine: 1 },
    { startLine: 3, endLine: 3 },
  ]);
  const notFound = await call('edit_file', {
    path: 'dup.txt',
    edits: [
      { oldText: 'y = 2', newText: 'y = 5' },
      { oldText: 'z = 9', newText: 'z = 0' },
    ],
  });
  assert.equal(notFound.structuredContent.code, 'context_not_found');
  assert.equal(notFound.structuredContent.edit, 2);
  assert.match(
    notFound.structuredContent.message,
    /^dup\.txt, edit 2 of 2: its oldText \(1 line\) is not in the file\. Nothing was changed\. .* Edit 1 matched, but nothing was written: the edits apply all or none\.$/s,
  );
  const missing = await call('edit_file', { path: 'none.txt', edits: [{ oldText: 'a', newText: 'b' }] });
  assert.equal(missing.structuredContent.code, 'file_not_found');
  assert.deepEqual(snapshot(root), before);

  const all = await call('edit_file', { path: 'dup.txt', edits: [{ oldText: 'x = 1', newText: 'x = 3', replaceAll: true }], dryRun: true });
  assert.equal(all.structuredContent.applied, false);
  assert.deepEqual(snapshot(root), before);
  await call('edit_file', { path: join(root, 'dup.txt'), edits: [{ oldText: 'x = 1', newText: 'x = 3', replaceAll: true }] });
  assert.equal(read(root, 'dup.txt'), 'x = 3\ny = 2\nx = 3\n');
});

test('apply_unified_diff and read_file', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\ntwo\nthree\n', 'bin.dat': Buffer.from([0, 1, 2]) });
  const { call } = await connect(t, root);
  const read1 = await call('read_file', { path: 'a.txt' });
  assert.deepEqual(read1.structuredContent, { path: 'a.txt', content: 'one\ntwo\nthree\n' });
  assert.equal(read1.content[0].text, 'one\ntwo\nthree\n');
  const bin = await call('read_file', { path: 'bin.dat' });
  assert.equal(bin.structuredContent.code, 'binary_file');
  const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n';
  const dry = await call('apply_unified_diff', { diff, dryRun: true });
  assert.equal(dry.structuredContent.applied, false);
  assert.equal(read(root, 'a.txt'), 'one\ntwo\nthree\n');
  const r = await call('apply_unified_diff', { diff });
  assert.deepEqual(r.structuredContent, { applied: true, changes: [{ path: 'a.txt', status: 'modified' }] });
  assert.equal(read(root, 'a.txt'), 'one\n2\nthree\n');
  const again = await call('apply_unified_diff', { diff });
  assert.equal(again.isError, true);
});

// A file changed on disk since the server last read or wrote it: the edit,
// written against what the model read, is merged into the file as it is now
// (merge3, as git merge-file); overlapping changes are refused.
test('a file changed on disk since the server read it: merged when clean, reported changedOnDisk', async (t) => {
  const { root } = makeTree(t, { 'f.txt': 'alpha\nbeta\ngamma\n', 'g.txt': 'never read\n' });
  const { call } = await connect(t, root);
  await call('read_file', { path: 'f.txt' });
  writeFileSync(join(root, 'f.txt'), 'ALPHA\nbeta\ngamma\n'); // another program
  const r = await call('edit_file', { path: 'f.txt', edits: [{ oldText: 'gamma', newText: 'GAMMA' }] });
  assert.deepEqual(r.structuredContent.changes, [{ path: 'f.txt', status: 'modified', changedOnDisk: true }]);
  assert.match(r.content[0].text, /Note: f\.txt had changed on disk since this server last read or wrote it; the edit was merged/);
  assert.equal(read(root, 'f.txt'), 'ALPHA\nbeta\nGAMMA\n');
  // Its text as written is the new base: the next edit sees no change on disk.
  const p = await call('apply_patch', { patch: patchOf('*** Update File: f.txt', '@@', ' beta', '-GAMMA', '+G') });
  assert.deepEqual(p.structuredContent.changes, [{ path: 'f.txt', status: 'modified' }]);
  // A file never read is edited as on disk, with no report.
  writeFileSync(join(root, 'g.txt'), 'changed\n');
  const g = await call('edit_file', { path: 'g.txt', edits: [{ oldText: 'changed', newText: 'edited' }] });
  assert.deepEqual(g.structuredContent.changes, [{ path: 'g.txt', status: 'modified' }]);
});

test('a file changed on disk in the lines the edit changes: merge_conflict, nothing written', async (t) => {
  const { root } = makeTree(t, { 'f.txt': 'alpha\nbeta\ngamma\n' });
  const { call } = await connect(t, root);
  await call('read_file', { path: 'f.txt' });
  writeFileSync(join(root, 'f.txt'), 'alpha\nbeta\ngamma!\n'); // another program, on the same line
  const r = await call('apply_patch', { patch: patchOf('*** Update File: f.txt', '@@', ' beta', '-gamma', '+GAMMA') });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.code, 'merge_conflict');
  assert.equal(r.structuredContent.path, 'f.txt');
  assert.match(r.content[0].text, /f\.txt: the file changed on disk since this server last read it, and the change overlaps the edit/);
  assert.equal(read(root, 'f.txt'), 'alpha\nbeta\ngamma!\n');
});

test('--read-only: reads and dry runs only', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\n' });
  const { call } = await connect(t, root, ['--read-only']);
  const before = snapshot(root);
  const r = await call('edit_file', { path: 'a.txt', edits: [{ oldText: 'one', newText: 'two' }] });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.code, 'read_only');
  const dry = await call('edit_file', { path: 'a.txt', edits: [{ oldText: 'one', newText: 'two' }], dryRun: true });
  assert.equal(dry.isError, undefined);
  assert.match(dry.structuredContent.diff, /^\+two$/m);
  assert.equal((await call('read_file', { path: 'a.txt' })).structuredContent.content, 'one\n');
  assert.deepEqual(snapshot(root), before);
});

test('two clients at the same time on one root', async (t) => {
  const files = { 'shared.txt': 'value\n' };
  for (let i = 0; i < 20; i++) files[`f${i}.txt`] = `value ${i}\n`;
  const { root } = makeTree(t, files);
  const [a, b] = await Promise.all([connect(t, root), connect(t, root)]);
  const edits = [];
  for (let i = 0; i < 20; i++) {
    const who = i % 2 === 0 ? a : b;
    edits.push(who.call('edit_file', { path: `f${i}.txt`, edits: [{ oldText: `value ${i}`, newText: `edited ${i}` }] }));
  }
  // Both servers edit one file at once: each call is all or nothing; the file ends as the one that succeeded wrote it.
  const race = [
    a.call('edit_file', { path: 'shared.txt', edits: [{ oldText: 'value', newText: 'by a' }] }),
    b.call('apply_patch', { patch: patchOf('*** Update File: shared.txt', '@@', '-value', '+by b') }),
  ];
  for (const r of await Promise.all(edits)) assert.equal(r.isError, undefined, r.content[0].text);
  for (let i = 0; i < 20; i++) assert.equal(read(root, `f${i}.txt`), `edited ${i}\n`);
  const [ra, rb] = await Promise.all(race);
  const won = [ra, rb].filter((r) => !r.isError);
  assert.equal(won.length, 1, 'exactly one of the two edits wins');
  for (const r of [ra, rb].filter((r) => r.isError)) {
    assert.ok(['context_not_found', 'file_changed'].includes(r.structuredContent.code), r.content[0].text);
  }
  assert.equal(read(root, 'shared.txt'), won[0] === ra ? 'by a\n' : 'by b\n');
});

test('the server exits cleanly (status 0) when the client closes the stream; logs go to stderr only', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'one\n' });
  const child = spawn(process.execPath, [bin, 'mcp', '--root', root], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const message = (id, method, params) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
  child.stdin.write(
    message(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
  );
  child.stdin.write(message(2, 'tools/call', { name: 'read_file', arguments: { path: 'a.txt' } }));
  // A line that is not JSON-RPC: reported on stderr, the server goes on.
  child.stdin.write('not json\n');
  child.stdin.write(message(3, 'tools/call', { name: 'no_such_tool', arguments: {} }));
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  const replies = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .sort((a, b) => a.id - b.id);
  assert.deepEqual(
    replies.map((r) => r.id),
    [1, 2, 3],
  );
  assert.equal(replies[1].result.structuredContent.content, 'one\n');
  assert.equal(replies[2].result.isError, true);
  assert.match(stderr, /^applypatch mcp: serving .* on standard input\/output\n/);
  assert.match(stderr, /applypatch mcp: the client closed the stream; exiting\n$/);
});

test('applypatch mcp: usage errors exit 2', () => {
  const r = spawnSync(process.execPath, [bin, 'mcp', '--root', '/no/such/dir'], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^applypatch mcp: --root \/no\/such\/dir: no such directory\n/);
  assert.equal(spawnSync(process.execPath, [bin, 'mcp', '--bogus'], { encoding: 'utf8', input: '' }).status, 2);
});

test('1,000 tool calls over one server process: every one answered, memory flat', async (t) => {
  const { root } = makeTree(t, { 'a.txt': 'counter 0\n', 'b.txt': 'same\nsame\n' });
  const { call, transport } = await connect(t, root);
  // The server's resident memory, from /proc (Linux; elsewhere the memory check is left out).
  const rss = () =>
    existsSync('/proc/self/status') ? Number(readFileSync(`/proc/${transport.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)[1]) : 0;
  let rssAt100 = 0;
  let ok = 0;
  let failed = 0;
  for (let i = 1; i <= 1000; i++) {
    let r;
    switch (i % 5) {
      case 0:
        r = await call('edit_file', { path: 'a.txt', edits: [{ oldText: `counter ${i - 5}`, newText: `counter ${i}` }] });
        break;
      case 1:
        r = await call('read_file', { path: 'a.txt' });
        break;
      case 2:
        r = await call('edit_file', { path: 'b.txt', edits: [{ oldText: 'same', newText: 'other' }] }); // ambiguous
        break;
      case 3:
        r = await call('apply_patch', { patch: patchOf(`*** Add File: tmp/${i}.txt`, `+file ${i}`), dryRun: i % 2 === 1 });
        break;
      default:
        r = await call('read_file', { path: '../outside.txt' });
    }
    if (r.isError) failed++;
    else ok++;
    if (i === 100) rssAt100 = rss();
  }
  const rssAt1000 = rss();
  t.diagnostic(`1000 calls: ${ok} succeeded, ${failed} failed; server RSS ${rssAt100} kB at call 100, ${rssAt1000} kB at call 1000`);
  assert.equal(ok + failed, 1000);
  assert.equal(failed, 400); // the ambiguous edits and the escapes
  assert.equal(read(root, 'a.txt'), 'counter 1000\n');
  // Loose: a leak of a few KB a call would show as tens of MB here.
  assert.ok(rssAt1000 - rssAt100 < 40_000, `RSS grew from ${rssAt100} kB to ${rssAt1000} kB`);
  // Still responsive.
  assert.equal((await call('read_file', { path: 'a.txt' })).structuredContent.content, 'counter 1000\n');
});
