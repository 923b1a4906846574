#!/usr/bin/env node
// The package as a user gets it: `npm pack`, install the tarball into an empty
// project (no network: the package has no dependencies), then run every
// strict vector from `import` and from `require` there, and check what the
// tarball ships.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'applypatch-pack-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

try {
  const packed = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work], root));
  const files = packed[0].files.map((f) => f.path);
  for (const want of ['dist/index.cjs', 'dist/index.mjs', 'dist/browser.mjs', 'dist/index.d.cts', 'dist/index.d.mts',
    'dist/wasm-node/applypatch_bg.wasm', 'dist/wasm-web/applypatch_bg.wasm', 'README.md', 'LICENSE', 'NOTICE', 'licenses/Apache-2.0.txt']) {
    if (!files.includes(want)) throw new Error(`the tarball lacks ${want}`);
  }
  const stray = files.filter((f) => /^(src|js|tests|target|node_modules)\//.test(f));
  if (stray.length) throw new Error(`the tarball ships sources: ${stray.join(', ')}`);

  const project = join(work, 'project');
  sh('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), '{ "name": "empty-project", "private": true }\n');
  sh('npm', ['install', '--no-audit', '--no-fund', '--offline', join(work, packed[0].filename)], project);
  copyFileSync(join(root, 'tests', 'fixtures', 'strict.json'), join(project, 'strict.json'));

  const check = (load) => `
const v = JSON.parse(require('node:fs').readFileSync(__dirname + '/strict.json', 'utf8'));
let n = 0;
for (const c of v.apply) {
  let out, err;
  try { out = ap.apply(c.input, c.diff); } catch (e) { err = e; }
  if (c.fails ? !(err instanceof ap.PatchError) : out !== c.want) throw new Error('vector ' + c.name + ': ' + (err || JSON.stringify(out)));
  n++;
}
for (const c of v.applyBatch) {
  let out, err;
  try { out = ap.applyBatch(c.input, c.diffs); } catch (e) { err = e; }
  if (c.fails ? !(err instanceof ap.PatchError) : out !== c.want) throw new Error('vector ' + c.name + ': ' + (err || JSON.stringify(out)));
  n++;
}
console.log('${load}: ' + n + ' strict vectors pass');
`;
  writeFileSync(join(project, 'check.cjs'), `const ap = require('applypatch');\n${check('require')}`);
  writeFileSync(
    join(project, 'check.mjs'),
    `import * as ap from 'applypatch';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst __dirname = import.meta.dirname ?? new URL('.', import.meta.url).pathname;\n${check('import')}`,
  );
  process.stdout.write(sh('node', ['check.cjs'], project));
  process.stdout.write(sh('node', ['check.mjs'], project));
  console.log(`pack: ${packed[0].filename}, ${files.length} files, ${(packed[0].size / 1024).toFixed(0)} KiB packed`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
