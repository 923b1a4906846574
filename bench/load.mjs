#!/usr/bin/env node
// What a browser downloads and what loading the engine costs, for the design
// the package uses (the .wasm packed inside the JS, compiled synchronously
// during the import) against the alternative (a separate .wasm file, fetched
// and compiled asynchronously).
//
// Sizes: gzip -9 and brotli -11 of
//   - the core engine's .wasm alone, and its module (dist/wasm/core.mjs:
//     the glue and the packed .wasm),
//   - an esbuild --bundle --minify of a page importing `apply` alone, and of
//     one using the whole API (what a browser downloads: JS with the engine).
// Start-up (medians, in this Node and in headless Chromium when present):
//   - unpacking (js/load.ts unpack), new WebAssembly.Module (sync),
//   - WebAssembly.compile (async) of the same bytes, for comparison (Node),
//   - the whole import of dist/browser.mjs.
//
//   node bench/load.mjs          (after npm run build; uses tests/bundlers' esbuild, installing it if needed)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundlers = join(root, 'tests', 'bundlers');
const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10);

const stamp = join(bundlers, 'node_modules', '.package-lock.json');
if (!existsSync(stamp) || statSync(join(bundlers, 'package-lock.json')).mtimeMs > statSync(stamp).mtimeMs) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: bundlers, stdio: 'inherit' });
}

const bytesModule = readFileSync(join(root, 'dist', 'wasm', 'core.mjs'));
const { packed } = await import(pathToFileURL(join(root, 'dist', 'wasm', 'core.mjs')).href);
const { unpack } = await import(pathToFileURL(join(root, 'dist', 'esm', 'load.js')).href);
const wasm = Buffer.from(unpack(packed));

const work = mkdtempSync(join(tmpdir(), 'applypatch-load-'));
const bundle = (name, code) => {
  writeFileSync(join(work, `${name}.js`), code);
  const out = join(work, `${name}.out.js`);
  execFileSync(join(bundlers, 'node_modules', '.bin', 'esbuild'), [
    join(work, `${name}.js`),
    '--bundle',
    '--format=esm',
    '--minify',
    '--platform=browser',
    `--alias:applypatch=${join(root, 'dist', 'browser.mjs')}`,
    `--outfile=${out}`,
    '--log-level=error',
  ]);
  return readFileSync(out);
};
const applyOnly = bundle('apply', "import { apply } from 'applypatch';\nglobalThis.out = apply('a\\n', '@@\\n-a\\n+b');\n");
const whole = bundle('whole', "import * as ap from 'applypatch';\nglobalThis.ap = ap;\n");
rmSync(work, { recursive: true, force: true });

console.log('what a browser downloads                      raw       gzip     brotli');
for (const [name, b] of [
  ['the .wasm alone (if it were a separate file)', wasm],
  ['dist/wasm/core.mjs (glue, the packed .wasm)', bytesModule],
  ['a page using `apply` alone (esbuild bundle)', applyOnly],
  ['a page using the whole API (esbuild bundle)', whole],
]) {
  console.log(`${name.padEnd(44)}${kib(b.length)} ${kib(gz(b))} ${kib(br(b))}`);
}

// Each start-up is measured in a fresh process (V8 reuses a module compiled
// from the same bytes within one process), as the first compile a user pays.
const probe = `
const { packed } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'wasm', 'core.mjs')).href)});
const { unpack } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'esm', 'load.js')).href)});
const t0 = performance.now();
const bytes = unpack(packed);
const t1 = performance.now();
let module;
if (process.argv[1] === 'async') module = await WebAssembly.compile(bytes);
else module = new WebAssembly.Module(bytes);
const t2 = performance.now();
console.log(JSON.stringify([t1 - t0, t2 - t1]));
`;
const runs = (mode) =>
  Array.from({ length: 11 }, () =>
    JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe, mode], { encoding: 'utf8' })),
  );
const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const sync = runs('sync');
const async_ = runs('async');
// The whole import of the package, as a user's first line does it.
const importProbe = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'browser.mjs')).href)}); console.log(performance.now() - t);`;
const imports = Array.from({ length: 11 }, () =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', importProbe], { encoding: 'utf8' })),
);
console.log(`\nstart-up in Node ${process.version}, first time in a fresh process (median of 11, ms)`);
console.log(`  unpacking the .wasm (js/load.ts unpack)       ${med(sync.map((r) => r[0])).toFixed(2)}`);
console.log(`  new WebAssembly.Module (sync, as shipped)     ${med(sync.map((r) => r[1])).toFixed(2)}`);
console.log(`  WebAssembly.compile (async), for comparison   ${med(async_.map((r) => r[1])).toFixed(2)}`);
console.log(`  the whole import of dist/browser.mjs          ${med(imports).toFixed(2)}`);

// The same in headless Chromium, each run on a fresh page of a fresh browser context.
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (chromiumPath) {
  const { createServer } = await import('node:http');
  const { serveStatic } = await import('../scripts/serve.mjs');
  const { chromium } = await import('playwright-core');
  const files = serveStatic({ '/dist/': join(root, 'dist'), '/': join(root, 'www') });
  const server = createServer(files);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  const rows = [];
  for (let i = 0; i < 11; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}dist/browser.mjs`);
    rows.push(
      await page.evaluate(async () => {
        const { packed } = await import('/dist/wasm/core.mjs');
        const { unpack } = await import('/dist/esm/load.js');
        const t0 = performance.now();
        const bytes = unpack(packed);
        const t1 = performance.now();
        new WebAssembly.Module(bytes);
        const t2 = performance.now();
        await import('/dist/browser.mjs');
        const t3 = performance.now();
        return [t1 - t0, t2 - t1, t3 - t2];
      }),
    );
    await context.close();
  }
  const version = browser.version();
  await browser.close();
  server.close();
  const col = (k) => med(rows.map((r) => r[k])).toFixed(2);
  console.log(`\nstart-up in Chromium ${version} (median of 11 fresh contexts, ms)`);
  console.log(`  unpacking the .wasm (js/load.ts unpack)       ${col(0)}`);
  console.log(`  new WebAssembly.Module (sync, as shipped)     ${col(1)}`);
  console.log(`  the whole import of dist/browser.mjs          ${col(2)}  (local server: fetching its modules, parsing, compiling)`);
}
