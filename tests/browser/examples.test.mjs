// The browser examples of README.md and docs/*.md, run in a real browser as
// a user would run them: each ```js block flagged `browser`, and each ```html
// page, bundled by esbuild for the browser (production, minified) with
// `applypatch`, `applypatch/codemirror` and `applypatch/monaco` resolved
// through this package's own `exports` (browser conditions), then loaded in
// headless Chromium. The page must not throw, and every `// → VALUE` and
// `// throws: CODE` comment is checked in the page (tests/docs/examples.mjs).
// An html page's fixture (`<!-- example-fixture: {"page": {selector: text}} -->`
// above it) names what its elements must show.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { blocks, documents, instrument, root } from '../docs/examples.mjs';

const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p)) ?? null;
if (chromiumPath === null) {
  const msg = 'Chromium is missing (/usr/bin/chromium; set CHROMIUM_PATH, or run scripts/setup.sh as root to install it)';
  if (process.env.CI) throw new Error(`browser examples test: ${msg}, and CI is set: the browser test must run`);
  console.log(`\n!!! SKIPPING the browser examples test: ${msg}. !!!\n`);
}

/** The checks of an instrumented example, for a page: no node:assert there. */
const harness = `const __plain = (v) => v instanceof Map ? new Map([...v].map(([k, x]) => [k, __plain(x)])) : Array.isArray(v) ? v.map(__plain) : v !== null && typeof v === 'object' && !(v instanceof Error) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, __plain(x)])) : v;
const __equal = (a, b) => {
  if (Object.is(a, b)) return true;
  if (a instanceof Map && b instanceof Map) return __equal([...a], [...b]);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && __equal(a[k], b[k]));
};
window.__checked = 0;
function __compare(got, want, where) {
  if (!__equal(__plain(got), __plain(want))) throw new Error(where + ': the comment says ' + JSON.stringify(want) + ' but the value is ' + JSON.stringify(got));
  window.__checked++;
}
function __expect(get, want, where) {
  const got = get();
  if (got instanceof Promise) return got.then((v) => __compare(v, want, where));
  __compare(got, want, where);
}
function __throws(run, code, where) {
  let value;
  try { value = run(); } catch (e) {
    if (e?.code === code) { window.__checked++; return; }
    throw new Error(where + ': the comment says it throws ' + code + ' but it threw ' + (e?.code ?? e));
  }
  throw new Error(where + ': the comment says it throws ' + code + ' but it returned ' + JSON.stringify(value));
}
`;

const ORIGIN = 'http://examples.test/';
const where = (b) => `${b.file}:${b.line}`;
const examples = documents()
  .flatMap(blocks)
  .filter((b) => (['js', 'mjs', 'ts'].includes(b.lang) && b.flags.includes('browser')) || b.lang === 'html');

let work;
let userDir;
let context;
let esbuild;

before(async () => {
  if (chromiumPath === null) return;
  assert.ok(existsSync(join(root, 'dist', 'browser.mjs')), 'dist/ is not built: run node scripts/build.mjs first');
  esbuild = await import('esbuild');
  work = mkdtempSync(join(tmpdir(), 'applypatch-browser-examples-'));
  // `applypatch` resolves as an installed package would: from a project's
  // node_modules; its peers (CodeMirror, Monaco) from this repository's.
  mkdirSync(join(work, 'project', 'node_modules'), { recursive: true });
  symlinkSync(root, join(work, 'project', 'node_modules', 'applypatch'), 'dir');
  const { chromium } = await import('playwright-core');
  userDir = mkdtempSync(join(tmpdir(), 'applypatch-chromium-'));
  context = await chromium.launchPersistentContext(userDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

after(async () => {
  await context?.close();
  for (const d of [userDir, work]) if (d) rmSync(d, { recursive: true, force: true });
});

/** Bundles one module for the browser as a production build does. */
async function bundle(code, name) {
  const out = await esbuild.build({
    stdin: { contents: code, resolveDir: join(work, 'project'), sourcefile: name, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    minify: true,
    nodePaths: [join(root, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'empty', '.ttf': 'empty' },
    logLevel: 'error',
  });
  return out.outputFiles[0].contents;
}

/** Loads `html` (its module script served as `example.js`) and waits until the script is done. */
async function load(html, script) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === ORIGIN) return route.fulfill({ contentType: 'text/html', body: html });
    if (url === `${ORIGIN}example.js`) return route.fulfill({ contentType: 'text/javascript', body: Buffer.from(script) });
    return route.abort();
  });
  await page.goto(ORIGIN);
  await page.waitForFunction(() => window.__done === true || window.__failed !== undefined, null, { timeout: 60000 }).catch(() => {});
  const state = await page.evaluate(() => ({ done: window.__done === true, failed: window.__failed, checked: window.__checked ?? 0 }));
  return { page, problems, ...state };
}

for (const b of examples) {
  if (b.lang === 'html') {
    test(`${where(b)} (a page) loads in Chromium and shows what its fixture says`, {
      skip: chromiumPath === null && 'no Chromium',
    }, async () => {
      const scripts = [...b.code.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)];
      assert.equal(scripts.length, 1, `${where(b)}: one module script expected`);
      const script = await bundle(`${scripts[0][1]}\nwindow.__done = true;\n`, `${where(b)}.js`);
      const html = b.code.replace(scripts[0][0], '<script type="module" src="example.js"></script>');
      const { page, problems, done } = await load(`<!doctype html><meta charset="utf-8">${html}`, script);
      try {
        assert.deepEqual(problems, [], `${where(b)}: the page threw`);
        assert.ok(done, `${where(b)}: the script did not finish`);
        const want = b.fixture?.page;
        assert.ok(want && Object.keys(want).length > 0, `${where(b)}: an html example needs a fixture saying what the page shows`);
        for (const [selector, text] of Object.entries(want)) {
          assert.equal(await page.textContent(selector), text, `${where(b)}: ${selector}`);
        }
      } finally {
        await page.close();
      }
    });
  } else {
    test(`${where(b)} runs in Chromium, and its comments hold`, { skip: chromiumPath === null && 'no Chromium' }, async () => {
      const source = `${b.prefix ?? ''}${b.code}`;
      const offset = b.prefix ? b.prefix.split('\n').length - 1 : 0;
      const { code, checks } = instrument(source, (i) => `${b.file}:${b.line + 1 + i - offset}`);
      assert.ok(checks > 0, `${where(b)}: a browser example checks nothing: give it '// →' comments`);
      const imports = code.match(/^import .*$/gm) ?? [];
      const rest = code.replace(/^import .*$/gm, '');
      const module = `${imports.join('\n')}\n${harness}\ntry {\n${rest}\nwindow.__done = true;\n} catch (e) { window.__failed = String(e?.stack ?? e); }\n`;
      const script = await bundle(module, `${where(b)}.js`);
      const html =
        '<!doctype html><meta charset="utf-8"><body><div id="editor" style="width:600px;height:300px"></div>' +
        // Monaco's workers, as a page sets them up for its bundler (Monaco's own docs); an idle worker here.
        "<script>self.MonacoEnvironment = { getWorker: () => new Worker(URL.createObjectURL(new Blob([''], { type: 'text/javascript' }))) };</script>" +
        '<script type="module" src="example.js"></script></body>';
      const { page, problems, done, failed, checked } = await load(html, script);
      try {
        assert.equal(failed, undefined, `${where(b)}: ${failed}`);
        assert.deepEqual(problems, [], `${where(b)}: the page threw`);
        assert.ok(done, `${where(b)}: the example did not finish`);
        assert.equal(checked, checks, `${where(b)}: ${checks} checks in the comments, ${checked} ran`);
      } finally {
        await page.close();
      }
    });
  }
}

test('the README and docs have browser examples, and every one ran here', () => {
  assert.ok(examples.filter((b) => b.lang !== 'html').length >= 2, 'the editors examples are flagged browser');
  assert.ok(
    examples.some((b) => b.lang === 'html'),
    'the README has a browser page',
  );
});
