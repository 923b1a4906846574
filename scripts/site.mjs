#!/usr/bin/env node
// npm run site: the playground as a self-contained static folder (default
// site/), for any static host and any sub-path (every URL in it is relative).
// The page's modules, CodeMirror and the package (dist/, with the engine's
// bytes) are bundled by esbuild (scripts/playground.mjs).
//
//   node scripts/site.mjs [--out DIR] [--no-build]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 && args[outArg + 1] ? args[outArg + 1] : join(root, 'site'));

if (!args.includes('--no-build')) {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed'], { cwd: root, stdio: ['ignore', 2, 2] });
}
const { bundlePlayground } = await import('./playground.mjs');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await bundlePlayground(join(out, 'app.js'));
copyFileSync(join(root, 'www', 'style.css'), join(out, 'style.css'));
const html = readFileSync(join(root, 'www', 'index.html'), 'utf8');
if (!html.includes('<script type="module" src="app.js"></script>') || !html.includes('href="style.css"')) {
  throw new Error('www/index.html no longer loads app.js and style.css by relative URLs: update scripts/site.mjs');
}
writeFileSync(join(out, 'index.html'), html);
const kib = (f) => `${(statSync(join(out, f)).size / 1024).toFixed(0)} KiB`;
console.error(`site: wrote ${out} (index.html, app.js ${kib('app.js')}, style.css): serve it from any path`);
