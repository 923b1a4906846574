#!/usr/bin/env node
// The package as a user gets it: `npm pack`, install the tarball into an empty
// project (no network: the package has no dependencies), then run every
// strict vector from `import` and from `require` there, check what the
// tarball ships, that the browser entry reaches no node: module, and run the
// command line with `npx applypatch` there.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'applypatch-pack-'));
const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

try {
  const packed = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work], root));
  const files = packed[0].files.map((f) => f.path);
  for (const want of [
    'dist/index.cjs',
    'dist/index.mjs',
    'dist/browser.mjs',
    'dist/index.d.cts',
    'dist/index.d.mts',
    'dist/node.cjs',
    'dist/node.mjs',
    'dist/node.d.cts',
    'dist/node.d.mts',
    'dist/cli.cjs',
    'dist/mcp.cjs',
    'dist/mcp.mjs',
    'dist/mcp.d.cts',
    'dist/mcp.d.mts',
    'dist/wasm/core.mjs',
    'dist/wasm/extra.mjs',
    'dist/wasm/core.cjs',
    'dist/wasm/extra.cjs',
    'dist/cjs/engines/core.js',
    'dist/cjs/engines/file.js',
    'dist/wasm/core.wasm',
    'dist/wasm/extra.wasm',
    'dist/esm/engines/extra.js',
    'README.md',
    'LICENSE',
    'NOTICE',
    'licenses/Apache-2.0.txt',
  ]) {
    if (!files.includes(want)) throw new Error(`the tarball lacks ${want}`);
  }
  // Two copies of each engine: packed inside dist/wasm/core.mjs and extra.mjs for browsers and
  // bundlers, and the .wasm that require() in Node reads (docs/size.md); no other .wasm.
  const wasmFiles = files.filter((f) => f.endsWith('.wasm'));
  if (wasmFiles.join() !== 'dist/wasm/core.wasm,dist/wasm/extra.wasm')
    throw new Error(`the tarball's .wasm files are not the two engines: ${wasmFiles.join(', ')}`);
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

  // The browser entry never reaches node: modules (applypatch/node is separate).
  const installed = join(project, 'node_modules', 'applypatch', 'dist');
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const pattern =
      /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/g;
    for (const m of text.matchAll(pattern)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith('node:') || !spec.startsWith('.')) throw new Error(`the browser entry imports ${spec} (from ${file})`);
      walk(join(dirname(file), spec));
    }
  };
  walk(join(installed, 'browser.mjs'));
  console.log(`browser entry: ${seen.size} modules, no node: imports`);

  // The shipped types resolve for 'applypatch' and 'applypatch/node' under every
  // moduleResolution a TypeScript project uses: node10 (no exports map: main/types
  // and typesVersions), node16, nodenext (ESM and CJS consumers) and bundler.
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const esmConsumer = `import { apply, type ErrorCode, PatchError, toolDefinitions } from 'applypatch';
import { applyPatchToDirectory, createEditor, createToolHandlers } from 'applypatch/node';
const out: string = apply('a\\n', '@@\\n-a\\n+b');
const tool: { name: string; inputSchema: object } = toolDefinitions[0]!;
const handled: Promise<{ isError?: boolean }> = createToolHandlers({ root: '.' }).read_file({ path: 'x' });
const code: ErrorCode = 'wasm_unavailable';
// @ts-expect-error: not a string
apply(1, '');
void [out, code, PatchError, applyPatchToDirectory, createEditor, tool, handled];
`;
  const cjsConsumer = `import ap = require('applypatch');
import node = require('applypatch/node');
const out: string = ap.apply('a\\n', '@@\\n-a\\n+b');
const code: ap.ErrorCode = 'wasm_unavailable';
// @ts-expect-error: not a string
ap.apply(1, '');
void [out, code, node.createEditor, node.applyPatchToDirectory];
`;
  const types = join(project, 'types');
  mkdirSync(types);
  writeFileSync(join(types, 'consumer.ts'), esmConsumer);
  writeFileSync(join(types, 'consumer.mts'), esmConsumer);
  writeFileSync(join(types, 'consumer.cts'), cjsConsumer);
  for (const [resolution, module, files] of [
    ['node10', 'commonjs', ['consumer.ts']],
    ['node16', 'node16', ['consumer.mts', 'consumer.cts']],
    ['nodenext', 'nodenext', ['consumer.mts', 'consumer.cts']],
    ['bundler', 'esnext', ['consumer.ts']],
  ]) {
    const config = {
      compilerOptions: {
        module,
        moduleResolution: resolution,
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        typeRoots: [join(root, 'node_modules', '@types')],
        types: ['node'],
      },
      files,
    };
    writeFileSync(join(types, `tsconfig.${resolution}.json`), JSON.stringify(config, null, 2));
    const r = spawnSync(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: types, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`types under moduleResolution ${resolution}:\n${r.stdout}${r.stderr}`);
  }
  console.log("types: 'applypatch' and 'applypatch/node' resolve under moduleResolution node10, node16, nodenext and bundler");

  // applypatch/node from require and import, and the command line through npx, offline.
  writeFileSync(
    join(project, 'node.cjs'),
    "const { createEditor, createToolHandlers } = require('applypatch/node'); if (typeof createEditor !== 'function' || typeof createToolHandlers !== 'function') throw new Error('no createEditor or createToolHandlers');\nif (require('applypatch').toolDefinitions.length !== 4) throw new Error('no toolDefinitions');\n",
  );
  writeFileSync(
    join(project, 'node.mjs'),
    "import { createEditor, createToolHandlers } from 'applypatch/node'; import { toolDefinitions } from 'applypatch'; if (typeof createEditor !== 'function' || typeof createToolHandlers !== 'function' || toolDefinitions.length !== 4) throw new Error('no createEditor, createToolHandlers or toolDefinitions');\n",
  );
  sh('node', ['node.cjs'], project);
  sh('node', ['node.mjs'], project);
  const work2 = join(project, 'work');
  mkdirSync(join(work2, 'src'), { recursive: true });
  writeFileSync(join(work2, 'src', 'app.py'), 'def main():\n    print("hi")\n');
  writeFileSync(
    join(work2, 'fix.patch'),
    '*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print("hi")\n+    print("hello")\n*** Add File: notes.txt\n+done\n*** End Patch\n',
  );
  const npx = (args, opts = {}) =>
    spawnSync('npx', ['--no-install', 'applypatch', ...args], {
      cwd: work2,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true' },
      ...opts,
    });
  let r = npx(['--dry-run', 'fix.patch']);
  if (r.status !== 0 || !r.stdout.includes('+    print("hello")') || readFileSync(join(work2, 'src', 'app.py'), 'utf8').includes('hello')) {
    throw new Error(`npx applypatch --dry-run: exit ${r.status}\n${r.stdout}${r.stderr}`);
  }
  r = npx(['fix.patch']);
  if (r.status !== 0 || r.stdout !== 'Success. Updated the following files:\nA notes.txt\nM src/app.py\n') {
    throw new Error(`npx applypatch: exit ${r.status}\n${r.stdout}${r.stderr}`);
  }
  if (readFileSync(join(work2, 'src', 'app.py'), 'utf8') !== 'def main():\n    print("hello")\n')
    throw new Error('npx applypatch did not write src/app.py');
  r = npx(['fix.patch']);
  if (r.status !== 1 || !r.stderr.includes('Nothing was written'))
    throw new Error(`npx applypatch, applied twice: exit ${r.status}\n${r.stderr}`);
  r = npx(['--no-such-flag']);
  if (r.status !== 2) throw new Error(`npx applypatch --no-such-flag: exit ${r.status}`);
  console.log('npx applypatch: applies, refuses to apply twice (exit 1), usage error (exit 2)');

  // applypatch mcp: without the optional peer dependency, one line saying what to install (exit 2).
  r = npx(['mcp', '--root', '.'], { input: '' });
  if (r.status !== 2 || r.stdout !== '' || r.stderr !== 'applypatch mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk\n')
    throw new Error(`npx applypatch mcp without the SDK: exit ${r.status}\n${r.stdout}${r.stderr}`);
  // With it (linked from this checkout: its dependencies resolve there), applypatch/mcp loads from
  // import and require, and the packed CLI serves a real client.
  mkdirSync(join(project, 'node_modules', '@modelcontextprotocol'));
  symlinkSync(
    join(root, 'node_modules', '@modelcontextprotocol', 'sdk'),
    join(project, 'node_modules', '@modelcontextprotocol', 'sdk'),
    'dir',
  );
  writeFileSync(
    join(project, 'mcp.cjs'),
    "const { createServer } = require('applypatch/mcp'); if (typeof createServer({ root: '.' }).connect !== 'function') throw new Error('no server');\n",
  );
  writeFileSync(
    join(project, 'mcp.mjs'),
    `import { createServer } from 'applypatch/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
if (typeof createServer({ root: '.' }).connect !== 'function') throw new Error('no server');
const client = new Client({ name: 'pack-test', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['node_modules/applypatch/dist/cli.cjs', 'mcp', '--root', 'work'], stderr: 'ignore' }));
const { tools } = await client.listTools();
const r = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
await client.close();
if (tools.length !== 4 || r.structuredContent.content !== 'done\\n') throw new Error('mcp: ' + JSON.stringify([tools.map((t) => t.name), r]));
`,
  );
  sh('node', ['mcp.cjs'], project);
  sh('node', ['mcp.mjs'], project);
  console.log('applypatch mcp: without the SDK, one line and exit 2; with it, applypatch/mcp loads and serves an MCP client');
  // The editor adapters from the tarball: their optional peers are the
  // project's (linked from this checkout: no network), the entries resolve in
  // Node, and they work next to the main entry.
  for (const f of [
    'dist/codemirror.mjs',
    'dist/codemirror.node.mjs',
    'dist/codemirror.d.mts',
    'dist/monaco.mjs',
    'dist/monaco.node.mjs',
    'dist/monaco.d.mts',
  ]) {
    if (!files.includes(f)) throw new Error(`the tarball lacks ${f}`);
  }
  symlinkSync(join(root, 'node_modules', '@codemirror'), join(project, 'node_modules', '@codemirror'), 'dir');
  writeFileSync(
    join(project, 'editors.mjs'),
    `import { EditorState } from '@codemirror/state';
import { apply } from 'applypatch';
import { patchTransaction } from 'applypatch/codemirror';
import { patchEdits } from 'applypatch/monaco';
const state = EditorState.create({ doc: 'a\\nb\\n' });
const next = state.update(patchTransaction(state, '@@\\n-b\\n+B')).state.doc.toString();
if (next !== 'a\\nB\\n' || apply('x', '@@\\n-x\\n+y') !== 'y' || typeof patchEdits !== 'function') throw new Error('adapters: ' + next);
console.log('applypatch/codemirror and applypatch/monaco: resolve and apply from the tarball');
`,
  );
  process.stdout.write(sh(process.execPath, ['editors.mjs'], project));
  console.log(
    `pack: ${packed[0].filename}, ${files.length} files, ${(packed[0].size / 1024).toFixed(0)} KiB packed, ${(packed[0].unpackedSize / 1024).toFixed(0)} KiB installed`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
