// The package as browser and Node users build it: the packed tarball, unpacked
// into a one-page app, built in production mode by each bundler with no
// configuration of its own (webpack: html-webpack-plugin only; Rollup:
// node-resolve({ browser: true }) only), each page opened in headless
// Chromium; Node bundles (esbuild --platform=node, esm and cjs) run with node;
// the unbundled entry from <script type="module">, a module Web Worker, and
// pages with a Content-Security-Policy; the package from Deno and Bun.
//
// The bundlers are pinned in tests/bundlers/package.json and installed by this
// test with `npm ci` into tests/bundlers/node_modules (ignored by git, kept as a
// cache: a second run does not install again).
//
// Each page must show the applied text and the PatchError code of a failing call.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { serveStatic } from '../../scripts/serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(here, 'out');
const app = join(out, 'app');
const bin = (name) => join(here, 'node_modules', '.bin', name);

const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!chromiumPath) {
  const msg = 'Chromium is missing (/usr/bin/chromium; set CHROMIUM_PATH, or run scripts/setup.sh as root)';
  if (process.env.CI) throw new Error(`bundler matrix: ${msg}, and CI is set: the browser pages must run`);
  console.log(`\n!!! SKIPPING the bundler matrix's browser pages: ${msg}. !!!\n`);
}
const pageTest = (name, fn) => test(name, { skip: !chromiumPath && 'no Chromium' }, fn);

// What every page and script prints: the applied text, then the failing call's code.
const EXPECTED = { text: 'def greet():\n    print("Hello")\n', code: 'context_not_found' };
const MAIN = `import { apply, PatchError } from 'applypatch';

const result = { text: null, code: null, wide: null };
// A text of two bytes a character (Node and Bun copy it as UTF-16 for the
// engine to encode; elsewhere encodeInto does): applied, and refused with a lone surrogate.
const wide = '中'.repeat(300) + '\\nold\\n';
try {
  result.wide = apply(wide, '-old\\n+new') === wide.replace('old', 'new');
  apply(wide + '\\uD800', '-old\\n+new');
  result.wide = false;
} catch (e) {
  result.wide = result.wide === true && e instanceof PatchError && e.code === 'invalid_string';
}
try {
  result.text = apply('def greet():\\n    print("Hi")\\n', '@@ def greet():\\n-    print("Hi")\\n+    print("Hello")');
  apply('a\\n', '@@\\n-zzz\\n+y');
} catch (e) {
  result.code = e instanceof PatchError ? e.code : \`not a PatchError: \${e}\`;
  result.message = e.message;
}
`;
const PAGE_MAIN = `${MAIN}const pre = document.createElement('pre');
pre.id = 'out';
pre.textContent = JSON.stringify(result);
document.body.append(pre);
`;
const HTML = (script) =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><title>applypatch bundler test</title></head>\n<body>${script}</body></html>\n`;

const run = (cmd, args, cwd = app, env = {}) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });

const servers = [];
let browser;
const sizes = {};

before(async () => {
  // The bundlers, pinned, installed once into tests/bundlers/node_modules.
  const lock = join(here, 'package-lock.json');
  const stamp = join(here, 'node_modules', '.package-lock.json');
  if (!existsSync(stamp) || statSync(lock).mtimeMs > statSync(stamp).mtimeMs) {
    console.log('bundler matrix: installing the pinned bundlers (npm ci in tests/bundlers)');
    // --include=dev: run() sets NODE_ENV=production for the builds, which would make npm ci skip every devDependency.
    run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund', '--loglevel=error'], here);
  }
  // The app, with the packed tarball unpacked as node_modules/applypatch.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(app, 'node_modules', 'applypatch'), { recursive: true });
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out], root));
  run('tar', ['xzf', join(out, packed[0].filename), '--strip-components=1', '-C', join(app, 'node_modules', 'applypatch')]);
  writeFileSync(join(app, 'package.json'), '{ "name": "bundler-app", "private": true, "type": "module" }\n');
  writeFileSync(join(app, 'main.js'), PAGE_MAIN);
  writeFileSync(join(app, 'index.html'), HTML('<script type="module" src="./main.js"></script>'));
  writeFileSync(join(app, 'node.js'), `${MAIN}console.log(JSON.stringify(result));\n`);
  // Unbundled: the entry file as a <script type="module">, and from a module worker.
  // (external scripts only: the CSP pages below allow no inline script)
  const direct = (code) => code.replace("'applypatch'", "'./node_modules/applypatch/dist/browser.mjs'");
  writeFileSync(join(app, 'plain.js'), direct(PAGE_MAIN));
  writeFileSync(join(app, 'plain.html'), HTML('<script type="module" src="./plain.js"></script>'));
  writeFileSync(join(app, 'worker.js'), `${direct(MAIN)}postMessage(result);\n`);
  writeFileSync(
    join(app, 'start-worker.js'),
    `const show = (text) => { const pre = document.createElement('pre'); pre.id = 'out'; pre.textContent = text; document.body.append(pre); };
const w = new Worker('./worker.js', { type: 'module' });
w.onmessage = (e) => show(JSON.stringify(e.data));
w.onerror = (e) => show('worker error: ' + e.message);
`,
  );
  writeFileSync(join(app, 'worker.html'), HTML('<script type="module" src="./start-worker.js"></script>'));

  if (chromiumPath) {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  }
});

/** Serves `dir` at the root of a new local server (bundles use absolute asset paths by default). */
async function serve(dir, headers = {}) {
  const files = serveStatic({ '/': dir });
  const server = createServer((req, res) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    files(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}/`;
}

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  if (Object.keys(sizes).length) console.log(`bundled JS a browser downloads (gzip): ${JSON.stringify(sizes)}`);
});

/** Opens `path` in `dir` (served with `headers`) and returns the page's #out as parsed JSON. */
async function pageResult(dir, path, headers) {
  return pageAt((await serve(dir, headers)) + path);
}

/** Opens `url` and returns the page's #out as parsed JSON. */
async function pageAt(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(url);
    const pre = page.locator('#out');
    await pre.waitFor({ timeout: 20_000 }).catch(() => {
      throw new Error(`${url}: no #out on the page; page errors: ${errors.join(' | ') || 'none'}`);
    });
    const text = await pre.textContent();
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`${url}: #out is not JSON: ${text}`);
    }
  } finally {
    await page.close();
  }
}

function assertRight(result, where) {
  assert.equal(result.text, EXPECTED.text, `${where}: the applied text`);
  assert.equal(result.code, EXPECTED.code, `${where}: the failing call's PatchError code (message: ${result.message})`);
  assert.equal(result.wide, true, `${where}: a two-byte text applied, and refused with a lone surrogate`);
}

/** Gzip size of the JavaScript a bundle's page loads. */
function jsGzip(dir) {
  let total = 0;
  const walk = (d) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, f.name);
      if (f.isDirectory()) walk(p);
      else if (/\.(m?js|wasm)$/.test(f.name)) total += gzipSync(readFileSync(p), { level: 9 }).length;
    }
  };
  walk(dir);
  return `${(total / 1024).toFixed(1)} KiB`;
}

/** The text of every JavaScript file under `dir`. */
function jsText(dir) {
  let text = '';
  for (const f of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (f.isFile() && /\.m?js$/.test(f.name)) text += readFileSync(join(f.parentPath ?? f.path, f.name), 'latin1');
  }
  return text;
}

/**
 * Builds with one bundler into out/NAME, checks the page in Chromium. A
 * production build of the page, which uses only `apply`, carries the core
 * engine and not the extra one (edit blocks, unified diffs): the names of
 * their glue's functions, which survive minification as property names, say
 * which engines a bundle holds.
 */
function bundlerTest(name, build, kind = 'production build') {
  pageTest(`${name}: ${kind}, zero configuration, right result in Chromium`, async () => {
    const dir = join(out, name);
    build(dir);
    assert.ok(existsSync(join(dir, 'index.html')), `${name} wrote no index.html`);
    sizes[name] = jsGzip(dir);
    const js = jsText(dir);
    assert.ok(js.includes('applyChanges'), `${name}: the bundle carries the core engine`);
    if (kind === 'production build')
      assert.ok(!js.includes('blocksApplyEdit'), `${name}: the bundle of a page using only apply carries the extra engine`);
    assertRight(await pageResult(dir, 'index.html'), name);
  });
}

bundlerTest('vite', (dir) => run(bin('vite'), ['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error']));

bundlerTest('webpack', (dir) => {
  writeFileSync(
    join(app, 'webpack.config.cjs'),
    `const HtmlWebpackPlugin = require('html-webpack-plugin');
module.exports = { mode: 'production', entry: './main.js', output: { path: ${JSON.stringify(dir)} }, plugins: [new HtmlWebpackPlugin()] };
`,
  );
  run(bin('webpack'), ['--config', 'webpack.config.cjs']);
});

// The issue's table had webpack failing in development mode too.
bundlerTest(
  'webpack-development',
  (dir) => {
    writeFileSync(
      join(app, 'webpack.dev.config.cjs'),
      `const HtmlWebpackPlugin = require('html-webpack-plugin');
module.exports = { mode: 'development', entry: './main.js', output: { path: ${JSON.stringify(dir)} }, plugins: [new HtmlWebpackPlugin()] };
`,
    );
    run(bin('webpack'), ['--config', 'webpack.dev.config.cjs'], app, { NODE_ENV: 'development' });
  },
  'development build',
);

bundlerTest('esbuild', (dir) => {
  run(bin('esbuild'), ['main.js', '--bundle', '--format=esm', '--minify', `--outfile=${join(dir, 'main.js')}`, '--log-level=error']);
  writeFileSync(join(dir, 'index.html'), HTML('<script type="module" src="./main.js"></script>'));
});

bundlerTest('rollup', (dir) => {
  writeFileSync(
    join(app, 'rollup.config.mjs'),
    `import { nodeResolve } from '@rollup/plugin-node-resolve';
export default { input: 'main.js', output: { dir: ${JSON.stringify(dir)}, format: 'es' }, plugins: [nodeResolve({ browser: true })] };
`,
  );
  run(bin('rollup'), ['-c', 'rollup.config.mjs', '--silent']);
  writeFileSync(join(dir, 'index.html'), HTML('<script type="module" src="./main.js"></script>'));
});

bundlerTest('parcel', (dir) => run(bin('parcel'), ['build', 'index.html', '--dist-dir', dir, '--no-cache', '--log-level', 'error']));

bundlerTest('bun', (dir) => {
  run(bin('bun'), ['build', 'main.js', '--target=browser', '--format=esm', '--minify', `--outdir=${dir}`]);
  writeFileSync(join(dir, 'index.html'), HTML('<script type="module" src="./main.js"></script>'));
});

pageTest('vite dev server: right result in Chromium', async () => {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(bin('vite'), ['--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'development' },
  });
  let log = '';
  child.stdout.on('data', (d) => {
    log += d;
  });
  child.stderr.on('data', (d) => {
    log += d;
  });
  try {
    const url = `http://127.0.0.1:${port}/`;
    for (let i = 0; ; i++) {
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i === 150 || child.exitCode !== null) throw new Error(`the vite dev server did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assertRight(await pageAt(url), 'vite dev');
  } finally {
    child.kill();
  }
});

for (const format of ['esm', 'cjs']) {
  test(`esbuild --platform=node --bundle --format=${format}: the bundle runs with node, away from node_modules`, () => {
    const dir = join(out, `node-${format}`);
    const file = join(dir, format === 'esm' ? 'bundle.mjs' : 'bundle.cjs');
    run(bin('esbuild'), ['node.js', '--bundle', '--platform=node', `--format=${format}`, `--outfile=${file}`, '--log-level=error']);
    // Moved away from the app: the bundle must need nothing from node_modules.
    const alone = join(out, `alone-${format}`);
    mkdirSync(alone, { recursive: true });
    cpSync(file, join(alone, 'bundle' + (format === 'esm' ? '.mjs' : '.cjs')));
    assertRight(JSON.parse(run(process.execPath, [join(alone, 'bundle' + (format === 'esm' ? '.mjs' : '.cjs'))], alone)), format);
  });
}

pageTest('<script type="module"> importing dist/browser.mjs, unbundled', async () => {
  assertRight(await pageResult(app, 'plain.html'), 'plain page');
});

pageTest('a module Web Worker importing dist/browser.mjs', async () => {
  assertRight(await pageResult(app, 'worker.html'), 'worker');
});

pageTest("CSP script-src 'self' (no 'wasm-unsafe-eval'): the page runs, every call throws wasm_unavailable naming the fix", async () => {
  const result = await pageResult(app, 'plain.html', { 'Content-Security-Policy': "default-src 'self'; script-src 'self'" });
  assert.equal(result.text, null);
  assert.equal(result.code, 'wasm_unavailable');
  assert.match(result.message, /^applypatch could not compile its WebAssembly engine \(CompileError: /);
  assert.match(
    result.message,
    /The page's Content-Security-Policy forbids compiling WebAssembly: add 'wasm-unsafe-eval' to its script-src \(for example script-src 'self' 'wasm-unsafe-eval'\)\./,
  );
});

pageTest("CSP script-src 'self' 'wasm-unsafe-eval': the right result", async () => {
  assertRight(
    await pageResult(app, 'plain.html', { 'Content-Security-Policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'" }),
    "CSP with 'wasm-unsafe-eval'",
  );
});

test('Deno runs the package (npm package deno, pinned)', () => {
  assertRight(JSON.parse(run(bin('deno'), ['run', '--allow-read', '--allow-env', 'node.js'], app, { DENO_NO_UPDATE_CHECK: '1' })), 'deno');
});

test('Bun runs the package (npm package bun, pinned)', () => {
  assertRight(JSON.parse(run(bin('bun'), ['node.js'])), 'bun');
});

pageTest('npm run site: the playground as a static folder, served from a sub-path (/applypatch/)', async () => {
  const dir = join(out, 'site');
  run(process.execPath, [join(root, 'scripts', 'site.mjs'), '--no-build', '--out', dir], root);
  const files = serveStatic({ '/applypatch/': dir });
  const requested = [];
  const server = createServer((req, res) => {
    requested.push(req.url);
    files(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/applypatch/`);
    await page.waitForFunction(() => Number(document.body.dataset.runs) > 0, null, { timeout: 20_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'ok', `page errors: ${errors.join(' | ')}`);
    // The default example (Strict, two changes) applied: its new signature is in the output.
    assert.match(await page.locator('#output').textContent(), /export function total\(items, taxRate = 0\) \{/);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      requested.filter((u) => !u.startsWith('/applypatch/')),
      [],
      'every URL of the site is relative to its folder',
    );
  } finally {
    await page.close();
  }
});
