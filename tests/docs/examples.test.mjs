// Every code example of README.md and docs/*.md, run against the packed
// package installed into an empty project, as a user would copy it:
// - ```js / ```mjs: run with node; `// → VALUE`, `// throws: CODE` and
//   `// prints: TEXT` comments are checked (tests/docs/examples.mjs);
// - ```ts: type-checked with tsc --strict against the installed package's
//   types, then run the same way;
// - flagged `agents` (an Agents SDK agent): run with the SDK's ScriptedModel
//   in place of the model, which sends the apply_patch operations of the
//   block's fixture (an `<!-- example-fixture: JSON -->` comment above it);
//   the files and what the model got back are checked;
// - flagged `model` (calls a model: the Responses API), `browser` (needs a
//   page: tests/browser/examples.test.mjs runs them in Chromium), `server` (serves
//   a client until it leaves; tests/js/mcp.test.mjs drives the server) and
//   ```html pages: parsed, and every name they import from applypatch must be an
//   export of the package;
// - ```sh flagged `run`: run with bash -e in an empty directory of the project;
// - ```json: parsed.
// Rust examples are examples/*.rs and doctests (cargo test); other languages
// (```toml, ```text, plain ```) are not code.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { agentsShim, blocks, documents, harness, instrument, packageImports, root } from './examples.mjs';

const require = createRequire(import.meta.url);
/** Examples that are parsed only (they call a model, or need a browser page). */
const notRun = (b) => ['model', 'browser', 'server'].some((f) => b.flags.includes(f));
const ts = require(join(root, 'node_modules', 'typescript'));
const work = mkdtempSync(join(tmpdir(), 'applypatch-examples-'));
const project = join(work, 'project');
let counter = 0;

before(() => {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "examples", "private": true, "type": "module" }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(work, packed[0].filename)], {
    cwd: project,
    stdio: 'ignore',
  });
  // The optional peers an example imports (the MCP SDK, the AI SDK) resolve
  // from the repository's own node_modules, one folder up from the project,
  // as a user's project would have them installed beside applypatch.
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  // '@openai/agents' for the examples flagged `agents` (see agentsShim).
  const core = join(root, 'node_modules', '@openai', 'agents-core', 'dist');
  const shim = join(project, 'node_modules', '@openai', 'agents');
  mkdirSync(shim, { recursive: true });
  writeFileSync(join(shim, 'package.json'), '{ "name": "@openai/agents", "type": "module", "main": "index.mjs" }\n');
  writeFileSync(
    join(shim, 'index.mjs'),
    agentsShim(pathToFileURL(join(core, 'index.mjs')).href, pathToFileURL(join(core, 'testing', 'index.mjs')).href),
  );
});
after(() => rmSync(work, { recursive: true, force: true }));

const all = documents().flatMap(blocks);
const where = (b) => `${b.file}:${b.line}`;
const isJs = (b) => ['js', 'mjs', 'ts'].includes(b.lang);

/** A fresh directory inside the project (node_modules resolves from it). */
function scratch() {
  const dir = join(project, `run-${++counter}`);
  mkdirSync(dir);
  return dir;
}

function run(b) {
  const prefixLines = (b.prefix ?? '').split('\n').length - 1;
  const source = `${b.prefix ?? ''}${b.code}`;
  const lineOf = (i) => (i < prefixLines ? `${b.file} (the block before line ${b.line})` : `${b.file}:${b.line + 1 + i - prefixLines}`);
  const { code, prints } = instrument(source, lineOf);
  let program = code;
  const dir = scratch();
  if (b.lang === 'ts') {
    writeFileSync(join(dir, 'example.ts'), source);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: [],
          skipLibCheck: false,
        },
        files: ['example.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, `${where(b)}: tsc --strict rejects the example:\n${tsc.stdout}${tsc.stderr}`);
    program = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  }
  for (const [path, text] of Object.entries(b.fixture?.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  if (b.fixture) writeFileSync(join(dir, 'fixture.json'), JSON.stringify(b.fixture));
  writeFileSync(join(dir, 'example.mjs'), `${harness}${program}`);
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `${where(b)}: the example fails:\n${r.stderr}`);
  assert.equal(
    r.stdout,
    prints.map((p) => `${p}\n`).join(''),
    `${where(b)}: the example prints other text than its '// prints:' comments say`,
  );
  // The fixture's files after the run, and what the model was told.
  for (const [path, text] of Object.entries(b.fixture?.expect ?? {})) {
    assert.equal(readFileSync(join(dir, path), 'utf8'), text, `${where(b)}: ${path} after the example`);
  }
  if (b.fixture?.outputs) {
    const told = JSON.parse(readFileSync(join(dir, 'agents-outputs.json'), 'utf8'));
    assert.deepEqual(told, b.fixture.outputs, `${where(b)}: what the model got back`);
  }
}

async function parseOnly(b, code) {
  const dir = scratch();
  writeFileSync(join(dir, 'example.mjs'), code);
  const r = spawnSync(process.execPath, ['--check', 'example.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `${where(b)}: the example does not parse:\n${r.stderr}`);
  const imports = packageImports(code);
  for (const [specifier, name] of imports) {
    const entry = { applypatch: 'index.mjs', 'applypatch/node': 'node.mjs', 'applypatch/mcp': 'mcp.mjs' }[specifier];
    const file = entry ?? `${specifier.slice('applypatch/'.length)}.node.mjs`; // the editors' adapters, as Node loads them
    const exports = await import(join(project, 'node_modules', 'applypatch', 'dist', file));
    assert.ok(name in exports, `${where(b)}: '${name}' is not an export of ${specifier}`);
  }
}

let ran = 0;
for (const b of all) {
  if (isJs(b) && !notRun(b)) {
    test(`${where(b)} runs and prints what its comments say`, () => {
      run(b);
      ran++;
    });
  } else if (isJs(b)) {
    test(`${where(b)} (not run here: it calls a model or needs a page) parses and imports only real exports`, () =>
      parseOnly(b, `${b.prefix ?? ''}${b.code}`));
  } else if (b.lang === 'html') {
    test(`${where(b)} (a browser page) parses and imports only real exports`, async () => {
      const scripts = [...b.code.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
      assert.ok(scripts.length > 0, `${where(b)}: an html example with no module script`);
      for (const s of scripts) await parseOnly(b, s);
    });
  } else if (b.lang === 'sh' && b.flags.includes('run')) {
    test(`${where(b)} runs in a shell`, () => {
      const r = spawnSync('bash', ['-e', '-c', b.code], { cwd: scratch(), encoding: 'utf8' });
      assert.equal(r.status, 0, `${where(b)}: the shell example fails:\n${r.stdout}${r.stderr}`);
    });
  } else if (b.lang === 'json') {
    test(`${where(b)} is valid JSON`, () => {
      JSON.parse(b.code);
    });
  }
}

test('every JS example of the README and docs ran', { concurrency: false }, () => {
  const runnable = all.filter((b) => isJs(b) && !notRun(b)).length;
  assert.ok(runnable >= 10, `only ${runnable} runnable examples found`);
  // node:test runs the tests above first, in order.
  assert.equal(ran, runnable);
});
