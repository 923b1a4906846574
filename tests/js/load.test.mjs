// Loading the engine: a runtime that cannot compile the wasm still imports the
// package, and every call then throws PatchError wasm_unavailable naming the
// cause and the fix, whichever engine the call needs (core: apply, parse;
// extra: applyEdit). Node's --jitless has no WebAssembly at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { unpack } = createRequire(import.meta.url)(join(root, 'dist', 'cjs', 'load.js'));

const script = (load) => `${load}
const out = {};
for (const [name, call] of [
  ['apply', () => ap.apply('a\\n', '@@\\n-a\\n+b')],
  ['parse', () => ap.parse('*** Begin Patch\\n*** End Patch')],
  ['applyEdit', () => ap.applyEdit('a\\n', { search: 'a', replace: 'b' })],
]) {
  try { call(); out[name] = 'returned'; } catch (e) { out[name] = [e instanceof ap.PatchError, e.code, e.message]; }
}
out.errorCodes = ap.errorCodes.includes('wasm_unavailable');
console.log(JSON.stringify(out));
`;

for (const [kind, load, flags] of [
  ['require', "const ap = require('applypatch');", []],
  ['import', "const ap = await import('applypatch');", ['--input-type=module']],
]) {
  test(`without WebAssembly (node --jitless), ${kind} succeeds and every call throws wasm_unavailable`, () => {
    const out = JSON.parse(execFileSync(process.execPath, ['--jitless', ...flags, '-e', script(load)], { cwd: root, encoding: 'utf8' }));
    const message =
      'applypatch could not compile its WebAssembly engine (ReferenceError: WebAssembly is not defined). This JavaScript engine has no WebAssembly: run applypatch in Node >= 20.19, Deno, Bun or a browser from 2023 on (Chrome 91, Firefox 89, Safari 16.4).';
    assert.deepEqual(out, {
      apply: [true, 'wasm_unavailable', message],
      parse: [true, 'wasm_unavailable', message],
      applyEdit: [true, 'wasm_unavailable', message],
      errorCodes: true,
    });
  });
}

// Each engine is compiled on the first call that needs it, and only then:
// importing the package compiles nothing, `apply` compiles the core engine,
// and the extra engine waits for a function of its own (edit blocks here).
// Node reads each engine's .wasm from its file (dist/wasm/NAME.wasm): the
// decoder of the packed engines (js/unpack.wat) is never compiled there.
for (const [kind, load, flags] of [
  ['require', "const ap = require('applypatch');", []],
  ['import', "const ap = await import('applypatch');", ['--input-type=module']],
]) {
  test(`${kind}: each engine is compiled on its first call, not at import`, () => {
    const code = `const Module = WebAssembly.Module;
const compiled = [];
WebAssembly.Module = function (bytes) { compiled.push(bytes.length); return new Module(bytes); };
WebAssembly.Module.imports = Module.imports;
${load}
const steps = [compiled.slice()];
ap.apply('a\\n', '@@\\n-a\\n+b');
ap.applyFiles({ 'a.txt': 'a\\n' }, '*** Begin Patch\\n*** Delete File: a.txt\\n*** End Patch');
steps.push(compiled.slice());
ap.applyEdit('a\\n', { search: 'a', replace: 'b' });
ap.applyUnified({ 'a.txt': 'a\\n' }, '--- a/a.txt\\n+++ b/a.txt\\n@@ -1 +1 @@\\n-a\\n+b\\n');
steps.push(compiled.slice());
console.log(JSON.stringify({ steps, sizes: compiled }));
`;
    const out = JSON.parse(execFileSync(process.execPath, [...flags, '-e', code], { cwd: root, encoding: 'utf8' }));
    const [core, extra] = ['core', 'extra'].map((name) => statSync(join(root, 'dist', 'wasm', `${name}.wasm`)).size);
    assert.deepEqual(out.steps, [[], [core], [core, extra]]);
    assert.ok(core > 100_000 && extra > 100_000 && core !== extra, `two engines of their own: ${out.sizes}`);
  });
}

// In Node, an engine's .wasm is read from dist/wasm/NAME.wasm and its
// glue comes from NAME.cjs: requiring the ES module would start Node's ES
// module loader, parse 0.4 MB of JavaScript and unpack it (docs/size.md).
// A bundle, where the file is not beside the engine's module, requires the
// ES module instead (tests/bundlers/matrix.test.mjs runs such bundles).
for (const [kind, load] of [
  ['require', "const ap = require('applypatch');"],
  ['import', "const ap = await import('applypatch');"],
]) {
  test(`${kind}: each engine's glue is CommonJS and its .wasm is read from its file, not through the ES module loader`, () => {
    const code = `import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
${load}
const wasm = () => Object.keys(require.cache).filter((k) => k.includes('/dist/wasm/')).map((k) => k.slice(k.indexOf('/dist/')));
const steps = [wasm()];
if (ap.apply('a\\n', '@@\\n-a\\n+b') !== 'b\\n') throw new Error('apply');
steps.push(wasm());
if (!ap.applyEdit('a\\n', { search: 'a', replace: 'b' }).ok) throw new Error('applyEdit');
steps.push(wasm());
console.log(JSON.stringify(steps));
`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }));
    assert.deepEqual(out, [[], ['/dist/wasm/core.cjs'], ['/dist/wasm/core.cjs', '/dist/wasm/extra.cjs']]);
  });
}

// Node's import of a CommonJS file follows what it re-exports in
// cjs-module-lexer's sense (`module.exports = require(...)`): it resolves the
// required file and parses its source for names, before it runs. Behind the
// entries are the wrapper's bundles (94 to 138 KB): parsing them cost 20 to
// 40 ms of CPU at every import (docs/size.md). The .mjs entries name their
// exports themselves, so nothing needs that parse: each module the entries
// require is resolved once, when it runs.
for (const entry of ['applypatch', 'applypatch/node', 'applypatch/mcp']) {
  test(`import('${entry}') resolves each module it requires once: no module is parsed for its names`, () => {
    const code = `import Module from 'node:module';
const resolve = Module._resolveFilename;
const seen = {};
Module._resolveFilename = function (request, parent, ...rest) {
  const from = parent?.filename ?? '';
  if (from.startsWith(process.cwd() + '/dist/')) {
    const key = from.slice(process.cwd().length) + ' requires ' + request;
    seen[key] = (seen[key] ?? 0) + 1;
  }
  return resolve.call(this, request, parent, ...rest);
};
const api = await import(${JSON.stringify(entry)});
if (Object.keys(api).length === 0) throw new Error('no exports');
console.log(JSON.stringify(seen));
`;
    const seen = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }));
    const wrapper = Object.entries(seen);
    assert.ok(
      wrapper.some(([key]) => key.includes('requires ./bundle/')),
      JSON.stringify(seen),
    );
    assert.deepEqual(
      wrapper.filter(([, n]) => n !== 1),
      [],
      `resolved more than once: ${JSON.stringify(seen)}`,
    );
  });
}

// Each engine travels packed in its module (scripts/build.mjs packWasm):
// printable ASCII that no bundler escapes, unpacked to exactly as many bytes
// as the module says the .wasm has (the build checks them byte for byte).
for (const name of ['core', 'extra']) {
  test(`the ${name} engine unpacks to its .wasm`, async () => {
    const text = readFileSync(join(root, 'dist', 'wasm', `${name}.mjs`), 'latin1');
    const size = Number(/and the wasm \((\d+) bytes\) packed/.exec(text)?.[1]);
    const { packed } = await import(join(root, 'dist', 'wasm', `${name}.mjs`));
    assert.match(packed, /^[0-9a-f]{1024}[ !#%&()*+,\-./0-9:;=>?@A-Z[\]^_a-z{|}~]+$/);
    const bytes = unpack(packed);
    assert.equal(bytes.length, size);
    // As Node's require() reads it: the same .wasm, from its own file.
    const read = createRequire(import.meta.url)(join(root, 'dist', 'cjs', 'engines', 'file.js')).readWasm(name);
    assert.ok(read instanceof Uint8Array && read.length === size);
    assert.ok(Buffer.from(bytes).equals(read));
    assert.deepEqual([...bytes.subarray(0, 8)], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    assert.ok(WebAssembly.validate(bytes));
  });
}

test('a packed engine that is not printable ASCII is refused', () => {
  const tables = '00'.repeat(512);
  assert.throws(() => unpack(tables), /the packed engine is not printable ASCII/);
  assert.throws(() => unpack(`${tables}a\u00e9b`), /the packed engine is not printable ASCII/);
  // A prefix (here ' ', the first) without its second character is no byte.
  const prefixed = `${'00'.repeat(384 + 32)}01${'00'.repeat(512 - 384 - 33)}`;
  assert.deepEqual([...unpack(`${prefixed}a a `)], [0, 0]);
});

test('a packed engine is decoded in chunks that never split a code', () => {
  // ' ' is the first prefix; 'a' alone is byte 1, after the prefix byte 7.
  const tables = Buffer.alloc(512);
  tables[97] = 1;
  tables[128 + 97] = 7;
  tables[384 + 32] = 1;
  // A code of two characters every three: the chunks' ends (32,768
  // characters apart) fall on a prefix too.
  const codes = ' aa'.repeat(40_000);
  // The first byte that differs (assert's diff of two long texts takes minutes).
  const wrong = (bytes) => {
    const at = bytes.findIndex((b, i) => b !== (i % 2 ? 1 : 7));
    return at >= 0 ? at : bytes.length === 80_000 ? -1 : bytes.length;
  };
  assert.equal(wrong(unpack(tables.toString('hex') + codes)), -1);
});
