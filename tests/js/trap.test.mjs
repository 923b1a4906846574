// A trap inside a wasm engine never poisons the module: the call throws a
// PatchError `internal_error`, the instance is replaced, and every function
// works afterwards. An instance whose memory grew past the limit is dropped
// after the call, so the memory goes back. Each of the two engines (core,
// extra) has its own instance: a trap in one leaves the other be.
//
// The trap is real: the test grows the module's memory to wasm32's 4 GB
// maximum, so the engine's next allocation fails inside wasm (an allocation
// failure aborts, which is a trap), as it would on a huge input.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  apply,
  applyBatch,
  applyBlocks,
  applyEdit,
  applyEdits,
  applyFiles,
  applyOperation,
  applyUnified,
  codexGrammar,
  codexTool,
  createFile,
  createMemoryEditor,
  PatchError,
  parse,
  parseBlocks,
  parseUnified,
  similarity,
  summary,
} from 'applypatch';
import { applyPatchToDirectory, createEditor } from 'applypatch/node';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const binding = require('../../dist/cjs/binding.js');
const engines = {
  core: require('../../dist/cjs/engines/core.js').core,
  extra: require('../../dist/cjs/engines/extra.js').extra,
};
const memoryBytes = (engine = engines.core) => engine.wasm().wasmMemory().buffer.byteLength;
const PAGE = 65536;

/** Grows an engine's wasm memory until it cannot grow any more (wasm32: 4 GB). */
function exhaustMemory(engine = engines.core) {
  const memory = engine.wasm().wasmMemory();
  for (let pages = 32768; pages >= 1; pages = Math.floor(pages / 2)) {
    for (;;) {
      try {
        memory.grow(pages);
      } catch {
        break;
      }
    }
  }
  return memory.buffer.byteLength;
}

const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n';

/** Every public function, each checked against its known answer. */
async function everyFunctionWorks() {
  assert.equal(apply('a\n', '@@\n-a\n+b'), 'b\n');
  assert.equal(applyBatch('a\nc\n', ['@@\n-a\n+b', '@@\n-c\n+d']), 'b\nd\n');
  assert.deepEqual(parse(patch).operations[0].kind, 'update');
  assert.deepEqual(applyFiles({ 'a.txt': 'a\n' }, patch), { 'a.txt': 'b\n' });
  assert.equal(summary(patch), 'Success. Updated the following files:\nM a.txt\n');
  assert.equal(codexTool().name, 'apply_patch');
  assert.match(codexGrammar(), /begin_patch/);
  assert.deepEqual(applyOperation({ 'a.txt': 'a\n' }, { type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+b' }), { 'a.txt': 'b\n' });
  assert.equal(createFile('+x'), 'x\n');
  const memory = createMemoryEditor({ 'a.txt': 'a\n' });
  assert.equal((await memory.updateFile({ type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+b' })).status, 'completed');
  assert.deepEqual(memory.files, { 'a.txt': 'b\n' });
  assert.deepEqual(parseBlocks('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n'), [{ search: 'a', replace: 'b' }]);
  assert.equal(applyEdit('a\n', { search: 'a', replace: 'b' }).text, 'b\n');
  assert.equal(applyEdits('a\nc\n', [{ search: 'a', replace: 'b' }]).text, 'b\nc\n');
  assert.equal(similarity('a\nb\n', 'a\nb\n'), 1);
  assert.deepEqual(applyUnified({ 'a.txt': 'a\n' }, '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n'), { 'a.txt': 'b\n' });
  const dir = mkdtempSync(join(tmpdir(), 'applypatch-trap-'));
  try {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    assert.deepEqual(applyPatchToDirectory(dir, patch).changes, [{ path: 'a.txt', status: 'modified' }]);
    const editor = createEditor({ root: dir });
    assert.equal((await editor.updateFile({ type: 'update_file', path: 'a.txt', diff: '@@\n-b\n+c' })).status, 'completed');
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'c\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts from a fresh instance, whose heap has no large free block left by
 * earlier tests, by way of the memory limit.
 */
function freshInstance(engine = engines.core) {
  const memory = engine.wasm().wasmMemory();
  memory.grow(Math.ceil((binding.MEMORY_LIMIT - memory.buffer.byteLength) / PAGE) + 16);
  // A call of that engine drops the grown instance.
  if (engine === engines.core) apply('a\n', '@@\n-a\n+b');
  else similarity('a', 'a');
  assert.ok(memoryBytes(engine) < binding.MEMORY_LIMIT);
}

/**
 * Each way into the engine, with the binding function it reaches, on an
 * input that needs fresh allocations. The memory is exhausted right before
 * that function runs (an earlier call, such as the parse inside applyFiles,
 * would otherwise drop the grown instance first, as it should).
 */
const big = `${'x\n'.repeat(1 << 18)}end\n`;
// Larger than the free space the engine's allocator keeps (it grows memory
// by half again at each step: under 1 MB here), so that copying it in needs
// memory at once.
const large = `${'x\n'.repeat(1 << 20)}end\n`;
const calls = {
  apply: ['core', 'applyChanges', () => apply(big, '@@\n-y\n+z')],
  applyBatch: ['core', 'applyBatchChanges', () => applyBatch(big, ['@@\n-y\n+z'])],
  applyFiles: ['core', 'reserveInput', () => applyFiles({ 'a.txt': large }, patch)],
  applyOperation: [
    'core',
    'applyOperationChanges',
    () => applyOperation({ 'a.txt': big }, { type: 'update_file', path: 'a.txt', diff: '@@\n-y\n+z' }),
  ],
  parse: ['core', 'parsePatch', () => parse(`*** Begin Patch\n*** Add File: a\n${'+x\n'.repeat(1 << 16)}*** End Patch`)],
  summary: ['core', 'summary', () => summary(`*** Begin Patch\n*** Add File: a\n${'+x\n'.repeat(1 << 16)}*** End Patch`)],
  createFile: ['core', 'createFile', () => createFile('+x\n'.repeat(1 << 19))],
  applyEdit: ['extra', 'blocksApplyEdit', () => applyEdit(big, { search: 'y\nz', replace: '' })],
  applyEdits: ['extra', 'blocksApplyEdits', () => applyEdits(big, [{ search: 'y\nz', replace: '' }])],
  parseBlocks: ['extra', 'blocksParse', () => parseBlocks(`<<<<<<< SEARCH\n${big}=======\n>>>>>>> REPLACE\n`)],
  similarity: ['extra', 'blocksSimilarity', () => similarity(big, `${big}y\n`)],
  parseUnified: ['extra', 'parseUnified', () => parseUnified(`--- a/f\n+++ b/f\n@@ -1,0 +1,${1 << 18} @@\n${'+x\n'.repeat(1 << 18)}`)],
};

for (const [name, [engineName, entry, call]] of Object.entries(calls)) {
  test(`a trap in ${name} (the ${engineName} engine) throws internal_error; then every function works, the memory is back, and the other engine kept its instance`, async () => {
    const engine = engines[engineName];
    freshInstance(engine);
    await everyFunctionWorks();
    const others = Object.values(engines)
      .filter((e) => e !== engine)
      .map((e) => [e, e.wasm().wasmMemory()]);
    const b = engine.wasm();
    const original = b[entry];
    let grown = 0;
    b[entry] = (...args) => {
      grown = exhaustMemory(engine);
      return original(...args);
    };
    try {
      assert.throws(call, (e) => {
        assert.ok(e instanceof PatchError, `expected a PatchError, got ${e?.stack ?? e}`);
        assert.equal(e.code, 'internal_error');
        assert.equal(
          e.message,
          `The WebAssembly engine failed inside ${entry} (RuntimeError: unreachable), most likely by running out of wasm memory on a very large input. ` +
            'Nothing was applied. The engine was restarted: later calls work. ' +
            'If the input was not unusually large, this is a bug in applypatch: please report it with the input.',
        );
        return true;
      });
    } finally {
      b[entry] = original;
    }
    assert.ok(grown >= 4 * 1024 * 1024 * 1024 - 64 * PAGE, `memory grew to ${grown} bytes`);
    assert.ok(memoryBytes(engine) < binding.MEMORY_LIMIT, `memory after the trap: ${memoryBytes(engine)} bytes`);
    for (const [other, memory] of others) assert.equal(other.wasm().wasmMemory(), memory, `the ${other.name} engine's instance`);
    await everyFunctionWorks();
    // A large input works again.
    assert.equal(apply(big, '@@\n-end\n+END').slice(-4), 'END\n');
  });
}

test('a trap while the input is copied in (reserveInput) is caught the same way', async () => {
  freshInstance();
  exhaustMemory();
  assert.throws(
    () => apply(large, '@@\n-end\n+END'),
    (e) => e instanceof PatchError && e.code === 'internal_error' && /inside reserveInput/.test(e.message),
  );
  await everyFunctionWorks();
});

test('after a call that leaves wasm memory past the limit, the instance is replaced and the memory goes back', async () => {
  const memory = engines.core.wasm().wasmMemory();
  memory.grow(Math.ceil((binding.MEMORY_LIMIT - memory.buffer.byteLength) / PAGE) + 16);
  assert.ok(memoryBytes() > binding.MEMORY_LIMIT);
  assert.equal(apply('a\n', '@@\n-a\n+b'), 'b\n');
  assert.ok(memoryBytes() < binding.MEMORY_LIMIT, `memory after the call: ${memoryBytes()} bytes`);
  // apply, applyBatch and applyOperation leave their answer in the
  // instance: it is replaced only once that is read.
  const past = [
    () => applyBatch('a\nb\n', ['@@\n-a\n+A', '@@\n-b\n+B']),
    () => apply('a\nb\n', '@@\n a\n-b\n+B', { report: true }),
    () => applyOperation({ 'a.txt': 'a\nb\n' }, { type: 'update_file', path: 'a.txt', diff: '@@\n-b\n+B' }),
  ];
  const answers = [];
  for (const call of past) {
    const current = engines.core.wasm().wasmMemory();
    current.grow(Math.ceil((binding.MEMORY_LIMIT - current.buffer.byteLength) / PAGE) + 16);
    answers.push(call());
    assert.ok(memoryBytes() < binding.MEMORY_LIMIT, `memory after the call: ${memoryBytes()} bytes`);
  }
  assert.deepEqual(answers, [
    'A\nB\n',
    { text: 'a\nB\n', splices: [{ from: 2, to: 3, insert: 'B' }], sections: [{ diffLine: 3, inputLine: 2, from: 2, to: 4 }] },
    { 'a.txt': 'a\nB\n' },
  ]);
  await everyFunctionWorks();
});

test('memory past the limit while a patch, a diff or blocks are prepared: the object keeps working, and the memory goes back when it is freed', async () => {
  const cases = [
    ['core', 'preparePatch', () => applyFiles({ 'a.txt': 'a\n' }, patch), { 'a.txt': 'b\n' }],
    [
      'extra',
      'prepareUnified',
      () => applyUnified({ 'a.txt': 'a\n' }, '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n'),
      { 'a.txt': 'b\n' },
    ],
    [
      'extra',
      'prepareBlocks',
      () => applyBlocks({ 'a.txt': 'a\n' }, 'a.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n').files,
      { 'a.txt': 'b\n' },
    ],
  ];
  for (const [engineName, entry, call, want] of cases) {
    const engine = engines[engineName];
    freshInstance(engine);
    const b = engine.wasm();
    const original = b[entry];
    // Memory grows past the limit during the call that hands out the object.
    b[entry] = (...args) => {
      const memory = b.wasmMemory();
      memory.grow(Math.ceil((binding.MEMORY_LIMIT - memory.buffer.byteLength) / PAGE) + 16);
      return original(...args);
    };
    try {
      assert.deepEqual(call(), want, entry);
    } finally {
      b[entry] = original;
    }
    assert.ok(memoryBytes(engine) < binding.MEMORY_LIMIT, `${entry}: memory after the call: ${memoryBytes(engine)} bytes`);
  }
  await everyFunctionWorks();
});

test('ordinary calls keep one instance (its memory is not dropped each time)', () => {
  const memory = engines.core.wasm().wasmMemory();
  for (let i = 0; i < 50; i++) apply(`${'a\n'.repeat(1000)}end\n`, '@@\n-end\n+END');
  assert.equal(engines.core.wasm().wasmMemory(), memory);
});

// An object the engine handed out (here the patch applyFiles prepared) is
// lost when a trap replaces its instance. wasm-bindgen's glue registers each
// such object with a FinalizationRegistry that frees its pointer when it is
// collected, into whatever instance the glue holds then: the new one, where
// that pointer means nothing (a trap there, or a corrupted heap). The engine
// lets go of the old instance's objects when it replaces it: each forgets its
// pointer (0) and leaves the registry. Run in a child with --expose-gc, so the
// lost objects are collected and their finalizers would run.
test('an object lost to a trap is never freed into the new instance when it is collected', () => {
  const code = `import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const ap = require('applypatch');
const { core } = require('./dist/cjs/engines/core.js');
const uncaught = [];
process.on('uncaughtException', (e) => uncaught.push(String(e)));
const patch = ${JSON.stringify(patch)};
const large = 'x\\n'.repeat(1 << 20) + 'a\\n';
const exhaust = () => {
  const memory = core.wasm().wasmMemory();
  for (let pages = 32768; pages >= 1; pages = Math.floor(pages / 2)) for (;;) try { memory.grow(pages); } catch { break; }
};
const out = [];
for (let round = 0; round < 3; round++) {
  const b = core.wasm();
  const { reserveInput, preparePatch } = b;
  let calls = 0;
  let prepared;
  b.preparePatch = (...args) => (prepared = preparePatch(...args));
  // The patch goes in first and is prepared; copying the file in traps.
  b.reserveInput = (...args) => { if (++calls === 2) exhaust(); return reserveInput(...args); };
  try { ap.applyFiles({ 'a.txt': large }, patch); out.push('returned'); } catch (e) { out.push(e.code); }
  finally { Object.assign(b, { reserveInput, preparePatch }); }
  out.push(prepared.__wbg_ptr);
  prepared = undefined;
  for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
  for (let i = 0; i < 200; i++) if (ap.applyFiles({ 'a.txt': 'a\\n' }, patch)['a.txt'] !== 'b\\n') throw new Error('applyFiles');
}
console.log(JSON.stringify({ out, uncaught }));
`;
  const result = JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }),
  );
  assert.deepEqual(result, { out: ['internal_error', 0, 'internal_error', 0, 'internal_error', 0], uncaught: [] });
});
