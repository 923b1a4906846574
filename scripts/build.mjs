#!/usr/bin/env node
// Builds the npm package into dist/:
//   dist/wasm-node/   wasm-pack --target nodejs (CommonJS, loads the wasm synchronously)
//   dist/wasm-web/    wasm-pack --target web (ES module with an async init)
//   dist/cjs/, esm/   the TypeScript wrapper (js/), compiled twice, with .d.ts
//   dist/index.cjs    require('applypatch') in Node
//   dist/index.mjs    import in Node (re-exports index.cjs: one PatchError class)
//   dist/browser.mjs  import in browsers and bundlers (top-level await on init)
//   dist/node.cjs, node.mjs  applypatch/node: the directory editor (node:fs)
//   dist/cli.cjs      the applypatch command (package.json "bin")
//
//   node scripts/build.mjs [--if-needed]
// --if-needed skips the build when dist/ is newer than every source.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stamp = join(dist, '.built');

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((f) => newest(join(path, f))));
}

const sources = ['src', 'js', 'Cargo.toml', 'Cargo.lock', 'package.json', 'tsconfig.json', 'scripts/build.mjs'];
if (process.argv.includes('--if-needed') && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  if (sources.every((s) => newest(join(root, s)) <= built)) {
    console.error('applypatch: dist/ is up to date');
    process.exit(0);
  }
}

// wasm-opt from the npm package `binaryen` comes first on PATH: Debian's
// binaryen 108 miscompiles wasm-bindgen's externref table.
const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };
// Progress goes to stderr: stdout stays clean for callers such as `npm pack --json`.
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['inherit', 2, 2], env });

rmSync(dist, { recursive: true, force: true });
for (const target of ['nodejs', 'web']) {
  const out = join('dist', target === 'nodejs' ? 'wasm-node' : 'wasm-web');
  run('wasm-pack', [
    '--quiet',
    'build',
    '--release',
    '--target',
    target,
    '--out-dir',
    out,
    '--out-name',
    'applypatch',
    '--no-pack',
    '--no-gitignore',
  ]);
}
// A fresh wasm instance on demand: js/binding.ts calls __wbg_reset_state after
// a trap, or to give back memory a call grew. wasm-bindgen writes this
// function with --experimental-reset-state-function, a flag wasm-pack cannot
// pass on; the same function is added here, and the build stops if the glue
// no longer has the shape it relies on.
function addResetState(file, esm) {
  let glue = readFileSync(file, 'utf8');
  const caches = [...glue.matchAll(/^let (cached\w+Memory0) = null;$/gm)].map((m) => m[1]);
  const needs = [
    /^let (wasmModule, )?wasmInstance\b/m,
    /^function __wbg_get_imports\(/m,
    /^let WASM_VECTOR_LEN = 0;$/m,
    /wasm\.__wbindgen_start\(\);/,
  ];
  const missing = needs.filter((re) => !re.test(glue));
  if (missing.length > 0 || caches.length === 0 || glue.includes('__wbg_reset_state')) {
    throw new Error(`scripts/build.mjs: ${file} does not look as expected (${missing.join(', ') || 'no caches'}); update addResetState`);
  }
  glue += `
// Added by scripts/build.mjs: a fresh instance of the module, for js/binding.ts.
function __wbg_reset_state() {
${caches.map((c) => `    ${c} = null;`).join('\n')}
    if (typeof numBytesDecoded !== 'undefined') numBytesDecoded = 0;
    WASM_VECTOR_LEN = 0;
    wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());
    wasm = wasmInstance.exports;
    wasm.__wbindgen_start();
}
${esm ? 'export { __wbg_reset_state };' : 'exports.__wbg_reset_state = __wbg_reset_state;'}
`;
  writeFileSync(file, glue);
}
addResetState(join(dist, 'wasm-node', 'applypatch.js'), false);
addResetState(join(dist, 'wasm-web', 'applypatch.js'), true);

run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.cjs.json']);
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.esm.json']);
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');

writeFileSync(
  join(dist, 'index.cjs'),
  `'use strict';
// require('applypatch') in Node: the nodejs build of the wasm loads synchronously.
require('./cjs/binding.js').setBinding(require('./wasm-node/applypatch.js'));
module.exports = require('./cjs/index.js');
`,
);

// Node's import re-exports the CommonJS entry, so that both share one module
// instance (and one PatchError class). The names are read from it.
const api = createRequire(import.meta.url)(join(dist, 'index.cjs'));
const names = Object.keys(api).filter((k) => k !== '__esModule');
writeFileSync(
  join(dist, 'index.mjs'),
  `// import from 'applypatch' in Node.
import api from './index.cjs';
export const { ${names.join(', ')} } = api;
`,
);

writeFileSync(
  join(dist, 'browser.mjs'),
  `// import from 'applypatch' in browsers and bundlers: the wasm is compiled
// before the import resolves (top-level await), so every function is ready.
import init, * as glue from './wasm-web/applypatch.js';
import { setBinding } from './esm/binding.js';
await init({ module_or_path: new URL('./wasm-web/applypatch_bg.wasm', import.meta.url) });
setBinding(glue);
export * from './esm/index.js';
`,
);
writeFileSync(join(dist, 'index.d.cts'), "export * from './cjs/index.js';\n");
writeFileSync(join(dist, 'index.d.mts'), "export * from './esm/index.js';\n");

// applypatch/node: the Node-only parts (node:fs), never reached from browser.mjs.
writeFileSync(
  join(dist, 'node.cjs'),
  `'use strict';
// require('applypatch/node'): the main entry first, which loads the wasm.
require('./index.cjs');
module.exports = require('./cjs/node/index.js');
`,
);
const nodeNames = Object.keys(createRequire(import.meta.url)(join(dist, 'node.cjs'))).filter((k) => k !== '__esModule');
writeFileSync(
  join(dist, 'node.mjs'),
  `// import from 'applypatch/node' (re-exports node.cjs: one module instance with the main entry).
import api from './node.cjs';
export const { ${nodeNames.join(', ')} } = api;
`,
);
writeFileSync(join(dist, 'node.d.cts'), "export * from './cjs/node/index.js';\n");
writeFileSync(join(dist, 'node.d.mts'), "export * from './esm/node/index.js';\n");

// The command line (package.json "bin": npx applypatch).
writeFileSync(
  join(dist, 'cli.cjs'),
  `#!/usr/bin/env node
'use strict';
require('./node.cjs');
const { main, readStdin } = require('./cjs/node/cli.js');
// A reader that goes away (applypatch fix.patch | head -1) must not turn an
// applied patch into a failure: EPIPE on output is ignored.
for (const stream of [process.stdout, process.stderr]) stream.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
const write = (stream) => (text) => stream.write(text);
main(process.argv.slice(2), {
  stdout: write(process.stdout),
  stderr: write(process.stderr),
  stdin: readStdin,
  cwd: process.cwd(),
  version: require('../package.json').version,
}).then(
  (code) => { process.exitCode = code; },
  (e) => { process.stderr.write('applypatch: internal error: ' + (e && e.stack || e) + '\\n'); process.exitCode = 70; },
);
`,
  { mode: 0o755 },
);

mkdirSync(dist, { recursive: true });
writeFileSync(stamp, new Date().toISOString() + '\n');
const size = (p) => (statSync(join(dist, p)).size / 1024).toFixed(0);
console.error(
  `applypatch: built dist/ (wasm ${size('wasm-node/applypatch_bg.wasm')} KiB node, ${size('wasm-web/applypatch_bg.wasm')} KiB web)`,
);
