#!/usr/bin/env node
// Builds the npm package into dist/:
//   dist/wasm/glue.mjs   wasm-bindgen's glue (wasm-pack --target bundler: plain
//                        functions, no loading code, no import.meta)
//   dist/wasm/bytes.mjs  the engine's .wasm as a hex string: the package's one
//                        copy of it, for Node and browsers alike (js/load.ts)
//   dist/cjs/, esm/      the TypeScript wrapper (js/), compiled twice, with .d.ts
//   dist/index.cjs       require('applypatch') in Node: compiles the engine on first use
//   dist/index.mjs       import in Node (re-exports index.cjs: one PatchError class)
//   dist/browser.mjs     import in browsers and bundlers: compiles the engine on first use
//   dist/node.cjs, node.mjs  applypatch/node: the directory editor (node:fs)
//   dist/mcp.cjs, mcp.mjs    applypatch/mcp: the MCP server (needs @modelcontextprotocol/sdk)
//   dist/cli.cjs         the applypatch command (package.json "bin")
//   dist/codemirror.mjs, monaco.mjs  applypatch/codemirror and applypatch/monaco:
//                        the editor adapters (ES modules only, like the editors)
//
//   node scripts/build.mjs [--if-needed]
// --if-needed skips the build when dist/ is newer than every source.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
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
const env = {
  ...process.env,
  PATH: [join(root, 'node_modules', '.bin'), join(homedir(), '.cargo', 'bin'), process.env.PATH].join(delimiter),
};
// Progress goes to stderr: stdout stays clean for callers such as `npm pack --json`.
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['inherit', 2, 2], env });

// A fresh clone lacks the toolchain: scripts/setup.sh installs what is missing
// (the wasm32 target, wasm-bindgen-cli at the crate's version, wasm-pack,
// node_modules) and says what to do when it cannot (no Rust).
const output = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : null;
};
const pinned = /^wasm-bindgen = .*"=([0-9.]+)"/m.exec(readFileSync(join(root, 'Cargo.toml'), 'utf8'))?.[1];
const missing = [
  !output('wasm-pack', ['--version']) && 'wasm-pack',
  output('wasm-bindgen', ['--version'])?.trim() !== `wasm-bindgen ${pinned}` && `wasm-bindgen-cli ${pinned}`,
  !/^wasm32-unknown-unknown$/m.test(output('rustup', ['target', 'list', '--installed']) ?? '') && 'the Rust target wasm32-unknown-unknown',
  !existsSync(join(root, 'node_modules', 'binaryen')) && 'node_modules',
].filter(Boolean);
if (missing.length) {
  console.error(`applypatch: building needs ${missing.join(', ')}: running bash scripts/setup.sh --no-browser`);
  const r = spawnSync('bash', [join(root, 'scripts', 'setup.sh'), '--no-browser'], { cwd: root, env, stdio: ['inherit', 2, 2] });
  if (r.status !== 0) {
    console.error('applypatch: the setup failed (above); fix what it names, then run npm run build again');
    process.exit(1);
  }
}

rmSync(dist, { recursive: true, force: true });
const pack = join(root, 'target', 'wasm-pack');
run('wasm-pack', [
  '--quiet',
  'build',
  '--release',
  '--target',
  'bundler',
  '--out-dir',
  pack,
  '--out-name',
  'applypatch',
  '--no-pack',
  '--no-gitignore',
  // The binding (src/wasm.rs) is behind the crate's `wasm` feature.
  '--',
  '--features',
  'wasm',
]);
// The glue must load nowhere by itself: js/load.ts instantiates the engine
// with it, so no bundler looks for a .wasm file.
const glue = readFileSync(join(pack, 'applypatch_bg.js'), 'utf8');
if (/import\.meta|\brequire\(|^import /m.test(glue) || !glue.includes('export function __wbg_set_wasm')) {
  throw new Error('wasm-bindgen glue changed shape: expected plain exports and __wbg_set_wasm, no imports');
}
// A fresh wasm instance on demand: js/binding.ts asks js/load.ts for one after
// a trap, or to give back memory a call grew. The glue caches views of the
// instance's memory; this function, added here, forgets them. The build stops
// if the glue no longer has the shape it relies on.
const caches = [...glue.matchAll(/^let (cached\w+Memory0) = null;$/gm)].map((m) => m[1]);
if (caches.length === 0 || !/^let WASM_VECTOR_LEN = 0;$/m.test(glue) || glue.includes('__wbg_reset_caches')) {
  throw new Error('wasm-bindgen glue changed shape: expected cached memory views and WASM_VECTOR_LEN; update __wbg_reset_caches');
}
const resetCaches = `
// Added by scripts/build.mjs: forget the views of the old instance's memory (js/load.ts renews the instance).
export function __wbg_reset_caches() {
${caches.map((c) => `    ${c} = null;`).join('\n')}
    if (typeof numBytesDecoded !== 'undefined') numBytesDecoded = 0;
    WASM_VECTOR_LEN = 0;
}
`;
mkdirSync(join(dist, 'wasm'), { recursive: true });
writeFileSync(join(dist, 'wasm', 'glue.mjs'), glue + resetCaches);
const wasmBytes = readFileSync(join(pack, 'applypatch_bg.wasm'));
writeFileSync(
  join(dist, 'wasm', 'bytes.mjs'),
  `// The engine, applypatch_bg.wasm (${wasmBytes.length} bytes), as hex: compiled by js/load.ts.\nexport default '${wasmBytes.toString('hex')}';\n`,
);
// js/binding.ts is typed from wasm-bindgen's declarations of the binding.
// Its [Symbol.dispose] needs lib esnext, which the wrapper never uses and a
// consumer's compiler may not have: that line is left out.
const glueTypes = readFileSync(join(pack, 'applypatch.d.ts'), 'utf8').replace(/^\s*\[Symbol\.dispose\]\(\): void;\n/gm, '');
writeFileSync(join(root, 'js', 'wasm-glue.d.ts'), `// Copied by scripts/build.mjs from wasm-bindgen's output: do not edit.\n${glueTypes}`);
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.cjs.json']);
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.esm.json']);
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');
for (const out of ['cjs', 'esm']) writeFileSync(join(dist, out, 'wasm-glue.d.ts'), glueTypes);

writeFileSync(
  join(dist, 'index.cjs'),
  `'use strict';
// require('applypatch') in Node: the engine is compiled synchronously on the
// first call, from the same ES modules browsers use (require of an ES module:
// Node >= 20.19); the glue and hex modules are read only then.
require('./cjs/load.js').loadEngine(() => require('./wasm/glue.mjs'), () => require('./wasm/bytes.mjs').default);
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
  `// import from 'applypatch' in browsers and bundlers: the engine is compiled
// synchronously on the first call (js/load.ts), so every function is ready
// and the import itself compiles nothing.
import * as glue from './wasm/glue.mjs';
import hex from './wasm/bytes.mjs';
import { loadEngine } from './esm/load.js';
loadEngine(glue, hex);
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

// applypatch/mcp: the MCP server; needs the optional peer dependency @modelcontextprotocol/sdk.
writeFileSync(
  join(dist, 'mcp.cjs'),
  `'use strict';
// require('applypatch/mcp'): applypatch/node first (one module instance), then the server.
require('./node.cjs');
module.exports = require('./cjs/mcp/index.js');
`,
);
writeFileSync(
  join(dist, 'mcp.mjs'),
  `// import from 'applypatch/mcp' (re-exports mcp.cjs: one module instance with the other entries).
import api from './mcp.cjs';
export const { createServer, serveStdio } = api;
`,
);
writeFileSync(join(dist, 'mcp.d.cts'), "export * from './cjs/mcp/index.js';\n");
writeFileSync(join(dist, 'mcp.d.mts'), "export * from './esm/mcp/index.js';\n");
// applypatch/codemirror and applypatch/monaco: ES modules only (CodeMirror and
// Monaco are). In browsers and bundlers they run on the browser entry's
// engine, shared with \`import 'applypatch'\`. In Node (\`applypatch/*.node.mjs\`)
// they load their own engine from their own copy of the glue module (the
// query makes it a separate module instance): the glue holds one wasm
// instance, and the main entry's must not be replaced under it.
for (const name of ['codemirror', 'monaco']) {
  writeFileSync(
    join(dist, `${name}.mjs`),
    `// import from 'applypatch/${name}' in browsers and bundlers: the engine first (the browser entry), then the adapter.
import './browser.mjs';
export * from './esm/${name}/index.js';
`,
  );
  writeFileSync(
    join(dist, `${name}.node.mjs`),
    `// import from 'applypatch/${name}' in Node: an engine of its own (see scripts/build.mjs), then the adapter.
import * as glue from './wasm/glue.mjs?adapter';
import hex from './wasm/bytes.mjs';
import { loadEngine } from './esm/load.js';
loadEngine(glue, hex);
export * from './esm/${name}/index.js';
`,
  );
  writeFileSync(join(dist, `${name}.d.mts`), `export * from './esm/${name}/index.js';\n`);
}

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
console.error(`applypatch: built dist/ (wasm ${(wasmBytes.length / 1024).toFixed(0)} KiB)`);
