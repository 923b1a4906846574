#!/usr/bin/env node
// Builds the npm package into dist/:
//   dist/wasm/core.mjs, extra.mjs  the two engines (wasm modules built with
//                        the cargo features of src/wasm/mod.rs), each
//                        as wasm-bindgen's glue (wasm-pack --target bundler,
//                        wrapped in a function that makes a fresh copy) and
//                        the .wasm packed in a string (pack() below), for
//                        browsers and bundlers (js/load.ts unpack)
//   dist/wasm/core.wasm, extra.wasm, core.cjs, extra.cjs  the same engines
//                        for require() in Node: the .wasm as it is, and the
//                        glue as CommonJS
//   dist/cjs/engines/, esm/engines/  each engine's Engine (js/binding.ts),
//                        which loads its wasm module on first use
//   dist/cjs/, esm/      the TypeScript wrapper (js/), compiled twice, with .d.ts
//   dist/index.cjs       require('applypatch') in Node: each engine compiled on first use
//   dist/index.mjs       import in Node (re-exports index.cjs: one PatchError class)
//   dist/browser.mjs     import in browsers and bundlers: each engine compiled on first use
//   dist/node.cjs, node.mjs  applypatch/node: the directory editor (node:fs)
//   dist/mcp.cjs, mcp.mjs    applypatch/mcp: the MCP server (needs @modelcontextprotocol/sdk)
//   dist/cli.cjs         the applypatch command (package.json "bin")
//   dist/codemirror.mjs, monaco.mjs  applypatch/codemirror and applypatch/monaco:
//                        the editor adapters (ES modules only, like the editors)
//
//   node scripts/build.mjs [--if-needed]
// --if-needed skips the build when dist/ is newer than every source.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
mkdirSync(join(dist, 'wasm'), { recursive: true });
// One wasm module per engine, built with its cargo features (src/wasm/mod.rs),
// so a bundle carries only the engines its imports use (docs/size.md): V4A
// diffs and Codex patches in one, the other formats in the other.
// An engine's .wasm as a string of printable ASCII (js/load.ts `unpack`,
// js/unpack.wat): its 87 most frequent bytes one character each, the other
// 169 a prefix (the alphabet's first two characters) and one of those 87.
// Every byte has one code, so the repeats gzip finds in the .wasm are
// repeats in the string too: it gzips to within 1% of the .wasm, where hex
// was 12% larger (docs/size.md). The alphabet leaves out what a string
// literal or a bundler would escape or treat specially: \ ' " ` $ <.
// Before the codes, 512 bytes of tables as hex: the byte of each code
// (a one-character code c at c, a two-character one at 128 * prefix + its
// second character) and each character's prefix number (at 384 + c).
const ALPHABET = [];
for (let c = 0x20; c < 0x7f; c++) if (!'\\\'"`$<'.includes(String.fromCharCode(c))) ALPHABET.push(c);
function packWasm(bytes) {
  const counts = new Array(256).fill(0);
  for (const b of bytes) counts[b]++;
  const order = [...counts.keys()].sort((a, b) => counts[b] - counts[a] || a - b);
  const [first, second, ...single] = ALPHABET;
  const tables = Buffer.alloc(512);
  tables[384 + first] = 1;
  tables[384 + second] = 2;
  const codes = [];
  order.forEach((b, rank) => {
    if (rank < single.length) {
      tables[single[rank]] = b;
      codes[b] = String.fromCharCode(single[rank]);
      return;
    }
    // The second character is never a prefix (js/unpack.wat reads each
    // character on its own): 2 * 87 codes for the other 169 bytes.
    const prefix = 1 + Math.floor((rank - single.length) / single.length);
    const c = single[(rank - single.length) % single.length];
    tables[128 * prefix + c] = b;
    codes[b] = String.fromCharCode(prefix === 1 ? first : second, c);
  });
  let text = tables.toString('hex');
  for (const b of bytes) text += codes[b];
  return text;
}

const features = { core: ['wasm-core'], extra: ['wasm-blocks', 'wasm-unified'] };
const engines = Object.keys(features);
const wasmSizes = {};
for (const name of engines) {
  const pack = join(root, 'target', 'wasm-pack', name);
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
    '--',
    '--no-default-features',
    '--features',
    features[name].join(','),
  ]);
  // The glue must load nowhere by itself: js/load.ts instantiates the engine
  // with it, so no bundler looks for a .wasm file.
  const glue = readFileSync(join(pack, 'applypatch_bg.js'), 'utf8');
  if (/import\.meta|\brequire\(|^import /m.test(glue) || !glue.includes('export function __wbg_set_wasm')) {
    throw new Error('wasm-bindgen glue changed shape: expected plain exports and __wbg_set_wasm, no imports');
  }
  // js/binding.ts lets go of an old instance's objects with each class's
  // __destroy_into_raw (out of the glue's FinalizationRegistry, so that it
  // never frees them into a new instance).
  const classes = [...glue.matchAll(/^export class (\w+)/gm)].map((m) => m[1]);
  const detachable = (glue.match(/^ {4}__destroy_into_raw\(\) \{$/gm) ?? []).length;
  if (detachable !== classes.length) {
    throw new Error(
      `wasm-bindgen glue changed shape: ${classes.length} classes, ${detachable} with __destroy_into_raw(); update js/binding.ts (Handed)`,
    );
  }
  // A fresh wasm instance on demand: js/binding.ts asks js/load.ts for one
  // after a trap, or to give back memory a call grew. The glue caches views
  // of the instance's memory; this function, added here, forgets them. The
  // build stops if the glue no longer has the shape it relies on.
  const caches = [...glue.matchAll(/^let (cached\w+Memory0) = null;$/gm)].map((m) => m[1]);
  if (caches.length === 0 || !/^let WASM_VECTOR_LEN = 0;$/m.test(glue) || glue.includes('__wbg_reset_caches')) {
    throw new Error('wasm-bindgen glue changed shape: expected cached memory views and WASM_VECTOR_LEN; update __wbg_reset_caches');
  }
  // The glue becomes a function that makes a fresh copy of it: each Engine
  // (js/binding.ts) holds its own instance, and an engine of the CommonJS
  // entry and one of the ES modules (the editor adapters in Node) never
  // replace each other's instance in a shared glue module.
  const exported = [];
  const body = glue.replace(/^export (function|class) (\w+)/gm, (_m, kind, id) => {
    exported.push(id);
    return `${kind} ${id}`;
  });
  if (/^export /m.test(body)) throw new Error('wasm-bindgen glue changed shape: an export other than a function or a class');
  const bytes = readFileSync(join(pack, 'applypatch_bg.wasm'));
  wasmSizes[name] = bytes.length;
  const glueFunction = `function glue() {
${body}
// Added by scripts/build.mjs: forget the views of the old instance's memory (js/load.ts renews the instance).
function __wbg_reset_caches() {
${caches.map((c) => `    ${c} = null;`).join('\n')}
    if (typeof numBytesDecoded !== 'undefined') numBytesDecoded = 0;
    WASM_VECTOR_LEN = 0;
}
return { ${[...exported, '__wbg_reset_caches'].join(', ')} };
}`;
  writeFileSync(
    join(dist, 'wasm', `${name}.mjs`),
    `// The ${name} engine (scripts/build.mjs): wasm-bindgen's glue, made fresh by glue()
// for each engine that loads it, and the wasm (${bytes.length} bytes) packed (scripts/build.mjs
// packWasm), unpacked and compiled by js/load.ts on the engine's first use.
export ${glueFunction}
export const packed = '${packWasm(bytes)}';
`,
  );
  // require() in Node: the .wasm itself, read from its file (dist/cjs/engines/file.js):
  // unpacking the string above took 1.6 ms of a Node start-up of about 20
  // (docs/size.md). It makes the package 0.3 MB larger to download, not any
  // bundle: bundlers take the ES module.
  writeFileSync(join(dist, 'wasm', `${name}.wasm`), bytes);
  // require() in Node: the same glue as CommonJS, not through Node's ES
  // module loader.
  writeFileSync(
    join(dist, 'wasm', `${name}.cjs`),
    `'use strict';
// The ${name} engine's glue for require() in Node (scripts/build.mjs): ${name}.mjs's
// glue(), for the engine dist/cjs/engines/${name}.js reads from ${name}.wasm.
exports.glue = ${glueFunction};
`,
  );
  // js/binding.ts is typed from wasm-bindgen's declarations of each module.
  // Their [Symbol.dispose] needs lib esnext, which the wrapper never uses and a
  // consumer's compiler may not have: that line is left out.
  const types = readFileSync(join(pack, 'applypatch.d.ts'), 'utf8').replace(/^\s*\[Symbol\.dispose\]\(\): void;\n/gm, '');
  writeFileSync(join(root, 'js', `wasm-${name}.d.ts`), `// Copied by scripts/build.mjs from wasm-bindgen's output: do not edit.\n${types}`);
}
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.cjs.json']);
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.esm.json']);
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');
// The packing round-trips through the loader the package ships, and the
// loader's decoder is js/unpack.wat assembled.
{
  const load = await import(pathToFileURL(join(dist, 'esm', 'load.js')).href);
  const binaryen = (await import(pathToFileURL(createRequire(import.meta.url).resolve('binaryen')).href)).default;
  const wat = binaryen.parseText(readFileSync(join(root, 'js', 'unpack.wat'), 'utf8'));
  const assembled = Buffer.from(wat.emitBinary()).toString('hex');
  wat.dispose();
  if (assembled !== load.DECODER) throw new Error(`js/load.ts DECODER is not js/unpack.wat assembled: set it to\n${assembled}`);
  for (const name of engines) {
    const { packed } = await import(pathToFileURL(join(dist, 'wasm', `${name}.mjs`)).href);
    const wasm = readFileSync(join(root, 'target', 'wasm-pack', name, 'applypatch_bg.wasm'));
    if (!Buffer.from(load.unpack(packed)).equals(wasm)) throw new Error(`the packed ${name} engine does not unpack to its .wasm`);
  }
}
for (const out of ['cjs', 'esm']) {
  mkdirSync(join(dist, out, 'engines'), { recursive: true });
  for (const name of engines) {
    cpSync(join(root, 'js', `wasm-${name}.d.ts`), join(dist, out, `wasm-${name}.d.ts`));
    cpSync(join(root, 'js', 'engines', `${name}.d.ts`), join(dist, out, 'engines', `${name}.d.ts`));
  }
}
// Each engine's module: the ES module imports its wasm module (bundlers keep
// it only when something that uses the engine is kept); the CommonJS one
// requires it on the engine's first use, so that require('applypatch')
// reads no engine at all.
for (const name of engines) {
  writeFileSync(
    join(dist, 'esm', 'engines', `${name}.js`),
    `// The ${name} engine (written by scripts/build.mjs): compiled on its first use.
import { Engine } from '../binding.js';
import { compile } from '../load.js';
import { glue, packed } from '../../wasm/${name}.mjs';
export const ${name} = /* @__PURE__ */ new Engine('${name}', (engine) => compile(engine, glue(), packed));
`,
  );
  writeFileSync(
    join(dist, 'cjs', 'engines', `${name}.js`),
    `'use strict';
// The ${name} engine (written by scripts/build.mjs): its wasm module is read and compiled on its first use.
const { Engine } = require('../binding.js');
const { compile } = require('../load.js');
const { readWasm } = require('./file.js');
exports.${name} = new Engine('${name}', (engine) => {
  const wasm = readWasm('${name}');
  if (wasm !== undefined) compile(engine, require('../../wasm/${name}.cjs').glue(), wasm);
  else {
    const packed = require('../../wasm/${name}.mjs');
    compile(engine, packed.glue(), packed.packed);
  }
});
`,
  );
}
// In Node each engine is read from dist/wasm/NAME.wasm. Where the file is not
// where this module expects it (a bundle), the engine's ES module is
// required: that starts Node's ES module loader and parses 0.4 MB of
// JavaScript, about 5 ms of start-up, and unpacks the string (docs/size.md).
writeFileSync(
  join(dist, 'cjs', 'engines', 'file.js'),
  `'use strict';
// Written by scripts/build.mjs: an engine's .wasm, read from its file.
exports.readWasm = (name) => {
  try {
    return require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '..', 'wasm', name + '.wasm'));
  } catch {
    return undefined;
  }
};
`,
);

// require() in Node loads the wrapper from two files (esbuild): its 35
// CommonJS modules one by one cost 3 to 4 ms of start-up (docs/size.md).
// dist/cjs/bundle/index.js holds what the main entry reaches; node.js the
// Node entries' own modules (node/, mcp/), which reach the others through
// their paths. Each module keeps its path as a stub that returns its
// instance from its bundle, where modules run on their first require as
// before; so every entry (index, node, mcp, cli) and a test that reaches a
// module directly share one instance of each. The bundles sit as deep as
// the modules that find files from __dirname (engines/file.js, mcp/server.js).
const cjs = join(dist, 'cjs');
const modules = readdirSync(cjs, { recursive: true })
  .map((f) => String(f).replaceAll('\\', '/'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => f.slice(0, -3))
  .sort();
const nodeOnly = (m) => (m.startsWith('node/') || m.startsWith('mcp/')) && m !== 'mcp/definitions';
const esbuild = await import(pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href);
const bundleDir = join(cjs, 'bundle');
for (const [bundle, part] of [
  ['index', modules.filter((m) => !nodeOnly(m))],
  ['node', modules.filter(nodeOnly)],
]) {
  const registry = join(cjs, `bundle-${bundle}.js`);
  writeFileSync(registry, `module.exports = {\n${part.map((m) => `  ${JSON.stringify(m)}: () => require('./${m}.js'),`).join('\n')}\n};\n`);
  const out = join(bundleDir, `${bundle}.js`);
  const { metafile } = await esbuild.build({
    entryPoints: [registry],
    absWorkingDir: root,
    metafile: true,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    legalComments: 'none',
    logLevel: 'warning',
    outfile: out,
    plugins: [
      {
        // A module of the other bundle, and the engines' wasm modules, stay
        // outside: required by their paths, from the bundle's folder.
        name: 'stay-outside',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            const target = resolve(args.resolveDir, args.path);
            const id = relative(cjs, target).replaceAll('\\', '/').replace(/\.js$/, '');
            if (part.includes(id)) return undefined;
            return { path: relative(bundleDir, target).replaceAll('\\', '/'), external: true };
          });
        },
      },
    ],
  });
  // A module bundled twice would have two instances.
  const inside = Object.keys(metafile.inputs).map((f) => relative(cjs, join(root, f)).replaceAll('\\', '/').replace(/\.js$/, ''));
  const stray = inside.filter((m) => m !== `bundle-${bundle}` && !part.includes(m));
  if (stray.length) throw new Error(`dist/cjs/bundle/${bundle}.js holds modules it should leave outside: ${stray.join(', ')}`);
  for (const m of part) {
    const up = m.includes('/') ? '../'.repeat(m.split('/').length - 1) : './';
    writeFileSync(
      join(cjs, `${m}.js`),
      `'use strict';
// Written by scripts/build.mjs: this module runs from ${up}bundle/${bundle}.js (require() loads the wrapper from two files).
module.exports = require('${up}bundle/${bundle}.js')[${JSON.stringify(m)}]();
`,
    );
  }
}

writeFileSync(
  join(dist, 'index.cjs'),
  `'use strict';
// require('applypatch') in Node: each engine is compiled synchronously on the
// first call that needs it, from the same wasm modules browsers use (require
// of an ES module: Node >= 20.19), read only then (dist/cjs/engines/).
// Not \`module.exports = require(...)\`: Node's import of this file takes that
// for a re-export and parses what it requires (the wrapper's bundle, 94 to
// 138 KB) with cjs-module-lexer for its names, 20 to 40 ms of CPU (docs/size.md);
// the .mjs entry names the exports itself.
const api = require('./cjs/index.js');
module.exports = api;
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
  `// import from 'applypatch' in browsers and bundlers: each engine is
// compiled synchronously on the first call that needs it (js/load.ts), so
// every function is ready and the import itself compiles nothing; a bundle
// carries only the engines of the functions it uses (dist/esm/engines/).
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
// Not \`module.exports = require(...)\`: Node's import of this file takes that
// for a re-export and parses what it requires (the wrapper's bundle, 94 to
// 138 KB) with cjs-module-lexer for its names, 20 to 40 ms of CPU (docs/size.md);
// the .mjs entry names the exports itself.
const api = require('./cjs/node/index.js');
module.exports = api;
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
// Not \`module.exports = require(...)\`: Node's import of this file takes that
// for a re-export and parses what it requires (the wrapper's bundle, 94 to
// 138 KB) with cjs-module-lexer for its names, 20 to 40 ms of CPU (docs/size.md);
// the .mjs entry names the exports itself.
const api = require('./cjs/mcp/index.js');
module.exports = api;
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
// Monaco are). In browsers and bundlers their engines are the browser entry's
// (the same dist/esm/engines/ modules), shared with \`import 'applypatch'\`.
// In Node (\`applypatch/*.node.mjs\`) they are the ES modules' engines, apart
// from the CommonJS entry's: each engine makes its own copy of the glue.
for (const name of ['codemirror', 'monaco']) {
  writeFileSync(
    join(dist, `${name}.mjs`),
    `// import from 'applypatch/${name}' in browsers and bundlers.
export * from './esm/${name}/index.js';
`,
  );
  writeFileSync(
    join(dist, `${name}.node.mjs`),
    `// import from 'applypatch/${name}' in Node: the ES modules' engines (scripts/build.mjs).
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
console.error(`applypatch: built dist/ (wasm: ${engines.map((n) => `${n} ${(wasmSizes[n] / 1024).toFixed(0)} KiB`).join(', ')})`);
