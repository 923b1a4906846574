#!/usr/bin/env node
// Start-up, paired (docs/size.md): the package as built in dist/ against
// another build of it (a dist/ folder of an earlier commit, given as the
// argument), loads alternating in one run, so that the machine's load falls
// on both alike.
//   - Node: `require('applypatch')` alone and plus a first `apply`, CPU time
//     measured in fresh processes from before the `require` (median of 15);
//   - Chromium (when present): the `apply`-only page (esbuild --bundle
//     --minify), import() alone and plus a first `apply`, each load in a
//     fresh context of one browser (median of 15), beside a module of one
//     line (what any import costs in this harness).
//
//   node bench/startup.mjs OTHER_DIST     (after npm run build)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = 15;
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const other = process.argv[2];
if (!other || !existsSync(join(other, 'index.cjs'))) {
  console.error('usage: node bench/startup.mjs OTHER_DIST (a built dist/ folder to compare with)');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'applypatch-startup-'));
const dists = { [resolve(other)]: resolve(other), 'dist/ (this build)': join(root, 'dist') };

// CPU (user + system, every thread) from just before the `require` to after
// it, and to after a first `apply`, measured in the fresh process: what they
// add over `node -e 0`, without subtracting two whole processes, whose
// start-up alone swings by more than the difference between two builds.
const cpu = (load) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '-e',
        `const cpu = (u) => (u.user + u.system) / 1000; const u0 = process.cpuUsage();
const api = require(${JSON.stringify(load)}); const loaded = cpu(process.cpuUsage(u0));
if (api.apply('a\\n', '@@\\n-a\\n+b') !== 'b\\n') throw new Error('apply');
console.log(JSON.stringify([loaded, cpu(process.cpuUsage(u0))]));`,
      ],
      { encoding: 'utf8' },
    ),
  );
const node = Object.fromEntries(Object.keys(dists).map((k) => [k, { import: [], first: [] }]));
for (let i = 0; i < runs; i++) {
  for (const [k, dir] of Object.entries(dists)) {
    const [loaded, called] = cpu(join(dir, 'index.cjs'));
    node[k].import.push(loaded);
    node[k].first.push(called);
  }
}
console.log(`Node ${process.version}: CPU in the process from before the require, median of ${runs}`);
for (const [k, r] of Object.entries(node)) {
  console.log(
    `  ${k.padEnd(40)} require ${med(r.import).toFixed(1).padStart(6)} ms   require + first apply ${med(r.first).toFixed(1).padStart(6)} ms`,
  );
}

const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (chromiumPath) {
  const esbuild = join(root, 'node_modules', '.bin', 'esbuild');
  writeFileSync(join(work, 'page.js'), "import { apply } from 'applypatch';\nglobalThis.apply = apply;\n");
  const bundles = {};
  for (const [k, dir] of Object.entries(dists)) {
    const out = join(work, `${Object.keys(bundles).length}.js`);
    execFileSync(esbuild, [
      join(work, 'page.js'),
      '--bundle',
      '--format=esm',
      '--minify',
      `--alias:applypatch=${join(dir, 'browser.mjs')}`,
      `--outfile=${out}`,
      '--log-level=error',
    ]);
    bundles[k] = `/${Object.keys(bundles).length}.js`;
  }
  const server = createServer((req, res) => {
    if (/^\/\d\.js$/.test(req.url)) res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(work, req.url)));
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>start-up</title>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const page = Object.fromEntries(Object.keys(dists).map((k) => [k, { import: [], first: [] }]));
  // The floor of this harness: a fresh context importing a module of one
  // line from the same server.
  writeFileSync(join(work, '9.js'), 'globalThis.apply = () => "b\\n";\n');
  const floor = [];
  for (let i = 0; i < runs; i++) {
    {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(base);
      floor.push(
        await tab.evaluate(async (u) => {
          const t = performance.now();
          await import(u);
          return performance.now() - t;
        }, `${base}9.js`),
      );
      await context.close();
    }
    for (const [k, url] of Object.entries(bundles)) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(base);
      const [imported, first] = await tab.evaluate(async (u) => {
        const t = performance.now();
        await import(u);
        const i = performance.now() - t;
        if (globalThis.apply('a\n', '@@\n-a\n+b') !== 'b\n') throw new Error('apply');
        return [i, performance.now() - t];
      }, url);
      page[k].import.push(imported);
      page[k].first.push(first);
      await context.close();
    }
  }
  console.log(`Chromium ${browser.version()}: the apply-only page, median of ${runs}`);
  console.log(`  ${'a module of one line (the floor)'.padEnd(40)} import ${med(floor).toFixed(1).padStart(6)} ms`);
  for (const [k, r] of Object.entries(page)) {
    console.log(
      `  ${k.padEnd(40)} import ${med(r.import).toFixed(1).padStart(6)} ms   import + first apply ${med(r.first).toFixed(1).padStart(6)} ms`,
    );
  }
  await browser.close();
  server.close();
}
rmSync(work, { recursive: true, force: true });
