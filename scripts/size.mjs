#!/usr/bin/env node
// What the package weighs where users feel it (issue 28), after npm run build:
//   - each engine's .wasm (core, extra), raw and gzip -9;
//   - esbuild --bundle --minify of pages that use one format each (only
//     `import { apply } from 'applypatch'`, only applyFiles, only edit
//     blocks, only unified diffs, only createPatchStream) and of one that
//     uses every export of the main entry, raw and gzip -9, with the
//     engines each bundle carries;
//   - start-up in headless Chromium: the `apply`-only page's import, from
//     import() to the module evaluated, and to a first `apply` returned (the
//     engine compiles on first use; module served from localhost, each load in
//     a fresh browser context; median of 7), beside the import of a module of
//     one line, loads alternating (what any import costs on this machine as
//     it is: its load moved the page's figure by 6 ms between runs);
//   - start-up in Node: `import` of the package alone, and plus a first
//     `apply`, in CPU time measured in the process from before the import
//     (what they add over `node -e 0`), and as whole processes over
//     `node -e 0` (each in a fresh process; median of 15); and the wasm code
//     that first `apply` compiles (V8 compiles a function on its first call).
// With --profile=ENGINE (core or extra; --profile is core), where
// that engine's bytes go: it is built with cargo and run through
// wasm-bindgen and wasm-opt as scripts/build.mjs does, but with the name
// section kept (-g), and each function body is counted under the module its
// name says (docs/size.md).
//
//   npm run size [-- --json] [-- --profile[=ENGINE]] [-- --no-browser]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const json = process.argv.includes('--json');
const log = json ? () => {} : (line) => console.log(line);
const gz = (b) => gzipSync(b, { level: 9 }).length;
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

const engines = ['core', 'extra'];
/** Each engine's cargo features (scripts/build.mjs). */
const features = { core: 'wasm-core', extra: 'wasm-blocks,wasm-unified' };
if (!engines.every((name) => existsSync(join(dist, 'wasm', `${name}.mjs`)))) {
  console.error('applypatch: no dist/: run npm run build first');
  process.exit(1);
}

// esbuild: the root's when there, else the bundler matrix's (installed by npm ci there).
const bundlers = join(root, 'tests', 'bundlers');
let esbuild = join(root, 'node_modules', '.bin', 'esbuild');
if (!existsSync(esbuild)) {
  esbuild = join(bundlers, 'node_modules', '.bin', 'esbuild');
  const stamp = join(bundlers, 'node_modules', '.package-lock.json');
  if (!existsSync(stamp) || statSync(join(bundlers, 'package-lock.json')).mtimeMs > statSync(stamp).mtimeMs) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: bundlers, stdio: ['ignore', 2, 2] });
  }
}

const result = { date: new Date().toISOString(), node: process.version };
result.wasm = {};
/** The start of each packed engine: a bundle that holds it carries that engine. */
const markers = {};
const { unpack } = await import(pathToFileURL(join(dist, 'esm', 'load.js')).href);
for (const name of engines) {
  const { packed } = await import(pathToFileURL(join(dist, 'wasm', `${name}.mjs`)).href);
  const wasm = Buffer.from(unpack(packed));
  result.wasm[name] = { raw: wasm.length, gzip: gz(wasm) };
  markers[name] = packed.slice(0, 4096);
}

const work = mkdtempSync(join(tmpdir(), 'applypatch-size-'));
const bundle = (name, code) => {
  writeFileSync(join(work, `${name}.js`), code);
  const out = join(work, `${name}.out.js`);
  execFileSync(esbuild, [
    join(work, `${name}.js`),
    '--bundle',
    '--format=esm',
    '--minify',
    '--platform=browser',
    `--alias:applypatch=${join(dist, 'browser.mjs')}`,
    `--outfile=${out}`,
    '--log-level=error',
  ]);
  const bytes = readFileSync(out);
  const text = bytes.toString('latin1');
  return { raw: bytes.length, gzip: gz(bytes), engines: engines.filter((e) => text.includes(markers[e])) };
};
// The ready signal is a call that works: the engine is compiled and instantiated.
result.applyOnly = bundle('apply', "import { apply } from 'applypatch';\nglobalThis.ready = apply('a\\n', '@@\\n-a\\n+b') === 'b\\n';\n");
result.pages = {
  'applyFiles only': bundle('files', "import { applyFiles } from 'applypatch';\nglobalThis.f = applyFiles;\n"),
  'applyBlocks, applyEdit, parseBlocks': bundle(
    'blocks',
    "import { applyBlocks, applyEdit, parseBlocks } from 'applypatch';\nglobalThis.f = [applyBlocks, applyEdit, parseBlocks];\n",
  ),
  'applyUnified only': bundle('unified', "import { applyUnified } from 'applypatch';\nglobalThis.f = applyUnified;\n"),
  'createPatchStream only': bundle('stream', "import { createPatchStream } from 'applypatch';\nglobalThis.f = createPatchStream;\n"),
};
result.everyExport = bundle('every', "import * as applypatch from 'applypatch';\nglobalThis.applypatch = applypatch;\n");
// The same page with the call left to the measurement: the import alone, then the first call.
bundle('later', "import { apply } from 'applypatch';\nglobalThis.apply = apply;\n");

// Node, each in a fresh process, runs alternating: CPU (user + system, every
// thread) from just before `import` to the module loaded, and to a first
// `apply` returned, measured in the process, which is what the import and the
// call add over `node -e 0` without subtracting two whole processes (whose
// start-up alone swings by more than the figure); and, as the issue states
// it, the whole process's CPU minus that of `node -e 0`.
const cpuOf = (code) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `${code}\nconst u = process.cpuUsage(); console.log(u.user + u.system);`],
      { encoding: 'utf8' },
    ),
  ) / 1000;
const entry = JSON.stringify(pathToFileURL(join(dist, 'index.mjs')).href);
const firstCall = "if (apply('a\\n', '@@\\n-a\\n+b') !== 'b\\n') throw new Error('apply');";
const inProcess = () =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const cpu = (u) => (u.user + u.system) / 1000; const u0 = process.cpuUsage();
const { apply } = await import(${entry}); const loaded = cpu(process.cpuUsage(u0));
${firstCall} console.log(JSON.stringify([loaded, cpu(process.cpuUsage(u0))]));`,
      ],
      { encoding: 'utf8' },
    ),
  );
const runs = 15;
const bare = [];
const imported = [];
const first = [];
const inImport = [];
const inFirst = [];
for (let i = 0; i < runs; i++) {
  const [loaded, called] = inProcess();
  inImport.push(loaded);
  inFirst.push(called);
  bare.push(cpuOf(''));
  imported.push(cpuOf(`const { apply } = await import(${entry}); if (typeof apply !== 'function') throw new Error('apply');`));
  first.push(cpuOf(`const { apply } = await import(${entry}); ${firstCall}`));
}
result.nodeImportMs = med(inImport);
result.nodeStartMs = med(inFirst);
result.nodeOverBare = { importMs: med(imported) - med(bare), startMs: med(first) - med(bare), bareMs: med(bare) };

// The wasm code a first `apply` compiles: V8 compiles each function of a
// module on its first call (Liftoff), so this is what the call pays for
// besides running. `--trace-wasm-compilation-times` prints each function
// compiled, with its body's size in bytes.
const trace = execFileSync(
  process.execPath,
  ['--trace-wasm-compilation-times', '--input-type=module', '-e', `const { apply } = await import(${entry}); ${firstCall}`],
  { encoding: 'utf8' },
);
const compiled = [...trace.matchAll(/^Compiled function .* bodysize (\d+) /gm)].map((m) => Number(m[1]));
result.firstApplyCompiles = { functions: compiled.length, bytes: compiled.reduce((a, b) => a + b, 0) };

// Chromium: the `apply`-only bundle, imported by a blank page of the same origin.
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (chromiumPath && !process.argv.includes('--no-browser')) {
  const { chromium } = await import('playwright-core');
  const page = '<!doctype html><title>size</title>';
  const server = createServer((req, res) => {
    const file = req.url === '/later.js' ? join(work, 'later.out.js') : null;
    if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
    else if (req.url === '/floor.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end('globalThis.floor = 1;\n');
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const imports = [];
  const loads = [];
  const floor = [];
  for (let i = 0; i < 7; i++) {
    {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(base);
      floor.push(
        await tab.evaluate(async () => {
          const t = performance.now();
          await import('/floor.js');
          return performance.now() - t;
        }),
      );
      await context.close();
    }
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(base);
    const [imported, ready] = await tab.evaluate(async () => {
      const t = performance.now();
      await import('/later.js');
      const i = performance.now() - t;
      if (globalThis.apply('a\n', '@@\n-a\n+b') !== 'b\n') throw new Error('apply');
      return [i, performance.now() - t];
    });
    imports.push(imported);
    loads.push(ready);
    await context.close();
  }
  result.chromium = browser.version();
  result.chromiumImportMs = med(imports);
  result.chromiumStartMs = med(loads);
  result.chromiumFloorMs = med(floor);
  await browser.close();
  server.close();
}
rmSync(work, { recursive: true, force: true });

const profileArg = process.argv.find((a) => a === '--profile' || a.startsWith('--profile='));
if (profileArg !== undefined) {
  const name = profileArg.split('=')[1] ?? 'core';
  if (!engines.includes(name)) throw new Error(`--profile=${name}: the engines are ${engines.join(', ')}`);
  result.profile = { engine: name, ...profile(name) };
}

if (json) console.log(JSON.stringify(result, null, 2));
else {
  const row = (name, s) =>
    log(`${name.padEnd(52)}${kib(s.raw).padStart(12)}${kib(s.gzip).padStart(12)}${s.engines ? `   ${s.engines.join(', ')}` : ''}`);
  log(`applypatch size and start-up, ${result.date} (Node ${process.version}; timings on this machine as it is, loaded or not)`);
  log(`${''.padEnd(52)}${'raw'.padStart(12)}${'gzip -9'.padStart(12)}   engines carried`);
  for (const name of engines) row(`${name} engine .wasm`, result.wasm[name]);
  row('esbuild --minify: `import { apply }` only', result.applyOnly);
  for (const [name, s] of Object.entries(result.pages)) row(`esbuild --minify: ${name}`, s);
  row('esbuild --minify: every export', result.everyExport);
  log(`Node: import, CPU in the process                ${result.nodeImportMs.toFixed(1)} ms (median of ${runs})`);
  log(`Node: import + first apply, CPU in the process  ${result.nodeStartMs.toFixed(1)} ms (median of ${runs})`);
  const c = result.firstApplyCompiles;
  log(`Node: wasm code a first apply compiles          ${kib(c.bytes)} in ${c.functions} functions`);
  const o = result.nodeOverBare;
  log(
    `Node, whole processes over node -e 0 (${o.bareMs.toFixed(1)} ms): import ${o.importMs.toFixed(1)} ms, + first apply ${o.startMs.toFixed(1)} ms (medians of ${runs})`,
  );
  if (result.chromiumStartMs !== undefined) {
    log(
      `Chromium ${result.chromium}: import of the apply-only page   ${result.chromiumImportMs.toFixed(1)} ms (median of 7; a module of one line ${result.chromiumFloorMs.toFixed(1)} ms)`,
    );
    log(`Chromium ${result.chromium}: import + first apply        ${result.chromiumStartMs.toFixed(1)} ms (median of 7)`);
  }
  if (result.profile) {
    log(
      `\nwhere the ${result.profile.engine} engine's code goes (${result.profile.functions} functions, ${kib(result.profile.code)} of code, ${kib(result.profile.data)} of data; -O3 -g build)`,
    );
    for (const [name, bytes] of result.profile.formats)
      log(`  ${name.padEnd(60)}${kib(bytes).padStart(12)}${`${((100 * bytes) / result.profile.code).toFixed(1)}%`.padStart(8)}`);
    log('by module:');
    for (const [name, bytes] of result.profile.groups)
      log(`  ${name.padEnd(40)}${kib(bytes).padStart(12)}${`${((100 * bytes) / result.profile.code).toFixed(1)}%`.padStart(8)}`);
  }
}

/**
 * Builds the engine as scripts/build.mjs does (wasm-bindgen, then wasm-opt
 * with Cargo.toml's flags) but keeping the name section (-g), and sums the
 * function bodies by the module their (demangled) names point to.
 */
function profile(name) {
  const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${join(homedir(), '.cargo', 'bin')}:${process.env.PATH}` };
  execFileSync(
    'cargo',
    ['build', '--quiet', '--release', '--target', 'wasm32-unknown-unknown', '--lib', '--no-default-features', '--features', features[name]],
    { cwd: root, env, stdio: ['ignore', 2, 2] },
  );
  const raw = join(root, 'target', 'wasm32-unknown-unknown', 'release', 'applypatch.wasm');
  const out = mkdtempSync(join(tmpdir(), 'applypatch-profile-'));
  execFileSync('wasm-bindgen', ['--target', 'bundler', '--out-dir', out, '--out-name', 'named', raw], { env });
  const flags = JSON.parse(/^wasm-opt = (\[.*\])$/m.exec(readFileSync(join(root, 'Cargo.toml'), 'utf8'))[1]);
  execFileSync('wasm-opt', [...flags, '-g', join(out, 'named_bg.wasm'), '-o', join(out, 'named.wasm')], { env });
  const bytes = readFileSync(join(out, 'named.wasm'));
  rmSync(out, { recursive: true, force: true });
  const { bodies, names, data } = parseWasm(bytes);
  const groups = new Map();
  let code = 0;
  for (const [index, size] of bodies) {
    const group = groupOf(demangle(names.get(index) ?? ''));
    groups.set(group, (groups.get(group) ?? 0) + size);
    code += size;
  }
  const formats = new Map();
  for (const [group, size] of groups) formats.set(formatOf(group), (formats.get(formatOf(group)) ?? 0) + size);
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { functions: bodies.size, code, data, formats: sorted(formats), groups: sorted(groups) };
}

/** Function body sizes (by function index), function names, and the data segments' total size. */
function parseWasm(b) {
  let p = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = b[p++];
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return result;
    }
  };
  let imported = 0;
  const bodies = new Map();
  const names = new Map();
  let data = 0;
  while (p < b.length) {
    const id = b[p++];
    const size = leb();
    const end = p + size;
    if (id === 2) {
      // imports: count the imported functions, which come first in the index space
      for (let n = leb(); n > 0; n--) {
        for (let field = 0; field < 2; field++) {
          const len = leb();
          p += len;
        }
        const kind = b[p++];
        if (kind === 0) {
          leb();
          imported++;
        } else if (kind === 1) {
          p++;
          const flags = leb();
          leb();
          if (flags & 1) leb();
        } else if (kind === 2) {
          const flags = leb();
          leb();
          if (flags & 1) leb();
        } else if (kind === 3) p += 2;
        else leb();
      }
    } else if (id === 10) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        const len = leb();
        bodies.set(imported + i, len);
        p += len;
      }
    } else if (id === 11) data = size;
    else if (id === 0) {
      const nameLen = leb();
      const name = b.toString('utf8', p, p + nameLen);
      p += nameLen;
      if (name === 'name') {
        while (p < end) {
          const sub = b[p++];
          const subEnd = leb() + p;
          if (sub === 1) {
            for (let n = leb(); n > 0; n--) {
              const index = leb();
              const len = leb();
              names.set(index, b.toString('utf8', p, p + len));
              p += len;
            }
          }
          p = subEnd;
        }
      }
    }
    p = end;
  }
  return { bodies, names, data };
}

/** Rust's legacy mangling (_ZN…E) to a path; other names as they are. */
function demangle(name) {
  const m = /^_ZN(.*)E$/.exec(name);
  if (!m) return name.replace(/\[[0-9a-f]+\]/g, '').replace(/::h[0-9a-f]{16}$/, '');
  const parts = [];
  let s = m[1];
  while (s.length > 0) {
    const len = /^(\d+)/.exec(s);
    if (!len) break;
    const n = Number(len[1]);
    parts.push(s.slice(len[1].length, len[1].length + n));
    s = s.slice(len[1].length + n);
  }
  return parts
    .filter((part) => !/^h[0-9a-f]{16}$/.test(part))
    .join('::')
    .replace(/\$LT\$/g, '<')
    .replace(/\$GT\$/g, '>')
    .replace(/\$u20\$/g, ' ')
    .replace(/\$RF\$/g, '&')
    .replace(/\$C\$/g, ',')
    .replace(/\.\./g, '::')
    .replace(/\[[0-9a-f]+\]/g, '');
}

/**
 * The module a function belongs to: applypatch's own module (applypatch::x),
 * else the crate. The binding's exports are wasm-bindgen shims into which
 * wasm-opt inlined the engine call they make: they count under the format
 * their export serves.
 */
function groupOf(path) {
  const own = /applypatch::([a-z_0-9]+)/.exec(path);
  if (own) return `applypatch::${own[1]}`;
  const shim = /^(\w+)(?: (?:multivalue|externref) shim)?$/.exec(path)?.[1];
  if (shim && /^[a-z][a-zA-Z]+$|^prepared/.test(shim) && !/^(memcpy|memset|memmove|memcmp|malloc|free|realloc|round)$/.test(shim)) {
    if (/unified/i.test(shim)) return 'exports: unified diffs';
    if (/blocks/i.test(shim)) return 'exports: edit blocks';
    if (/repair/i.test(shim)) return 'exports: repairs';
    if (/patch|operation|summary|createFile/i.test(shim)) return 'exports: Codex patches';
    if (/^apply|lineDiff|detectFormat/.test(shim)) return 'exports: V4A';
    return 'exports: other';
  }
  if (/wasm_bindgen|externref|^__wbindgen|^__wbg/.test(path)) return 'wasm_bindgen';
  if (/serde/.test(path)) return 'serde';
  if (/core::fmt|alloc::fmt|panicking|panic|escape_debug|::_?fmt$/.test(path)) return 'fmt and panics';
  if (/dlmalloc|alloc::alloc|__rust_(alloc|dealloc|realloc)|^(malloc|free|realloc)$/.test(path)) return 'allocator';
  const crate = /^<?([a-z_0-9]+)::/.exec(path)?.[1];
  if (crate) return crate;
  return path === '' ? '(unnamed)' : '(other)';
}

/** The formats of docs/size.md, from the groups above. */
function formatOf(group) {
  if (/^applypatch::(diff|matcher|batch|text|limits|error|mode|format)$|V4A/.test(group))
    return 'V4A core (apply, applyBatch, Strict and Codex matching)';
  if (/^applypatch::(patch|files|tool)$|Codex patches/.test(group)) return 'Codex patches (applyFiles, parse, summary)';
  if (/blocks/.test(group)) return 'edit blocks';
  if (/unified/.test(group)) return 'unified diffs';
  if (/repair/.test(group)) return 'repairs';
  if (/^applypatch::wasm$|wasm_bindgen|js_sys|exports: other/.test(group)) return 'binding (wasm-bindgen)';
  if (/serde|fmt/.test(group)) return 'serde, fmt and panics';
  return 'shared runtime (core, alloc, allocator, hashbrown, memchr)';
}
