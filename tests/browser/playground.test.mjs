// The playground in a real browser: `npm start`'s server (scripts/start.mjs
// --no-build, on a free port), Debian's Chromium driven by playwright-core.
// Each mode's case pastes its input and patch into the CodeMirror editors and
// checks the exact output text (copied as a user copies it), the error's
// diagnostic and line marks. A mode this build of the package
// lacks is reported by the page; its case then checks the page says so and is
// skipped with a loud message.
//
// No browser: with CI set this fails; elsewhere it skips, loudly.
// PLAYGROUND_SCREENSHOTS=1 also writes the pictures docs/playground-*.png
// (light and dark, a success and a failure).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { examples } from '../../www/examples.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'tests', 'browser', 'screenshots');
const example = (id) => examples.find((e) => e.id === id);

function findChromium() {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && existsSync(p)) return p;
  }
  return null;
}
const chromiumPath = findChromium();
const noBrowser = chromiumPath === null;
if (noBrowser) {
  const msg = 'Chromium is missing (/usr/bin/chromium; set CHROMIUM_PATH, or run scripts/setup.sh as root to install it)';
  if (process.env.CI) throw new Error(`playground browser test: ${msg}, and CI is set: the browser test must run`);
  console.log(`\n!!! SKIPPING the playground browser test: ${msg}. !!!\n`);
}
const browserTest = (name, fn) => test(name, { skip: noBrowser && 'no Chromium' }, fn);

let server;
let baseUrl;
let context;
let userDir;
const pageErrors = [];

before(async () => {
  if (noBrowser) return;
  assert.ok(existsSync(join(root, 'dist', 'browser.mjs')), 'dist/ is not built: run node scripts/build.mjs first');
  server = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--no-build'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/localhost:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}) before printing its URL: ${out}`)));
    setTimeout(() => reject(new Error(`the server printed no URL in 10 s: ${out}`)), 10000);
  });
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
      '--no-first-run',
    ],
    viewport: { width: 1400, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  // Nothing may be fetched from anywhere but the local server.
  await context.route('**/*', (route) => (route.request().url().startsWith(baseUrl) ? route.continue() : route.abort()));
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await context?.close();
  if (server && server.exitCode === null) server.kill();
  if (userDir) rmSync(userDir, { recursive: true, force: true });
});

// ---- helpers ------------------------------------------------------------------

/** A new page whose errors and console errors are collected (the last test says there are none). */
async function newPage() {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${page.url()}: console: ${m.text()}`);
  });
  return page;
}

async function open(hash = '') {
  const page = await newPage();
  await page.goto(baseUrl + hash);
  await page.waitForFunction(() => Number(document.body.dataset.runs) > 0);
  return page;
}

/** Waits until the debounced update after the last keystroke has run. */
async function settle(page) {
  await page.waitForFunction(() => document.body.dataset.pending === 'false');
}

/** Replaces a text field's contents by typing, key by key. */
async function typeInto(page, selector, text) {
  await page.click(selector);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  assert.equal(await page.inputValue(selector), text, `typing into ${selector}`);
}

/** An editor's text as its lines show it (the whole text: these documents are short). */
const editorText = (page, id) =>
  page.$eval(`#${id} .cm-content`, (c) => [...c.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));

/** Replaces a CodeMirror editor's text as a user does: select all, then paste. */
async function pasteInto(page, id, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.click(`#${id} .cm-content`);
  await page.keyboard.press('Control+A');
  if (text === '') await page.keyboard.press('Backspace');
  else await page.keyboard.press('Control+V');
  if (text.split('\n').length < 200) assert.equal(await editorText(page, id), text, `pasting into #${id}`);
}

async function chooseMode(page, mode) {
  await page.check(`input[name=mode][value=${mode}]`);
  await settle(page);
}

async function chooseView(page, view) {
  await page.check(`input[name=view][value=${view}]`);
  await settle(page);
}

const modeAvailable = (page, mode) => page.$eval(`input[name=mode][value=${mode}]`, (r) => r.dataset.available === 'true');
const status = (page) => page.evaluate(() => document.body.dataset.status);
/** The marked lines of an editor: [line, kind], as the page marks them (each mark carries its line number). */
const marks = (page, pane) => page.$$eval(`#${pane} .cm-line[data-kind]`, (ms) => ms.map((m) => [Number(m.dataset.line), m.dataset.kind]));
const linesOf = (list, kind) => list.filter(([, k]) => k === kind).map(([l]) => l);
const files = (page) =>
  page.$$eval('#output-files .tab', (fs) =>
    fs.map((f) => ({ path: f.dataset.path, status: f.dataset.status, badge: f.querySelector('.badge').textContent })),
  );

/** The new text of an output file, through the Copy output button (as a user gets it). */
async function outputText(page, path) {
  if (await page.isVisible('#output-files')) await page.click(`#output-files .tab[data-path="${path}"]`);
  assert.equal(await page.$eval('#output-editor', (e) => e.dataset.path), path);
  await page.evaluate(() => {
    document.getElementById('status').textContent = '';
  });
  await page.click('#copy');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Output copied');
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Types the input files (renaming the first, adding the others) and the patch. */
async function typeFiles(page, list) {
  await typeInto(page, '#file-path', list[0].path);
  await pasteInto(page, 'input', list[0].text);
  for (const f of list.slice(1)) {
    await page.click('#add-file');
    await typeInto(page, '#file-path', f.path);
    await pasteInto(page, 'input', f.text);
  }
}

/** Waits until the URL holds the page's current state. */
async function linked(page) {
  await page.waitForFunction(() => document.body.dataset.linked === 'true');
  return new URL(page.url()).hash;
}

function skipLoudly(t, what) {
  const msg = `${what} is not available in this build of applypatch: its browser case did not run`;
  console.log(`\n!!! SKIPPED: ${msg} !!!\n`);
  t.skip(msg);
}

// ---- expected results (written out by hand from the examples) --------------------

const strictOut = `export function total(items, taxRate = 0) {
  let sum = 0;
  for (const item of items) {
    sum += item.price * item.quantity;
  }
  return sum * (1 + taxRate);
}

export function isEmpty(items) {
  return items.length === 0;
}
`;

const movedCart = `import { formatMoney } from '../money.js';

export function total(items) {
  let sum = 0;
  for (const item of items) {
    sum += item.price;
  }
  return sum;
}

export function isEmpty(items) {
  return !items || items.length === 0;
}

export function label(items) {
  return formatMoney(total(items));
}
`;

const money = `export function formatMoney(cents, currency = 'EUR') {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
}
`;

const codexSummary = 'Success. Updated the following files:\nA src/money.js\nM src/checkout/cart.js\nD src/format.js';

const blocksOut = `class Cart:
    def __init__(self):
        self.items = []

    def add(self, item, quantity=1):
        self.items.extend([item] * quantity)

    def total(self, discount=0):
        subtotal = sum(item.price for item in self.items)
        return max(subtotal - discount, 0)
`;

// ---- tests ----------------------------------------------------------------------

browserTest('the server serves the page and the package (the wasm travels inside dist/wasm/core.mjs and extra.mjs)', async () => {
  for (const [path, type] of [
    ['', 'text/html'],
    ['app.js', 'text/javascript'],
    ['style.css', 'text/css'],
    ['dist/browser.mjs', 'text/javascript'],
    ['dist/wasm/core.mjs', 'text/javascript'],
    ['dist/wasm/extra.mjs', 'text/javascript'],
  ]) {
    const res = await fetch(baseUrl + path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type'), new RegExp(`^${type}`), path);
  }
  // Nothing outside www/ and dist/ (fetch would normalise '..' away: send it raw).
  const raw = await new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    get({ hostname, port, path: '/..%2fpackage.json' }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
  assert.equal(raw, 403);
});

browserTest('opens with an example loaded and its output shown', async () => {
  const page = await open();
  assert.equal(await status(page), 'ok');
  assert.equal(await editorText(page, 'input'), example('strict-diff').files[0].text);
  assert.equal(await editorText(page, 'patch'), example('strict-diff').patch);
  assert.equal(await page.textContent('#patch-kind'), 'detected: V4A diff');
  // Syntax colours: the file is JavaScript, so its keywords are styled spans.
  assert.ok((await page.$$('#input .cm-line span')).length > 10, 'the input is highlighted as JavaScript');
  // The merge view against the input: the three changed lines, removed (inline) and added.
  const deleted = await page.$$eval('#output-editor .cm-deletedChunk .cm-deletedLine', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(deleted, ['export function total(items) {', '    sum += item.price;', '  return sum;']);
  const added = await page.$$eval('#output-editor .cm-changedLine', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(added, [
    'export function total(items, taxRate = 0) {',
    '    sum += item.price * item.quantity;',
    '  return sum * (1 + taxRate);',
  ]);
  await chooseView(page, 'text');
  assert.equal(await page.$$('#output-editor .cm-deletedChunk').then((x) => x.length), 0, 'the new text alone');
  assert.equal(await outputText(page, 'src/cart.js'), strictOut);
  assert.match(await linked(page), /^#z=[\w-]+$/);
  await page.screenshot({ path: join(shots, 'opening.tmp.png') });
  await page.close();
});

browserTest('Strict: a V4A diff typed into the panes; copy, and a link that reproduces it', async () => {
  const page = await open();
  await chooseMode(page, 'strict');
  await chooseView(page, 'text');
  const ex = example('strict-diff');
  await typeFiles(page, [{ path: 'src/cart.js', text: ex.files[0].text }]);
  await pasteInto(page, 'patch', '');
  await settle(page);
  // An empty diff changes nothing.
  assert.equal(await outputText(page, 'src/cart.js'), ex.files[0].text);
  await pasteInto(page, 'patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok');
  assert.equal(await outputText(page, 'src/cart.js'), strictOut);
  assert.deepEqual(await files(page), [{ path: 'src/cart.js', status: 'modified', badge: 'modified' }]);

  await linked(page);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Link copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());

  const again = await open(await linked(page));
  assert.equal(await editorText(again, 'patch'), ex.patch);
  assert.equal(await again.inputValue('#file-path'), 'src/cart.js');
  assert.equal(await outputText(again, 'src/cart.js'), strictOut);
  await again.close();
  await page.close();
});

browserTest('Strict: an error highlights its patch line and input lines, and fixing the diff clears it', async () => {
  const page = await open();
  await chooseMode(page, 'strict');
  const ex = example('fail-ambiguous');
  await typeFiles(page, ex.files);
  await pasteInto(page, 'patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), 'context_ambiguous');
  // The highlights are where the package says the error is.
  const { apply } = await import('../../dist/index.mjs');
  const err = (() => {
    try {
      apply(ex.files[0].text, ex.patch);
    } catch (e) {
      return e;
    }
  })();
  assert.equal(err.code, 'context_ambiguous');
  assert.equal(await page.textContent('#error .message'), err.message);
  assert.deepEqual(linesOf(await marks(page, 'patch'), 'error'), [err.diffLine]);
  assert.deepEqual(linesOf(await marks(page, 'input'), 'error'), [2, 5]);
  assert.deepEqual(err.inputLines, [2, 5]);
  await assertDiagnostic(page, err);
  await page.screenshot({ path: join(shots, 'strict-error.tmp.png') });

  // The jump button puts the caret on the failing patch line.
  await page.click('#error .jump >> nth=0');
  assert.ok(await page.evaluate(() => document.activeElement.closest('#patch') !== null), 'the patch editor has the focus');
  assert.equal(await page.$eval('#patch .cm-activeLine', (l) => l.dataset.line), String(err.diffLine));

  // An anchor makes it unique: the error and its marks go.
  await pasteInto(page, 'patch', '@@ def find_order(id):\n-    return None\n+    return []\n');
  await settle(page);
  assert.equal(await status(page), 'ok');
  assert.deepEqual(await marks(page, 'patch'), []);
  assert.deepEqual(await marks(page, 'input'), []);
  await chooseView(page, 'text');
  assert.equal(await outputText(page, 'store.py'), 'def find_user(id):\n    return None\n\ndef find_order(id):\n    return []\n');
  await page.close();
});

/**
 * The error is a lint diagnostic on its patch line: the gutter's marker is on
 * that line's row, the underlined text is that line, and hovering it shows the
 * package's message.
 */
async function assertDiagnostic(page, err) {
  const line = page.locator(`#patch .cm-line[data-line="${err.diffLine}"]`);
  const marker = page.locator('#patch .cm-gutter-lint .cm-lint-marker-error');
  assert.equal(await marker.count(), 1, 'one error marker in the gutter');
  const [lineBox, markerBox] = [await line.boundingBox(), await marker.boundingBox()];
  assert.ok(markerBox.y >= lineBox.y - 1 && markerBox.y + markerBox.height <= lineBox.y + lineBox.height + 1, 'the marker is on the line');
  const text = await line.textContent();
  assert.equal(await page.textContent('#patch .cm-lintRange-error'), text);
  await page.hover('#patch .cm-lintRange-error');
  await page.waitForSelector('.cm-tooltip-lint .cm-diagnostic-error');
  assert.equal(await page.textContent('.cm-tooltip-lint .cm-diagnostic-error'), `${err.code}: ${err.message}applypatch`);
  await page.mouse.move(0, 0);
}

/** Types the Codex example (three files, one patch) and checks every resulting file. */
async function multiFileCase(page, mode) {
  await chooseMode(page, mode);
  await chooseView(page, 'text');
  const ex = example('codex-files');
  // A stray file, added then removed again.
  await page.click('#add-file');
  await typeInto(page, '#file-path', 'stray.txt');
  await page.click('#remove-file');
  assert.deepEqual(await page.$$eval('#file-tabs .tab', (ts) => ts.map((t) => t.textContent)), [await page.inputValue('#file-path')]);
  await typeFiles(page, ex.files);
  assert.deepEqual(
    await page.$$eval('#file-tabs .tab', (ts) => ts.map((t) => t.textContent)),
    ex.files.map((f) => f.path),
  );
  await pasteInto(page, 'patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.deepEqual(await files(page), [
    { path: 'src/checkout/cart.js', status: 'moved', badge: 'moved from src/cart.js' },
    { path: 'src/format.js', status: 'deleted', badge: 'deleted' },
    { path: 'README.md', status: 'unchanged', badge: 'unchanged' },
    { path: 'src/money.js', status: 'added', badge: 'added' },
  ]);
  assert.equal(await outputText(page, 'src/checkout/cart.js'), movedCart);
  assert.equal(await outputText(page, 'src/money.js'), money);
  assert.equal(await outputText(page, 'README.md'), ex.files[2].text);
  assert.equal(await outputText(page, 'src/format.js'), '', 'a deleted file has no text');
  // summary() comes with applyFiles (issue 3), and does not depend on the mode.
  assert.equal((await page.textContent('#summary')).trimEnd(), codexSummary);
  // The link reproduces all three files.
  const again = await open(await linked(page));
  assert.equal(await again.$$eval('#file-tabs .tab', (ts) => ts.length), 3);
  assert.equal(await outputText(again, 'src/checkout/cart.js'), movedCart);
  await again.close();
}

browserTest('Strict: a *** Begin Patch patch over several files (added, moved, deleted)', async (t) => {
  const page = await open();
  if (!(await page.evaluate(() => document.body.dataset.multiFile === 'true'))) {
    await chooseMode(page, 'strict');
    await pasteInto(page, 'patch', example('codex-files').patch);
    await settle(page);
    assert.equal(await status(page), 'unavailable');
    assert.match(await page.textContent('#error'), /not available in this build/);
    await page.close();
    return skipLoudly(t, 'applyFiles (Strict patches over several files)');
  }
  await multiFileCase(page, 'strict');
  await page.close();
});

browserTest('Codex: a patch over several files, its summary, and an error in one file', async (t) => {
  const page = await open();
  if (!(await modeAvailable(page, 'codex'))) {
    await chooseMode(page, 'codex');
    assert.equal(await status(page), 'unavailable');
    assert.match(await page.textContent('#error'), /Codex mode is not available in this build/);
    assert.match(await page.textContent('#status'), /not available/);
    await page.close();
    return skipLoudly(t, 'Codex mode');
  }
  await multiFileCase(page, 'codex');
  assert.equal((await page.textContent('#summary')).trimEnd(), codexSummary);
  await page.screenshot({ path: join(shots, 'codex.tmp.png') });

  // The model remembers README.md wrong: the error points at the patch line and
  // at README.md's lines, and the input pane switches to README.md.
  const bad =
    "*** Begin Patch\n*** Update File: src/format.js\n@@\n-  return '€' + (cents / 100).toFixed(2);\n+  return formatMoney(cents);\n*** Update File: README.md\n@@\n # shop\n \n-A tiny shop.\n+A small shop with a cart.\n*** End Patch\n";
  await pasteInto(page, 'patch', bad);
  await settle(page);
  assert.equal(await status(page), 'error');
  const ap = await import('../../dist/index.mjs');
  const files0 = Object.fromEntries(example('codex-files').files.map((f) => [f.path, f.text]));
  const err = (() => {
    try {
      ap.applyFiles(files0, bad, { mode: 'codex' });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof ap.PatchError, 'the bad patch must fail in the package too');
  assert.equal(err.path, 'README.md');
  assert.equal(await page.textContent('#error .code'), err.code);
  assert.ok(Number.isInteger(err.diffLine));
  assert.deepEqual(linesOf(await marks(page, 'patch'), 'error'), [err.diffLine]);
  assert.equal(await page.inputValue('#file-path'), 'README.md');
  assert.equal(await page.$eval('#file-tabs .has-error', (b) => b.textContent), 'README.md');
  if (err.inputLines) assert.deepEqual(linesOf(await marks(page, 'input'), 'error'), err.inputLines);
  // Nothing is half-applied: the output lists no files.
  assert.equal(await page.isVisible('#output'), false);
  await page.close();
});

browserTest('Unified diff: a git diff over two files (a rename), then a hunk that moved and one that fails', async (t) => {
  const page = await open();
  if (!(await modeAvailable(page, 'unified'))) {
    await chooseMode(page, 'unified');
    assert.equal(await status(page), 'unavailable');
    await page.close();
    return skipLoudly(t, 'Unified diffs');
  }
  await chooseMode(page, 'unified');
  await chooseView(page, 'text');
  const ex = example('unified-git');
  await typeFiles(page, ex.files);
  await pasteInto(page, 'patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.deepEqual(await files(page), [
    { path: 'src/greet.py', status: 'modified', badge: 'modified' },
    { path: 'docs/NOTES.md', status: 'moved', badge: 'moved from NOTES.md' },
  ]);
  assert.equal(await outputText(page, 'src/greet.py'), ex.files[0].text.replace('print("Hi " + name)', 'print(f"Hello, {name}!")'));
  // Two lines added at the top: Strict finds the hunk 2 lines further down and says so.
  await page.click('#file-tabs .tab');
  await pasteInto(page, 'input', `# greet\n\n${ex.files[0].text}`);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.match(await page.textContent('#notes'), /src\/greet\.py: hunk 1 applied at line 3, 2 lines below where its header says \(1\)\./);
  // A removed line the file does not have: the error names the file, hunk and line.
  await pasteInto(page, 'patch', ex.patch.replace('-    print("Hi " + name)', '-    print("Hey " + name)'));
  await settle(page);
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), 'context_not_found');
  assert.match(await page.textContent('#error'), /src\/greet\.py: hunk 1 \(diff lines 5-12/);
  // Strict mode runs a unified diff as one (the package's detectFormat says what it is); Codex mode says to switch.
  await pasteInto(page, 'patch', ex.patch);
  await chooseMode(page, 'strict');
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.deepEqual(await files(page), [
    { path: 'src/greet.py', status: 'modified', badge: 'modified' },
    { path: 'docs/NOTES.md', status: 'moved', badge: 'moved from NOTES.md' },
  ]);
  await chooseMode(page, 'codex');
  assert.equal(await status(page), 'error');
  assert.match(await page.textContent('#error'), /This is a unified diff: choose the Strict or Unified diff mode\./);
  await page.close();
});

browserTest('Edit blocks: strategies and similarity per block, and a block that does not match', async (t) => {
  const page = await open();
  if (!(await modeAvailable(page, 'blocks'))) {
    await chooseMode(page, 'blocks');
    assert.equal(await status(page), 'unavailable');
    assert.match(await page.textContent('#error'), /Edit blocks are not available in this build/);
    await page.close();
    return skipLoudly(t, 'Edit blocks (parseBlocks, applyEdits)');
  }
  await chooseMode(page, 'blocks');
  await chooseView(page, 'text');
  const ex = example('blocks');
  await typeFiles(page, ex.files);
  await pasteInto(page, 'patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.equal(await outputText(page, 'cart.py'), blocksOut);
  const rows = await page.$$eval('#blocks tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 2);
  assert.deepEqual(
    rows.map((r) => r.slice(0, 4)),
    [
      ['1', 'cart.py', '2–8', 'exact'],
      ['2', 'cart.py', '11–18', 'indent'],
    ],
  );
  for (const r of rows) assert.match(r[4], /^(0|1)\.\d\d$/, 'a similarity is shown');
  assert.equal(rows[0][4], '1.00');
  await page.screenshot({ path: join(shots, 'blocks.tmp.png') });

  // The second block now searches for a method the class does not have.
  const broken = ex.patch.replace('def total(self):\n    return sum', 'def subtotal(self):\n    return sum');
  await pasteInto(page, 'patch', broken);
  await settle(page);
  assert.equal(await status(page), 'error');
  const patchMarks = await marks(page, 'patch');
  assert.deepEqual(linesOf(patchMarks, 'error'), [11]);
  assert.deepEqual(linesOf(patchMarks, 'error-range'), [12, 13, 14, 15, 16, 17, 18]);
  const failed = await page.$$eval('#blocks tbody tr', (rs) => rs.map((r) => [r.className, r.cells[3].textContent]));
  assert.deepEqual(failed[1], ['failed', 'no match']);
  assert.equal(await page.isVisible('#output'), false);

  // The safe preset names the closest place (input lines 8-9) and the lines that
  // differ there: the input pane marks them, and a button jumps to them.
  await page.selectOption('#preset', 'safe');
  await settle(page);
  assert.equal(await status(page), 'error');
  assert.match(await page.textContent('#error .message'), /The closest place is lines 8-9/);
  assert.deepEqual(linesOf(await marks(page, 'input'), 'error'), [8, 9]);
  assert.match(await page.textContent('#error .where'), /Closest: input lines 8–9/);
  await page.close();
});

browserTest('keyboard, examples menu, narrow window and dark theme', async () => {
  const page = await open();
  // The mode switch and the examples menu work from the keyboard.
  await page.focus('input[name=mode][value=strict]');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  assert.equal(await page.$eval('input[name=mode]:checked', (r) => r.value), 'codex');
  assert.match(await page.textContent('#status'), /^Codex: /);
  // Type-ahead in the menu: 'F' picks the first 'Fails on purpose' example.
  assert.equal(examples.find((e) => e.title.startsWith('F')).id, 'fail-stale');
  await page.focus('#examples');
  await page.keyboard.press('F');
  await settle(page);
  assert.equal(await page.inputValue('#file-path'), 'config.py');
  assert.equal(await page.$eval('input[name=mode]:checked', (r) => r.value), 'strict');
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), 'context_not_found');
  // The closest place in the input is marked too.
  assert.ok(linesOf(await marks(page, 'input'), 'near').length > 0);
  // Every control has a name.
  const unnamed = await page.$$eval('button, input, select, textarea', (els) =>
    els.filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim() || e.title)).map((e) => e.outerHTML),
  );
  assert.deepEqual(unnamed, []);

  // A narrow window stacks the panes.
  await page.setViewportSize({ width: 480, height: 900 });
  const box = (id) => page.$eval(id, (e) => e.getBoundingClientRect().toJSON());
  const [input, patch, output] = [await box('#input-pane'), await box('#patch-pane'), await box('#output-pane')];
  assert.ok(input.bottom <= patch.top && patch.bottom <= output.top, 'stacked');
  assert.ok(input.width > 400, 'full width');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px too wide)`);
  await page.screenshot({ path: join(shots, 'narrow.tmp.png'), fullPage: true });

  // Light and dark follow the system.
  const luminance = async () => {
    const rgb = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = rgb.match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  await page.emulateMedia({ colorScheme: 'light' });
  assert.ok((await luminance()) > 0.8, 'light background');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.ok((await luminance()) < 0.2, 'dark background');
  await page.setViewportSize({ width: 1400, height: 800 });
  await page.screenshot({ path: join(shots, 'dark.tmp.png') });
  await page.close();
});

/** The luminance (0 dark .. 1 light) of an element's background and text colours. */
const colours = (page, selector) =>
  page.$eval(selector, (e) => {
    const lum = (c) => {
      const [r, g, b] = c.match(/[\d.]+/g).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const s = getComputedStyle(e);
    return { background: lum(s.backgroundColor), text: lum(s.color) };
  });

browserTest('dark mode: the page and all three editors render dark when the system is dark', async () => {
  const page = await newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(baseUrl);
  await page.waitForFunction(() => Number(document.body.dataset.runs) > 0);
  for (const sel of ['body', '#input .cm-editor', '#patch .cm-editor', '#output-editor .cm-editor', '#input .cm-gutters']) {
    const c = await colours(page, sel);
    assert.ok(c.background < 0.25 && c.text > 0.5, `${sel} is dark with light text (${JSON.stringify(c)})`);
  }
  // And back to light when the system changes, without a reload. The
  // editors change theme from a media-query listener, which may run after
  // emulateMedia returns: each is given a few seconds to turn light.
  await page.emulateMedia({ colorScheme: 'light' });
  for (const sel of ['body', '#input .cm-editor', '#patch .cm-editor', '#output-editor .cm-editor']) {
    await page
      .waitForFunction(
        (s) => {
          const lum = (c) => {
            const [r, g, b] = c.match(/[\d.]+/g).map(Number);
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
          };
          const style = getComputedStyle(document.querySelector(s));
          return lum(style.backgroundColor) > 0.8 && lum(style.color) < 0.4;
        },
        sel,
        { timeout: 5000 },
      )
      .catch(() => {});
    const c = await colours(page, sel);
    assert.ok(c.background > 0.8 && c.text < 0.4, `${sel} is light with dark text (${JSON.stringify(c)})`);
  }
  await page.close();
});

browserTest('long lines scroll sideways, in the editors and in the output, instead of being cut', async () => {
  const page = await open();
  const long = `const message = '${'x'.repeat(300)}'; // END`;
  await pasteInto(page, 'input', `${long}\nreturn message;\n`);
  await pasteInto(page, 'patch', `@@\n-${long}\n+${long.replace('END', 'FIN')}`);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  for (const id of ['#input', '#patch', '#output-editor']) {
    const [scroll, client] = await page.$eval(`${id} .cm-scroller`, (e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(scroll > client, `${id} scrolls sideways (${scroll} > ${client})`);
  }
  // Scrolled to the right, the end of the changed line is inside the output box.
  const [end, box] = await page.$eval('#output-editor .cm-scroller', (scroller) => {
    scroller.scrollLeft = scroller.scrollWidth;
    const line = [...scroller.querySelectorAll('.cm-changedLine')].find((l) => l.textContent.endsWith('FIN'));
    const range = document.createRange();
    range.selectNodeContents(line);
    return [range.getBoundingClientRect().right, scroller.getBoundingClientRect().right];
  });
  assert.ok(end <= box + 1, `the line's end (${end}) is visible in the output (right edge ${box})`);
  await page.close();
});

browserTest('at phone width (390 x 844) the output starts within two screens', async () => {
  const page = await open();
  await page.setViewportSize({ width: 390, height: 844 });
  const [top, height] = await page.evaluate(() => [
    document.getElementById('output-pane').getBoundingClientRect().top + scrollY,
    innerHeight,
  ]);
  assert.ok(top < 2 * height, `the output pane starts at ${top}px, ${(top / height).toFixed(2)} screens down`);
  await page.close();
});

browserTest('the browser entry survives a wasm trap: internal_error, then every call works and the memory is back', async () => {
  const page = await open();
  const result = await page.evaluate(async () => {
    const ap = await import('/dist/browser.mjs');
    const { core } = await import('/dist/esm/engines/core.js');
    const memory = core.wasm().wasmMemory();
    // Grow wasm memory as far as it goes, so the next large allocation traps.
    for (let pages = 32768; pages >= 1; pages = Math.floor(pages / 2)) {
      for (;;) {
        try {
          memory.grow(pages);
        } catch {
          break;
        }
      }
    }
    const grown = memory.buffer.byteLength;
    let error;
    try {
      // 8 MB: more than the free room the engine's allocator keeps (it grows
      // memory by half again at each step), so copying it in needs memory at once.
      ap.apply(`${'x\n'.repeat(1 << 22)}end\n`, '@@\n-end\n+END');
    } catch (e) {
      error = { name: e.name, code: e.code, message: e.message };
    }
    return {
      grown,
      error,
      after: core.wasm().wasmMemory().buffer.byteLength,
      apply: ap.apply('a\n', '@@\n-a\n+b'),
      edit: ap.applyEdit('a\n', { search: 'a', replace: 'c' }).text,
      files: ap.applyFiles({ 'a.txt': 'a\n' }, '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch'),
    };
  });
  assert.ok(result.grown > 1024 * 1024 * 1024, `wasm memory grew to ${result.grown} bytes`);
  assert.equal(result.error?.name, 'PatchError');
  assert.equal(result.error?.code, 'internal_error');
  assert.match(result.error.message, /^The WebAssembly engine failed inside reserveInput \(RuntimeError: /);
  assert.ok(result.after < 64 * 1024 * 1024, `memory after: ${result.after} bytes`);
  assert.deepEqual([result.apply, result.edit, result.files], ['b\n', 'c\n', {}]);
  await page.close();
});

const greetOut = example('unified-git').files[0].text.replace('print("Hi " + name)', 'print(f"Hello, {name}!")');

/** What each example must give: its output files, or its error. */
const expected = {
  'strict-diff': { format: 'V4A diff', files: [{ path: 'src/cart.js', status: 'modified', text: strictOut }] },
  'codex-files': {
    format: '*** Begin Patch patch',
    summary: codexSummary,
    files: [
      { path: 'src/checkout/cart.js', status: 'moved', text: movedCart },
      { path: 'src/format.js', status: 'deleted', text: '' },
      { path: 'README.md', status: 'unchanged', text: '# shop\n\nA small shop.\n' },
      { path: 'src/money.js', status: 'added', text: money },
    ],
  },
  blocks: { format: 'edit blocks', files: [{ path: 'cart.py', status: 'modified', text: blocksOut }] },
  'unified-git': {
    format: 'unified diff',
    files: [
      { path: 'src/greet.py', status: 'modified', text: greetOut },
      { path: 'docs/NOTES.md', status: 'moved', text: 'Remember to say hello.\n' },
    ],
  },
  'fail-stale': { format: 'V4A diff', error: 'context_not_found' },
  'fail-ambiguous': { format: 'V4A diff', error: 'context_ambiguous' },
};

browserTest('every example in every format, from the menu grouped by format, gives its expected outcome', async () => {
  assert.deepEqual(Object.keys(expected).sort(), examples.map((e) => e.id).sort(), 'every example has an expectation');
  const ap = await import('../../dist/index.mjs');
  const page = await open();
  const groups = await page.$$eval('#examples optgroup', (gs) => gs.map((g) => [g.label, [...g.children].map((o) => o.value)]));
  assert.deepEqual(groups, [
    ['V4A diffs', ['strict-diff']],
    ['*** Begin Patch patches', ['codex-files']],
    ['Edit blocks', ['blocks']],
    ['Unified diffs', ['unified-git']],
    ['Fails on purpose', ['fail-stale', 'fail-ambiguous']],
  ]);
  for (const ex of examples) {
    const want = expected[ex.id];
    await page.selectOption('#examples', ex.id);
    await settle(page);
    assert.equal(await page.$eval('input[name=mode]:checked', (r) => r.value), ex.mode, ex.id);
    assert.equal(await page.textContent('#patch-kind'), `detected: ${want.format}`, ex.id);
    assert.equal(await editorText(page, 'patch'), ex.patch, ex.id);
    assert.equal(await editorText(page, 'input'), ex.files[0].text, ex.id);
    if (want.error) {
      assert.equal(await status(page), 'error', ex.id);
      assert.equal(await page.textContent('#error .code'), want.error, ex.id);
      const err = (() => {
        try {
          ap.apply(ex.files[0].text, ex.patch, { mode: ex.mode });
        } catch (e) {
          return e;
        }
      })();
      assert.equal(err.code, want.error);
      await assertDiagnostic(page, err);
      continue;
    }
    assert.equal(await status(page), 'ok', `${ex.id}: ${await page.textContent('#error')}`);
    if (want.files.length > 1) {
      assert.deepEqual(
        (await files(page)).map((f) => [f.path, f.status]),
        want.files.map((f) => [f.path, f.status]),
        ex.id,
      );
    }
    for (const f of want.files) assert.equal(await outputText(page, f.path), f.text, `${ex.id}: ${f.path}`);
    if (want.summary) assert.equal((await page.textContent('#summary')).trimEnd(), want.summary);
  }
  await page.close();
});

browserTest('a shared link, reopened in a new page, restores the whole state; the first playground links still open', async () => {
  const page = await open();
  // Strict, with Repair: a line that differs from the input only in trailing whitespace.
  await chooseMode(page, 'strict');
  // The diff applies to the selected file, the second one.
  await typeFiles(page, [
    { path: 'b.md', text: '# b\n' },
    { path: 'a.py', text: 'def f():\n    return 1  \n' },
  ]);
  const patch = '@@\n def f():\n-    return 1\n+    return 2\n';
  await pasteInto(page, 'patch', patch);
  await settle(page);
  assert.equal(await status(page), 'error');
  await page.check('#repair');
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.match(await page.textContent('#notes'), /^Repaired \(trailing-ws, patch line 3, input line 2\): /);
  await chooseView(page, 'text');
  const hash = await linked(page);
  assert.match(hash, /^#z=/);

  const again = await open(hash);
  assert.equal(await again.$eval('input[name=mode]:checked', (r) => r.value), 'strict');
  assert.equal(await again.isChecked('#repair'), true);
  assert.equal(await again.$eval('input[name=view]:checked', (r) => r.value), 'text');
  assert.deepEqual(await again.$$eval('#file-tabs .tab', (ts) => ts.map((t) => [t.textContent, t.getAttribute('aria-pressed')])), [
    ['b.md', 'false'],
    ['a.py', 'true'],
  ]);
  assert.equal(await editorText(again, 'input'), 'def f():\n    return 1  \n');
  assert.equal(await editorText(again, 'patch'), patch);
  assert.equal(await outputText(again, 'a.py'), 'def f():\n    return 2\n');
  await again.close();

  // Edit blocks with the compatible preset.
  await chooseMode(page, 'blocks');
  await page.selectOption('#preset', 'compatible');
  await settle(page);
  const blocksPage = await open(await linked(page));
  assert.equal(await blocksPage.$eval('input[name=mode]:checked', (r) => r.value), 'blocks');
  assert.equal(await blocksPage.inputValue('#preset'), 'compatible');
  await blocksPage.close();
  await page.close();

  // A link from before compression (#s=, plain base64url JSON).
  const { encodeHashPlain } = await import('../../www/state.js');
  const ex = example('fail-ambiguous');
  const old = await open(encodeHashPlain({ mode: 'strict', files: ex.files, patch: ex.patch }));
  assert.equal(await editorText(old, 'patch'), ex.patch);
  assert.equal(await old.textContent('#error .code'), 'context_ambiguous');
  await old.close();
});

browserTest('a 100,000-line input stays usable (the main-thread time of an apply is printed)', async () => {
  const page = await open();
  await chooseMode(page, 'strict');
  const lines = Array.from({ length: 100_000 }, (_, i) => `export const value${i + 1} = ${i + 1};`);
  const text = `${lines.join('\n')}\n`;
  await typeInto(page, '#file-path', 'big.js');
  let t0 = Date.now();
  await pasteInto(page, 'input', text);
  await settle(page);
  const pasteMs = Date.now() - t0;
  // A change near the end: the diff applies there, and the merge view shows it.
  t0 = Date.now();
  await pasteInto(page, 'patch', "@@\n-export const value99990 = 99990;\n+export const value99990 = 'changed';\n");
  await settle(page);
  const patchMs = Date.now() - t0;
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  const { applyMs, updateMs } = await page.evaluate(() => ({
    applyMs: Number(document.body.dataset.applyMs),
    updateMs: Number(document.body.dataset.updateMs),
  }));
  await page.waitForSelector('#output-editor .cm-changedLine');
  assert.equal(await page.textContent('#output-editor .cm-changedLine'), "export const value99990 = 'changed';");
  assert.equal(await page.textContent('#output-editor .cm-deletedLine'), 'export const value99990 = 99990;');
  // Typing in the big input still updates the output: a key press at the top.
  await page.click('#input .cm-content');
  await page.keyboard.press('Control+Home');
  t0 = Date.now();
  await page.keyboard.type('// ');
  await settle(page);
  await page.waitForFunction(() => document.body.dataset.pending === 'false' && document.body.dataset.status === 'ok');
  const typeMs = Date.now() - t0;
  const hashLength = (await linked(page)).length;
  console.log(
    `playground, 100,000-line input (${(text.length / 1e6).toFixed(1)} MB): one apply ${applyMs.toFixed(1)} ms in the engine, ` +
      `${updateMs.toFixed(1)} ms of main thread for the whole update (the call and the editors drawn); ` +
      `paste to output ${pasteMs} ms, patch to output ${patchMs} ms, three keys to output ${typeMs} ms (150 ms debounce included); link ${hashLength} characters`,
  );
  await page.close();
});

browserTest('screenshots: light and dark, a success and a failure (PLAYGROUND_SCREENSHOTS=1 writes docs/playground-*.png)', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await newPage();
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 560 });
    await page.goto(baseUrl);
    await page.waitForFunction(() => Number(document.body.dataset.runs) > 0);
    for (const [id, name] of [
      ['strict-diff', 'success'],
      ['fail-stale', 'failure'],
    ]) {
      await page.selectOption('#examples', id);
      await settle(page);
      await page.mouse.move(0, 0);
      const file = `playground-${scheme}-${name}.png`;
      await page.screenshot({ path: join(shots, file.replace('.png', '.tmp.png')) });
      if (process.env.PLAYGROUND_SCREENSHOTS) await page.screenshot({ path: join(root, 'docs', file) });
    }
    await page.close();
  }
});

// ---- replay as a stream (createPatchStream) ------------------------------------------

// A V4A diff in three sections over the Strict example's file: the first two
// land while the diff streams (a section is placed when the next one starts),
// the last at end().
const replayDiff = `@@
-export function total(items) {
+export function total(items, taxRate = 0) {
@@
-    sum += item.price;
+    sum += item.price * item.quantity;
@@ export function isEmpty(items) {
-  return items.length === 0;
+  return !items || items.length === 0;
`;

/** Opens the page on a state, with a listener recording what the page shows at each section event. */
async function openReplay(patch, mode = 'strict') {
  const { encodeHashPlain } = await import('../../www/state.js');
  const page = await open(encodeHashPlain({ mode, files: example('strict-diff').files, patch, view: 'text' }));
  await page.evaluate(() => {
    window.landed = [];
    const lines = (id) => [...document.querySelectorAll(`#${id} .cm-content .cm-line`)].map((l) => l.textContent).join('\n');
    document.addEventListener('replaysection', (e) => {
      const marked = [...document.querySelectorAll('#output-editor .cm-line[data-kind=landed]')].map((l) => Number(l.dataset.line));
      window.landed.push({ ...e.detail, output: lines('output-editor'), patch: lines('patch'), marked });
    });
  });
  return page;
}

browserTest('Replay as stream: a V4A diff lands section by section, then end() gives the one-shot output', async () => {
  const ap = await import('../../dist/index.mjs');
  const input = example('strict-diff').files[0].text;
  const page = await openReplay(replayDiff);
  assert.equal(await status(page), 'ok');
  assert.equal(await page.isDisabled('#replay'), false);
  await page.click('#replay');
  assert.equal(await page.textContent('#replay'), 'Stop replay');
  await page.waitForFunction(() => document.body.dataset.replay === 'done', null, { timeout: 20000 });
  const landed = await page.evaluate(() => window.landed);
  // Each section's output is the one-shot apply of the diff up to that section: the page shows preview().
  const sections = replayDiff.split(/(?=^@@)/m);
  assert.equal(sections.length, 3);
  assert.deepEqual(
    landed.map((l) => [l.index, l.path, l.output]),
    [
      [0, 'src/cart.js', ap.apply(input, sections[0])],
      [1, 'src/cart.js', ap.apply(input, sections[0] + sections[1])],
    ],
  );
  // The section's own lines are the ones lit, placed where its splices say.
  assert.deepEqual(
    landed.map((l) => l.marked),
    [[1], [4]],
  );
  assert.ok(landed[0].output.split('\n')[0].includes('taxRate'), 'line 1 holds the first section');
  // The patch pane grew as the stream was pushed: at each event, a prefix of the diff, the next section begun.
  for (const [i, l] of landed.entries()) {
    assert.ok(replayDiff.startsWith(l.patch) && l.patch.length < replayDiff.length, `patch pane at section ${i}`);
    assert.ok(l.patch.length > sections.slice(0, i + 1).join('').length, 'a section lands once the next one starts');
  }
  assert.ok(landed[0].patch.length < landed[1].patch.length);
  assert.equal(await page.evaluate(() => document.body.dataset.replaySections), '2');
  assert.equal(await status(page), 'ok');
  assert.equal(await editorText(page, 'patch'), replayDiff);
  assert.match(await page.textContent('#status'), /replayed as a stream, 2 sections placed as they arrived, then end\(\)/);
  assert.equal(await outputText(page, 'src/cart.js'), ap.apply(input, replayDiff));
  assert.equal(await page.textContent('#replay'), 'Replay as stream');

  // Pressing the button again stops a replay in progress: the whole patch is back, and applied.
  await page.click('#replay');
  await page.waitForFunction(() => Number(document.body.dataset.replaySections) >= 1);
  await page.click('#replay');
  assert.equal(await page.evaluate(() => document.body.dataset.replay), 'stopped');
  const pushed = Number(await page.evaluate(() => document.body.dataset.replayPushed));
  assert.ok(pushed < replayDiff.length, `stopped after ${pushed} characters`);
  assert.equal(await editorText(page, 'patch'), replayDiff);
  assert.equal(await status(page), 'ok');
  assert.equal(await outputText(page, 'src/cart.js'), ap.apply(input, replayDiff));
  // Editing stops it too.
  await page.click('#replay');
  await page.waitForFunction(() => Number(document.body.dataset.replayPushed) > 0);
  await page.click('#input .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('// end\n');
  assert.equal(await page.evaluate(() => document.body.dataset.replay), 'stopped');
  await settle(page);
  assert.equal(await editorText(page, 'patch'), replayDiff);
  assert.equal(await outputText(page, 'src/cart.js'), ap.apply(`${input}// end\n`, replayDiff));

  // Edit blocks replay over the file map: each block lands when its end marker's line is complete.
  await page.selectOption('#examples', 'blocks');
  await settle(page);
  const landedBefore = (await page.evaluate(() => window.landed)).length;
  await page.click('#replay');
  await page.waitForFunction(() => document.body.dataset.replay === 'done', null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.body.dataset.replaySections), '2');
  const blocksLanded = (await page.evaluate(() => window.landed)).slice(landedBefore);
  assert.deepEqual(
    blocksLanded.map((l) => [l.index, l.path, l.marked.length > 0]),
    [
      [0, 'cart.py', true],
      [1, 'cart.py', true],
    ],
  );
  const bx = example('blocks');
  const blocksOut = ap.applyBlocks(new Map(bx.files.map((f) => [f.path, f.text])), bx.patch, { preset: 'safe', path: 'cart.py' });
  assert.equal(blocksOut.ok, true);
  assert.equal(blocksLanded[0].output, ap.applyBlocks({ 'cart.py': bx.files[0].text }, bx.patch.split('\n\n')[0]).files['cart.py']);
  assert.match(await page.textContent('#status'), /replayed as a stream, 2 sections placed as they arrived, then end\(\)/);
  assert.equal(await outputText(page, 'cart.py'), blocksOut.files.get('cart.py'));
  // The blocks table is the one-shot call's, as the page shows it.
  assert.equal(await page.locator('#blocks tr[data-block]').count(), 2);
  // A unified diff replays over the file map: its hunk lands at the next file's header, its rename at end().
  await page.selectOption('#examples', 'unified-git');
  await settle(page);
  await page.click('#replay');
  await page.waitForFunction(() => document.body.dataset.replay === 'done', null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.body.dataset.replaySections), '1');
  const ux = example('unified-git');
  const unifiedOut = ap.applyUnified(new Map(ux.files.map((f) => [f.path, f.text])), ux.patch);
  const unifiedLanded = (await page.evaluate(() => window.landed)).at(-1);
  assert.deepEqual([unifiedLanded.index, unifiedLanded.path, unifiedLanded.marked], [0, 'src/greet.py', [5]]);
  for (const [path, text] of unifiedOut) assert.equal(await outputText(page, path), text, path);
  assert.match(await page.textContent('#output-files'), /moved from NOTES\.md/);
  // A *** Begin Patch patch in Codex mode replays, and ends as the one-shot call.
  await page.selectOption('#examples', 'codex-files');
  await settle(page);
  await page.click('#replay');
  await page.waitForFunction(() => document.body.dataset.replay === 'done', null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.body.dataset.replaySections), '2');
  // Both sections of the update of src/cart.js, shown where they are: the second after its Move to.
  assert.deepEqual(
    (await page.evaluate(() => window.landed.slice(-2))).map((l) => [l.path, l.marked.length > 0]),
    [
      ['src/cart.js', true],
      ['src/cart.js', true],
    ],
  );
  assert.equal(await page.$eval('#output-editor', (e) => e.dataset.path), 'src/checkout/cart.js');
  const ex = example('codex-files');
  const out = ap.applyFiles(Object.fromEntries(ex.files.map((f) => [f.path, f.text])), ex.patch, { mode: 'codex' });
  for (const [path, text] of Object.entries(out)) assert.equal(await outputText(page, path), text, path);
  await page.close();
});

browserTest('Replay as stream: a section that does not apply stops the replay with the error a failed apply shows', async () => {
  const ap = await import('../../dist/index.mjs');
  const input = example('strict-diff').files[0].text;
  const bad = replayDiff.replace('sum += item.price;', 'sum += item.cost;');
  const err = (() => {
    try {
      ap.apply(input, bad);
    } catch (e) {
      return e;
    }
  })();
  assert.equal(err.code, 'context_not_found');
  const page = await openReplay(bad);
  assert.equal(await status(page), 'error');
  await page.click('#replay');
  await page.waitForFunction(() => document.body.dataset.replay === 'error', null, { timeout: 20000 });
  // Section 1 landed; section 2 failed once section 3 began, and nothing more was pushed.
  assert.deepEqual(
    (await page.evaluate(() => window.landed)).map((l) => l.index),
    [0],
  );
  const pushed = Number(await page.evaluate(() => document.body.dataset.replayPushed));
  assert.ok(pushed < bad.length && pushed > bad.lastIndexOf('@@'), `stopped at the third section's header (${pushed} characters)`);
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), err.code);
  assert.equal(await page.textContent('#error .message'), err.message);
  assert.match(await page.textContent('#status'), /the replay stopped, the patch does not apply \(context_not_found\)/);
  assert.equal(await editorText(page, 'patch'), bad);
  await assertDiagnostic(page, err);
  // Shown as the page shows the failed apply of the same state.
  const { encodeHashPlain } = await import('../../www/state.js');
  const applied = await open(encodeHashPlain({ mode: 'strict', files: example('strict-diff').files, patch: bad, view: 'text' }));
  assert.equal(await page.innerHTML('#error'), await applied.innerHTML('#error'));
  assert.deepEqual(await marks(page, 'input'), await marks(applied, 'input'));
  assert.deepEqual(await marks(page, 'patch'), await marks(applied, 'patch'));
  assert.ok((await marks(page, 'input')).length > 0, 'the input lines the error names are marked');
  await applied.close();
  await page.close();

  // Edit blocks: the first block lands, the second does not match; shown as the failed apply shows it.
  const bx = example('blocks');
  const badBlocks = bx.patch.replace('def total(self):', 'def totals(self):');
  const blocksPage = await open(encodeHashPlain({ mode: 'blocks', files: bx.files, patch: badBlocks, view: 'text' }));
  assert.equal(await status(blocksPage), 'error');
  await blocksPage.click('#replay');
  await blocksPage.waitForFunction(() => document.body.dataset.replay === 'error', null, { timeout: 20000 });
  assert.equal(await blocksPage.evaluate(() => document.body.dataset.replaySections), '1');
  assert.equal(await blocksPage.textContent('#error .code'), 'no_match');
  const blocksApplied = await open(encodeHashPlain({ mode: 'blocks', files: bx.files, patch: badBlocks, view: 'text' }));
  assert.equal(await blocksPage.innerHTML('#error'), await blocksApplied.innerHTML('#error'));
  assert.equal(await blocksPage.innerHTML('#blocks'), await blocksApplied.innerHTML('#blocks'));
  assert.deepEqual(await marks(blocksPage, 'patch'), await marks(blocksApplied, 'patch'));
  await blocksApplied.close();
  await blocksPage.close();
});

browserTest('no page errors and no console errors, on any page', () => {
  assert.deepEqual(pageErrors, []);
});
