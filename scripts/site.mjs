#!/usr/bin/env node
// npm run site: the playground as a self-contained static folder (default
// site/), for any static host and any sub-path (every URL in it is relative).
// The page's modules and the package (dist/, with the engine's bytes) are
// bundled by esbuild, one of the bundlers the package is tested with
// (tests/bundlers/: pinned there, installed with npm ci on first use).
//
//   node scripts/site.mjs [--out DIR] [--no-build]
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 && args[outArg + 1] ? args[outArg + 1] : join(root, 'site'));
const bundlers = join(root, 'tests', 'bundlers');
const run = (cmd, argv, cwd = root) => execFileSync(cmd, argv, { cwd, stdio: ['ignore', 2, 2] });

if (!args.includes('--no-build')) run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed']);
const stamp = join(bundlers, 'node_modules', '.package-lock.json');
if (!existsSync(stamp) || statSync(join(bundlers, 'package-lock.json')).mtimeMs > statSync(stamp).mtimeMs) {
  console.error('site: installing the pinned bundlers (npm ci in tests/bundlers)');
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], bundlers);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run(join(bundlers, 'node_modules', '.bin', 'esbuild'), [
  join(root, 'www', 'app.js'),
  '--bundle',
  '--format=esm',
  '--minify',
  '--target=es2022',
  '--log-level=warning',
  `--outfile=${join(out, 'app.js')}`,
]);
copyFileSync(join(root, 'www', 'style.css'), join(out, 'style.css'));
const html = readFileSync(join(root, 'www', 'index.html'), 'utf8');
if (!html.includes('<script type="module" src="app.js"></script>') || !html.includes('href="style.css"')) {
  throw new Error('www/index.html no longer loads app.js and style.css by relative URLs: update scripts/site.mjs');
}
writeFileSync(join(out, 'index.html'), html);
const kib = (f) => `${(statSync(join(out, f)).size / 1024).toFixed(0)} KiB`;
console.error(`site: wrote ${out} (index.html, app.js ${kib('app.js')}, style.css): serve it from any path`);
